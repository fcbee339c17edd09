// The storage dtypes (int8, int16, float16, bfloat16) on opencl:0: FULL,
// COPY and CAST give exactly the bits the host gives. The 16-bit floats are
// checked against porta/float16.h itself (every float16 and bfloat16 pattern
// widened, a sweep of float32 patterns and every rounding boundary narrowed);
// casts between all ten dtypes, fills and strided copies against the cpu
// device, byte for byte (NaN payloads, subnormals, ties and infinities
// included). float64 is left out where the device lacks cl_khr_fp64.
#include <dlpack/dlpack.h>
#include <gtest/gtest.h>
#include <porta/float16.h>
#include <porta/porta.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../conformance/tensor_handle.hpp"

namespace {

using conformance::Tensor;
using Bytes = std::vector<uint8_t>;

const DLDevice kOpencl{kDLOpenCL, 0};
const DLDevice kCpu{kDLCPU, 0};

struct Dtype {
  DLDataType type;
  const char* name;
};
const Dtype kDtypes[] = {{porta_bool, "bool"},        {porta_uint8, "uint8"},     {porta_int32, "int32"},
                         {porta_int64, "int64"},      {porta_float32, "float32"}, {porta_float64, "float64"},
                         {porta_int8, "int8"},        {porta_int16, "int16"},     {porta_float16, "float16"},
                         {porta_bfloat16, "bfloat16"}};
const Dtype kStorageDtypes[] = {kDtypes[6], kDtypes[7], kDtypes[8], kDtypes[9]};

bool same(DLDataType a, DLDataType b) { return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes; }
size_t element_size(DLDataType t) { return t.bits / 8u; }

bool has_opencl_device() {
  int n = 0;
  return porta_device_count("opencl", &n) == PORTA_OK && n > 0;
}

#define REQUIRE_OPENCL_DEVICE() \
  if (!has_opencl_device()) GTEST_SKIP() << "no OpenCL device"

// Whether opencl:0 has float64 kernels (cl_khr_fp64).
bool opencl_has_float64() {
  const int64_t shape[] = {1};
  porta_tensor* t = nullptr;
  const bool ok = porta_full(shape, 1, 0.0, porta_float64, kOpencl, &t) == PORTA_OK;
  porta_tensor_release(t);
  return ok;
}

// The dtypes to check on opencl:0.
std::vector<Dtype> dtypes_under_test() {
  std::vector<Dtype> out;
  const bool fp64 = opencl_has_float64();
  for (const Dtype& d : kDtypes)
    if (fp64 || !same(d.type, porta_float64)) out.push_back(d);
  return out;
}

// A 1-D tensor on `device` holding `bytes` as elements of `dtype`.
Tensor upload(const Bytes& bytes, DLDataType dtype, DLDevice device) {
  const int64_t n = static_cast<int64_t>(bytes.size() / element_size(dtype));
  Tensor t;
  CHECK_OK(porta_tensor_from_host(bytes.data(), dtype, &n, 1, device, t.out()));
  return t;
}

Bytes download(porta_tensor* t) {
  DLDataType dtype{};
  int64_t n = 0;
  CHECK_OK(porta_tensor_dtype(t, &dtype));
  CHECK_OK(porta_tensor_numel(t, &n));
  Bytes out(static_cast<size_t>(n) * element_size(dtype));
  CHECK_OK(porta_tensor_to_host(t, out.data(), out.size()));
  return out;
}

Tensor cast(porta_tensor* t, DLDataType dtype) {
  Tensor out;
  CHECK_OK(porta_cast(t, dtype, out.out()));
  return out;
}

template <class T>
Bytes bytes_of(const std::vector<T>& v) {
  Bytes out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

template <class T>
std::vector<T> values_of(const Bytes& b) {
  std::vector<T> out(b.size() / sizeof(T));
  std::memcpy(out.data(), b.data(), b.size());
  return out;
}

// Element i of `bytes` (elements of `size` bytes) as hex, for messages.
std::string element_hex(const Bytes& bytes, size_t size, size_t i) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s = "0x";
  for (size_t k = size; k-- > 0;) {
    const uint8_t b = bytes[i * size + k];  // little-endian: the top byte last
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

// The elements a result was made from (of `size` bytes), for messages.
struct Source {
  const Bytes* bytes = nullptr;
  size_t size = 0;
};

// Expects equal bytes, naming the first differing elements (of `size` bytes)
// with the source element each was made from.
void expect_same_bytes(const Bytes& got, const Bytes& want, size_t size, const std::string& what, Source from = {}) {
  ASSERT_EQ(got.size(), want.size()) << what;
  size_t differing = 0;
  for (size_t i = 0; i < got.size() / size; ++i) {
    if (std::memcmp(&got[i * size], &want[i * size], size) == 0) continue;
    if (++differing <= 8)
      ADD_FAILURE() << what << ": element " << i
                    << (from.bytes ? " (from " + element_hex(*from.bytes, from.size, i) + ")" : std::string()) << " is "
                    << element_hex(got, size, i) << ", expected " << element_hex(want, size, i);
  }
  EXPECT_EQ(differing, 0u) << what << ": elements that differ";
}

// ---- float16 and bfloat16 against porta/float16.h

std::vector<uint16_t> every_16_bit_pattern() {
  std::vector<uint16_t> v(65536);
  for (uint32_t i = 0; i < 65536; ++i) v[i] = static_cast<uint16_t>(i);
  return v;
}

TEST(OpenclStorageDtypes, EveryFloat16AndBfloat16PatternWidensExactly) {
  REQUIRE_OPENCL_DEVICE();
  const std::vector<uint16_t> patterns = every_16_bit_pattern();
  const Bytes source = bytes_of(patterns);
  for (const bool bf16 : {false, true}) {
    std::vector<uint32_t> want(patterns.size());
    for (size_t i = 0; i < patterns.size(); ++i)
      want[i] =
          porta_float32_bits(bf16 ? porta_bfloat16_to_float32(patterns[i]) : porta_float16_to_float32(patterns[i]));
    Tensor t = upload(source, bf16 ? porta_bfloat16 : porta_float16, kOpencl);
    expect_same_bytes(download(cast(t, porta_float32)), bytes_of(want), 4,
                      bf16 ? "bfloat16 -> float32" : "float16 -> float32", {&source, 2});
  }
}

// float32 patterns where rounding to float16 or bfloat16 can go wrong: around
// every bfloat16 value (ties included) and every float16 value's neighbours'
// midpoints (the ties, subnormal ones and the overflow at 65520 included),
// and NaNs whose payload lies only in the bits float16 drops.
std::vector<uint32_t> float32_boundaries() {
  std::vector<uint32_t> v;
  for (uint32_t k = 0; k < 65536; ++k)
    for (uint32_t low : {0x0000u, 0x0001u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) v.push_back(k << 16 | low);
  for (uint16_t h = 0; h <= 0x7bff; ++h) {
    const double a = porta_float16_to_float32(h), b = h == 0x7bff ? 65536.0 : porta_float16_to_float32(h + 1);
    const uint32_t mid = porta_float32_bits(static_cast<float>((a + b) / 2));  // exact: one bit more than float16
    for (uint32_t x : {mid - 1, mid, mid + 1}) v.insert(v.end(), {x, x | 0x80000000u});
  }
  for (uint32_t nan : {0x7f800001u, 0x7f800fffu, 0x7f801000u, 0x7f801fffu, 0x7f802000u, 0x7f9fe001u, 0x7fbfffffu,
                       0x7fc00000u, 0x7fc01fffu, 0x7fffe000u, 0x7fffffffu})
    v.insert(v.end(), {nan, nan | 0x80000000u});
  return v;
}

TEST(OpenclStorageDtypes, Float32NarrowsToFloat16AndBfloat16Exactly) {
  REQUIRE_OPENCL_DEVICE();
  std::vector<uint32_t> patterns = float32_boundaries();
  for (uint64_t x = 0; x < (uint64_t{1} << 32); x += 4099) patterns.push_back(static_cast<uint32_t>(x));
  const Bytes source = bytes_of(patterns);
  Tensor t = upload(source, porta_float32, kOpencl);
  for (const bool bf16 : {false, true}) {
    std::vector<uint16_t> want(patterns.size());
    for (size_t i = 0; i < patterns.size(); ++i) {
      const float f = porta_float32_from_bits(patterns[i]);
      want[i] = bf16 ? porta_float32_to_bfloat16(f) : porta_float32_to_float16(f);
    }
    expect_same_bytes(download(cast(t, bf16 ? porta_bfloat16 : porta_float16)), bytes_of(want), 2,
                      bf16 ? "float32 -> bfloat16" : "float32 -> float16", {&source, 4});
  }
}

// ---- casts between all ten dtypes, against the cpu device

template <class T>
void append_random(std::vector<T>& v, size_t n, std::mt19937_64& rng) {
  for (size_t i = 0; i < n; ++i) {
    const uint64_t bits = rng();
    T x;
    std::memcpy(&x, &bits, sizeof x);
    v.push_back(x);
  }
}

// Values of `dtype` that exercise every conversion out of it: the edges of
// every target range, NaNs with payloads, subnormals, float16 ties and
// overflow, values float64 -> float32 -> float16 rounds twice, and random
// bit patterns; all 2^8 or 2^16 patterns of the narrow types.
Bytes cast_sources(DLDataType dtype) {
  std::mt19937_64 rng(17);
  if (same(dtype, porta_bool)) return {0, 1, 1, 0, 1};
  if (dtype.bits == 8) {  // uint8, int8
    Bytes v(256);
    for (int i = 0; i < 256; ++i) v[static_cast<size_t>(i)] = static_cast<uint8_t>(i);
    return v;
  }
  if (dtype.bits == 16) return bytes_of(every_16_bit_pattern());  // int16, float16, bfloat16
  if (same(dtype, porta_int32)) {
    std::vector<int32_t> v = {0,     1,     -1,    127,      128,       -128,       -129,
                              255,   256,   300,   32767,    32768,     -32768,     -32769,
                              65504, 65519, 65520, 16777217, -16777217, 2147483647, -2147483647 - 1};
    append_random(v, 2000, rng);
    return bytes_of(v);
  }
  if (same(dtype, porta_int64)) {
    std::vector<int64_t> v = {0, 1, -1, 300, -129, 65520, 16777217, -16777219, (int64_t{1} << 53) + 1};
    v.insert(v.end(), {4294967296 + 255, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()});
    append_random(v, 2000, rng);
    return bytes_of(v);
  }
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> special = {0.0,   -0.0,    0.4,     -0.6,      1.5,      -1.5,     127.9,    128.5,  -128.7,
                                 255.9, 256.2,   300.7,   -300.7,    32767.9,  32768.5,  -32769.5, 65504,  65519.9,
                                 65520, 1e10,    -1e10,   2.1e9,     -2.2e9,   9.3e18,   -9.3e18,  1e30,   inf,
                                 -inf,  0x1p-24, 0x1p-25, 0x1.8p-24, 0x1p-126, 0x1p-149, 0x1p-150, 1.0 / 3};
  if (same(dtype, porta_float32)) {
    std::vector<float> v;
    for (double x : special) v.push_back(static_cast<float>(x));
    for (uint32_t bits : {0x7f800001u, 0x7f802000u, 0x7fc00000u, 0xffc00001u, 0x7fffffffu, 0x00000001u, 0x807fffffu,
                          0x33000001u, 0x38800000u, 0x477fefffu, 0x477ff000u})
      v.push_back(porta_float32_from_bits(bits));
    append_random(v, 4000, rng);
    return bytes_of(v);
  }
  std::vector<double> v = special;  // float64
  // Halfway between two float32 values and just off it, just above a float16
  // tie (float32 rounds it onto the tie first), and NaNs whose payload
  // survives float32 only in its top bits.
  for (uint64_t bits : {0x3ff0020000000001ull, 0x3ff0000010000000ull, 0x3ff0000010000001ull, 0x3ff000000fffffffull,
                        0x40effe0000000001ull, 0x40effdffffffffffull, 0x7ff0000000000001ull, 0x7ff8000000000000ull,
                        0xfff0000020000000ull, 0x7ff00fffffffffffull, 0x0000000000000001ull, 0x3e70000000000001ull}) {
    double x;
    std::memcpy(&x, &bits, sizeof x);
    v.push_back(x);
  }
  append_random(v, 4000, rng);
  return bytes_of(v);
}

// A view of every other element of `t` (1-D): a strided input.
Tensor every_other(porta_tensor* t) {
  Tensor out;
  CHECK_OK(porta_slice(t, 0, 0, std::numeric_limits<int64_t>::max(), 2, out.out()));
  return out;
}

TEST(OpenclStorageDtypes, CastsBetweenAllDtypesMatchTheCpu) {
  REQUIRE_OPENCL_DEVICE();
  const std::vector<Dtype> dtypes = dtypes_under_test();
  for (const Dtype& from : dtypes) {
    const Bytes source = cast_sources(from.type);
    Tensor on_cl = upload(source, from.type, kOpencl), on_cpu = upload(source, from.type, kCpu);
    Tensor strided_cl = every_other(on_cl), strided_cpu = every_other(on_cpu);
    Bytes strided_source;
    const size_t size = element_size(from.type);
    for (size_t i = 0; i < source.size(); i += 2 * size)
      strided_source.insert(strided_source.end(), source.begin() + static_cast<ptrdiff_t>(i),
                            source.begin() + static_cast<ptrdiff_t>(i + size));
    for (const Dtype& to : dtypes) {
      const std::string what = std::string(from.name) + " -> " + to.name;
      expect_same_bytes(download(cast(on_cl, to.type)), download(cast(on_cpu, to.type)), element_size(to.type), what,
                        {&source, size});
      expect_same_bytes(download(cast(strided_cl, to.type)), download(cast(strided_cpu, to.type)),
                        element_size(to.type), what + " (strided)", {&strided_source, size});
    }
  }
}

// ---- FULL and strided COPY of the storage dtypes

TEST(OpenclStorageDtypes, FullMatchesTheCpu) {
  REQUIRE_OPENCL_DEVICE();
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const int64_t shape[] = {3, 37};
  for (const Dtype& d : kStorageDtypes) {
    const bool is_float = d.type.code != kDLInt;
    std::vector<double> values = {0.0, 1.0, -1.0, 100.0, -128.0, 127.0};
    if (d.type.bits == 16) values.insert(values.end(), {-32768.0, 32767.0, 1000.0});
    if (is_float)
      values.insert(values.end(), {-0.0, 1.0 / 3, 0.1, 65504.0, 65519.0, 1e-7, 0x1p-25, 0x1.8p-24, 3.0e38, -3.3e38,
                                   1.00048828125, 1.00048828125 + 0x1p-40, 1.0009765625 + 0x1p-11, inf, -inf, nan});
    for (double v : values) {
      Tensor on_cl, on_cpu;
      const porta_status cl_status = porta_full(shape, 2, v, d.type, kOpencl, on_cl.out());
      const porta_status cpu_status = porta_full(shape, 2, v, d.type, kCpu, on_cpu.out());
      const std::string what = std::string("full(") + std::to_string(v) + ", " + d.name + ")";
      ASSERT_STREQ(porta_status_name(cl_status), porta_status_name(cpu_status)) << what << ": " << porta_last_error();
      if (cl_status != PORTA_OK) continue;  // refused alike (beyond the dtype's range)
      expect_same_bytes(download(on_cl), download(on_cpu), element_size(d.type), what);
    }
  }
}

// `bytes` as a [rows, cols] tensor on `device`, transposed (a strided view).
Tensor transposed(const Bytes& bytes, DLDataType dtype, DLDevice device, int64_t rows, int64_t cols) {
  const int64_t shape[] = {rows, cols};
  Tensor t, out;
  CHECK_OK(porta_tensor_from_host(bytes.data(), dtype, shape, 2, device, t.out()));
  CHECK_OK(porta_transpose(t, 0, 1, out.out()));
  return out;
}

// The strided COPY kernel keeps every bit, NaN payloads included: a copy
// from a transposed view, a copy into one, and a broadcast source (stride 0).
TEST(OpenclStorageDtypes, StridedCopiesKeepEveryBit) {
  REQUIRE_OPENCL_DEVICE();
  const Bytes patterns = bytes_of(every_16_bit_pattern());
  for (const Dtype& d : kStorageDtypes) {
    const size_t size = element_size(d.type);
    const int64_t rows = 256, cols = size == 1 ? 128 : 256;  // each 8- or 16-bit pattern at least once
    const Bytes source(patterns.begin(), patterns.begin() + static_cast<ptrdiff_t>(rows * cols) * size);
    Bytes want(source.size());  // the transpose: element (i, j) is source element (j, i)
    for (int64_t i = 0; i < cols; ++i)
      for (int64_t j = 0; j < rows; ++j)
        std::memcpy(&want[static_cast<size_t>(i * rows + j) * size], &source[static_cast<size_t>(j * cols + i) * size],
                    size);
    Tensor from = transposed(source, d.type, kOpencl, rows, cols), copy;
    CHECK_OK(porta_contiguous(from, copy.out()));
    expect_same_bytes(download(copy), want, size, std::string("transposed copy of ") + d.name);

    const int64_t shape[] = {rows, cols};
    Tensor contiguous, into;
    CHECK_OK(porta_tensor_from_host(source.data(), d.type, shape, 2, kOpencl, contiguous.out()));
    into = transposed(Bytes(source.size()), d.type, kOpencl, cols, rows);  // [rows, cols] over [cols, rows] storage
    CHECK_OK(porta_copy_into(into, contiguous));
    Tensor stored;
    CHECK_OK(porta_transpose(into, 0, 1, stored.out()));  // the storage in order
    expect_same_bytes(download(stored), want, size, std::string("copy into a transposed ") + d.name);

    const int64_t column[] = {cols, 1}, wide[] = {cols, 5};
    Tensor col, expanded, spread;
    CHECK_OK(porta_tensor_from_host(source.data(), d.type, column, 2, kOpencl, col.out()));
    CHECK_OK(porta_expand(col, wide, 2, expanded.out()));
    CHECK_OK(porta_contiguous(expanded, spread.out()));
    Bytes spread_want;
    for (int64_t i = 0; i < cols; ++i)
      for (int k = 0; k < 5; ++k)
        spread_want.insert(spread_want.end(), source.begin() + i * static_cast<ptrdiff_t>(size),
                           source.begin() + (i + 1) * static_cast<ptrdiff_t>(size));
    expect_same_bytes(download(spread), spread_want, size, std::string("broadcast copy of ") + d.name);
  }
}

}  // namespace
