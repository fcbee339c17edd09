// C API: the compute ops, generated from PORTA_OP_LIST so that the table in
// porta/ops.h stays the single source of truth. Each kind has one wrapper
// shape; kinds with hand-written entry points (factories, copies) generate
// nothing here.
#include "amp/autocast.hpp"
#include "c_api/c_api.hpp"
#include "ops/ag.hpp"

using namespace porta;

#define PORTA_GEN_PORTA_OP_KIND_FACTORY(NAME, name)
#define PORTA_GEN_PORTA_OP_KIND_COPY(NAME, name)
// Kernel-level ops behind hand-written entry points (c_api/nn.cpp, c_api/optim.cpp).
#define PORTA_GEN_PORTA_OP_KIND_CONV(NAME, name)
#define PORTA_GEN_PORTA_OP_KIND_POOL(NAME, name)
#define PORTA_GEN_PORTA_OP_KIND_SOFTMAX(NAME, name)
#define PORTA_GEN_PORTA_OP_KIND_LOSS(NAME, name)
#define PORTA_GEN_PORTA_OP_KIND_OPTIMIZER(NAME, name)
// GATHER and SCATTER sit behind c_api/indexing.cpp's entry points.
#define PORTA_GEN_PORTA_OP_KIND_INDEX(NAME, name)
// SORT sits behind c_api/sorting.cpp's entry points (two outputs).
#define PORTA_GEN_PORTA_OP_KIND_SORT(NAME, name)
// LAYER_NORM is porta_layer_norm's kernel (c_api/nn.cpp).
#define PORTA_GEN_PORTA_OP_KIND_NORM(NAME, name)
// LSTM_CELL is porta_rnn's kernel (nn/recurrent.cpp).
#define PORTA_GEN_PORTA_OP_KIND_RNN(NAME, name)
// CUMMAX and CUMMIN (two outputs) sit behind c_api/sorting.cpp's entry points.
#define PORTA_GEN_PORTA_OP_KIND_RUNNING_EXTREME(NAME, name)

