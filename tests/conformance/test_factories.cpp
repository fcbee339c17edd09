// empty / full / zeros / ones / arange on every device and dtype.
#include <cmath>

#include "device_params.hpp"
#include "host_tensor.hpp"

namespace conformance {
namespace {

class Factories : public DeviceTest {};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Factories);

const Shape kShapes[] = {{}, {0}, {5}, {3, 4}, {2, 0, 3}, {2, 3, 4}};

int32_t nd(const Shape& s) { return static_cast<int32_t>(s.size()); }

TEST_P(Factories, EmptyHasContiguousMetadata) {
  for (DLDataType dt : kAllDtypes)
    for (const Shape& s : kShapes) {
      SCOPED_TRACE(dtype_name(dt) + " " + shape_str(s));
      Tensor t;
      CHECK_OK(porta_tensor_empty(dt, s.data(), nd(s), dev(), t.out()));
      EXPECT_TRUE(same_dtype(dtype_of(t), dt));
      EXPECT_EQ(shape_of(t), s);
      EXPECT_EQ(numel_of(t), numel(s));
      EXPECT_TRUE(is_contiguous(t));
      EXPECT_EQ(byte_offset_of(t), 0u);
      EXPECT_EQ(device_string(device_of(t)), GetParam().name);
      if (numel(s) > 0) {
        EXPECT_EQ(strides_of(t), contiguous_strides(s));
      }
    }
}

TEST_P(Factories, FullConvertsTheValueToEachDtype) {
  for (double value : {2.75, -1.5, 0.0, 1.0, 100.0, -0.25}) {
    for (DLDataType dt : kAllDtypes) {
      if (dt.code == kDLUInt && value < 0) continue;  // negative to uint8 is not a defined conversion
      for (const Shape& s : kShapes)
        op_case("full", dt, [&] {
          SCOPED_TRACE(dtype_name(dt) + " " + shape_str(s) + " value " + std::to_string(value));
          Tensor t;
          CHECK_OK(porta_full(s.data(), nd(s), value, dt, dev(), t.out()));
          const HostTensor ref{dt, s, std::vector<double>(static_cast<size_t>(numel(s)), store_as(dt, value))};
          expect_close(download(t), ref, kExact, "full");
        });
    }
  }
}

TEST_P(Factories, ZerosAndOnes) {
  for (DLDataType dt : kAllDtypes)
    for (const Shape& s : kShapes) {
      SCOPED_TRACE(dtype_name(dt) + " " + shape_str(s));
      const size_t n = static_cast<size_t>(numel(s));
      op_case("zeros", dt, [&] {
        Tensor z;
        CHECK_OK(porta_zeros(s.data(), nd(s), dt, dev(), z.out()));
        expect_close(download(z), HostTensor{dt, s, std::vector<double>(n, 0.0)}, kExact, "zeros");
      });
      op_case("ones", dt, [&] {
        Tensor o;
        CHECK_OK(porta_ones(s.data(), nd(s), dt, dev(), o.out()));
        expect_close(download(o), HostTensor{dt, s, std::vector<double>(n, 1.0)}, kExact, "ones");
      });
    }
}

TEST_P(Factories, FullRejectsNonFiniteIntegers) {
  const Shape s{2};
  for (DLDataType dt : {porta_int32, porta_int64, porta_uint8, porta_bool})
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT,
                   [&](porta_tensor** o) { return porta_full(s.data(), 1, NAN, dt, dev(), o); });
}

// NumPy's arange: ceil((end - start) / step) elements, start + i * step in double, then stored.
HostTensor arange_ref(double start, double end, double step, DLDataType dt) {
  const int64_t n = static_cast<int64_t>(std::max(0.0, std::ceil((end - start) / step)));
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(start + static_cast<double>(i) * step);
  return make_host(dt, {n}, v);
}

TEST_P(Factories, Arange) {
  struct Case {
    double start, end, step;
  };
  const Case cases[] = {{0, 10, 1}, {0.5, 3.2, 0.3}, {10, 0, -3},  {0, 5, 1.5}, {3, 3, 1},
                        {1, 0, 1},  {-2, 2, 0.5},    {0, 1000, 7}, {0, 1, 0.1}};
  for (DLDataType dt : kAllDtypes) {
    if (is_bool(dt)) continue;  // rejected: ArangeErrors
    for (const Case& c : cases) {
      const HostTensor ref = arange_ref(c.start, c.end, c.step, dt);
      if (dt.code == kDLUInt && c.start < 0) continue;
      if (c.end < c.start && c.step > 0) continue;  // rejected: ArangeErrors
      op_case("arange", dt, [&] {
        SCOPED_TRACE(dtype_name(dt) + " arange(" + std::to_string(c.start) + ", " + std::to_string(c.end) + ", " +
                     std::to_string(c.step) + ")");
        Tensor t;
        CHECK_OK(porta_arange(c.start, c.end, c.step, dt, dev(), t.out()));
        expect_close(download(t), ref, kExact, "arange");
      });
    }
  }
}

TEST_P(Factories, ArangeErrors) {
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT,
                 [&](porta_tensor** o) { return porta_arange(0, 5, 0, porta_float32, dev(), o); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT,
                 [&](porta_tensor** o) { return porta_arange(0, 5, -1, porta_float32, dev(), o); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT,
                 [&](porta_tensor** o) { return porta_arange(0, INFINITY, 1, porta_float32, dev(), o); });
  expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE,
                 [&](porta_tensor** o) { return porta_arange(0, 5, 1, porta_bool, dev(), o); });
}

TEST_P(Factories, UnsupportedDtypeIsRejected) {
  const Shape s{2};
  const DLDataType f8{kDLFloat, 8, 1}, vec{kDLFloat, 32, 4}, u16{kDLUInt, 16, 1};
  for (DLDataType dt : {f8, vec, u16}) {
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE,
                   [&](porta_tensor** o) { return porta_tensor_empty(dt, s.data(), 1, dev(), o); });
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE,
                   [&](porta_tensor** o) { return porta_full(s.data(), 1, 1.0, dt, dev(), o); });
  }
}

}  // namespace
}  // namespace conformance
