#include "cpp_calls.hpp"

#include <type_traits>

namespace oracle {
namespace {

// f(a, b) with b as its C++ type; where porta.hpp has no overload for that type (f is SFINAE-friendly), the
// call is refused as PyTorch refuses it, so that a missing overload is an answer, not a build failure.
template <class F>
porta::Tensor with_b(const Args& x, F f) {
  return std::visit(
      [&](const auto& b) -> porta::Tensor {
        if constexpr (std::is_invocable_v<F, const porta::Tensor&, decltype(b)>)
          return f(x.a(), b);
        else
          throw NoOverload();
      },
      x.operands.at(1));
}

}  // namespace

// clang-format off
// (the table reads best as written: a row per op kind)
// A call of x's operands; in WITH_B's expression `a` is the tensor, `b` the second operand.
#define CALL(expr) [](const Args& x) -> porta::Tensor { return expr; }
#define WITH_B(expr) \
  CALL(with_b(x, [](const porta::Tensor& a, const auto& b) -> decltype(porta::Tensor(expr)) { return expr; }))
// The op table's kinds (porta.hpp generates these from porta/ops.h): free function, method, in place.
#define UNARY(op) {"porta::" #op "(a)", CALL(porta::op(x.a()))}, {"a." #op "()", CALL(x.a().op())}
#define UNARY_INPLACE(op) UNARY(op), {"a." #op "_()", CALL(x.a().op##_())}
#define BINARY(op) {"porta::" #op "(a, b)", WITH_B(porta::op(a, b))}, {"a." #op "(b)", WITH_B(a.op(b))}
#define BINARY_INPLACE(op) BINARY(op), {"a." #op "_(b)", WITH_B(a.op##_(b))}
#define OPERATOR(op) {"a " #op " b", WITH_B(a op b)}, {"b " #op " a", WITH_B(b op a)}
#define REDUCE(op)                                                                 \
  {"porta::" #op "(a, dims, keepdim)", CALL(porta::op(x.a(), x.dims, x.keepdim))}, \
  {"a." #op "(dims, keepdim)", CALL(x.a().op(x.dims, x.keepdim))}
#define ARGREDUCE(op)                                                              \
  {"porta::" #op "(a, dim, keepdim)", CALL(porta::op(x.a(), x.dim, x.keepdim))}, \
  {"a." #op "(dim, keepdim)", CALL(x.a().op(x.dim, x.keepdim))}
#define SCAN(op)                                                    \
  {"porta::" #op "(a, dim)", CALL(porta::op(x.a(), x.dim.value()))}, \
  {"a." #op "(dim)", CALL(x.a().op(x.dim.value()))}

const std::map<std::string, Call>& cpp_calls() {
  static const std::map<std::string, Call> calls = {
      UNARY_INPLACE(abs), UNARY_INPLACE(acos), UNARY_INPLACE(asin), UNARY_INPLACE(atan), UNARY_INPLACE(asinh),
      UNARY_INPLACE(ceil), UNARY_INPLACE(cos), UNARY_INPLACE(cosh), UNARY_INPLACE(erf), UNARY_INPLACE(erfinv),
      UNARY_INPLACE(exp), UNARY_INPLACE(exp2), UNARY_INPLACE(expm1), UNARY_INPLACE(floor), UNARY_INPLACE(log),
      UNARY_INPLACE(log10), UNARY_INPLACE(log1p), UNARY_INPLACE(log2), UNARY_INPLACE(neg), UNARY_INPLACE(round),
      UNARY_INPLACE(sigmoid), UNARY_INPLACE(sign), UNARY_INPLACE(sin), UNARY_INPLACE(sinh), UNARY_INPLACE(sqrt),
      UNARY_INPLACE(tan), UNARY_INPLACE(tanh), UNARY_INPLACE(trunc), UNARY_INPLACE(relu), UNARY_INPLACE(bitwise_not),
      UNARY(isnan), UNARY(isinf), UNARY(isfinite), UNARY(logical_not),
      BINARY_INPLACE(add), BINARY_INPLACE(sub), BINARY_INPLACE(mul), BINARY_INPLACE(div), BINARY_INPLACE(pow),
      BINARY_INPLACE(maximum), BINARY_INPLACE(minimum), BINARY_INPLACE(atan2), BINARY_INPLACE(remainder),
      BINARY_INPLACE(fmod), BINARY_INPLACE(floor_divide), BINARY_INPLACE(eq), BINARY_INPLACE(ne),
      BINARY_INPLACE(lt), BINARY_INPLACE(le), BINARY_INPLACE(gt), BINARY_INPLACE(ge),
      BINARY_INPLACE(bitwise_and), BINARY_INPLACE(bitwise_or), BINARY_INPLACE(bitwise_xor),
      BINARY_INPLACE(bitwise_left_shift), BINARY_INPLACE(bitwise_right_shift),
      BINARY(logical_and), BINARY(logical_or), BINARY(logical_xor),
      OPERATOR(+), OPERATOR(-), OPERATOR(*), OPERATOR(/), OPERATOR(%),
      OPERATOR(==), OPERATOR(!=), OPERATOR(<), OPERATOR(<=), OPERATOR(>), OPERATOR(>=),
      OPERATOR(&), OPERATOR(|), OPERATOR(^), OPERATOR(<<), OPERATOR(>>),
      {"a += b", WITH_B(a += b)}, {"a -= b", WITH_B(a -= b)}, {"a *= b", WITH_B(a *= b)}, {"a /= b", WITH_B(a /= b)},
      {"a &= b", WITH_B(a &= b)}, {"a |= b", WITH_B(a |= b)}, {"a ^= b", WITH_B(a ^= b)},
      {"a <<= b", WITH_B(a <<= b)}, {"a >>= b", WITH_B(a >>= b)},
      {"-a", CALL(-x.a())}, {"~a", CALL(~x.a())},
      REDUCE(sum), REDUCE(mean), REDUCE(max), REDUCE(min),
      ARGREDUCE(argmax), ARGREDUCE(argmin),
      SCAN(cumsum), SCAN(cumprod),
  };
  return calls;
}
// clang-format on

}  // namespace oracle
