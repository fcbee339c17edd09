// MATMUL kind through CLBlast: C[b] = alpha A[b] @ B[b] + beta C[b] with A,
// B row-major or transposed and batch strides that may be 0; C contiguous.
#include <clblast_c.h>

#include <algorithm>

#include "ops.hpp"

namespace porta::opencl {
namespace {

// One operand matrix in CLBlast's terms.
struct Matrix {
  CLBlastTranspose trans;
  size_t ld;
  size_t batch_stride;
};

// rows x cols matrix with strides s (batch, row, column). Row-major when
// the column stride is 1, else transposed (row stride 1). A leading
// dimension below the minimum only happens for a single row (column) and is
// then irrelevant, so it is raised to the minimum CLBlast accepts.
Matrix matrix(const DLTensor& t, int64_t rows, int64_t cols) {
  if (t.strides[2] == 1)
    return {CLBlastTransposeNo, static_cast<size_t>(std::max(t.strides[1], cols)), static_cast<size_t>(t.strides[0])};
  return {CLBlastTransposeYes, static_cast<size_t>(std::max(t.strides[2], rows)), static_cast<size_t>(t.strides[0])};
}

std::string clblast_error(CLBlastStatusCode s) {
  switch (s) {
    case CLBlastNotImplemented:
      return "CLBlastNotImplemented";
    case CLBlastInvalidMatrixA:
      return "CLBlastInvalidMatrixA";
    case CLBlastInvalidMatrixB:
      return "CLBlastInvalidMatrixB";
    case CLBlastInvalidMatrixC:
      return "CLBlastInvalidMatrixC";
    case CLBlastInvalidDimension:
      return "CLBlastInvalidDimension";
    case CLBlastInvalidLeadDimA:
      return "CLBlastInvalidLeadDimA";
    case CLBlastInvalidLeadDimB:
      return "CLBlastInvalidLeadDimB";
    case CLBlastInvalidLeadDimC:
      return "CLBlastInvalidLeadDimC";
    case CLBlastInsufficientMemoryA:
      return "CLBlastInsufficientMemoryA";
    case CLBlastInsufficientMemoryB:
      return "CLBlastInsufficientMemoryB";
    case CLBlastInsufficientMemoryC:
      return "CLBlastInsufficientMemoryC";
    case CLBlastInvalidBatchCount:
      return "CLBlastInvalidBatchCount";
    case CLBlastInvalidLocalMemUsage:
      return "CLBlastInvalidLocalMemUsage";
    case CLBlastNoHalfPrecision:
      return "CLBlastNoHalfPrecision";
    case CLBlastNoDoublePrecision:
      return "CLBlastNoDoublePrecision";
    case CLBlastUnknownError:
      return "CLBlastUnknownError";
    default:
      return cl_error_name(static_cast<cl_int>(s));  // OpenCL errors pass through unchanged
  }
}

// CLBlast ships no tuning for PoCL's CPU devices, and its defaults reach a
// tenth of what these do (sgemm 1024: 7 -> 70-110 GFLOP/s on 2 AVX-512
// cores, PoCL 3.1): Xgemm parameters found by timing candidates, and the
// tuned kernel used from 128^3 multiply-adds on instead of the direct one.
void tune_for_pocl_cpu(const Device& dev) {
  if (!(dev.type & CL_DEVICE_TYPE_CPU) || dev.platform_name.find("Portable Computing Language") == std::string::npos)
    return;
  const char* names[] = {"GEMMK", "KREG", "KWG", "KWI", "MDIMA", "MDIMC", "MWG", "NDIMB",
                         "NDIMC", "NWG",  "SA",  "SB",  "STRM",  "STRN",  "VWM", "VWN"};
  const size_t values[] = {0, 1, 16, 2, 8, 4, 64, 8, 4, 64, 0, 0, 0, 0, 8, 8};
  const char* routine[] = {"XGEMM_MIN_INDIRECT_SIZE"};
  const size_t min_indirect[] = {128};
  if (CLBlastOverrideParameters(dev.id, "Xgemm", CLBlastPrecisionSingle, 16, names, values) != CLBlastSuccess ||
      CLBlastOverrideParameters(dev.id, "GemmRoutine", CLBlastPrecisionSingle, 1, routine, min_indirect) !=
          CLBlastSuccess)
    log(PORTA_LOG_WARN, "CLBlast refused the sgemm tuning for " + dev.name + "; using its defaults");
}

porta_status check(CLBlastStatusCode s, const char* routine) {
  if (s == CLBlastSuccess) return PORTA_OK;
  const porta_status st =
      (s == CLBlastInsufficientMemoryA || s == CLBlastInsufficientMemoryB || s == CLBlastInsufficientMemoryC)
          ? PORTA_ERROR_BACKEND
          : cl_status(static_cast<cl_int>(s));
  return report(st, std::string(routine) + " failed: " + clblast_error(s));
}

template <class T>
porta_status gemm(cl_command_queue queue, const porta_kernel_call* c, T alpha, T beta) {
  constexpr bool f32 = sizeof(T) == 4;
  const DLTensor &A = c->inputs[0], &B = c->inputs[1], &C = c->outputs[0];
  const int64_t batch = A.shape[0], M = A.shape[1], K = A.shape[2], N = B.shape[2];
  Operand a, b, out;
  if (const porta_status st = operand(A, "matmul", &a); st != PORTA_OK) return st;
  if (const porta_status st = operand(B, "matmul", &b); st != PORTA_OK) return st;
  if (const porta_status st = operand(C, "matmul", &out); st != PORTA_OK) return st;
  const size_t co = static_cast<size_t>(out.offset), count = static_cast<size_t>(batch * M * N);
  if (K == 0) {  // no products: C = beta C (CLBlast refuses k = 0)
    if (beta == T(0)) {
      const T zero = 0;
      const cl_int err =
          clEnqueueFillBuffer(queue, out.mem, &zero, sizeof(T), co * sizeof(T), count * sizeof(T), 0, nullptr, nullptr);
      return err == CL_SUCCESS ? PORTA_OK : report_cl("clEnqueueFillBuffer", err, "matmul");
    }
    if constexpr (f32)
      return check(CLBlastSscal(count, beta, out.mem, co, 1, &queue, nullptr), "CLBlastSscal");
    else
      return check(CLBlastDscal(count, beta, out.mem, co, 1, &queue, nullptr), "CLBlastDscal");
  }
  const Matrix ma = matrix(A, M, K), mb = matrix(B, K, N);
  const size_t ao = static_cast<size_t>(a.offset), bo = static_cast<size_t>(b.offset);
  // One shared B and evenly spaced row-major A rows: the batch is one tall GEMM.
  const bool fold = batch > 1 && mb.batch_stride == 0 && ma.trans == CLBlastTransposeNo &&
                    ma.batch_stride == static_cast<size_t>(M) * ma.ld;
  const size_t rows = static_cast<size_t>(fold ? batch * M : M);
  if (batch == 1 || fold) {
    if constexpr (f32)
      return check(CLBlastSgemm(CLBlastLayoutRowMajor, ma.trans, mb.trans, rows, N, K, alpha, a.mem, ao, ma.ld, b.mem,
                                bo, mb.ld, beta, out.mem, co, N, &queue, nullptr),
                   "CLBlastSgemm");
    else
      return check(CLBlastDgemm(CLBlastLayoutRowMajor, ma.trans, mb.trans, rows, N, K, alpha, a.mem, ao, ma.ld, b.mem,
                                bo, mb.ld, beta, out.mem, co, N, &queue, nullptr),
                   "CLBlastDgemm");
  }
  const size_t cs = static_cast<size_t>(M * N);
  if constexpr (f32)
    return check(CLBlastSgemmStridedBatched(CLBlastLayoutRowMajor, ma.trans, mb.trans, M, N, K, alpha, a.mem, ao, ma.ld,
                                            ma.batch_stride, b.mem, bo, mb.ld, mb.batch_stride, beta, out.mem, co, N,
                                            cs, batch, &queue, nullptr),
                 "CLBlastSgemmStridedBatched");
  else
    return check(CLBlastDgemmStridedBatched(CLBlastLayoutRowMajor, ma.trans, mb.trans, M, N, K, alpha, a.mem, ao, ma.ld,
                                            ma.batch_stride, b.mem, bo, mb.ld, mb.batch_stride, beta, out.mem, co, N,
                                            cs, batch, &queue, nullptr),
                 "CLBlastDgemmStridedBatched");
}

}  // namespace

porta_status run_matmul(uint32_t op, int dt, const porta_kernel_call* c) {
  OpCall call;
  if (const porta_status st = begin(c, Family::Elementwise, dt, "", &call); st != PORTA_OK) return st;
  std::call_once(call.dev->gemm_tuning, [&] { tune_for_pocl_cpu(*call.dev); });
  if (dt == kDtFloat64 && !call.dev->fp64)
    return report(PORTA_ERROR_UNSUPPORTED_DTYPE,
                  "matmul: float64 needs cl_khr_fp64, which " + call.dev->name + " lacks");
  const DLTensor &A = c->inputs[0], &B = c->inputs[1];
  if (A.ndim != 3 || B.ndim != 3 || c->outputs[0].ndim != 3)
    return report(PORTA_ERROR_INVALID_ARGUMENT, "matmul: expected 3-D [batch, M, K] @ [batch, K, N] operands");
  double alpha = 1, beta = 0;
  if (!plugin::matmul_scales(c, &alpha, &beta))
    return report(PORTA_ERROR_INVALID_ARGUMENT, "matmul: porta_matmul_params is too small (its struct_size)");
  const porta_status st = dt == kDtFloat32 ? gemm<float>(call.queue, c, static_cast<float>(alpha), static_cast<float>(beta))
                                  : gemm<double>(call.queue, c, alpha, beta);
  // CLBlast's kernels compile on first launch too (device.hpp): wait for them.
  if (st == PORTA_OK && call.dev->lazy_compiler)
    if (const cl_int err = clFinish(call.queue); err != CL_SUCCESS) return report_cl("clFinish", err, "matmul");
  return st;
}

}  // namespace porta::opencl
