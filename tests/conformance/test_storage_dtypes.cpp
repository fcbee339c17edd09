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

// The float32 route reads and writes operands of every layout: transposed
// and permuted views (converted as their memory block), broadcast ones (their
// distinct elements once) and an in-place write through a permuted view,
// with the bits of the same op on float32 copies rounded once.
TEST_P(StorageDtypes, PermutedAndBroadcastOperandsGiveTheSameBits) {
  std::vector<float> v(60), b(4);
  for (size_t k = 0; k < v.size(); ++k)
    v[k] = std::ldexp(static_cast<float>(k % 11) - 5.3f, static_cast<int>(k % 5) - 2);
  for (size_t k = 0; k < b.size(); ++k) b[k] = 0.37f * static_cast<float>(k + 1);
  for (DLDataType dt : {porta_float16, porta_bfloat16})
    op_case("add", dt, [&] {
      const int64_t shape[] = {3, 4, 5}, bshape[] = {1, 4, 1};
      const int32_t perm[] = {2, 0, 1};
      Tensor flat = cast(from_host(v, porta_float32, dev()), dt), x, xp,
             bflat = cast(from_host(b, porta_float32, dev()), dt), bias, be;
      CHECK_OK(porta_reshape(flat, shape, 3, x.out()));
      CHECK_OK(porta_permute(x, perm, 3, xp.out()));  // [5, 3, 4], strides (1, 20, 5)
      CHECK_OK(porta_reshape(bflat, bshape, 3, bias.out()));
      CHECK_OK(porta_expand(bias, shape, 3, be.out()));  // [3, 4, 5], strides (0, 1, 0)
      auto bits = [&](porta_tensor* t) {
        Tensor c;
        CHECK_OK(porta_contiguous(t, c.out()));
        return to_host<uint16_t>(c, static_cast<size_t>(numel_of(c)));
      };
      Tensor xf = cast(x, porta_float32), xpf, bef = cast(be, porta_float32);
      CHECK_OK(porta_permute(xf, perm, 3, xpf.out()));
      Tensor got, want;
      CHECK_OK(porta_exp(xp, got.out()));  // a permuted input
      CHECK_OK(porta_exp(xpf, want.out()));
      EXPECT_EQ(bits(got), bits(cast(want, dt))) << "exp of a permuted view";
      CHECK_OK(porta_add(x, be, got.out()));  // a broadcast input
      CHECK_OK(porta_add(xf, bef, want.out()));
      EXPECT_EQ(bits(got), bits(cast(want, dt))) << "add of a broadcast operand";
      const int32_t dims[] = {0, 2};
      CHECK_OK(porta_sum(xp, dims, 2, 0, got.out()));  // a reduction over a permuted view
      CHECK_OK(porta_sum(xpf, dims, 2, 0, want.out()));
      const std::vector<float> gs = to_host<float>(cast(got, porta_float32), 3),
                               ws = to_host<float>(cast(cast(want, dt), porta_float32), 3);
      const double ulp = dt.code == kDLFloat ? std::ldexp(1.0, -10) : std::ldexp(1.0, -7);
      for (size_t i = 0; i < gs.size(); ++i) EXPECT_NEAR(gs[i], ws[i], std::fabs(ws[i]) * ulp) << "sum " << i;
      // In place through the permuted view: x's memory takes the rounded products.
      CHECK_OK(porta_binary_scalar_inplace(PORTA_OP_MUL, xp, 0.3));
      CHECK_OK(porta_binary_scalar_inplace(PORTA_OP_MUL, xpf, 0.3));
      EXPECT_EQ(bits(x), bits(cast(xf, dt))) << "mul_ in place through a permuted view";
    });
}

