// contiguous / clone / copy_into on one device: copies are independent,
// copy_into broadcasts and casts, and overlapping source and destination are
// read before they are written.
#include "device_params.hpp"
#include "host_tensor.hpp"

namespace conformance {
namespace {

class Copy : public DeviceTest {
 protected:
  // Overwrites every element of `t` with 0 (through the API, not a view).
  void zero_fill(porta_tensor* t) {
    Tensor z;
    CHECK_OK(porta_zeros(nullptr, 0, porta_float64, dev(), z.out()));
    CHECK_OK(porta_copy_into(t, z));
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Copy);

TEST_P(Copy, ContiguousOfAContiguousTensorIsTheSameHandle) {
  for (DLDataType dt : kAllDtypes) {
    Tensor t = upload(sample_host(dt, {3, 4}, 1), dev()), c;
    CHECK_OK(porta_contiguous(t, c.out()));
    EXPECT_EQ(c.get(), t.get()) << dtype_name(dt);
  }
}

TEST_P(Copy, ContiguousOfAViewIsAnIndependentCopy) {
  uint32_t seed = 10;
  for (DLDataType dt : kAllDtypes)
    for (Layout layout : {Layout::Transposed, Layout::Strided}) {
      const HostTensor h = sample_host(dt, {4, 5}, seed++);
      op_case("contiguous", dt, [&] {
        SCOPED_TRACE(dtype_name(dt) + " " + layout_name(layout));
        Tensor t = upload(h, dev(), layout), c;
        ASSERT_FALSE(is_contiguous(t));
        CHECK_OK(porta_contiguous(t, c.out()));
        EXPECT_NE(c.get(), t.get());
        EXPECT_TRUE(is_contiguous(c));
        EXPECT_EQ(strides_of(c), contiguous_strides(h.shape));
        expect_close(download(c), h, kExact, "contiguous");
        zero_fill(c);
        expect_close(download(t), h, kExact, "the original after writing into its contiguous copy");
      });
    }
}

TEST_P(Copy, CloneIsAlwaysAnIndependentContiguousCopy) {
  uint32_t seed = 20;
  for (DLDataType dt : kAllDtypes)
    for (Layout layout : kAllLayouts)
      for (const Shape& s : {Shape{}, Shape{0, 2}, Shape{3, 4}}) {
        const HostTensor h = sample_host(dt, s, seed++);
        op_case("clone", dt, [&] {
          SCOPED_TRACE(dtype_name(dt) + " " + layout_name(layout) + " " + shape_str(s));
          Tensor t = upload(h, dev(), layout), c;
          CHECK_OK(porta_clone(t, c.out()));
          EXPECT_NE(c.get(), t.get());
          EXPECT_TRUE(is_contiguous(c));
          expect_close(download(c), h, kExact, "clone");
          zero_fill(c);
          expect_close(download(t), h, kExact, "the original after writing into its clone");
        });
      }
}

TEST_P(Copy, CopyIntoBroadcastsAndCasts) {
  struct Case {
    Shape src, dst;
  };
  const Case cases[] = {{{4}, {3, 4}},    {{}, {2, 3}},     {{1, 4}, {3, 4}},
                        {{3, 1}, {3, 4}}, {{3, 4}, {3, 4}}, {{4}, {0, 4}}};
  uint32_t seed = 30;
  for (const Case& c : cases)
    for (DLDataType from : kAllDtypes)
      for (DLDataType to : {porta_float32, porta_int32, porta_bool, porta_float64})
        for (Layout dst_layout : kAllLayouts) {
          const HostTensor src = sample_host(from, c.src, seed++, Values::Grid);
          const HostTensor dst = sample_host(to, c.dst, seed++);
          op_case("copy_into", to, [&] {
            SCOPED_TRACE(dtype_name(from) + " " + shape_str(c.src) + " -> " + dtype_name(to) + " " + shape_str(c.dst) +
                         " " + layout_name(dst_layout));
            Tensor s = upload(src, dev(), Layout::Transposed);
            Tensor d = upload(dst, dev(), dst_layout);
            CHECK_OK(porta_copy_into(d, s));
            expect_close(download(d), broadcast_host(cast_host(src, to), c.dst), kExact, "copy_into");
          });
        }
}

TEST_P(Copy, OverlappingSourceAndDestination) {
  HostTensor h = make_host(porta_int32, {10}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  for (bool forward : {true, false}) {
    SCOPED_TRACE(forward ? "base[1:] = base[:-1]" : "base[:-1] = base[1:]");
    Tensor base = upload(h, dev()), lo, hi;
    CHECK_OK(porta_slice(base, 0, 0, 9, 1, lo.out()));
    CHECK_OK(porta_slice(base, 0, 1, 10, 1, hi.out()));
    CHECK_OK(forward ? porta_copy_into(hi, lo) : porta_copy_into(lo, hi));
    HostTensor expected = h;
    for (int i = 0; i < 9; ++i) {
      if (forward)
        expected.v[i + 1] = h.v[i];
      else
        expected.v[i] = h.v[i + 1];
    }
    expect_close(download(base), expected, kExact, "overlapping copy_into");
  }
  // A transpose into itself: dst and src are the same storage, different geometry.
  HostTensor sq = make_host(porta_float64, {3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  Tensor base = upload(sq, dev()), tr;
  CHECK_OK(porta_transpose(base, 0, 1, tr.out()));
  CHECK_OK(porta_copy_into(base, tr));
  expect_close(download(base), make_host(porta_float64, {3, 3}, {0, 3, 6, 1, 4, 7, 2, 5, 8}), kExact, "x = x.T");
}

TEST_P(Copy, CopyIntoShapeMismatch) {
  Tensor a3 = upload(sample_host(porta_float32, {3}, 1), dev()), a4 = upload(sample_host(porta_float32, {4}, 2), dev());
  Tensor a23 = upload(sample_host(porta_float32, {2, 3}, 3), dev());
  EXPECT_EQ(porta_copy_into(a4, a3), PORTA_ERROR_SHAPE_MISMATCH) << porta_last_error();
  EXPECT_EQ(porta_copy_into(a3, a23), PORTA_ERROR_SHAPE_MISMATCH) << porta_last_error();  // dst cannot grow
}

}  // namespace
}  // namespace conformance
