#include "thread_pool.hpp"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "host_kernels.hpp"

namespace porta::host {
namespace {

class Pool {
 public:
  explicit Pool(int threads) : size_(std::max(1, threads)) {
    for (int i = 1; i < size_; ++i) workers_.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_.store(true);
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
  }
  int size() const { return size_; }
  // No thread_local here: LeakSanitizer's scan of a dlopen-ed library's
  // dynamic TLS crashes with the toolchain we test on.
  bool is_worker() const {
    const auto me = std::this_thread::get_id();
    for (const auto& w : workers_)
      if (w.get_id() == me) return true;
    return false;
  }

  void run(int64_t n, int64_t chunk, const std::function<void(int64_t, int64_t)>& fn) {
    std::unique_lock<std::mutex> busy(job_mu_, std::try_to_lock);
    if (!busy.owns_lock() || is_worker()) {  // a job is running (maybe ours): do it here
      fn(0, n);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      fn_ = &fn;
      n_ = n;
      chunk_ = chunk;
      next_.store(0);
      active_.store(size_ - 1);
      generation_.fetch_add(1, std::memory_order_release);  // spinning workers start here
    }
    cv_.notify_all();  // and sleeping ones here
    drain();
    if (!spin_until([this] { return active_.load(std::memory_order_acquire) == 0; })) {
      std::unique_lock<std::mutex> lock(mu_);
      done_cv_.wait(lock, [this] { return active_.load() == 0; });
    }
    fn_ = nullptr;
  }

 private:
  // Polls `ready` for about kSpin (a kernel's gap in a training step is
  // shorter: a worker that slept would take a futex wake-up, tens of
  // microseconds on a virtual machine, per kernel). True once it holds.
  template <class Ready>
  static bool spin_until(Ready ready) {
    constexpr auto kSpin = std::chrono::microseconds(50);
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (;;) {
      for (int i = 0; i < 64; ++i) {
        if (ready()) return true;
        cpu_relax();
      }
      if (std::chrono::steady_clock::now() >= until) return ready();
    }
  }
  static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  void drain() {
    for (;;) {
      const int64_t begin = next_.fetch_add(chunk_);
      if (begin >= n_) return;
      (*fn_)(begin, std::min(n_, begin + chunk_));
    }
  }
  void work() {
    uint64_t seen = 0;
    for (;;) {
      const auto fresh = [&] { return generation_.load(std::memory_order_acquire) != seen; };
      if (!spin_until([&] { return fresh() || stop_.load(); })) {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return stop_.load() || fresh(); });
      }
      if (stop_.load()) return;
      seen = generation_.load(std::memory_order_acquire);
      drain();
      if (active_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> lock(mu_);  // the caller checks active_ under mu_ before it sleeps
        done_cv_.notify_one();
      }
    }
  }

  const int size_;
  std::vector<std::thread> workers_;
  std::mutex job_mu_;  // one job at a time
  std::mutex mu_;      // sleeping and waking; fn_, n_, chunk_ are written under it, then generation_
  std::condition_variable cv_, done_cv_;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> active_{0};
  const std::function<void(int64_t, int64_t)>* fn_ = nullptr;
  int64_t n_ = 0, chunk_ = 1;
  std::atomic<int64_t> next_{0};
};

// Without the core's setting (a core older than plugin ABI 1.2).
int env_threads() {
  static const int n = [] {
    if (const char* v = std::getenv("PORTA_NUM_THREADS")) {
      const int n = std::atoi(v);
      if (n > 0) return n;
    }
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }();
  return n;
}

// The pool of the current size: a change of setting makes a new pool, and
// the old one ends (joining its workers) when the last kernel using it returns.
// A child process forked from this one has none of the workers: it abandons
// the pool (never destroyed: joining threads that do not exist would hang)
// and makes a new one at its first parallel kernel.
std::mutex g_pool_mu;
std::shared_ptr<Pool>* g_pool = nullptr;  // leaked: workers may outlive static teardown

void before_fork() { g_pool_mu.lock(); }
void after_fork_in_parent() { g_pool_mu.unlock(); }
void after_fork_in_child() {
  if (g_pool) new (g_pool) std::shared_ptr<Pool>();  // forget the parent's pool without destroying it
  g_pool_mu.unlock();
}

std::shared_ptr<Pool> pool_of_size(int threads) {
  static const int registered = pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
  (void)registered;
  std::lock_guard<std::mutex> lock(g_pool_mu);
  if (g_pool == nullptr) g_pool = new std::shared_ptr<Pool>();
  if (!*g_pool || (*g_pool)->size() != threads) *g_pool = std::make_shared<Pool>(threads);
  return *g_pool;
}

}  // namespace

int num_threads() {
  const int n = core_num_threads();
  return n > 0 ? n : env_threads();
}

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  const int threads = num_threads();
  if (threads == 1 || n <= grain) {
    fn(0, n);
    return;
  }
  const int64_t chunks = std::min<int64_t>(threads * 4, (n + grain - 1) / grain);
  const int64_t chunk = (n + chunks - 1) / chunks;
  pool_of_size(threads)->run(n, chunk, fn);
}

}  // namespace porta::host
