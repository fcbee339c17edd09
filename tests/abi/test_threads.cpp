// porta_set_num_threads / porta_get_num_threads: the default honours
// PORTA_NUM_THREADS, then OMP_NUM_THREADS; a change reaches the cpu plugin's
// pool (and OpenBLAS) at its next kernel. Fresh processes.
#include <dirent.h>
#include <gtest/gtest.h>
#include <porta/porta.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "../support/fresh_process.hpp"

namespace {

using porta_test::in_fresh_process;

std::string threads_with_env(const char* porta, const char* omp) {
  return in_fresh_process([=] {
    porta ? setenv("PORTA_NUM_THREADS", porta, 1) : unsetenv("PORTA_NUM_THREADS");
    omp ? setenv("OMP_NUM_THREADS", omp, 1) : unsetenv("OMP_NUM_THREADS");
    int32_t n = -1;
    CHILD_REQUIRE(porta_get_num_threads(&n) == PORTA_OK, porta_last_error());
    return std::to_string(n);
  });
}

TEST(Threads, TheDefaultHonoursPortaThenOmp) {
  EXPECT_EQ(threads_with_env("3", "5"), "3");
  EXPECT_EQ(threads_with_env(nullptr, "5"), "5");
  EXPECT_EQ(threads_with_env(nullptr, "6,2"), "6");  // nested OpenMP: the outer level
  EXPECT_EQ(threads_with_env("0", "4"), "4");        // not a thread count: warned about and ignored
  EXPECT_NE(threads_with_env(nullptr, nullptr), "0");
}

int process_threads() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/task")) {
    while (dirent* e = readdir(d)) n += e->d_name[0] != '.';
    closedir(d);
  }
  return n;
}

// Sums 2^20 ones on cpu (a parallel reduction): "" when the answer is right.
std::string parallel_sum() {
  const int64_t shape[1] = {1 << 20};
  porta_tensor *t = nullptr, *s = nullptr;
  if (porta_full(shape, 1, 1.0, porta_float32, DLDevice{kDLCPU, 0}, &t) != PORTA_OK) return porta_last_error();
  if (porta_sum(t, nullptr, 0, 0, &s) != PORTA_OK) return porta_last_error();
  float v = 0;
  porta_tensor_to_host(s, &v, sizeof v);
  porta_tensor_release(s);
  porta_tensor_release(t);
  return v == float(1 << 20) ? "" : "sum was " + std::to_string(v);
}

TEST(Threads, ASettingReachesTheCpuPlugin) {
  EXPECT_EQ(in_fresh_process([] {
              CHILD_REQUIRE(porta_set_num_threads(1) == PORTA_OK, porta_last_error());
              CHILD_REQUIRE(parallel_sum().empty(), parallel_sum());
              const int single = process_threads();
              CHILD_REQUIRE(porta_set_num_threads(4) == PORTA_OK, porta_last_error());
              int32_t n = 0;
              porta_get_num_threads(&n);
              CHILD_REQUIRE(n == 4, "get_num_threads gave " + std::to_string(n));
              CHILD_REQUIRE(parallel_sum().empty(), parallel_sum());
              const int four = process_threads();
              CHILD_REQUIRE(four >= single + 3, "threads: " + std::to_string(single) + " with 1, " + std::to_string(four) +
                                              " with 4 (the pool did not grow)");
              porta_device_info info{};
              info.struct_size = sizeof info;
              CHILD_REQUIRE(porta_device_get_info(DLDevice{kDLCPU, 0}, &info) == PORTA_OK, porta_last_error());
              CHILD_REQUIRE(info.compute_units == 4, "cpu compute_units " + std::to_string(info.compute_units));
              CHILD_REQUIRE(porta_set_num_threads(0) == PORTA_ERROR_INVALID_ARGUMENT, "0 threads accepted");
              CHILD_REQUIRE(porta_set_num_threads(-3) == PORTA_ERROR_INVALID_ARGUMENT, "-3 threads accepted");
              return std::string();
            }),
            "");
}

}  // namespace
