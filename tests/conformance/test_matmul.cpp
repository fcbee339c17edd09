// porta_matmul with NumPy rules: 1-D operands, 2-D, batched with broadcast
// batch dims, transposed / strided / expanded operands, float32 and float64.
#include <algorithm>

#include "device_params.hpp"
#include "reference.hpp"

namespace conformance {
namespace {

class Matmul : public DeviceTest {
 protected:
  void check(const HostTensor& a, const HostTensor& b, Layout la, Layout lb) {
    SCOPED_TRACE("matmul(" + dtype_name(a.dtype) + " " + shape_str(a.shape) + " " + layout_name(la) + ", " +
                 dtype_name(b.dtype) + " " + shape_str(b.shape) + " " + layout_name(lb) + ")");
    Tensor x = upload(a, dev(), la), y = upload(b, dev(), lb);
    check_tensors(x, y, a, b);
  }
  void check_tensors(porta_tensor* x, porta_tensor* y, const HostTensor& a, const HostTensor& b) {
    op_case("matmul", promote(a.dtype, b.dtype), [&] {
      Tensor out;
      if (a.dtype.bits != b.dtype.bits) {  // as PyTorch, matmul does not promote
        expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return porta_matmul(x, y, o); });
        return;
      }
      CHECK_OK(porta_matmul(x, y, out.out()));
      const Reduction ref = ref_matmul(a, b);
      const int64_t k = a.shape.back();
      // Dot products of K terms: error bound grows with K, relative to sum |a_ik b_kj|.
      Tolerance tol = tolerance_for(ref.value.dtype);
      tol.rtol *= std::max<double>(1.0, static_cast<double>(k) / 64.0);
      expect_close(download(out), ref.value, tol, "matmul", &ref.scale);
    });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Matmul);

const std::pair<Shape, Shape> kShapeCases[] = {{{5}, {5}},                 // vector . vector -> 0-d
                                               {{5}, {5, 3}},              // vector @ matrix
                                               {{4, 5}, {5}},              // matrix @ vector
                                               {{4, 5}, {5, 3}},           // matrix @ matrix
                                               {{1, 1}, {1, 1}},           //
                                               {{2, 4, 5}, {5, 3}},        // batch @ shared matrix
                                               {{4, 5}, {2, 5, 3}},        // shared matrix @ batch
                                               {{2, 4, 5}, {2, 5, 3}},     // batch @ batch
                                               {{5}, {2, 5, 3}},           // vector @ batch
                                               {{2, 4, 5}, {5}},           // batch @ vector
                                               {{2, 1, 4, 5}, {3, 5, 2}},  // broadcast batch dims
                                               {{1, 3, 2, 5}, {2, 1, 5, 4}},
                                               {{3, 7}, {7, 1}},
                                               {{1, 9}, {9, 6}}};

TEST_P(Matmul, ShapesAndDtypes) {
  uint32_t seed = 1;
  for (const auto& [sa, sb] : kShapeCases)
    for (DLDataType da : {porta_float32, porta_float64})
      for (DLDataType db : {porta_float32, porta_float64})
        check(sample_host(da, sa, next_seed(seed)), sample_host(db, sb, next_seed(seed)), Layout::Contiguous,
              Layout::Contiguous);
}

// Integer products are exact (PyTorch's integer matmul; the values here stay far from wrapping).
TEST_P(Matmul, IntegerProducts) {
  uint32_t seed = 200;
  for (const auto& [sa, sb] : kShapeCases)
    for (DLDataType dt : {porta_int32, porta_int64})
      check(sample_host(dt, sa, next_seed(seed)), sample_host(dt, sb, next_seed(seed)), Layout::Contiguous,
            Layout::Transposed);
}

TEST_P(Matmul, TransposedAndStridedOperands) {
  uint32_t seed = 100;
  for (const auto& [sa, sb] : kShapeCases)
    for (DLDataType dt : {porta_float32, porta_float64})
      for (Layout la : kAllLayouts)
        for (Layout lb : kAllLayouts)
          check(sample_host(dt, sa, next_seed(seed)), sample_host(dt, sb, next_seed(seed)), la, lb);
}

TEST_P(Matmul, ExpandedBatchOperands) {
  for (DLDataType dt : {porta_float32, porta_float64}) {
    SCOPED_TRACE(dtype_name(dt));
    const HostTensor a = sample_host(dt, {3, 4, 5}, 7), b_small = sample_host(dt, {1, 5, 2}, 8);
    const HostTensor a_small = sample_host(dt, {1, 4, 5}, 9), b = sample_host(dt, {3, 5, 2}, 10);
    const Shape a_target{3, 4, 5}, b_target{3, 5, 2};
    Tensor x = upload(a, dev()), y = upload(b, dev());
    Tensor x0 = upload(a_small, dev(), Layout::Strided), y0 = upload(b_small, dev(), Layout::Transposed), xe, ye;
    CHECK_OK(porta_expand(x0, a_target.data(), 3, xe.out()));
    CHECK_OK(porta_expand(y0, b_target.data(), 3, ye.out()));
    check_tensors(x, ye, a, broadcast_host(b_small, b_target));
    check_tensors(xe, y, broadcast_host(a_small, a_target), b);
    check_tensors(xe, ye, broadcast_host(a_small, a_target), broadcast_host(b_small, b_target));
  }
}

TEST_P(Matmul, LargeInnerDimension) {
  for (DLDataType dt : {porta_float32, porta_float64})
    for (const auto& [sa, sb] : {std::pair<Shape, Shape>{{33, 517}, {517, 65}}, {{2, 17, 300}, {300, 19}}})
      check(sample_host(dt, sa, 11), sample_host(dt, sb, 12), Layout::Contiguous, Layout::Transposed);
}

TEST_P(Matmul, LargeBatchedTransposedOperands) {
  for (DLDataType dt : {porta_float32, porta_float64})
    for (Layout la : kAllLayouts)
      for (Layout lb : {Layout::Contiguous, Layout::Transposed})
        check(sample_host(dt, {3, 64, 200}, 20), sample_host(dt, {2, 1, 200, 96}, 21), la, lb);
}

TEST_P(Matmul, EmptyOperands) {
  uint32_t seed = 300;
  for (const auto& [sa, sb] : {std::pair<Shape, Shape>{{3, 0}, {0, 4}},  // K = 0: zeros
                               {{0, 5}, {5, 4}},
                               {{3, 5}, {5, 0}},
                               {{0, 3, 5}, {5, 2}},
                               {{0}, {0}},
                               {{2, 0}, {0}}})
    check(sample_host(porta_float32, sa, next_seed(seed)), sample_host(porta_float32, sb, next_seed(seed)),
          Layout::Contiguous, Layout::Contiguous);
}

TEST_P(Matmul, Errors) {
  auto make = [&](DLDataType dt, const Shape& s) { return upload(sample_host(dt, s, 1), dev()); };
  Tensor a = make(porta_float32, {3, 4}), b = make(porta_float32, {5, 2}), v = make(porta_float32, {3});
  Tensor s = make(porta_float32, {}), i = make(porta_bool, {4, 2}), i2 = make(porta_bool, {3, 4});
  Tensor b1 = make(porta_float32, {2, 3, 4}), b2 = make(porta_float32, {3, 4, 2});
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_matmul(a, b, o); });
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_matmul(a, v, o); });
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_matmul(s, a, o); });
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_matmul(a, s, o); });
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_matmul(b1, b2, o); });
  expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return porta_matmul(i2, i, o); });
}

}  // namespace
}  // namespace conformance
