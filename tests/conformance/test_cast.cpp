// porta_cast between every pair of dtypes: floats to integers truncate toward
// zero, anything nonzero to bool is 1, on contiguous and strided inputs.
#include <cmath>
#include <string>

#include "device_params.hpp"
#include "reference.hpp"

namespace conformance {
namespace {

class Cast : public DeviceTest {};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Cast);

// Source values for a cast from -> to that every conversion defines (no
// negative values into or out of uint8, everything in range).
HostTensor cast_source(DLDataType from, DLDataType to) {
  std::vector<double> v;
  for (double x : {0.0, 1.0, 3.0, 7.9, -2.6, 100.25, -0.4, 0.6, 127.0, -128.0, 0.5, -7.5, 2.0, 1e-3})
    if (x >= 0 || (from.code != kDLUInt && to.code != kDLUInt)) v.push_back(x);
  HostTensor t = make_host(from, {static_cast<int64_t>(v.size())}, v);
  return t;
}

TEST_P(Cast, EveryDtypePair) {
  for (DLDataType from : kAllDtypes)
    for (DLDataType to : kAllDtypes)
      for (Layout layout : {Layout::Contiguous, Layout::Strided})
        op_case("cast", to, [&] {
          SCOPED_TRACE(dtype_name(from) + " -> " + dtype_name(to) + " " + layout_name(layout));
          const HostTensor src = cast_source(from, to);
          Tensor t = upload(src, dev(), layout), out;
          CHECK_OK(porta_cast(t, to, out.out()));
          EXPECT_EQ(device_string(device_of(out)), GetParam().name);
          expect_close(download(out), cast_host(src, to), kExact, "cast");
        });
}

TEST_P(Cast, TwoDimensionalTransposedInput) {
  for (DLDataType from : {porta_float64, porta_int64, porta_bool})
    for (DLDataType to : kAllDtypes)
      op_case("cast", to, [&] {
        HostTensor src = sample_host(from, {4, 3}, 9, Values::Grid);
        if (to.code == kDLUInt)
          for (double& x : src.v) x = std::fabs(x);
        SCOPED_TRACE(dtype_name(from) + " -> " + dtype_name(to));
        Tensor t = upload(src, dev(), Layout::Transposed), out;
        CHECK_OK(porta_cast(t, to, out.out()));
        expect_close(download(out), cast_host(src, to), kExact, "cast");
      });
}

TEST_P(Cast, LargeTransposedInput) {
  const HostTensor src = sample_host(porta_float64, {1001, 1031}, 10, Values::Grid);
  for (DLDataType to : {porta_float32, porta_int32, porta_bool})
    op_case("cast", to, [&] {
      SCOPED_TRACE("float64 -> " + dtype_name(to));
      Tensor t = upload(src, dev(), Layout::Transposed), out;
      CHECK_OK(porta_cast(t, to, out.out()));
      expect_close(download(out), cast_host(src, to), kExact, "cast");
    });
}

TEST_P(Cast, SameDtypeReturnsTheSameHandle) {
  for (DLDataType dt : kAllDtypes) {
    Tensor t = upload(sample_host(dt, {3}, 1), dev()), out;
    CHECK_OK(porta_cast(t, dt, out.out()));
    EXPECT_EQ(out.get(), t.get()) << dtype_name(dt);
  }
}

TEST_P(Cast, ZeroDimAndEmpty) {
  for (DLDataType from : kAllDtypes)
    for (DLDataType to : kAllDtypes)
      for (const Shape& s : {Shape{}, Shape{0}, Shape{2, 0}})
        op_case("cast", to, [&] {
          SCOPED_TRACE(dtype_name(from) + " -> " + dtype_name(to) + " " + shape_str(s));
          HostTensor src = make_host(from, s, std::vector<double>(static_cast<size_t>(numel(s)), 5.75));
          Tensor t = upload(src, dev()), out;
          CHECK_OK(porta_cast(t, to, out.out()));
          expect_close(download(out), cast_host(src, to), kExact, "cast");
        });
}

}  // namespace
}  // namespace conformance

namespace conformance {
namespace {

// The plugin ABI minor the plugin serving `device` declares ("1.11").
std::string declared_minor(DLDevice device) {
  int32_t n = 0;
  if (porta_plugin_count(&n) != PORTA_OK) return "unknown";
  for (int32_t i = 0; i < n; ++i) {
    porta_plugin_info info{};
    info.struct_size = sizeof info;
    if (porta_plugin_get_info(i, &info) == PORTA_OK && info.state == PORTA_PLUGIN_LOADED &&
        info.device_type == static_cast<int32_t>(device.device_type))
      return std::to_string(info.abi_major) + "." + std::to_string(info.abi_minor);
  }
  return "unknown";
}

// What ops.h defines for values a float cannot keep in an integer: NaN is 0,
// beyond the range (infinities too) the minimum or maximum, uint8 through
// int64. The same answer on every device, where C++ would be undefined. A
// rule of plugin ABI 1.3: a plugin built against today's headers is bound by
// it, and a failure says so; for one declaring an older minor the core
// converts on the host itself (core/src/runtime/kernel_rules.hpp).
TEST_P(Cast, FloatsBeyondTheIntegerRangeSaturateAndNaNIsZero) {
  SCOPED_TRACE("a rule of plugin ABI 1.3 (porta/ops.h, PORTA_OP_KIND_COPY: float to integer casts saturate, NaN "
               "gives 0); this plugin declares plugin ABI " + declared_minor(dev()));
  const double nan = std::nan(""), inf = INFINITY;
  const double i32max = 2147483647.0, i32min = -2147483648.0;
  const double i64max = 9223372036854775807.0, i64min = -9223372036854775808.0;
  struct Expect {
    DLDataType to;
    std::vector<double> in, out;
  };
  const std::vector<Expect> cases = {
      {porta_int32, {nan, inf, -inf, 3e9, -3e9, 1e20, -2.5, 2147483520.0},
       {0, i32max, i32min, i32max, i32min, i32max, -2, 2147483520.0}},
      {porta_int64, {nan, inf, -inf, 1e19, -1e19, -2.5}, {0, i64max, i64min, i64max, i64min, -2}},
      {porta_uint8, {nan, 300.7, -1.5, 255.9, 1e30, -1e30}, {0, 44, 255, 255, 255, 0}},
      {porta_bool, {nan, 0.0, -0.0, inf}, {1, 0, 0, 1}},
  };
  for (DLDataType from : {porta_float32, porta_float64})
    for (const Expect& e : cases)
      op_case("cast", e.to, [&] {
        SCOPED_TRACE(std::string("cast ") + dtype_name(from) + " -> " + dtype_name(e.to));
        const HostTensor src = make_host(from, {static_cast<int64_t>(e.in.size())}, e.in);
        Tensor t = upload(src, dev()), out;
        CHECK_OK(porta_cast(t, e.to, out.out()));
        expect_close(download(out), make_host(e.to, src.shape, e.out), kExact, "cast");
      });
}

}  // namespace
}  // namespace conformance
