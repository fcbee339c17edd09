// fork() and Porta. A process may fork while other threads are inside Porta
// (multiprocessing's default start method on Linux, DataLoader workers): the
// child has one thread, so a lock another thread held would never be
// released there. pthread_atfork handlers make the forking thread take
// Porta's locks first, in one order (the .grad lock, runtime/grad_lock.hpp;
// the registry; each device's allocator), and release them in both processes
// afterwards. In the child, each loaded backend that does not declare
// PORTA_PLUGIN_CAP_FORK_SAFE (GPU drivers: their state and threads belong to
// the parent) is marked lost, so its use fails with a clear error instead of
// hanging; host backends go on working (their thread pool is re-created in
// the child, plugins/common).
#include <pthread.h>

#include <new>

#include "runtime/error.hpp"
#include "runtime/grad_lock.hpp"
#include "runtime/registry.hpp"

namespace porta {
namespace {

void before_fork() {
  grad_mutex().lock();
  Registry::undiscovered().lock_for_fork();
}

void after_fork_in_parent() {
  Registry::undiscovered().unlock_after_fork(false);
  grad_mutex().unlock();
}

void after_fork_in_child() {
  Registry::undiscovered().unlock_after_fork(true);
  grad_mutex().unlock();
}

}  // namespace

void install_fork_handlers() { pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child); }

void Registry::lock_for_fork() {
  mu_.lock();
  for (auto& b : backends_)
    for (auto& d : b->devices) d->allocator->lock_for_fork();
}

void Registry::unlock_after_fork(bool in_child) {
  for (auto it = backends_.rbegin(); it != backends_.rend(); ++it) {
    Backend& b = **it;
    for (auto d = b.devices.rbegin(); d != b.devices.rend(); ++d) (*d)->allocator->unlock_after_fork();
    if (in_child && !(b.api.capabilities & PORTA_PLUGIN_CAP_FORK_SAFE))
      b.lost_to_fork.store(true, std::memory_order_relaxed);
  }
  if (in_child)
    new (&mu_) std::recursive_mutex();  // glibc ties a recursive lock to the parent's thread id: unlock would fail
  else
    mu_.unlock();
}

void fail_lost_to_fork(const std::string& device) {
  fail(PORTA_ERROR_BACKEND, device, " cannot be used in this process: it was forked (fork() without exec) after ",
       "its plugin initialized in the parent, and that backend does not survive fork (its driver's state belongs "
       "to the parent). Start child processes with 'spawn' (multiprocessing.set_start_method('spawn'), or "
       "DataLoader(multiprocessing_context='spawn')), or use this device only in processes that did not inherit it");
}

}  // namespace porta
