// Host MATMUL of bfloat16 on oneDNN's matmul primitive, where the CPU
// multiplies bfloat16 natively (AVX-512 BF16: twice float32's rate on this
// project's CPU, docs/benchmarks.md): float32 accumulation and one rounding
// of C, as PyTorch's CPU bfloat16 matmul (itself oneDNN's) computes it.
// Blocks as gemm_blocks.hpp cuts them, each one single-threaded primitive
// call. A call it cannot take natively (no oneDNN, a CPU without the
// instructions, operand strides oneDNN refuses) is declined before anything
// is written, and the core runs it through float32 (porta/ops.h).
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "host_kernels.hpp"

#ifdef PORTA_HAVE_DNNL
#include "gemm_blocks.hpp"
#include "onednn.hpp"
#include "thread_pool.hpp"

namespace porta::host {
namespace {

using onednn::Memory;

// One block's GEMM: rows x cols of C with inner dimension k, the operands'
// element strides, C's row stride, and the scales.
struct BlockShape {
  int64_t m, n, k, a_rs, a_cs, b_rs, b_cs, ldc;
  uint32_t alpha_bits, beta_bits;
  auto key() const { return std::tie(m, n, k, a_rs, a_cs, b_rs, b_cs, ldc, alpha_bits, beta_bits); }
  bool operator<(const BlockShape& o) const { return key() < o.key(); }
};

// A primitive for one block shape, with its operands' descriptors; null
// when oneDNN refused it or offers only its reference loops.
struct Plan {
  dnnl_primitive_t matmul = nullptr;
  dnnl_memory_desc_t a{}, b{}, c{}, scratch{};
  size_t scratch_bytes = 0;
};

Plan make_plan(const onednn::Functions& d, const BlockShape& s) {
  Plan plan;
  const dnnl_dims_t a_dims = {s.m, s.k}, b_dims = {s.k, s.n}, c_dims = {s.m, s.n};
  const dnnl_dims_t a_strides = {s.a_rs, s.a_cs}, b_strides = {s.b_rs, s.b_cs}, c_strides = {s.ldc, 1};
  if (d.dnnl_memory_desc_init_by_strides(&plan.a, 2, a_dims, dnnl_bf16, a_strides) != dnnl_success ||
      d.dnnl_memory_desc_init_by_strides(&plan.b, 2, b_dims, dnnl_bf16, b_strides) != dnnl_success ||
      d.dnnl_memory_desc_init_by_strides(&plan.c, 2, c_dims, dnnl_bf16, c_strides) != dnnl_success)
    return plan;
  float alpha = 1, beta = 0;
  std::memcpy(&alpha, &s.alpha_bits, sizeof alpha);
  std::memcpy(&beta, &s.beta_bits, sizeof beta);
  dnnl_primitive_attr_t attr = nullptr;
  dnnl_post_ops_t post = nullptr;
  dnnl_matmul_desc_t desc;
  dnnl_primitive_desc_t pd = nullptr;
  bool ok = d.dnnl_primitive_attr_create(&attr) == dnnl_success &&
            d.dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) == dnnl_success;
  // C = alpha (A @ B) + beta C, accumulated in float32 and rounded once.
  if (ok && alpha != 1.0f) ok = d.dnnl_primitive_attr_set_output_scales(attr, 1, 0, &alpha) == dnnl_success;
  if (ok && beta != 0.0f)
    ok = d.dnnl_post_ops_create(&post) == dnnl_success && d.dnnl_post_ops_append_sum(post, beta) == dnnl_success &&
         d.dnnl_primitive_attr_set_post_ops(attr, post) == dnnl_success;
  ok = ok && d.dnnl_matmul_desc_init(&desc, &plan.a, &plan.b, nullptr, &plan.c) == dnnl_success &&
       d.dnnl_primitive_desc_create(&pd, &desc, attr, d.engine, nullptr) == dnnl_success;
  if (post) d.dnnl_post_ops_destroy(post);
  if (attr) d.dnnl_primitive_attr_destroy(attr);
  if (!ok || !pd) return plan;
  if (!onednn::is_reference(d, pd)) {
    plan.scratch = *d.dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
    plan.scratch_bytes = d.dnnl_memory_desc_get_size(&plan.scratch);
    if (d.dnnl_primitive_create(&plan.matmul, pd) != dnnl_success) plan.matmul = nullptr;
  }
  d.dnnl_primitive_desc_destroy(pd);
  return plan;
}

// Plans are made once per block shape and kept, as the convolutions' are
// (conv_direct_kernels.cpp): a process runs a handful of shapes.
const Plan& plan_for(const onednn::Functions& d, const BlockShape& s) {
  static std::mutex mu;
  static auto* plans = new std::map<BlockShape, std::unique_ptr<Plan>>();  // leaked: see conv_direct_kernels.cpp
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<Plan>& p = (*plans)[s];
  if (!p) {
    const onednn::OneOmpThread one;  // the primitive's thread count is fixed now: one thread
    p = std::make_unique<Plan>(make_plan(d, s));
  }
  return *p;
}

// This thread's scratchpad, grown to the largest size asked of it.
void* scratchpad(size_t bytes) {
  thread_local std::vector<unsigned char> buffer;
  if (buffer.size() < bytes) buffer.resize(bytes);
  return buffer.data();
}

porta_status matmul_bf16_kernel(const porta_kernel_call* c) {
  const onednn::Functions* d = onednn::native_bf16() ? onednn::functions() : nullptr;
  if (!d) return report(PORTA_ERROR_NOT_IMPLEMENTED, "bfloat16 matmul: no native path (AVX-512 BF16 and oneDNN)");
  const DLTensor &A = c->inputs[0], &B = c->inputs[1], &C = c->outputs[0];
  double a_scale = 1, b_scale = 0;
  if (!plugin::matmul_scales(c, &a_scale, &b_scale))
    return report(PORTA_ERROR_INVALID_ARGUMENT, "matmul: porta_matmul_params is too small (its struct_size)");
  const int64_t batch = A.shape[0], M = A.shape[1], K = A.shape[2], N = B.shape[2];
  if (K == 0 || batch == 0 || M == 0 || N == 0)
    return report(PORTA_ERROR_NOT_IMPLEMENTED, "bfloat16 matmul: empty operands go through float32");
  const float alpha = static_cast<float>(a_scale), beta = static_cast<float>(b_scale);
  BlockShape shape{0, 0, K, A.strides[1], A.strides[2], B.strides[1], B.strides[2], N, 0, 0};
  std::memcpy(&shape.alpha_bits, &alpha, sizeof alpha);
  std::memcpy(&shape.beta_bits, &beta, sizeof beta);
  const GemmBlocks blocks = gemm_blocks(batch, M, N, K, num_threads());
  // Both plans first, on this thread: a refusal is found before anything is written.
  const Plan* plans[2];
  for (int last = 0; last < 2; ++last) {
    shape.m = blocks.block_m(last), shape.n = blocks.block_n(last);
    plans[last] = &plan_for(*d, shape);
    if (!plans[last]->matmul)
      return report(PORTA_ERROR_NOT_IMPLEMENTED, "bfloat16 matmul: oneDNN has no native kernel for these operands");
  }
  const auto* a_base = data_of<const uint16_t>(A);
  const auto* b_base = data_of<const uint16_t>(B);
  auto* c_base = data_of<uint16_t>(C);
  const bool ok = run_gemm_blocks(blocks, [&](int64_t i, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
    const bool last = blocks.rows ? m1 == M : n1 == N;
    const Plan& p = *plans[last && !blocks.whole ? 1 : 0];
    const onednn::OneOmpThread one;
    Memory a(*d, p.a, const_cast<uint16_t*>(a_base + i * A.strides[0] + m0 * A.strides[1]));
    Memory b(*d, p.b, const_cast<uint16_t*>(b_base + i * B.strides[0] + n0 * B.strides[2]));
    Memory out(*d, p.c, c_base + i * C.strides[0] + m0 * N + n0);
    Memory scratch(*d, p.scratch, scratchpad(p.scratch_bytes));
    return onednn::execute(
        *d, p.matmul,
        {{DNNL_ARG_SRC, a.m}, {DNNL_ARG_WEIGHTS, b.m}, {DNNL_ARG_DST, out.m}, {DNNL_ARG_SCRATCHPAD, scratch.m}});
  });
  // A failure here is past the point of declining: blocks may have been written.
  return ok ? PORTA_OK : report(PORTA_ERROR_BACKEND, "bfloat16 matmul: a oneDNN matmul failed");
}

}  // namespace

porta_kernel_fn find_bf16_matmul_kernel() { return &matmul_bf16_kernel; }

}  // namespace porta::host

#else  // built without oneDNN's headers: bfloat16 matmul goes through float32

namespace porta::host {
porta_kernel_fn find_bf16_matmul_kernel() { return nullptr; }
}  // namespace porta::host

#endif