// A plugin's own half GEMM (cuda's cublasGemmStridedBatchedEx) as much as
// the core's float32 route: transposed and broadcast operands, alpha and
// beta, and an empty inner dimension give the float32 result rounded once.
TEST_P(StorageDtypes, MatmulLayoutsAndScalesRoundTheFloat32ResultOnce) {
  auto values = [](int64_t n, int salt) {
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>((k * 29 + salt) % 83) / 41.0f - 1.0f;
    return v;
  };
  auto shaped = [&](std::vector<int64_t> shape, int salt, DLDataType dt) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    Tensor flat = cast(from_host(values(n, salt), porta_float32, dev()), dt), t;
    CHECK_OK(porta_reshape(flat, shape.data(), static_cast<int32_t>(shape.size()), t.out()));
    return t;
  };
  for (DLDataType dt : {porta_float16, porta_bfloat16})
    op_case("matmul", dt, [&] {
      // a [3, 6, 5] @ b [5, 4] seen through a transpose, then broadcast to
      // the batch; c [3, 6, 4] scaled by beta.
      Tensor a = shaped({3, 6, 5}, 1, dt), bt = shaped({4, 5}, 2, dt), c = shaped({3, 6, 4}, 3, dt), b, be;
      CHECK_OK(porta_transpose(bt, 0, 1, b.out()));
      const int64_t b_target[] = {3, 5, 4};
      CHECK_OK(porta_expand(b, b_target, 3, be.out()));
      Tensor empty_a = shaped({6, 0}, 4, dt), empty_b = shaped({0, 4}, 5, dt), c2 = shaped({6, 4}, 6, dt);
      struct Case {
        const char* name;
        std::function<porta_status(porta_tensor*, porta_tensor*, porta_tensor*, porta_tensor**)> run;
        porta_tensor *a, *b, *c;
      };
      const Case cases[] = {
          {"matmul",
           [](porta_tensor* x, porta_tensor* y, porta_tensor*, porta_tensor** o) { return porta_matmul(x, y, o); }, a,
           b, nullptr},
          {"baddbmm",
           [](porta_tensor* x, porta_tensor* y, porta_tensor* z, porta_tensor** o) {
             return porta_baddbmm(z, x, y, 0.5, 2.0, o);
           },
           a, be, c},
          {"addmm, K = 0",
           [](porta_tensor* x, porta_tensor* y, porta_tensor* z, porta_tensor** o) {
             return porta_addmm(z, x, y, 0.75, 2.0, o);
           },
           empty_a, empty_b, c2},
      };
      for (const Case& k : cases) {
        SCOPED_TRACE(k.name);
        auto widen = [](porta_tensor* t) {
          Tensor o;
          if (t) CHECK_OK(porta_cast(t, porta_float32, o.out()));
          return o;
        };
        Tensor got, want, af = widen(k.a), bf = widen(k.b), cf = widen(k.c);
        CHECK_OK(k.run(k.a, k.b, k.c, got.out()));
        CHECK_OK(k.run(af, bf, cf, want.out()));
        ASSERT_EQ(dtype_name(dtype_of(got)), dtype_name(dt));
        const size_t n = static_cast<size_t>(numel_of(want));
        const std::vector<float> g = to_host<float>(cast(got, porta_float32), n);
        const std::vector<float> w = to_host<float>(cast(cast(want, dt), porta_float32), n);
        const double ulp = dt.code == kDLFloat ? std::ldexp(1.0, -10) : std::ldexp(1.0, -7);
        for (size_t i = 0; i < n; ++i) ASSERT_NEAR(g[i], w[i], std::fabs(w[i]) * ulp + 1e-6) << i;
      }
    });
}

// A convolution and both its gradients (cpu's oneDNN bfloat16 kernels, or
// the float32 route) give the float32 results rounded once: the weight
// gradient's per-thread parts are summed before that one rounding.
TEST_P(StorageDtypes, Conv2dAndItsGradientsRoundTheFloat32ResultOnce) {
  auto shaped = [&](std::vector<int64_t> shape, int salt, DLDataType dt) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>((k * 31 + salt) % 97) / 48.0f - 1.0f;
    Tensor flat = cast(from_host(v, porta_float32, dev()), dt), t;
    CHECK_OK(porta_reshape(flat, shape.data(), static_cast<int32_t>(shape.size()), t.out()));
    return t;
  };
  porta_conv2d_options options{};
  options.struct_size = sizeof options;
  options.stride[0] = options.stride[1] = 1;
  options.padding[0] = options.padding[1] = 1;
  options.dilation[0] = options.dilation[1] = 1;
  // y, dL/dx and dL/dw for L = sum(y * g), computed in dtype `as` from x, w, g of dt.
  auto run = [&](porta_tensor* x0, porta_tensor* w0, porta_tensor* g0, DLDataType as) {
    std::vector<Tensor> out(3);
    Tensor xc, wc, x, w, g, y, xg, wg;
    CHECK_OK(porta_cast(x0, as, xc.out()));  // (x0 itself when `as` is its dtype: leaves of their own below)
    CHECK_OK(porta_cast(w0, as, wc.out()));
    CHECK_OK(porta_detach(xc, x.out()));
    CHECK_OK(porta_detach(wc, w.out()));
    CHECK_OK(porta_cast(g0, as, g.out()));
    CHECK_OK(porta_tensor_set_requires_grad(x, 1));
    CHECK_OK(porta_tensor_set_requires_grad(w, 1));
    CHECK_OK(porta_conv2d(x, w, nullptr, &options, y.out()));
    CHECK_OK(porta_backward(y, g));
    CHECK_OK(porta_tensor_grad(x, xg.out()));
    CHECK_OK(porta_tensor_grad(w, wg.out()));
    for (porta_tensor* t : {y.get(), xg.get(), wg.get()}) EXPECT_EQ(dtype_name(dtype_of(t)), dtype_name(as));
    out[0] = std::move(y), out[1] = std::move(xg), out[2] = std::move(wg);
    return out;
  };
  for (DLDataType dt : {porta_float16, porta_bfloat16})
    op_case("conv2d", dt, [&] {
      Tensor x = shaped({4, 3, 9, 9}, 1, dt), w = shaped({5, 3, 3, 3}, 2, dt), g = shaped({4, 5, 9, 9}, 3, dt);
      std::vector<Tensor> got = run(x, w, g, dt), want = run(x, w, g, porta_float32);
      const char* names[] = {"y", "x.grad", "w.grad"};
      const double ulp = dt.code == kDLFloat ? std::ldexp(1.0, -10) : std::ldexp(1.0, -7);
      for (size_t r = 0; r < 3; ++r) {
        SCOPED_TRACE(names[r]);
        const size_t n = static_cast<size_t>(numel_of(want[r]));
        const std::vector<float> gv = to_host<float>(cast(got[r], porta_float32), n);
        const std::vector<float> wv = to_host<float>(cast(cast(want[r], dt), porta_float32), n);
        // float32 sums in another order may sit on the other side of a tie: one ulp of dt.
        for (size_t i = 0; i < n; ++i) ASSERT_NEAR(gv[i], wv[i], std::fabs(wv[i]) * ulp + 1e-4) << i;
      }
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
