// oneDNN calls run on one OpenMP thread and leave the calling thread's
// OpenMP setting as they found it (onednn.hpp, OneOmpThread). A convolution
// first planned on a thread at OpenMP's default of 2 used to run on a team
// of 2 ever after, whatever PORTA_NUM_THREADS said, and the kernels left the
// caller's setting at 1.
#include <dirent.h>
#include <dlfcn.h>

#include "kernel_test_util.hpp"
#include "onednn.hpp"
#include "thread_pool.hpp"

namespace porta_test {
namespace {

size_t threads_of_this_process() {
  size_t n = 0;
  if (DIR* d = opendir("/proc/self/task")) {
    while (const dirent* e = readdir(d))
      if (e->d_name[0] != '.') ++n;
    closedir(d);
  }
  return n;
}

TEST(OneDnnThreads, AConvolutionStartsNoOpenMpTeamAndLeavesTheCallersSetting) {
  void* lib = porta::host::onednn::library();
  if (!lib) GTEST_SKIP() << "oneDNN (Debian's libdnnl2) is not installed";
  auto get = reinterpret_cast<int (*)()>(dlsym(lib, "omp_get_max_threads"));
  auto set = reinterpret_cast<void (*)(int)>(dlsym(lib, "omp_set_num_threads"));
  ASSERT_TRUE(get && set);
  const int before_setting = get();
  porta::host::parallel_for(2, 1, [](int64_t, int64_t) {});  // the pool's threads exist before the count
  set(2);
  const size_t before = threads_of_this_process();
  // A shape no other test plans: its primitive is made in this call.
  Tensor<float> x = random_tensor<float>({2, 3, 11, 13}, 1), w = random_tensor<float>({5, 3, 3, 3}, 2);
  Tensor<float> y({2, 5, 11, 13});
  const porta_conv2d_params p{sizeof(porta_conv2d_params), 3, 3, 1, 1, 1, 1, 1, 1, 1};
  const porta_status st = call<float>(PORTA_OP_CONV2D, {x.dl(), w.dl()}, {y.dl()}, &p);
  const int after_setting = get();
  const size_t after = threads_of_this_process();
  set(before_setting);
  if (st == PORTA_ERROR_NOT_IMPLEMENTED) GTEST_SKIP() << "oneDNN declined the convolution: " << last_error();
  ASSERT_EQ(st, PORTA_OK) << last_error();
  EXPECT_EQ(after_setting, 2) << "the caller's OpenMP setting changed";
  EXPECT_EQ(after, before) << "oneDNN started an OpenMP team";
}

}  // namespace
}  // namespace porta_test
