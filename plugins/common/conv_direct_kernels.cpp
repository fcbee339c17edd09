// Host kernels of the CONV kind's direct convolution (CONV2D,
// CONV2D_BACKWARD_INPUT, CONV2D_BACKWARD_WEIGHT; float32, and bfloat16 where
// the CPU multiplies it natively) on oneDNN's convolution primitives, as
// PyTorch's CPU convolution runs. bfloat16 accumulates in float32 and rounds
// each result once (the weight gradient's parts are summed in float32 first). oneDNN picks
// its blocked layouts (nChw16c, ...); the operands are reordered into them
// and the result back. The batch is cut into a part per thread of Porta's
// pool, each part one single-threaded oneDNN call (its OpenMP threads would
// spin against the pool), the weight gradient's parts summed. A call oneDNN
// cannot take (the library missing, or only its reference implementation
// for the shape) returns PORTA_ERROR_NOT_IMPLEMENTED, which the core lowers
// to IM2COL + GEMM instead (ops.h, PORTA_OP_KIND_CONV); a bfloat16 one the
// core runs through the float32 kernel first (ops.h, porta_op_dtypes).
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "host_kernels.hpp"

#ifdef PORTA_HAVE_DNNL
#include "half_runs.hpp"
#include "onednn.hpp"
#include "thread_pool.hpp"

