// porta_where: cond ? a : b with promotion of a and b and three-way broadcasting.
#include "device_params.hpp"
#include "reference.hpp"

namespace conformance {
namespace {

class Where : public DeviceTest {
 protected:
  void check(const HostTensor& c, const HostTensor& a, const HostTensor& b, Layout layout) {
    op_case("where", promote(a.dtype, b.dtype), [&] {
      SCOPED_TRACE("where(" + shape_str(c.shape) + ", " + dtype_name(a.dtype) + " " + shape_str(a.shape) + ", " +
                   dtype_name(b.dtype) + " " + shape_str(b.shape) + ") " + layout_name(layout));
      Tensor tc = upload(c, dev(), layout), ta = upload(a, dev(), layout), tb = upload(b, dev(), layout), out;
      CHECK_OK(porta_where(tc, ta, tb, out.out()));
      expect_close(download(out), ref_where(c, a, b), kExact, "where");
    });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Where);

TEST_P(Where, EveryDtypePairAndLayout) {
  uint32_t seed = 1;
  for (DLDataType da : kAllDtypes)
    for (DLDataType db : kAllDtypes)
      for (Layout layout : kAllLayouts)
        check(sample_host(porta_bool, {4, 5}, next_seed(seed)), sample_host(da, {4, 5}, next_seed(seed)),
              sample_host(db, {4, 5}, next_seed(seed)), layout);
}

TEST_P(Where, ThreeWayBroadcasting) {
  struct Case {
    Shape c, a, b;
  };
  const Case cases[] = {{{3, 1}, {4}, {}},  {{}, {2, 3}, {3}}, {{2, 1, 4}, {3, 1}, {1, 4}}, {{5}, {}, {}},
                        {{0, 2}, {2}, {1}}, {{1}, {0}, {}},    {{2, 3}, {2, 3}, {2, 3}},    {{}, {}, {}}};
  uint32_t seed = 100;
  for (const Case& k : cases)
    for (DLDataType dt : {porta_float32, porta_int64})
      check(sample_host(porta_bool, k.c, next_seed(seed)), sample_host(dt, k.a, next_seed(seed)),
            sample_host(porta_float64, k.b, next_seed(seed)), Layout::Transposed);
}

TEST_P(Where, ConditionFromAComparisonOnTheDevice) {
  const HostTensor x = sample_host(porta_float32, {6, 7}, 7, Values::Grid);
  Tensor tx = upload(x, dev(), Layout::Transposed), cond, zero, out;
  CHECK_OK(porta_gt_scalar(tx, 0.0, cond.out()));
  CHECK_OK(porta_zeros(nullptr, 0, porta_float32, dev(), zero.out()));
  CHECK_OK(porta_where(cond, tx, zero, out.out()));  // relu by hand
  HostTensor ref = x;
  for (double& v : ref.v) v = v > 0 ? v : 0;
  expect_close(download(out), ref, kExact, "where(x > 0, x, 0)");
}

TEST_P(Where, Errors) {
  Tensor c = upload(sample_host(porta_bool, {3}, 1), dev()), a = upload(sample_host(porta_float32, {3}, 2), dev());
  Tensor not_bool = upload(sample_host(porta_int32, {3}, 3), dev()),
         wide = upload(sample_host(porta_float32, {4}, 4), dev());
  expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return porta_where(not_bool, a, a, o); });
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_where(c, a, wide, o); });
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_where(c, wide, a, o); });
}

}  // namespace
}  // namespace conformance
