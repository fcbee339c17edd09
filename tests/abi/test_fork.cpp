// fork() after Porta has run: the child goes on using host devices (the
// thread pool is re-created; no lock another thread held stays locked) and
// gets a clear error, not a hang, from a backend that does not survive fork.
// Each case runs in a fresh process that then forks grandchildren.
#include <gtest/gtest.h>
#include <porta/porta.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "../support/fresh_process.hpp"

namespace {

using porta_test::in_fresh_process;

// Sums 2^20 ones on `dev`: "" when the answer is right, else what happened.
std::string parallel_sum(DLDevice dev) {
  const int64_t shape[1] = {1 << 20};
  porta_tensor *t = nullptr, *s = nullptr;
  if (porta_full(shape, 1, 1.0, porta_float32, dev, &t) != PORTA_OK) return porta_last_error();
  const porta_status st = porta_sum(t, nullptr, 0, 0, &s);
  porta_tensor_release(t);
  if (st != PORTA_OK) return porta_last_error();
  float v = 0;
  porta_tensor_to_host(s, &v, sizeof v);
  porta_tensor_release(s);
  return v == float(1 << 20) ? "" : "sum was " + std::to_string(v);
}

// Runs `body` in a forked child with a 30 s alarm; "" when it exited 0, else why not.
template <typename Body>
std::string in_forked_child(Body body) {
  const pid_t pid = fork();
  if (pid == 0) {
    alarm(30);  // a hang becomes SIGALRM
    _exit(body() ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) return "the forked child died of signal " + std::to_string(WTERMSIG(status));
  return WEXITSTATUS(status) == 0 ? "" : "the forked child failed";
}

TEST(Fork, AForkedChildKeepsUsingTheCpuWhileAnotherThreadWasInPorta) {
  EXPECT_EQ(in_fresh_process([] {
              setenv("PORTA_PLUGIN_PATH", PORTA_TEST_MOCK_PLUGIN_DIR, 1);
              CHILD_REQUIRE(porta_set_num_threads(2) == PORTA_OK, porta_last_error());
              const DLDevice cpu{kDLCPU, 0};
              DLDevice mock{};
              CHILD_REQUIRE(porta_device_parse("mock:0", &mock) == PORTA_OK, porta_last_error());
              CHILD_REQUIRE(parallel_sum(cpu).empty(), parallel_sum(cpu));  // the pool's workers exist now
              std::atomic<bool> stop{false};
              std::thread busy([&] {  // allocating, launching and freeing while the main thread forks
                while (!stop) {
                  parallel_sum(cpu);
                  parallel_sum(mock);
                }
              });
              std::string failure;
              for (int i = 0; i < 20 && failure.empty(); ++i)
                failure = in_forked_child([&] { return parallel_sum(cpu).empty() && parallel_sum(mock).empty(); });
              stop = true;
              busy.join();
              return failure;
            }),
            "");
}

TEST(Fork, ABackendThatDoesNotSurviveForkFailsClearlyInTheChild) {
  EXPECT_EQ(in_fresh_process([] {
              setenv("PORTA_PLUGIN_PATH", PORTA_TEST_ABI_PLUGIN_DIR "/libporta_plugin_old_minor.so", 1);
              DLDevice d{};
              CHILD_REQUIRE(porta_device_parse("old_minor:0", &d) == PORTA_OK, porta_last_error());
              const int64_t shape[1] = {4};
              porta_tensor* t = nullptr;
              CHILD_REQUIRE(porta_full(shape, 1, 1.0, porta_float32, d, &t) == PORTA_OK, porta_last_error());
              return in_forked_child([&] {
                porta_tensor* u = nullptr;
                const bool refused = porta_full(shape, 1, 1.0, porta_float32, d, &u) == PORTA_ERROR_BACKEND;
                const std::string e = porta_last_error();
                float host[4];
                const bool read_refused = porta_tensor_to_host(t, host, sizeof host) == PORTA_ERROR_BACKEND;
                const bool says_why = e.find("old_minor:0 cannot be used in this process: it was forked") == 0 &&
                                      e.find("'spawn'") != std::string::npos;
                if (!(refused && read_refused && says_why)) fprintf(stderr, "child: %s\n", e.c_str());
                return refused && read_refused && says_why && parallel_sum(DLDevice{kDLCPU, 0}).empty();
              });
            }),
            "");
}

}  // namespace