namespace porta::host {
namespace {

using Dnnl = onednn::Functions;
using onednn::execute;
using onednn::Memory;

const Dnnl* dnnl() { return onednn::functions(); }

// The three operands by role: the input x, the weight w, the output y (of
// the forward convolution; the backward ops read or write their gradients).
enum Role { kX, kW, kY, kRoles };

// One convolution as oneDNN runs it for one batch part: the primitive, each
// operand's plain layout (nchw, oihw or goihw) and the primitive's own, the
// reorders between them (null where the layouts agree) and the scratchpad.
struct Plan {
  dnnl_primitive_t conv = nullptr;
  dnnl_memory_desc_t plain[kRoles] = {}, chosen[kRoles] = {};
  dnnl_primitive_t to_chosen[kRoles] = {}, to_plain[kRoles] = {};
  size_t chosen_bytes[kRoles] = {};
  dnnl_memory_desc_t scratch = {};
  size_t scratch_bytes = 0;
  bool usable = false;  // false: oneDNN refused it or offers only a reference implementation
};

using PlanKey = std::tuple<uint32_t, int, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                           int64_t, int64_t, int64_t, int64_t, int64_t, int64_t>;

struct Geometry {
  int64_t n, c, h, w, f, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw, g;
};

// A reorder primitive from `from` to `to`, or null when oneDNN refuses.
dnnl_primitive_t reorder(const Dnnl& d, const dnnl_memory_desc_t& from, const dnnl_memory_desc_t& to) {
  dnnl_primitive_desc_t pd = nullptr;
  dnnl_primitive_t p = nullptr;
  if (d.dnnl_reorder_primitive_desc_create(&pd, &from, d.engine, &to, d.engine, nullptr) == dnnl_success)
    d.dnnl_primitive_create(&p, pd);
  if (pd) d.dnnl_primitive_desc_destroy(pd);
  return p;
}

// The element type of each role's operand: `dt` but for a bfloat16 weight
// gradient, whose parts are float32 (summed, then rounded once).
void role_types(uint32_t op, dnnl_data_type_t dt, dnnl_data_type_t out[kRoles]) {
  out[kX] = out[kY] = dt;
  out[kW] = op == PORTA_OP_CONV2D_BACKWARD_WEIGHT ? dnnl_f32 : dt;
}

// Builds the plan of op for geometry g (g.n: the part's batch) in element type dt.
Plan make_plan(const Dnnl& d, uint32_t op, const Geometry& g, dnnl_data_type_t dt) {
  Plan plan;
  const dnnl_dims_t x_dims = {g.n, g.c, g.h, g.w}, y_dims = {g.n, g.f, g.oh, g.ow};
  const dnnl_dims_t w_dims = {g.f, g.c / g.g, g.kh, g.kw}, gw_dims = {g.g, g.f / g.g, g.c / g.g, g.kh, g.kw};
  const dnnl_dims_t strides = {g.sh, g.sw}, dilates = {g.dh - 1, g.dw - 1}, pad = {g.ph, g.pw};
  dnnl_memory_desc_t any[kRoles];
  dnnl_data_type_t t[kRoles];
  role_types(op, dt, t);
  d.dnnl_memory_desc_init_by_tag(&plan.plain[kX], 4, x_dims, t[kX], dnnl_nchw);
  d.dnnl_memory_desc_init_by_tag(&plan.plain[kY], 4, y_dims, t[kY], dnnl_nchw);
  if (g.g == 1)
    d.dnnl_memory_desc_init_by_tag(&plan.plain[kW], 4, w_dims, t[kW], dnnl_oihw);
  else
    d.dnnl_memory_desc_init_by_tag(&plan.plain[kW], 5, gw_dims, t[kW], dnnl_goihw);
  d.dnnl_memory_desc_init_by_tag(&any[kX], 4, x_dims, t[kX], dnnl_format_tag_any);
  d.dnnl_memory_desc_init_by_tag(&any[kY], 4, y_dims, t[kY], dnnl_format_tag_any);
  if (g.g == 1)
    d.dnnl_memory_desc_init_by_tag(&any[kW], 4, w_dims, t[kW], dnnl_format_tag_any);
  else
    d.dnnl_memory_desc_init_by_tag(&any[kW], 5, gw_dims, t[kW], dnnl_format_tag_any);
  // The forward hint of a backward descriptor: the forward in dt throughout.
  dnnl_memory_desc_t hint_w = any[kW];
  if (t[kW] != dt) {
    if (g.g == 1)
      d.dnnl_memory_desc_init_by_tag(&hint_w, 4, w_dims, dt, dnnl_format_tag_any);
    else
      d.dnnl_memory_desc_init_by_tag(&hint_w, 5, gw_dims, dt, dnnl_format_tag_any);
  }

  dnnl_primitive_attr_t attr = nullptr;
  d.dnnl_primitive_attr_create(&attr);
  d.dnnl_primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user);
  // Backward descriptors need the forward one as a hint.
  dnnl_convolution_desc_t fwd_desc, desc;
  dnnl_primitive_desc_t hint = nullptr, pd = nullptr;
  bool made = d.dnnl_dilated_convolution_forward_desc_init(&fwd_desc, dnnl_forward_training, dnnl_convolution_direct,
                                                           &any[kX], &hint_w, nullptr, &any[kY], strides, dilates, pad,
                                                           pad) == dnnl_success &&
              d.dnnl_primitive_desc_create(&hint, &fwd_desc, attr, d.engine, nullptr) == dnnl_success;
  if (made && op == PORTA_OP_CONV2D) {
    pd = hint, hint = nullptr;
  } else if (made) {
    made = (op == PORTA_OP_CONV2D_BACKWARD_INPUT
                ? d.dnnl_dilated_convolution_backward_data_desc_init(&desc, dnnl_convolution_direct, &any[kX], &any[kW],
                                                                     &any[kY], strides, dilates, pad, pad)
                : d.dnnl_dilated_convolution_backward_weights_desc_init(&desc, dnnl_convolution_direct, &any[kX],
                                                                        &any[kW], nullptr, &any[kY], strides,
                                                                        dilates, pad, pad)) == dnnl_success &&
           d.dnnl_primitive_desc_create(&pd, &desc, attr, d.engine, hint) == dnnl_success;
  }
  d.dnnl_primitive_attr_destroy(attr);
  if (hint) d.dnnl_primitive_desc_destroy(hint);
  if (!made || !pd) return plan;

