// The storage dtypes (int8, int16, float16, bfloat16) on every device: each
// of the 65,536 bit patterns of both 16-bit floats widens to float32 exactly,
// float32 narrows as porta/float16.h (checked against ml_dtypes by
// tests/python/test_storage_dtypes.py) on a million patterns and every edge,
// and ops without a kernel of their own compute in float32 / int32 and
// round once, the same bits on every device.
#include <porta/float16.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

#include "device_params.hpp"
#include "reference.hpp"

namespace conformance {
namespace {

class StorageDtypes : public DeviceTest {};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(StorageDtypes);

template <class T>
Tensor from_host(const std::vector<T>& v, DLDataType dtype, DLDevice dev) {
  const int64_t n = static_cast<int64_t>(v.size());
  Tensor t;
  CHECK_OK(porta_tensor_from_host(v.data(), dtype, &n, 1, dev, t.out()));
  return t;
}

template <class T>
std::vector<T> to_host(const Tensor& t, size_t n) {
  std::vector<T> v(n);
  CHECK_OK(porta_tensor_to_host(t, v.data(), n * sizeof(T)));
  return v;
}

Tensor cast(const Tensor& t, DLDataType to) {
  Tensor out;
  CHECK_OK(porta_cast(t, to, out.out()));
  return out;
}

// Every 16-bit pattern, as the storage of a float16 or bfloat16 tensor.
std::vector<uint16_t> every_pattern() {
  std::vector<uint16_t> v(65536);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint16_t>(i);
  return v;
}

// float32 patterns: every 4099th of the 2^32, and around every float16 and
// bfloat16 value (the value, the ties halfway to its neighbours, one ulp
// either side of the ties), which holds every subnormal, overflow and NaN edge.
std::vector<uint32_t> float32_patterns() {
  std::vector<uint32_t> v;
  for (uint64_t u = 0; u < (1ull << 32); u += 4099) v.push_back(static_cast<uint32_t>(u));
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint32_t b = h << 16;  // a bfloat16 value, then its tie with the next one
    for (uint32_t d : {0u, 0x7fffu, 0x8000u, 0x8001u}) v.push_back(b + d);
    const uint32_t f = porta_float32_bits(porta_float16_to_float32(static_cast<uint16_t>(h)));
    for (int32_t d : {-1, 0, 1, 0xfff, 0x1000, 0x1001}) v.push_back(f + static_cast<uint32_t>(d));
  }
  return v;
}

TEST_P(StorageDtypes, EveryHalfPatternWidensExactly) {
  const std::vector<uint16_t> bits = every_pattern();
  for (DLDataType dt : {porta_float16, porta_bfloat16})
    op_case("cast", dt, [&] {
      const std::vector<uint32_t> got = to_host<uint32_t>(cast(from_host(bits, dt, dev()), porta_float32), bits.size());
      for (size_t i = 0; i < bits.size(); ++i) {
        const float want = dt.code == kDLFloat ? porta_float16_to_float32(bits[i]) : porta_bfloat16_to_float32(bits[i]);
        ASSERT_EQ(got[i], porta_float32_bits(want)) << dtype_name(dt) << " bits 0x" << std::hex << bits[i];
      }
      // and back: every pattern survives float32 (NaNs included: float16 keeps
      // its payload; bfloat16 NaNs become 0x7fc0 with their sign)
      const std::vector<uint16_t> back =
          to_host<uint16_t>(cast(cast(from_host(bits, dt, dev()), porta_float32), dt), bits.size());
      for (size_t i = 0; i < bits.size(); ++i) {
        const bool nan = dt.code == kDLBfloat && (bits[i] & 0x7fffu) > 0x7f80u;
        ASSERT_EQ(back[i], nan ? (bits[i] & 0x8000u) | 0x7fc0u : bits[i]) << dtype_name(dt) << std::hex << bits[i];
      }
    });
}

TEST_P(StorageDtypes, Float32NarrowsAsTheReference) {
  const std::vector<uint32_t> bits = float32_patterns();
  for (DLDataType dt : {porta_float16, porta_bfloat16})
    op_case("cast", dt, [&] {
      const std::vector<uint16_t> got = to_host<uint16_t>(cast(from_host(bits, porta_float32, dev()), dt), bits.size());
      for (size_t i = 0; i < bits.size(); ++i) {
        const float f = porta_float32_from_bits(bits[i]);
        const uint16_t want = dt.code == kDLFloat ? porta_float32_to_float16(f) : porta_float32_to_bfloat16(f);
        ASSERT_EQ(got[i], want) << dtype_name(dt) << " from float32 bits 0x" << std::hex << bits[i];
      }
    });
}

TEST_P(StorageDtypes, Float64AndInt64NarrowThroughFloat32) {
  // 1 + 2^-11 + 2^-40: float32 drops 2^-40, leaving a tie that goes to even
  // (PyTorch's rounding; NumPy's direct float64 rounding would go up).
  const std::vector<double> d = {1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40), 65519.0, 65520.0, -1e-8, 1e300};
  const std::vector<int64_t> i = {2049, -70000, (int64_t{1} << 53) + 1, 255};
  for (DLDataType dt : {porta_float16, porta_bfloat16})
    op_case("cast", dt, [&] {
      auto narrow = [&](double x) {
        const float f = static_cast<float>(x);
        return dt.code == kDLFloat ? porta_float32_to_float16(f) : porta_float32_to_bfloat16(f);
      };
      const std::vector<uint16_t> got_d = to_host<uint16_t>(cast(from_host(d, porta_float64, dev()), dt), d.size());
      for (size_t k = 0; k < d.size(); ++k) EXPECT_EQ(got_d[k], narrow(d[k])) << d[k];
      const std::vector<uint16_t> got_i = to_host<uint16_t>(cast(from_host(i, porta_int64, dev()), dt), i.size());
      for (size_t k = 0; k < i.size(); ++k) EXPECT_EQ(got_i[k], narrow(static_cast<double>(i[k]))) << i[k];
    });
}

