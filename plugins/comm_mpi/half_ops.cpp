#include "half_ops.hpp"

#include <algorithm>
#include <cmath>

#include "half_runs.hpp"

namespace porta::comm_mpi {
namespace {

enum Combine : int { kSum = 0, kProduct = 1, kMax = 2, kMin = 3 };

// Values are widened and narrowed a block at a time, on the stack.
constexpr int kBlock = 256;

void widen(Half kind, const uint16_t* in, float* out, int64_t n) {
  if (kind == Half::Float16)
    host::float16_to_float32_run(in, out, n);
  else
    host::bfloat16_to_float32_run(in, out, n);
}

void narrow(Half kind, const float* in, uint16_t* out, int64_t n) {
  if (kind == Half::Float16)
    host::float32_to_float16_run(in, out, n);
  else
    host::float32_to_bfloat16_run(in, out, n);
}

// MPI's user function: inout[i] = in[i] (combine) inout[i], in float32, rounded back.
template <Half K, Combine C>
void combine(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const uint16_t*>(in);
  auto* b = static_cast<uint16_t*>(inout);
  float x[kBlock], y[kBlock];
  for (int at = 0; at < *len; at += kBlock) {
    const int n = std::min(kBlock, *len - at);
    widen(K, a + at, x, n);
    widen(K, b + at, y, n);
    for (int i = 0; i < n; ++i) {
      if constexpr (C == kSum)
        y[i] = x[i] + y[i];
      else if constexpr (C == kProduct)
        y[i] = x[i] * y[i];
      else if constexpr (C == kMax)
        y[i] = std::isnan(x[i]) || x[i] > y[i] ? x[i] : y[i];
      else
        y[i] = std::isnan(x[i]) || x[i] < y[i] ? x[i] : y[i];
    }
    narrow(K, y, b + at, n);
  }
}

template <Half K>
constexpr MPI_User_function* kFunctions[] = {combine<K, kSum>, combine<K, kProduct>, combine<K, kMax>,
                                             combine<K, kMin>};

}  // namespace

bool HalfOps::init(int* error) {
  if (ops_[0][0] != MPI_OP_NULL) return true;  // made already
  MPI_User_function* const* functions[] = {kFunctions<Half::Float16>, kFunctions<Half::BFloat16>};
  for (int k = 0; k < 2; ++k)
    for (int c = 0; c < kCombines; ++c)
      if (int e = MPI_Op_create(functions[k][c], /*commute=*/1, &ops_[k][c]); e != MPI_SUCCESS) {
        *error = e;
        ops_[k][c] = MPI_OP_NULL;
        finalize();
        return false;
      }
  return true;
}

void HalfOps::finalize() {
  for (auto& row : ops_)
    for (MPI_Op& o : row)
      if (o != MPI_OP_NULL) MPI_Op_free(&o);
}

MPI_Op HalfOps::op(Half kind, porta_reduce_op op) const {
  const MPI_Op* row = ops_[static_cast<int>(kind)];
  switch (op) {
    case PORTA_REDUCE_SUM:
    case PORTA_REDUCE_AVG:
      return row[kSum];
    case PORTA_REDUCE_PROD:
      return row[kProduct];
    case PORTA_REDUCE_MAX:
      return row[kMax];
    case PORTA_REDUCE_MIN:
      return row[kMin];
  }
  return MPI_OP_NULL;
}

void divide_half(Half kind, void* data, int64_t n, int by) {
  auto* p = static_cast<uint16_t*>(data);
  float x[kBlock];
  for (int64_t at = 0; at < n; at += kBlock) {
    const int64_t k = std::min<int64_t>(kBlock, n - at);
    widen(kind, p + at, x, k);
    for (int64_t i = 0; i < k; ++i) x[i] /= static_cast<float>(by);
    narrow(kind, x, p + at, k);
  }
}

}  // namespace porta::comm_mpi
