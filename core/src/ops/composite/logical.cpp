// Logical ops on every dtype: nonzero (NaN included) is true; bool results.
#include "ops/composite/composite.hpp"

namespace porta::composite {
namespace {

TensorPtr truth(const TensorPtr& a) { return ops::binary_scalar(PORTA_OP_NE, a, 0.0); }
TensorPtr constant(const TensorPtr& like, bool v) { return ops::full(*like->device, Dims{}, v ? 1.0 : 0.0, Dtype::Bool); }

}  // namespace

TensorPtr logical_not(const TensorPtr& a) { return ops::binary_scalar(PORTA_OP_EQ, a, 0.0); }

TensorPtr logical_and(const TensorPtr& a, const TensorPtr& b) {
  check_same_device("logical_and", {a.get(), b.get()});
  return ops::where(truth(a), truth(b), constant(a, false));
}

TensorPtr logical_or(const TensorPtr& a, const TensorPtr& b) {
  check_same_device("logical_or", {a.get(), b.get()});
  return ops::where(truth(a), constant(a, true), truth(b));
}

TensorPtr logical_xor(const TensorPtr& a, const TensorPtr& b) {
  check_same_device("logical_xor", {a.get(), b.get()});
  return ops::binary(PORTA_OP_NE, truth(a), truth(b));
}

}  // namespace porta::composite