TEST_P(StorageDtypes, NarrowIntegersTruncateAndFloatsGoThroughInt64) {
  const std::vector<double> f = {300.7, -1.5, -129.0, 70000.9, -32769.0, 127.9, std::nan("")};
  const std::vector<int64_t> i = {300, -129, 70000, -32769, 65535};
  for (DLDataType dt : {porta_int8, porta_int16})
    op_case("cast", dt, [&] {
      const bool is8 = dt.bits == 8;
      auto wrap = [&](int64_t x) { return is8 ? int64_t{static_cast<int8_t>(x)} : int64_t{static_cast<int16_t>(x)}; };
      const std::vector<int64_t> got_f =
          to_host<int64_t>(cast(cast(from_host(f, porta_float64, dev()), dt), porta_int64), f.size());
      for (size_t k = 0; k < f.size(); ++k)
        EXPECT_EQ(got_f[k], std::isnan(f[k]) ? 0 : wrap(static_cast<int64_t>(f[k]))) << f[k];
      const std::vector<int64_t> got_i =
          to_host<int64_t>(cast(cast(from_host(i, porta_int64, dev()), dt), porta_int64), i.size());
      for (size_t k = 0; k < i.size(); ++k) EXPECT_EQ(got_i[k], wrap(i[k])) << i[k];
    });
}

TEST_P(StorageDtypes, FullRoundsItsValueOnce) {
  for (DLDataType dt : {porta_float16, porta_bfloat16, porta_int8, porta_int16})
    op_case("full", dt, [&] {
      const int64_t shape[] = {3};
      Tensor t;
      CHECK_OK(porta_full(shape, 1, 0.1, dt, dev(), t.out()));
      const std::vector<double> got = to_host<double>(cast(t, porta_float64), 3);
      const double want = dt.code == kDLFloat    ? porta_float16_to_float32(porta_float32_to_float16(0.1f))
                          : dt.code == kDLBfloat ? porta_bfloat16_to_float32(porta_float32_to_bfloat16(0.1f))
                                                 : 0.0;
      for (double g : got) EXPECT_EQ(g, want);
    });
}

// An op of a 16-bit float computes in float32 and rounds once: the
// reference is the float32 op on the widened operands, narrowed.
TEST_P(StorageDtypes, FloatOpsRoundTheFloat32ResultOnce) {
  std::vector<float> a, b;
  for (int k = 0; k < 257; ++k) {
    a.push_back(std::ldexp(static_cast<float>(k % 17) - 8.3f, k % 9 - 4));
    b.push_back(std::ldexp(static_cast<float>(k % 13) + 0.37f, 3 - k % 7));
  }
  using Op = std::function<porta_status(porta_tensor*, porta_tensor*, porta_tensor**)>;
  const std::pair<const char*, Op> ops[] = {
      {"add", porta_add},
      {"mul", porta_mul},
      {"div", porta_div},
      {"exp", [](porta_tensor* x, porta_tensor*, porta_tensor** o) { return porta_exp(x, o); }},
      {"mul_scalar", [](porta_tensor* x, porta_tensor*, porta_tensor** o) { return porta_mul_scalar(x, 0.1, o); }},
  };
  for (DLDataType dt : {porta_float16, porta_bfloat16})
    for (const auto& [name, op] : ops)
      op_case(name, dt, [&, name = name, op = op] {
        Tensor x = cast(from_host(a, porta_float32, dev()), dt), y = cast(from_host(b, porta_float32, dev()), dt);
        Tensor xf = cast(x, porta_float32), yf = cast(y, porta_float32);
        Tensor got, want;
        CHECK_OK(op(x, y, got.out()));
        ASSERT_EQ(dtype_name(dtype_of(got)), dtype_name(dt)) << name;
        if (std::string(name) == "mul_scalar") {
          CHECK_OK(porta_mul_scalar(xf, 0.1, want.out()));  // x * float(0.1): never 0.1 rounded to dt first
        } else {
          CHECK_OK(op(xf, yf, want.out()));
        }
        const std::vector<uint16_t> g = to_host<uint16_t>(got, a.size()),
                                    w = to_host<uint16_t>(cast(want, dt), a.size());
        for (size_t k = 0; k < a.size(); ++k) ASSERT_EQ(g[k], w[k]) << name << " " << dtype_name(dt) << " at " << k;
      });
}

