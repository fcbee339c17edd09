// porta_rand / porta_randn: counter-based Philox4x32-10, so the same (seed,
// offset) gives the same bits on every device, matching the host model of the
// spec in porta/ops.h; plus the statistics of 100000 samples.
#include <cmath>
#include <cstring>
#include <sstream>

#include "device_params.hpp"
#include "host_tensor.hpp"
#include "philox_reference.hpp"

namespace conformance {
namespace {

class Random : public DeviceTest {
 protected:
  using Factory = porta_status (*)(const int64_t*, int32_t, DLDataType, DLDevice, porta_tensor**);
  // Samples `shape` on `device` with the generator at (seed, offset); returns the raw bytes.
  std::vector<unsigned char> sample(Factory f, DLDataType dt, const Shape& shape, DLDevice device, uint64_t seed,
                                    uint64_t offset) {
    CHECK_OK(porta_generator_set_state(seed, offset));
    Tensor t;
    CHECK_OK(f(shape.data(), static_cast<int32_t>(shape.size()), dt, device, t.out()));
    EXPECT_EQ(shape_of(t), shape);
    EXPECT_TRUE(same_dtype(dtype_of(t), dt));
    std::vector<unsigned char> bytes(static_cast<size_t>(numel(shape)) * elem_size(dt) + 1);
    CHECK_OK(porta_tensor_to_host(t, bytes.data(), bytes.size() - 1));
    uint64_t s = 0, o = 0;
    CHECK_OK(porta_generator_get_state(&s, &o));
    EXPECT_EQ(s, seed);
    EXPECT_EQ(o, offset + static_cast<uint64_t>(numel(shape))) << "one counter per element";
    return bytes;
  }
  DLDevice cpu() const {
    DLDevice d{};
    CHECK_OK(porta_device_parse("cpu", &d));
    return d;
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Random);

struct State {
  uint64_t seed, offset;
};
// The offsets cross 2^32 so the counter's high word is exercised; the seeds use both key words.
const State kStates[] = {{0, 0}, {42, 0}, {0x123456789abcdef0ull, 17}, {7, (1ull << 32) - 5}, {~0ull, 123456789}};
const Shape kShapes[] = {{1000}, {7, 13}, {}, {3, 1, 5}, {100003}};

template <typename T>
T at(const std::vector<unsigned char>& bytes, size_t i) {
  T x;
  std::memcpy(&x, bytes.data() + i * sizeof(T), sizeof(T));
  return x;
}

// Reports the first five of the n elements for which `mismatch(i)` describes a difference.
template <typename Mismatch>
void expect_elements(DLDataType dt, int64_t n, Mismatch&& mismatch) {
  int bad = 0;
  for (int64_t i = 0; i < n && bad < 5; ++i)
    if (const std::string m = mismatch(i); !m.empty()) ++bad, ADD_FAILURE() << dtype_name(dt) << " element " << i << m;
}

// ": got <got>, want <want>", or "" when they `match`.
template <typename T>
std::string unless(bool match, T got, T want) {
  if (match) return "";
  std::ostringstream os;
  os << ": got " << got << ", want " << want;
  return os.str();
}

TEST_P(Random, UniformMatchesTheHostPhilox) {
  for (const State& st : kStates)
    for (const Shape& s : kShapes) {
      SCOPED_TRACE("seed " + std::to_string(st.seed) + " offset " + std::to_string(st.offset) + " " + shape_str(s));
      op_case("rand", porta_float32, [&] {
        const auto got = sample(porta_rand, porta_float32, s, dev(), st.seed, st.offset);
        expect_elements(porta_float32, numel(s), [&](int64_t i) {
          const float want = uniform_f32(st.seed, st.offset + i);
          return unless(at<float>(got, i) == want, at<float>(got, i), want);
        });
      });
      op_case("rand", porta_float64, [&] {
        const auto got = sample(porta_rand, porta_float64, s, dev(), st.seed, st.offset);
        expect_elements(porta_float64, numel(s), [&](int64_t i) {
          const double want = uniform_f64(st.seed, st.offset + i);
          return unless(at<double>(got, i) == want, at<double>(got, i), want);
        });
      });
    }
}

TEST_P(Random, NormalMatchesTheHostPhilox) {
  for (const State& st : kStates)
    for (const Shape& s : kShapes) {
      SCOPED_TRACE("seed " + std::to_string(st.seed) + " offset " + std::to_string(st.offset) + " " + shape_str(s));
      // libm's log/cos may differ by an ulp between devices: allow that, no more.
      op_case("randn", porta_float32, [&] {
        const auto got = sample(porta_randn, porta_float32, s, dev(), st.seed, st.offset);
        expect_elements(porta_float32, numel(s), [&](int64_t i) {
          const double want = normal_f64(st.seed, st.offset + i);
          const float g32 = at<float>(got, i);
          return unless(!(std::fabs(g32 - static_cast<float>(want)) > std::fabs(want) * 1.2e-7 + 1e-30), g32,
                        static_cast<float>(want));
        });
      });
      op_case("randn", porta_float64, [&] {
        const auto got = sample(porta_randn, porta_float64, s, dev(), st.seed, st.offset);
        expect_elements(porta_float64, numel(s), [&](int64_t i) {
          const double want = normal_f64(st.seed, st.offset + i);
          const double g64 = at<double>(got, i);
          return unless(!(std::fabs(g64 - want) > 1e-14 * std::max(1.0, std::fabs(want))), g64, want);
        });
      });
    }
}

TEST_P(Random, BitwiseIdenticalToTheCpuDevice) {
  for (auto [f, name] : {std::pair<Factory, const char*>{porta_rand, "rand"}, {porta_randn, "randn"}})
    for (DLDataType dt : {porta_float32, porta_float64})
      for (const State& st : kStates)
        op_case(name, dt, [&] {
          SCOPED_TRACE(std::string(name) + " " + dtype_name(dt) + " seed " + std::to_string(st.seed));
          const Shape s{4099};
          EXPECT_TRUE(sample(f, dt, s, dev(), st.seed, st.offset) == sample(f, dt, s, cpu(), st.seed, st.offset))
              << GetParam().name << " and cpu:0 differ";
        });
}

TEST_P(Random, ConsecutiveCallsContinueTheCounter) {
  CHECK_OK(porta_manual_seed(1234));
  uint64_t seed = 0, offset = 99;
  CHECK_OK(porta_generator_get_state(&seed, &offset));
  EXPECT_EQ(seed, 1234u);
  EXPECT_EQ(offset, 0u);
  const Shape a{10}, b{2, 3};
  Tensor x, y;
  CHECK_OK(porta_rand(a.data(), 1, porta_float32, dev(), x.out()));
  CHECK_OK(porta_rand(b.data(), 2, porta_float32, dev(), y.out()));
  const HostTensor hy = download(y);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(hy.v[i], uniform_f32(1234, 10 + i)) << "element " << i;
}

TEST_P(Random, StatisticsOfManySamples) {
  const Shape s{100000};
  CHECK_OK(porta_manual_seed(2024));
  const double n = 100000;
  // Five standard errors: sd(mean) = 0.29 / sqrt(n) for uniform, 1 / sqrt(n) for normal.
  for (DLDataType dt : {porta_float32, porta_float64}) {
    SCOPED_TRACE(dtype_name(dt));
    op_case("rand", dt, [&] {
      Tensor u;
      CHECK_OK(porta_rand(s.data(), 1, dt, dev(), u.out()));
      double su = 0, suu = 0, lo = 1, hi = 0;
      for (double x : download(u).v) su += x, suu += x * x, lo = std::min(lo, x), hi = std::max(hi, x);
      const double mu = su / n;
      EXPECT_GE(lo, 0.0);
      EXPECT_LT(hi, 1.0);
      EXPECT_NEAR(mu, 0.5, 0.005);
      EXPECT_NEAR(suu / n - mu * mu, 1.0 / 12.0, 0.002);
    });
    op_case("randn", dt, [&] {
      Tensor z;
      CHECK_OK(porta_randn(s.data(), 1, dt, dev(), z.out()));
      double sz = 0, szz = 0;
      for (double x : download(z).v) sz += x, szz += x * x;
      const double mz = sz / n;
      EXPECT_NEAR(mz, 0.0, 0.016);
      EXPECT_NEAR(std::sqrt(szz / n - mz * mz), 1.0, 0.012);
    });
  }
}

TEST_P(Random, IntegerDtypesAreRejected) {
  const Shape s{3};
  for (DLDataType dt : {porta_int32, porta_int64, porta_uint8, porta_bool}) {
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE,
                   [&](porta_tensor** o) { return porta_rand(s.data(), 1, dt, dev(), o); });
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE,
                   [&](porta_tensor** o) { return porta_randn(s.data(), 1, dt, dev(), o); });
  }
}

}  // namespace
}  // namespace conformance