  const bool reference = onednn::is_reference(d, pd);  // slower than the lowering
  const dnnl_query_t queries[kRoles] = {
      op == PORTA_OP_CONV2D_BACKWARD_INPUT ? dnnl_query_diff_src_md : dnnl_query_src_md,
      op == PORTA_OP_CONV2D_BACKWARD_WEIGHT ? dnnl_query_diff_weights_md : dnnl_query_weights_md,
      op == PORTA_OP_CONV2D ? dnnl_query_dst_md : dnnl_query_diff_dst_md};
  bool reorders = true;  // every layout that differs has both its reorders
  for (int r = 0; r < kRoles; ++r) {
    plan.chosen[r] = *d.dnnl_primitive_desc_query_md(pd, queries[r], 0);
    plan.chosen_bytes[r] = d.dnnl_memory_desc_get_size(&plan.chosen[r]);
    if (d.dnnl_memory_desc_equal(&plan.plain[r], &plan.chosen[r])) continue;
    plan.to_chosen[r] = reorder(d, plan.plain[r], plan.chosen[r]);
    plan.to_plain[r] = reorder(d, plan.chosen[r], plan.plain[r]);
    reorders = reorders && plan.to_chosen[r] && plan.to_plain[r];
  }
  plan.scratch = *d.dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
  plan.scratch_bytes = d.dnnl_memory_desc_get_size(&plan.scratch);
  plan.usable = !reference && reorders && d.dnnl_primitive_create(&plan.conv, pd) == dnnl_success;
  d.dnnl_primitive_desc_destroy(pd);
  return plan;
}

// Plans are made once per op, geometry and part size, and kept (a process
// runs a handful of shapes; oneDNN compiles each primitive's code).
const Plan& plan_for(const Dnnl& d, uint32_t op, const Geometry& g, dnnl_data_type_t dt) {
  static std::mutex mu;
  // Leaked with the primitives it holds (reachable, so not a leak to
  // LeakSanitizer): a pool thread may still run one during static teardown.
  static auto* plans = new std::map<PlanKey, std::unique_ptr<Plan>>();
  const PlanKey key{op,
                    static_cast<int>(dt),
                    g.n,
                    g.c,
                    g.h,
                    g.w,
                    g.f,
                    g.kh,
                    g.kw,
                    g.oh,
                    g.ow,
                    g.sh,
                    g.sw,
                    g.ph * 65536 + g.pw,
                    g.dh * 65536 + g.dw,
                    g.g};
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<Plan>& p = (*plans)[key];
  if (!p) {
    const onednn::OneOmpThread one;  // the primitive's split of the work is fixed now: one thread
    p = std::make_unique<Plan>(make_plan(d, op, g, dt));
  }
  return *p;
}

// Uninitialized float storage.
struct Buffer {
  std::unique_ptr<float[]> data;
  explicit Buffer(size_t bytes) : data(new float[(bytes + sizeof(float) - 1) / sizeof(float)]) {}
};

// A part's temporaries (each operand in the primitive's layout, and the
// scratchpad: kRoles + 1 slots), kept by each thread for its next call.
// Allocated and freed per call, each was fresh memory from the system, a
// page fault per page (a tenth of the ResNet step of docs/benchmarks.md in
// the kernel). A slot grows to the largest size asked of it, up to
// kKeptBytes; a larger one is allocated for its call alone.
class PartBuffers {
 public:
  static constexpr size_t kKeptBytes = size_t{64} << 20;
  float* get(int slot, size_t bytes) {
    if (bytes > kKeptBytes) return once_.emplace_back(bytes).data.get();
    Kept& k = kept()[slot];
    if (k.bytes < bytes) k = Kept{Buffer(bytes), bytes};
    return k.buffer.data.get();
  }

