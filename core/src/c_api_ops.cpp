// C API: the compute ops, generated from PORTA_OP_LIST so that the table in
// porta/ops.h stays the single source of truth. Each kind has one wrapper
// shape; kinds with hand-written entry points (factories, copies) generate
// nothing here.
#include "autograd/ag.hpp"
#include "c_api.hpp"

using namespace porta;

#define PORTA_GEN_PORTA_OP_KIND_FACTORY(NAME, name)
#define PORTA_GEN_PORTA_OP_KIND_COPY(NAME, name)
// Kernel-level ops behind hand-written entry points (c_api_nn.cpp, c_api_optim.cpp).
#define PORTA_GEN_PORTA_OP_KIND_CONV(NAME, name)
#define PORTA_GEN_PORTA_OP_KIND_POOL(NAME, name)
#define PORTA_GEN_PORTA_OP_KIND_SOFTMAX(NAME, name)
#define PORTA_GEN_PORTA_OP_KIND_LOSS(NAME, name)
#define PORTA_GEN_PORTA_OP_KIND_OPTIMIZER(NAME, name)

#define PORTA_GEN_PORTA_OP_KIND_UNARY(NAME, name)                                       \
  PORTA_API porta_status porta_##name(porta_tensor* a, porta_tensor** out) {            \
    return produce(out, [&] { return ag::unary(PORTA_OP_##NAME, arg(a, "a")); });     \
  }

#define PORTA_GEN_PORTA_OP_KIND_BINARY(NAME, name)                                                       \
  PORTA_API porta_status porta_##name(porta_tensor* a, porta_tensor* b, porta_tensor** out) {            \
    return produce(out, [&] { return ag::binary(PORTA_OP_##NAME, arg(a, "a"), arg(b, "b")); });         \
  }                                                                                                      \
  PORTA_API porta_status porta_##name##_scalar(porta_tensor* a, double s, porta_tensor** out) {         \
    return produce(out, [&] { return ag::binary_scalar(PORTA_OP_##NAME, arg(a, "a"), s); });           \
  }
#define PORTA_GEN_PORTA_OP_KIND_COMPARE PORTA_GEN_PORTA_OP_KIND_BINARY

#define PORTA_GEN_PORTA_OP_KIND_WHERE(NAME, name)                                                         \
  PORTA_API porta_status porta_##name(porta_tensor* cond, porta_tensor* a, porta_tensor* b, porta_tensor** out) { \
    return produce(out, [&] { return ag::where(arg(cond, "cond"), arg(a, "a"), arg(b, "b")); });         \
  }

#define PORTA_GEN_PORTA_OP_KIND_REDUCE(NAME, name)                                                          \
  PORTA_API porta_status porta_##name(porta_tensor* t, const int32_t* dims, int32_t num_dims, int keepdim,  \
                                      porta_tensor** out) {                                                 \
    return produce(out, [&] { return ag::reduce(PORTA_OP_##NAME, arg(t, "t"), dims, num_dims, keepdim != 0); }); \
  }

#define PORTA_GEN_PORTA_OP_KIND_ARGREDUCE(NAME, name)                                                       \
  PORTA_API porta_status porta_##name(porta_tensor* t, int32_t dim, int keepdim, porta_tensor** out) {      \
    return produce(out, [&] { return ops::argreduce(PORTA_OP_##NAME, arg(t, "t"), dim, keepdim != 0); });  \
  }

#define PORTA_GEN_PORTA_OP_KIND_MATMUL(NAME, name)                                                  \
  PORTA_API porta_status porta_##name(porta_tensor* a, porta_tensor* b, porta_tensor** out) {       \
    return produce(out, [&] { return ag::matmul(arg(a, "a"), arg(b, "b")); });                     \
  }

#define PORTA_X_GENERATE(NAME, name, id, kind, inputs) PORTA_GEN_##kind(NAME, name)
PORTA_OP_LIST(PORTA_X_GENERATE)
#undef PORTA_X_GENERATE

PORTA_API porta_status porta_cast(porta_tensor* t, DLDataType dtype, porta_tensor** out) {
  return produce(out, [&] { return ag::cast(arg(t, "t"), checked_dtype(dtype)); });
}
