// GEMM 4096 x 4096 x 4096 through Porta (porta_matmul on a cuda device)
// against cuBLAS called directly on the same matrices, one JSON line each:
//   sgemm_4096      float32, TF32 off (cublasSgemm)
//   bf16_gemm_4096  bfloat16 (cublasGemmEx, CUDA_R_16BF, CUBLAS_COMPUTE_32F)
//   fp16_gemm_4096  float16  (cublasGemmEx, CUDA_R_16F, CUBLAS_COMPUTE_32F)
//   porta_bench_gpu_gemm [device]   (default cuda:0)
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <porta/porta.h>

#include <cstdio>
#include <cstdlib>

#include "check_status.hpp"
#include "timing.hpp"

using bench::check;

namespace {

constexpr int kN = 4096;

void fail(const char* what) {
  std::fprintf(stderr, "%s failed\n", what);
  std::exit(1);
}

// C^T = B^T A^T in column-major terms, on row-major A, B, C.
void cublas_gemm(cublasHandle_t h, DLDataType dt, const void* a, const void* b, void* c) {
  const float one = 1, zero = 0;
  cublasStatus_t s;
  if (dt.code == kDLFloat && dt.bits == 32) {
    s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, kN, kN, kN, &one, static_cast<const float*>(b), kN,
                    static_cast<const float*>(a), kN, &zero, static_cast<float*>(c), kN);
  } else {
    const cudaDataType_t t = dt.code == kDLBfloat ? CUDA_R_16BF : CUDA_R_16F;
    s = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, kN, kN, kN, &one, b, t, kN, a, t, kN, &zero, c, t, kN,
                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  }
  if (s != CUBLAS_STATUS_SUCCESS) fail("cuBLAS GEMM");
}

void run(const char* device, DLDevice dev, cublasHandle_t h, DLDataType dt, const char* name) {
  const int64_t shape[] = {kN, kN};
  porta_tensor *a32 = nullptr, *b32 = nullptr, *a = nullptr, *b = nullptr;
  check(porta_rand(shape, 2, porta_float32, dev, &a32), "rand");
  check(porta_rand(shape, 2, porta_float32, dev, &b32), "rand");
  check(porta_cast(a32, dt, &a), "cast");
  check(porta_cast(b32, dt, &b), "cast");
  auto sync = [&] { check(porta_synchronize(dev), "synchronize"); };
  const bench::Timing porta = bench::time_it(
      [&] {
        porta_tensor* c = nullptr;
        check(porta_matmul(a, b, &c), "matmul");
        porta_tensor_release(c);
      },
      sync);

  void *pa = nullptr, *pb = nullptr, *pc = nullptr;
  check(porta_tensor_data_ptr(a, &pa), "data_ptr");
  check(porta_tensor_data_ptr(b, &pb), "data_ptr");
  if (cudaMalloc(&pc, size_t(dt.bits / 8) * kN * kN) != cudaSuccess) fail("cudaMalloc");
  const bench::Timing cublas = bench::time_it([&] { cublas_gemm(h, dt, pa, pb, pc); }, [] { cudaDeviceSynchronize(); });
  const double flop = 2.0 * kN * kN * kN;
  std::printf(
      "{\"bench\": \"%s\", \"device\": \"%s\", \"porta_ms\": %.4f, \"cublas_ms\": %.4f, "
      "\"porta_tflops\": %.2f, \"cublas_tflops\": %.2f, \"ratio\": %.4f, \"goal\": 0.95}\n",
      name, device, porta.ms_per_iter, cublas.ms_per_iter, flop / porta.ms_per_iter / 1e9,
      flop / cublas.ms_per_iter / 1e9, cublas.ms_per_iter / porta.ms_per_iter);
  std::fflush(stdout);
  cudaFree(pc);
  for (porta_tensor* t : {a32, b32, a, b}) porta_tensor_release(t);
}

}  // namespace

int main(int argc, char** argv) {
  const char* device = argc > 1 ? argv[1] : "cuda:0";
  DLDevice dev{};
  check(porta_device_parse(device, &dev), "device");
  if (cudaSetDevice(dev.device_id) != cudaSuccess) fail("cudaSetDevice");
  cublasHandle_t h = nullptr;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS || cublasSetMathMode(h, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS)
    fail("cublasCreate");
  run(device, dev, h, porta_float32, "sgemm_4096");
  run(device, dev, h, porta_bfloat16, "bf16_gemm_4096");
  run(device, dev, h, porta_float16, "fp16_gemm_4096");
  cublasDestroy(h);
  return 0;
}
