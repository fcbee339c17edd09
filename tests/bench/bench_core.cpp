// Core benchmarks, each beside its baseline in the same run:
//   dispatch overhead of a 1-element add through the C API;
//   sgemm through Porta vs OpenBLAS called directly (goal >= 0.95x);
//   bfloat16 GEMM through Porta (oneDNN's, native on AVX-512 BF16) and
//   float16 GEMM (float32 GEMM of the widened operands, rounded once) vs
//   Porta's sgemm (goal >= 0.95x of its time);
//   add of 16M floats vs memcpy bandwidth (goal >= 0.8x).
// tests/bench/report.py turns the JSON output into the ratio table.
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <porta/porta.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

DLDevice cpu() {
  DLDevice d{};
  if (porta_device_parse("cpu", &d) != PORTA_OK) std::abort();
  return d;
}

porta_tensor* filled(std::vector<int64_t> shape, float v, DLDataType dtype = porta_float32) {
  porta_tensor* t = nullptr;
  if (porta_full(shape.data(), static_cast<int32_t>(shape.size()), v, dtype, cpu(), &t) != PORTA_OK) std::abort();
  return t;
}

void BM_Dispatch_Add1(benchmark::State& state) {
  porta_tensor* a = filled({1}, 1.0f);
  porta_tensor* b = filled({1}, 2.0f);
  for (auto _ : state) {
    porta_tensor* c = nullptr;
    porta_add(a, b, &c);
    porta_tensor_release(c);
  }
  porta_tensor_release(a);
  porta_tensor_release(b);
}
BENCHMARK(BM_Dispatch_Add1);

void BM_Sgemm_Porta(benchmark::State& state) {
  const int64_t n = state.range(0);
  porta_tensor* a = filled({n, n}, 0.5f);
  porta_tensor* b = filled({n, n}, 0.25f);
  for (auto _ : state) {
    porta_tensor* c = nullptr;
    if (porta_matmul(a, b, &c) != PORTA_OK) std::abort();
    porta_tensor_release(c);
  }
  state.counters["GFLOPS"] = benchmark::Counter(2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate,
                                                benchmark::Counter::kIs1000);
  porta_tensor_release(a);
  porta_tensor_release(b);
}
BENCHMARK(BM_Sgemm_Porta)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

void gemm_in(benchmark::State& state, DLDataType dtype) {
  const int64_t n = state.range(0);
  porta_tensor* a = filled({n, n}, 0.5f, dtype);
  porta_tensor* b = filled({n, n}, 0.25f, dtype);
  for (auto _ : state) {
    porta_tensor* c = nullptr;
    if (porta_matmul(a, b, &c) != PORTA_OK) std::abort();
    porta_tensor_release(c);
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
  porta_tensor_release(a);
  porta_tensor_release(b);
}
void BM_Gemm_Porta_BFloat16(benchmark::State& state) { gemm_in(state, porta_bfloat16); }
void BM_Gemm_Porta_Float16(benchmark::State& state) { gemm_in(state, porta_float16); }
BENCHMARK(BM_Gemm_Porta_BFloat16)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Gemm_Porta_Float16)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Sgemm_OpenBLAS(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> a(n * n, 0.5f), b(n * n, 0.25f), c(n * n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOPS"] = benchmark::Counter(2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate,
                                                benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Sgemm_OpenBLAS)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

constexpr int64_t kBig = 16 << 20;  // 16M floats = 64 MiB

// Bandwidth counts bytes read plus bytes written.
void BM_Add16M_Porta(benchmark::State& state) {
  porta_tensor* a = filled({kBig}, 1.0f);
  porta_tensor* b = filled({kBig}, 2.0f);
  for (auto _ : state) {
    porta_tensor* c = nullptr;
    if (porta_add(a, b, &c) != PORTA_OK) std::abort();
    porta_tensor_release(c);
  }
  state.SetBytesProcessed(state.iterations() * 3 * kBig * sizeof(float));
  porta_tensor_release(a);
  porta_tensor_release(b);
}
BENCHMARK(BM_Add16M_Porta)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Memcpy64MiB(benchmark::State& state) {
  std::vector<float> src(kBig, 1.0f), dst(kBig);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), kBig * sizeof(float));
    benchmark::DoNotOptimize(dst.data());
  }
  state.SetBytesProcessed(state.iterations() * 2 * kBig * sizeof(float));
}
BENCHMARK(BM_Memcpy64MiB)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
