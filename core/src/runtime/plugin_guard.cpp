#include "runtime/plugin_guard.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "runtime/error.hpp"
#include "runtime/log.hpp"

namespace porta {
namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
constexpr size_t kSignalCount = sizeof(kFatalSignals) / sizeof(kFatalSignals[0]);

// Written before each call, read by the signal handler: nothing to allocate there.
char g_message[2048];
volatile size_t g_message_length = 0;
struct sigaction g_previous[kSignalCount];

void on_fatal_signal(int sig) {
  const ssize_t ignored = write(STDERR_FILENO, g_message, g_message_length);
  (void)ignored;
  for (size_t i = 0; i < kSignalCount; ++i)
    if (kFatalSignals[i] == sig) sigaction(sig, &g_previous[i], nullptr);
  // Pending until the handler returns, then delivered under the previous
  // disposition: the process dies as it would have, core dump included (a
  // faulting instruction would also fault again).
  raise(sig);
}

// Seconds a call may run before the warning (PORTA_PLUGIN_LOAD_WARN_SECONDS, default 20).
int warn_after_seconds() {
  const char* v = std::getenv("PORTA_PLUGIN_LOAD_WARN_SECONDS");
  const int n = v ? std::atoi(v) : 0;
  return n > 0 ? n : 20;
}

std::string exclusion_hint(const std::string& path) {
  return cat("exclude it with PORTA_DEVICES (the device types that may load, e.g. PORTA_DEVICES=cpu) or remove ",
             path, " from the plugin search path");
}

}  // namespace

// Warns once per step that runs longer than the limit.
struct PluginCallGuard::Watchdog {
  std::mutex mu;
  std::condition_variable cv;
  std::string step;
  uint64_t generation = 0;  // one per step
  bool done = false;
  std::thread thread;

  void run(const std::string& path, int seconds) {
    std::unique_lock<std::mutex> lock(mu);
    while (!done) {
      const uint64_t watched = generation;
      if (cv.wait_for(lock, std::chrono::seconds(seconds), [&] { return done || generation != watched; })) continue;
      const std::string warning =
          cat("plugin ", path, " has been in ", step, " for ", seconds, " s; if it hangs, ", exclusion_hint(path));
      lock.unlock();
      log_line(PORTA_LOG_WARN, warning);
      lock.lock();
      cv.wait(lock, [&] { return done || generation != watched; });
    }
  }
};

PluginCallGuard::PluginCallGuard(std::string path) : path_(std::move(path)), watchdog_(std::make_unique<Watchdog>()) {
  entering("dlopen");
  struct sigaction action {};
  action.sa_handler = on_fatal_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_ONSTACK;
  for (size_t i = 0; i < kSignalCount; ++i) sigaction(kFatalSignals[i], &action, &g_previous[i]);
  watchdog_->thread = std::thread([this, seconds = warn_after_seconds()] { watchdog_->run(path_, seconds); });
}

void PluginCallGuard::entering(const char* step) {
  const std::string message = cat("porta: fatal signal in ", step, " of plugin ", path_,
                                  ": the plugin crashed while Porta loaded it; ", exclusion_hint(path_), "\n");
  g_message_length = 0;
  std::memcpy(g_message, message.data(), std::min(message.size(), sizeof g_message));
  g_message_length = std::min(message.size(), sizeof g_message);
  {
    std::lock_guard<std::mutex> lock(watchdog_->mu);
    watchdog_->step = step;
    ++watchdog_->generation;
  }
  watchdog_->cv.notify_all();
}

PluginCallGuard::~PluginCallGuard() {
  {
    std::lock_guard<std::mutex> lock(watchdog_->mu);
    watchdog_->done = true;
  }
  watchdog_->cv.notify_all();
  watchdog_->thread.join();
  for (size_t i = 0; i < kSignalCount; ++i) sigaction(kFatalSignals[i], &g_previous[i], nullptr);
}

}  // namespace porta
