// sgemm 4096 x 4096 x 4096 (float32, TF32 off) through Porta (porta_matmul on
// a cuda device) against cuBLAS called directly on the same matrices.
//   porta_bench_gpu_sgemm [device]   (default cuda:0) -> one JSON object
#include <cublas_v2.h>
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
  const int64_t n = 4096;
  const int64_t shape[] = {n, n};
  porta_tensor *a = nullptr, *b = nullptr;
  check(porta_rand(shape, 2, porta_float32, dev, &a), "rand");
  check(porta_rand(shape, 2, porta_float32, dev, &b), "rand");
  auto sync = [&] { check(porta_synchronize(dev), "synchronize"); };

  const bench::Timing porta = bench::time_it(
      [&] {
        porta_tensor* c = nullptr;
        check(porta_matmul(a, b, &c), "matmul");
        porta_tensor_release(c);
      },
      sync);

  // cuBLAS on the same device memory: C^T = B^T A^T in column-major terms.
  void *pa = nullptr, *pb = nullptr;
  check(porta_tensor_data_ptr(a, &pa), "data_ptr");
  check(porta_tensor_data_ptr(b, &pb), "data_ptr");
  float* pc = nullptr;
  if (cudaSetDevice(dev.device_id) != cudaSuccess || cudaMalloc(&pc, sizeof(float) * n * n) != cudaSuccess) {
    std::fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  cublasHandle_t h = nullptr;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS || cublasSetMathMode(h, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasCreate failed\n");
    return 1;
  }
  const float one = 1, zero = 0;
  const bench::Timing cublas = bench::time_it(
      [&] {
        cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, static_cast<const float*>(pb), n,
                    static_cast<const float*>(pa), n, &zero, pc, n);
      },
      [] { cudaDeviceSynchronize(); });
  const double flop = 2.0 * n * n * n;
  std::printf(
      "{\"bench\": \"sgemm_4096\", \"device\": \"%s\", \"porta_ms\": %.4f, \"cublas_ms\": %.4f, "
      "\"porta_tflops\": %.2f, \"cublas_tflops\": %.2f, \"ratio\": %.4f, \"goal\": 0.95}\n",
      device, porta.ms_per_iter, cublas.ms_per_iter, flop / porta.ms_per_iter / 1e9, flop / cublas.ms_per_iter / 1e9,
      cublas.ms_per_iter / porta.ms_per_iter);
  cublasDestroy(h);
  cudaFree(pc);
  porta_tensor_release(a);
  porta_tensor_release(b);
  return 0;
}
