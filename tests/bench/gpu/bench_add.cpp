// Elementwise add of 256M float32 (porta_add on a cuda device) against the
// bandwidth of a device-to-device copy: add moves 3 x 1 GiB per call (two
// reads, one write), the copy 2 x 1 GiB; the ratio compares bytes per second.
//   porta_bench_gpu_add [device]   (default cuda:0) -> one JSON object
#include <cuda_runtime.h>
#include <porta/porta.h>

#include <cstdio>
#include <cstdlib>

#include "check_status.hpp"
#include "timing.hpp"

using bench::check;

int main(int argc, char** argv) {
  const char* device = argc > 1 ? argv[1] : "cuda:0";
  DLDevice dev{};
  check(porta_device_parse(device, &dev), "device");
  const int64_t n = int64_t{256} << 20;
  const double bytes = 4.0 * static_cast<double>(n);
  porta_tensor *a = nullptr, *b = nullptr;
  check(porta_rand(&n, 1, porta_float32, dev, &a), "rand");
  check(porta_rand(&n, 1, porta_float32, dev, &b), "rand");
  auto sync = [&] { check(porta_synchronize(dev), "synchronize"); };
  const bench::Timing add = bench::time_it(
      [&] {
        porta_tensor* c = nullptr;
        check(porta_add(a, b, &c), "add");
        porta_tensor_release(c);
      },
      sync);

  void *src = nullptr, *dst = nullptr;
  check(porta_tensor_data_ptr(a, &src), "data_ptr");
  if (cudaSetDevice(dev.device_id) != cudaSuccess || cudaMalloc(&dst, static_cast<size_t>(bytes)) != cudaSuccess) {
    std::fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  const bench::Timing copy = bench::time_it(
      [&] { cudaMemcpyAsync(dst, src, static_cast<size_t>(bytes), cudaMemcpyDeviceToDevice, cudaStreamLegacy); },
      [] { cudaDeviceSynchronize(); });
  const double add_gbs = 3 * bytes / add.ms_per_iter / 1e6, copy_gbs = 2 * bytes / copy.ms_per_iter / 1e6;
  std::printf(
      "{\"bench\": \"add_256M_f32\", \"device\": \"%s\", \"porta_ms\": %.4f, \"copy_ms\": %.4f, "
      "\"porta_gbs\": %.1f, \"copy_gbs\": %.1f, \"ratio\": %.4f, \"goal\": 0.85}\n",
      device, add.ms_per_iter, copy.ms_per_iter, add_gbs, copy_gbs, add_gbs / copy_gbs);
  cudaFree(dst);
  porta_tensor_release(a);
  porta_tensor_release(b);
  return 0;
}