 private:
  struct Kept {
    Buffer buffer{0};
    size_t bytes = 0;
  };
  static Kept* kept() {
    thread_local Kept slots[kRoles + 1];
    return slots;
  }
  std::vector<Buffer> once_;
};

// One part's convolution: the plain operands (pointers at the part's first
// image for x and y), each reordered into the primitive's layout where it
// differs, the result reordered back into the plain output.
bool run_part(const Dnnl& d, uint32_t op, const Plan& plan, void* plain[kRoles]) {
  const Role out = op == PORTA_OP_CONV2D ? kY : op == PORTA_OP_CONV2D_BACKWARD_INPUT ? kX : kW;
  std::vector<std::unique_ptr<Memory>> plain_mem, chosen_mem;
  PartBuffers buffers;
  bool ok = true;
  for (int r = 0; r < kRoles; ++r) {
    plain_mem.push_back(std::make_unique<Memory>(d, plan.plain[r], plain[r]));
    if (!plan.to_chosen[r]) {  // the primitive takes the plain layout
      chosen_mem.push_back(nullptr);
      continue;
    }
    chosen_mem.push_back(std::make_unique<Memory>(d, plan.chosen[r], buffers.get(r, plan.chosen_bytes[r])));
    if (r != out && ok)
      ok = execute(d, plan.to_chosen[r], {{DNNL_ARG_FROM, plain_mem[r]->m}, {DNNL_ARG_TO, chosen_mem[r]->m}});
  }
  if (!ok) return false;
  const auto arg = [&](int r) { return chosen_mem[r] ? chosen_mem[r]->m : plain_mem[r]->m; };
  Memory scratch(d, plan.scratch, buffers.get(kRoles, plan.scratch_bytes));
  const int x_arg = op == PORTA_OP_CONV2D_BACKWARD_INPUT ? DNNL_ARG_DIFF_SRC : DNNL_ARG_SRC;
  const int w_arg = op == PORTA_OP_CONV2D_BACKWARD_WEIGHT ? DNNL_ARG_DIFF_WEIGHTS : DNNL_ARG_WEIGHTS;
  const int y_arg = op == PORTA_OP_CONV2D ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST;
  ok = execute(d, plan.conv, {{x_arg, arg(kX)}, {w_arg, arg(kW)}, {y_arg, arg(kY)}, {DNNL_ARG_SCRATCHPAD, scratch.m}});
  if (ok && chosen_mem[out])
    ok = execute(d, plan.to_plain[out], {{DNNL_ARG_FROM, chosen_mem[out]->m}, {DNNL_ARG_TO, plain_mem[out]->m}});
  return ok;
}

template <uint32_t Op, int Dt>
porta_status direct_conv_kernel(const porta_kernel_call* c) {
  constexpr bool kBf16 = Dt == kDtBFloat16;
  using T = std::conditional_t<kBf16, uint16_t, float>;
  const auto* p = plugin::conv_params(c);
  const DLTensor& x = Op == PORTA_OP_CONV2D_BACKWARD_INPUT ? c->outputs[0] : Op == PORTA_OP_CONV2D ? c->inputs[0] : c->inputs[1];
  const DLTensor& w = Op == PORTA_OP_CONV2D_BACKWARD_WEIGHT ? c->outputs[0] : c->inputs[1];
  const DLTensor& y = Op == PORTA_OP_CONV2D ? c->outputs[0] : c->inputs[0];
  if (!p || x.ndim != 4 || w.ndim != 4 || y.ndim != 4) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "%s: expected porta_conv2d_params and 4-D x, weight and y", plugin::op_name(Op));
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }
  const Dnnl* d = dnnl();
  if (!d) return report(PORTA_ERROR_NOT_IMPLEMENTED, "oneDNN is not loaded");
  if (kBf16 && !onednn::native_bf16())
    return report(PORTA_ERROR_NOT_IMPLEMENTED, "bfloat16 convolution: the CPU has no AVX-512 BF16");
  const dnnl_data_type_t dt = kBf16 ? dnnl_bf16 : dnnl_f32;
  Geometry g{x.shape[0], x.shape[1], x.shape[2], x.shape[3], y.shape[1], w.shape[2], w.shape[3], y.shape[2],
             y.shape[3], p->stride_h, p->stride_w, p->padding_h, p->padding_w, p->dilation_h, p->dilation_w,
             plugin::conv_groups(*p)};
  // A part per thread, each at least one image.
  const int64_t parts = std::min<int64_t>(num_threads(), g.n), per = (g.n + parts - 1) / parts;
  const int64_t x_image = g.c * g.h * g.w, y_image = g.f * g.oh * g.ow, w_size = g.f * (g.c / g.g) * g.kh * g.kw;
  T* base[kRoles] = {data_of<T>(x), data_of<T>(w), data_of<T>(y)};
  // The weight gradient's parts, summed in float32 after: all of them in
  // bfloat16 (rounded once at the end), else those beyond the first.
  std::vector<Buffer> partial_w;
  if (Op == PORTA_OP_CONV2D_BACKWARD_WEIGHT)
    for (int64_t i = kBf16 ? 0 : 1; i < parts; ++i) partial_w.emplace_back(static_cast<size_t>(w_size) * sizeof(float));
  // Plans first, on this thread: a refusal is found before anything is written.
  Geometry part = g;
  part.n = per;
  const Plan& full = plan_for(*d, Op, part, dt);
  Geometry last = g;
  last.n = g.n - per * (parts - 1);
  const Plan& tail = plan_for(*d, Op, last, dt);
  if (!full.usable || !tail.usable) return report(PORTA_ERROR_NOT_IMPLEMENTED, "oneDNN has no fast kernel for it");
  std::atomic<bool> ok{true};
  parallel_for(parts, 1, [&](int64_t b, int64_t e) {
    const onednn::OneOmpThread one;
    for (int64_t i = b; i < e && ok; ++i) {
      void* ops[kRoles] = {base[kX] + i * per * x_image, base[kW], base[kY] + i * per * y_image};
      if (Op == PORTA_OP_CONV2D_BACKWARD_WEIGHT && (kBf16 || i > 0))
        ops[kW] = partial_w[static_cast<size_t>(kBf16 ? i : i - 1)].data.get();
      if (!run_part(*d, Op, i == parts - 1 ? tail : full, ops)) ok = false;
    }
  });
  if (!ok) return report(PORTA_ERROR_BACKEND, "a oneDNN convolution failed");
  if constexpr (Op == PORTA_OP_CONV2D_BACKWARD_WEIGHT) {
    float* sum = kBf16 ? partial_w[0].data.get() : reinterpret_cast<float*>(base[kW]);
    for (size_t b = kBf16 ? 1 : 0; b < partial_w.size(); ++b)
      for (int64_t k = 0; k < w_size; ++k) sum[k] += partial_w[b].data[static_cast<size_t>(k)];
    if constexpr (kBf16) float32_to_bfloat16_run(sum, base[kW], w_size);
  }
  return PORTA_OK;
}

}  // namespace

template <int Dt>
porta_kernel_fn direct_conv_kernel_of(uint32_t op) {
  return lookup_kind<PORTA_OP_KIND_CONV>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
    if constexpr (Op == PORTA_OP_CONV2D || Op == PORTA_OP_CONV2D_BACKWARD_INPUT ||
                  Op == PORTA_OP_CONV2D_BACKWARD_WEIGHT)
      return &direct_conv_kernel<Op, Dt>;
    else if constexpr (Op == PORTA_OP_IM2COL || Op == PORTA_OP_COL2IM)
      return nullptr;  // conv_kernels.cpp's
    else
      static_assert(no_kernel_for<Op>, "a CONV row without its kernel here");
  });
}

porta_kernel_fn find_direct_conv_kernel(uint32_t op, int dtype) {
  if (dtype == kDtFloat32) return direct_conv_kernel_of<kDtFloat32>(op);
  if (dtype == kDtBFloat16) return direct_conv_kernel_of<kDtBFloat16>(op);
  return nullptr;
}

}  // namespace porta::host

#else  // built without oneDNN's headers: the core lowers every convolution

namespace porta::host {
porta_kernel_fn find_direct_conv_kernel(uint32_t, int) { return nullptr; }
}  // namespace porta::host

#endif