TEST_P(StorageDtypes, ReductionsAndMatmulAccumulateInFloat32) {
  const int64_t n = 64;
  std::vector<float> a(static_cast<size_t>(n * n));
  for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<float>((k * 37) % 101) / 50.0f - 1.0f;
  for (DLDataType dt : {porta_float16, porta_bfloat16})
    op_case("matmul", dt, [&] {
      Tensor flat = cast(from_host(a, porta_float32, dev()), dt), m, mf, p, pf, s, sf;
      const int64_t shape[] = {n, n};
      CHECK_OK(porta_reshape(flat, shape, 2, m.out()));
      mf = cast(m, porta_float32);
      CHECK_OK(porta_matmul(m, m, p.out()));
      CHECK_OK(porta_matmul(mf, mf, pf.out()));
      CHECK_OK(porta_sum(m, nullptr, 0, 0, s.out()));
      CHECK_OK(porta_sum(mf, nullptr, 0, 0, sf.out()));
      EXPECT_EQ(dtype_name(dtype_of(p)), dtype_name(dt));
      EXPECT_EQ(dtype_name(dtype_of(s)), dtype_name(dt));
      // float32 accumulation, one rounding at the end: the low-precision
      // result is the float32 result narrowed (a GEMM's own order may differ
      // from another's in float32's last bits, which narrowing hides but for
      // a value on a tie: allow one unit in the last place of dt).
      const std::vector<float> got = to_host<float>(cast(p, porta_float32), static_cast<size_t>(n * n));
      const std::vector<float> want = to_host<float>(cast(cast(pf, dt), porta_float32), static_cast<size_t>(n * n));
      const double ulp = dt.code == kDLFloat ? std::ldexp(1.0, -10) : std::ldexp(1.0, -7);
      for (size_t k = 0; k < got.size(); ++k) ASSERT_NEAR(got[k], want[k], std::fabs(want[k]) * ulp + 1e-6) << k;
      const std::vector<float> gs = to_host<float>(cast(s, porta_float32), 1);
      const std::vector<float> ws = to_host<float>(cast(cast(sf, dt), porta_float32), 1);
      EXPECT_NEAR(gs[0], ws[0], std::fabs(ws[0]) * ulp);
    });
}

TEST_P(StorageDtypes, NarrowIntegersWrapAndPromoteAsPyTorch) {
  for (DLDataType dt : {porta_int8, porta_int16})
    op_case("add", dt, [&] {
      const std::vector<int64_t> v = {100, 120, -128, 30000 % (dt.bits == 8 ? 128 : 32768)};
      Tensor x = cast(from_host(v, porta_int64, dev()), dt), sum, total;
      CHECK_OK(porta_add(x, x, sum.out()));
      EXPECT_EQ(dtype_name(dtype_of(sum)), dtype_name(dt));
      const std::vector<int64_t> got = to_host<int64_t>(cast(sum, porta_int64), v.size());
      for (size_t k = 0; k < v.size(); ++k)
        EXPECT_EQ(got[k],
                  dt.bits == 8 ? int64_t{static_cast<int8_t>(2 * v[k])} : int64_t{static_cast<int16_t>(2 * v[k])});
      CHECK_OK(porta_sum(x, nullptr, 0, 0, total.out()));  // integer sums accumulate in int64
      EXPECT_EQ(dtype_name(dtype_of(total)), "int64");
    });
  op_case("add", porta_int8, [&] {
    Tensor u = from_host(std::vector<uint8_t>{200}, porta_uint8, dev()),
           s = from_host(std::vector<int8_t>{-1}, porta_int8, dev());
    Tensor h = cast(s, porta_float16), b = cast(s, porta_bfloat16), us, hb, hi;
    CHECK_OK(porta_add(u, s, us.out()));
    EXPECT_EQ(dtype_name(dtype_of(us)), "int16");  // uint8 with int8 meet in int16
    EXPECT_EQ(to_host<int16_t>(us, 1)[0], 199);
    CHECK_OK(porta_add(h, b, hb.out()));
    EXPECT_EQ(dtype_name(dtype_of(hb)), "float32");  // float16 with bfloat16 meet in float32
    CHECK_OK(porta_add(h, s, hi.out()));
    EXPECT_EQ(dtype_name(dtype_of(hi)), "float16");  // integers with a float take the float
  });
}

}  // namespace
}  // namespace conformance