#define PORTA_GEN_PORTA_OP_KIND_SCAN(NAME, name)                                                                       \
  PORTA_API porta_status porta_##name(porta_tensor* t, int32_t dim, porta_tensor** out) {                              \
    return produce(out,                                                                                                \
                   [&] { return ag::scan(PORTA_OP_##NAME, amp::operand(PORTA_OP_##NAME, arg(t, "t")), dim, false); }); \
  }

#define PORTA_GEN_PORTA_OP_KIND_UNARY(NAME, name)                                                                \
  PORTA_API porta_status porta_##name(porta_tensor* a, porta_tensor** out) {                                     \
    return produce(out, [&] { return ag::unary(PORTA_OP_##NAME, amp::operand(PORTA_OP_##NAME, arg(a, "a"))); }); \
  }

#define PORTA_GEN_PORTA_OP_KIND_BINARY(NAME, name)                                                                     \
  PORTA_API porta_status porta_##name(porta_tensor* a, porta_tensor* b, porta_tensor** out) {                          \
    return produce(out, [&] {                                                                                          \
      return ag::binary(PORTA_OP_##NAME, amp::operand(PORTA_OP_##NAME, arg(a, "a")),                                   \
                        amp::operand(PORTA_OP_##NAME, arg(b, "b")));                                                   \
    });                                                                                                                \
  }                                                                                                                    \
  PORTA_API porta_status porta_##name##_scalar(porta_tensor* a, double s, porta_tensor** out) {                        \
    return produce(out,                                                                                                \
                   [&] { return ag::binary_scalar(PORTA_OP_##NAME, amp::operand(PORTA_OP_##NAME, arg(a, "a")), s); }); \
  }
#define PORTA_GEN_PORTA_OP_KIND_COMPARE PORTA_GEN_PORTA_OP_KIND_BINARY

#define PORTA_GEN_PORTA_OP_KIND_WHERE(NAME, name)                                                         \
  PORTA_API porta_status porta_##name(porta_tensor* cond, porta_tensor* a, porta_tensor* b, porta_tensor** out) { \
    return produce(out, [&] { return ag::where(arg(cond, "cond"), arg(a, "a"), arg(b, "b")); });         \
  }

#define PORTA_GEN_PORTA_OP_KIND_REDUCE(NAME, name)                                                                  \
  PORTA_API porta_status porta_##name(porta_tensor* t, const int32_t* dims, int32_t num_dims, int keepdim,          \
                                      porta_tensor** out) {                                                         \
    return produce(out, [&] {                                                                                       \
      return ag::reduce(PORTA_OP_##NAME, amp::operand(PORTA_OP_##NAME, arg(t, "t")), dims, num_dims, keepdim != 0); \
    });                                                                                                             \
  }

#define PORTA_GEN_PORTA_OP_KIND_ARGREDUCE(NAME, name)                                                    \
  PORTA_API porta_status porta_##name(porta_tensor* t, int32_t dim, int keepdim, porta_tensor** out) {   \
    return produce(out, [&] {                                                                            \
      TensorPtr x = arg(t, "t");                                                                         \
      if (x->dtype == Dtype::Bool)                                                                       \
        fail(PORTA_ERROR_UNSUPPORTED_DTYPE, #name "(): does not support bool input (as PyTorch); convert " \
             "it first (.int())");                                                                       \
      return ops::argreduce(PORTA_OP_##NAME, x, dim, keepdim != 0);                                      \
    });                                                                                                  \
  }

#define PORTA_GEN_PORTA_OP_KIND_MATMUL(NAME, name)                                                     \
  PORTA_API porta_status porta_##name(porta_tensor* a, porta_tensor* b, porta_tensor** out) {          \
    return produce(out, [&] { return ag::matmul(amp::lower(arg(a, "a")), amp::lower(arg(b, "b"))); }); \
  }

#define PORTA_X_GENERATE(NAME, name, id, kind, inputs) PORTA_GEN_##kind(NAME, name)
PORTA_OP_LIST(PORTA_X_GENERATE)
#undef PORTA_X_GENERATE

PORTA_API porta_status porta_cast(porta_tensor* t, DLDataType dtype, porta_tensor** out) {
  return produce(out, [&] { return ag::cast(arg(t, "t"), checked_dtype(dtype)); });
}

// ---- in place

static porta_op checked_op(int32_t id, std::initializer_list<porta_op_kind> kinds, const char* entry) {
  if (id < 0 || id >= PORTA_OP_COUNT)
    fail(PORTA_ERROR_INVALID_ARGUMENT, entry, ": op ", id, " is not a porta_op (0 to ", PORTA_OP_COUNT - 1, ")");
  const auto op = static_cast<porta_op>(id);
  for (porta_op_kind k : kinds)
    if (op_kind(op) == k) return op;
  fail(PORTA_ERROR_INVALID_ARGUMENT, entry, ": op ", op_name(op), " has no in-place form here (",
       kinds.size() == 1 ? "a unary op is needed" : "a binary or comparison op is needed", ")");
}

PORTA_API porta_status porta_unary_inplace(int32_t op, porta_tensor* t) {
  return guard([&] {
    const porta_op o = checked_op(op, {PORTA_OP_KIND_UNARY}, "porta_unary_inplace");
    ag::unary_(o, arg(t, "t"));
  });
}

PORTA_API porta_status porta_binary_inplace(int32_t op, porta_tensor* t, porta_tensor* other) {
  return guard([&] {
    const porta_op o = checked_op(op, {PORTA_OP_KIND_BINARY, PORTA_OP_KIND_COMPARE}, "porta_binary_inplace");
    ag::binary_(o, arg(t, "t"), arg(other, "other"));
  });
}

PORTA_API porta_status porta_binary_scalar_inplace(int32_t op, porta_tensor* t, double s) {
  return guard([&] {
    const porta_op o = checked_op(op, {PORTA_OP_KIND_BINARY, PORTA_OP_KIND_COMPARE}, "porta_binary_scalar_inplace");
    ag::binary_scalar_(o, arg(t, "t"), s);
  });
}
