// GATHER, SCATTER, CUMSUM and CUMPROD cases against naive references,
// written once for the host kernels (test_index.cpp, test_scan.cpp) and for
// every plugin through its own table (test_plugin_index_scan.cpp). A Runner
// runs one kernel on host tensors: on its device, the outputs copied back.
// Results must equal the references exactly: the contract fixes the order
// of every sum and product (and float scans accumulate in double).
#pragma once

#include <gtest/gtest.h>
#include <porta/plugin.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace porta_test::index_scan {

// A Porta dtype for typed tests: its storage type T and DLPack dtype.
template <class T, int Code, int Bits, bool IsBool = false>
struct Dtype {
  using type = T;
  static constexpr bool is_bool = IsBool;
  static DLDataType dl() { return {static_cast<uint8_t>(Code), static_cast<uint8_t>(Bits), 1}; }
};
using Bool = Dtype<uint8_t, kDLBool, 8, true>;
using UInt8 = Dtype<uint8_t, kDLUInt, 8>;
using Int32 = Dtype<int32_t, kDLInt, 32>;
using Int64 = Dtype<int64_t, kDLInt, 64>;
using Float32 = Dtype<float, kDLFloat, 32>;
using Float64 = Dtype<double, kDLFloat, 64>;
using AnyDtypes = ::testing::Types<Bool, UInt8, Int32, Int64, Float32, Float64>;
using WideDtypes = ::testing::Types<Int64, Float32, Float64>;

// A strided view over its own storage; `offset` elements precede its first.
template <class D>
struct View {
  using T = typename D::type;
  std::vector<int64_t> shape, strides;
  int64_t offset = 0;
  std::vector<T> storage;

  int64_t at_offset(const std::vector<int64_t>& p) const {
    int64_t o = offset;
    for (size_t d = 0; d < p.size(); ++d) o += p[d] * strides[d];
    return o;
  }
  T& at(const std::vector<int64_t>& p) { return storage[static_cast<size_t>(at_offset(p))]; }
  const T& at(const std::vector<int64_t>& p) const { return storage[static_cast<size_t>(at_offset(p))]; }
};

inline int64_t numel_of(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

// Row-major `shape`, `front` unused elements first, every element `fill`.
template <class D>
View<D> dense(std::vector<int64_t> shape, typename D::type fill = {}, int64_t front = 0) {
  View<D> v;
  v.strides.assign(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) v.strides[d - 1] = v.strides[d] * shape[d];
  v.storage.assign(static_cast<size_t>(numel_of(shape) + front), fill);
  v.shape = std::move(shape);
  v.offset = front;
  return v;
}

// `shape` stored with its dims reversed (a transposed, non-contiguous view),
// three unused elements first.
template <class D>
View<D> transposed(std::vector<int64_t> shape, typename D::type fill = {}) {
  View<D> v;
  v.strides.assign(shape.size(), 1);
  for (size_t d = 1; d < shape.size(); ++d) v.strides[d] = v.strides[d - 1] * shape[d - 1];
  v.offset = 3;
  v.storage.assign(static_cast<size_t>(numel_of(shape) + 3), fill);
  v.shape = std::move(shape);
  return v;
}

// Calls fn(p) for every position p of `shape`, in row-major order.
inline void for_each_position(const std::vector<int64_t>& shape,
                              const std::function<void(const std::vector<int64_t>&)>& fn) {
  if (numel_of(shape) == 0) return;
  std::vector<int64_t> p(shape.size(), 0);
  for (;;) {
    fn(p);
    size_t d = shape.size();
    while (d > 0 && ++p[d - 1] == shape[d - 1]) p[--d] = 0;
    if (d == 0) return;
  }
}

// Seeded values of D: 0/1 for bool, the full range for uint8, [-1000, 1000)
// for int32, [lo, hi) for int64 and floats.
template <class D>
typename D::type random_value(std::mt19937_64& gen, double lo = -4, double hi = 4) {
  using T = typename D::type;
  if constexpr (D::is_bool)
    return static_cast<T>(gen() % 2);
  else if constexpr (std::is_same_v<T, uint8_t>)
    return static_cast<T>(gen() % 256);
  else if constexpr (std::is_same_v<T, int32_t>)
    return static_cast<T>(static_cast<int64_t>(gen() % 2000) - 1000);
  else if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<int64_t>(lo) + static_cast<int64_t>(gen() % static_cast<uint64_t>(hi - lo)));
  else
    return static_cast<T>(lo + (hi - lo) * std::uniform_real_distribution<double>(0, 1)(gen));
}

template <class D>
void fill_random(View<D>& v, uint64_t seed, double lo = -4, double hi = 4) {
  std::mt19937_64 gen(seed);
  for (auto& x : v.storage) x = random_value<D>(gen, lo, hi);
}

// Equal, or both NaN.
template <class T>
bool same(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    return (std::isnan(a) && std::isnan(b)) || a == b;
  else
    return a == b;
}

// Integer arithmetic as the kernels do it: wrapping.
template <class T>
T wrapping_add(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  else
    return a + b;
}
template <class T>
T wrapping_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  else
    return a * b;
}

// ---- running kernels

// A tensor for a Runner: `t.data` is host storage of `bytes` bytes.
struct Operand {
  DLTensor t;
  size_t bytes;
};

template <class D>
Operand operand(View<D>& v) {
  DLTensor t{};
  t.data = v.storage.data();
  t.device = {kDLCPU, 0};
  t.ndim = static_cast<int32_t>(v.shape.size());
  t.dtype = D::dl();
  t.shape = v.shape.data();
  t.strides = v.strides.data();
  t.byte_offset = static_cast<uint64_t>(v.offset) * sizeof(typename D::type);
  return {t, v.storage.size() * sizeof(typename D::type)};
}

// Runs kernels on one device: `run` copies every operand's storage there,
// calls the kernel of (op, kernel dtype) and copies the outputs back.
struct Runner {
  std::string name;
  std::function<bool(uint32_t op, DLDataType dtype)> has;
  std::function<porta_status(uint32_t op, DLDataType dtype, std::vector<Operand> ins, std::vector<Operand> outs,
                             const void* params)>
      run;
  std::function<std::string()> last_error;
};

// ---- GATHER

template <class D>
void check_gather(Runner& r, View<D>& src, View<Int64>& index, int32_t dim) {
  using T = typename D::type;
  View<D> out = dense<D>(index.shape, T(77), 2);
  const porta_index_params params{sizeof(porta_index_params), dim, 0};
  ASSERT_EQ(r.run(PORTA_OP_GATHER, D::dl(), {operand(src), operand(index)}, {operand(out)}, &params), PORTA_OK)
      << r.last_error();
  for_each_position(index.shape, [&](const std::vector<int64_t>& p) {
    std::vector<int64_t> q = p;
    q[static_cast<size_t>(dim)] = index.at(p);
    ASSERT_TRUE(same(out.at(p), src.at(q))) << "gather dim " << dim << " at flat " << out.at_offset(p) - out.offset;
  });
}

// Index values in [0, extent) for every element of `index`'s storage.
inline void fill_index(View<Int64>& index, int64_t extent, uint64_t seed) {
  std::mt19937_64 gen(seed);
  for (auto& i : index.storage) i = static_cast<int64_t>(gen() % static_cast<uint64_t>(extent));
}

// Each dim of a non-contiguous [4, 5, 6] src through an index smaller in the
// other dims and longer than src along dim (repeats), then through an index
// broadcast (stride 0) along another dim.
template <class D>
void gather_cases(Runner& r) {
  View<D> src = transposed<D>({4, 5, 6});
  fill_random(src, 1, -100, 100);
  for (int32_t dim = 0; dim < 3; ++dim) {
    SCOPED_TRACE("dim " + std::to_string(dim));
    std::vector<int64_t> s = {3, 4, 5};
    s[static_cast<size_t>(dim)] = 7;
    View<Int64> index = dense<Int64>(s, 0, 1);
    fill_index(index, src.shape[static_cast<size_t>(dim)], 10 + static_cast<uint64_t>(dim));
    check_gather(r, src, index, dim);
    // Broadcast along the next dim (stride 0 there).
    const size_t b = static_cast<size_t>((dim + 1) % 3);
    View<Int64> bcast = index;
    bcast.strides[b] = 0;
    fill_index(bcast, src.shape[static_cast<size_t>(dim)], 20 + static_cast<uint64_t>(dim));
    check_gather(r, src, bcast, dim);
  }
  // index_select's shape: a matrix gathered along dim 0 by one index value
  // per row (stride 0 along it), rows of a few values and of a few hundred
  // (the host kernel's row copies, short and long).
  for (int64_t row : {int64_t{3}, int64_t{300}}) {
    View<D> rows = dense<D>({6, row});
    fill_random(rows, 5, -100, 100);
    View<Int64> picks = dense<Int64>({5, row});
    picks.strides[1] = 0;
    fill_index(picks, 6, 6);
    check_gather(r, rows, picks, 0);
  }
  View<D> line = dense<D>({9});  // 1-D, with an index longer than the line
  fill_random(line, 3, -100, 100);
  View<Int64> index = dense<Int64>({20});
  fill_index(index, 9, 4);
  check_gather(r, line, index, 0);
}

// ---- SCATTER

template <class T>
T scatter_reference(int32_t reduce, T self, T src) {
  switch (reduce) {
    case PORTA_SCATTER_ASSIGN:
      return src;
    case PORTA_SCATTER_SUM:
      return wrapping_add(self, src);
    case PORTA_SCATTER_PROD:
      return wrapping_mul(self, src);
    case PORTA_SCATTER_AMAX:
      if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(self) || std::isnan(src)) return std::numeric_limits<T>::quiet_NaN();
      return src > self ? src : self;
    default:
      if constexpr (std::is_floating_point_v<T>)
        if (std::isnan(self) || std::isnan(src)) return std::numeric_limits<T>::quiet_NaN();
      return src < self ? src : self;
  }
}

inline const char* reduce_name(int32_t reduce) {
  static const char* const kNames[] = {"assign", "sum", "prod", "amax", "amin"};
  return kNames[reduce];
}

// Scatters src into a copy of self and compares with the serial reference
// (row-major over the index's shape: increasing p[dim] within each line).
template <class D>
void check_scatter(Runner& r, const View<D>& self, View<Int64>& index, View<D>& src, int32_t dim, int32_t reduce) {
  SCOPED_TRACE(std::string("reduce ") + reduce_name(reduce) + ", dim " + std::to_string(dim));
  View<D> got = self, want = self;
  const porta_index_params params{sizeof(porta_index_params), dim, reduce};
  ASSERT_EQ(r.run(PORTA_OP_SCATTER, D::dl(), {operand(index), operand(src)}, {operand(got)}, &params), PORTA_OK)
      << r.last_error();
  for_each_position(index.shape, [&](const std::vector<int64_t>& p) {
    std::vector<int64_t> q = p;
    q[static_cast<size_t>(dim)] = index.at(p);
    want.at(q) = scatter_reference(reduce, want.at(q), src.at(p));
  });
  for_each_position(self.shape, [&](const std::vector<int64_t>& p) {
    ASSERT_TRUE(same(got.at(p), want.at(p)))
        << "self at flat " << got.at_offset(p) - got.offset << ": got " << +got.at(p) << ", want " << +want.at(p);
  });
}

// Every reduction the dtype takes along each dim of [5, 6, 4] self: the
// index is smaller in the other dims and longer along dim (repeats), src is
// larger than the index and non-contiguous.
template <class D>
void scatter_cases(Runner& r) {
  using T = typename D::type;
  View<D> self = dense<D>({5, 6, 4}, T(0), 1);
  // Floats near 1 keep products of a few factors in range; integers wrap.
  const double lo = std::is_floating_point_v<T> ? 0.5 : -100, hi = std::is_floating_point_v<T> ? 2 : 100;
  fill_random(self, 5, lo, hi);
  for (int32_t dim = 0; dim < 3; ++dim) {
    std::vector<int64_t> s = {4, 5, 3};
    s[static_cast<size_t>(dim)] = 9;
    View<Int64> index = dense<Int64>(s);
    fill_index(index, self.shape[static_cast<size_t>(dim)], 30 + static_cast<uint64_t>(dim));
    View<D> src = transposed<D>({s[0] + 1, s[1] + 2, s[2] + 1});
    fill_random(src, 40 + static_cast<uint64_t>(dim), lo, hi);
    for (int32_t reduce = PORTA_SCATTER_ASSIGN; reduce <= PORTA_SCATTER_AMIN; ++reduce) {
      if (D::is_bool && (reduce == PORTA_SCATTER_SUM || reduce == PORTA_SCATTER_PROD)) continue;
      check_scatter(r, self, index, src, dim, reduce);
    }
  }
}

// Repeated indices: ASSIGN keeps the last along dim, SUM adds them all.
template <class D>
void scatter_repeat_cases(Runner& r) {
  using T = typename D::type;
  View<D> self = dense<D>({2, 3}, T(0));
  View<Int64> index = dense<Int64>({2, 4});
  index.storage = {1, 1, 1, 0, 2, 0, 2, 2};
  View<D> src = dense<D>({2, 4});
  src.storage = {T(1), T(0), T(1), T(0), T(1), T(1), T(0), T(1)};
  View<D> got = self;
  const porta_index_params assign{sizeof(porta_index_params), 1, PORTA_SCATTER_ASSIGN};
  ASSERT_EQ(r.run(PORTA_OP_SCATTER, D::dl(), {operand(index), operand(src)}, {operand(got)}, &assign), PORTA_OK)
      << r.last_error();
  EXPECT_EQ(got.storage, (std::vector<T>{T(0), T(1), T(0), T(1), T(0), T(1)}));
  if constexpr (!D::is_bool) {
    got = self;
    const porta_index_params sum{sizeof(porta_index_params), 1, PORTA_SCATTER_SUM};
    ASSERT_EQ(r.run(PORTA_OP_SCATTER, D::dl(), {operand(index), operand(src)}, {operand(got)}, &sum), PORTA_OK)
        << r.last_error();
    EXPECT_EQ(got.storage, (std::vector<T>{T(0), T(2), T(0), T(1), T(0), T(2)}));
  }
}

// AMAX and AMIN give NaN when either operand is NaN (self's or src's).
template <class D>
void scatter_nan_cases(Runner& r) {
  using T = typename D::type;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (int32_t reduce : {PORTA_SCATTER_AMAX, PORTA_SCATTER_AMIN}) {
    SCOPED_TRACE(reduce_name(reduce));
    View<D> got = dense<D>({4});
    got.storage = {nan, T(1), T(2), T(3)};
    View<Int64> index = dense<Int64>({4});
    index.storage = {0, 1, 1, 2};
    View<D> src = dense<D>({4});
    src.storage = {T(5), nan, T(7), T(-1)};
    const porta_index_params params{sizeof(porta_index_params), 0, reduce};
    ASSERT_EQ(r.run(PORTA_OP_SCATTER, D::dl(), {operand(index), operand(src)}, {operand(got)}, &params), PORTA_OK)
        << r.last_error();
    EXPECT_TRUE(std::isnan(got.storage[0]));  // self was NaN
    EXPECT_TRUE(std::isnan(got.storage[1]));  // NaN from src sticks through the later 7
    EXPECT_EQ(got.storage[2], reduce == PORTA_SCATTER_AMAX ? T(2) : T(-1));
    EXPECT_EQ(got.storage[3], T(3));
  }
}

// ---- CUMSUM / CUMPROD

// The scan of [outer, n, inner] in as the contract computes it.
template <class D>
std::vector<typename D::type> scan_reference(uint32_t op, const View<D>& in, bool reverse) {
  using T = typename D::type;
  using A = std::conditional_t<std::is_floating_point_v<T>, double, T>;
  const int64_t outer = in.shape[0], n = in.shape[1], inner = in.shape[2];
  std::vector<T> out(static_cast<size_t>(outer * n * inner));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      A acc = op == PORTA_OP_CUMPROD ? A(1) : A(0);
      for (int64_t j = 0; j < n; ++j) {
        const int64_t k = reverse ? n - 1 - j : j;
        const A x = static_cast<A>(in.at({o, k, i}));
        acc = op == PORTA_OP_CUMPROD ? wrapping_mul(acc, x) : wrapping_add(acc, x);
        out[static_cast<size_t>((o * n + k) * inner + i)] = static_cast<T>(acc);
      }
    }
  return out;
}

template <class D>
void check_scan(Runner& r, uint32_t op, View<D>& in, bool reverse, bool null_params) {
  using T = typename D::type;
  SCOPED_TRACE(std::string(op == PORTA_OP_CUMSUM ? "cumsum" : "cumprod") + (reverse ? " reversed" : "") + " [" +
               std::to_string(in.shape[0]) + ", " + std::to_string(in.shape[1]) + ", " + std::to_string(in.shape[2]) +
               "]");
  View<D> out = dense<D>(in.shape, T(77), 2);
  const porta_scan_params params{sizeof(porta_scan_params), reverse ? 1 : 0};
  ASSERT_EQ(r.run(op, D::dl(), {operand(in)}, {operand(out)}, null_params ? nullptr : &params), PORTA_OK)
      << r.last_error();
  const std::vector<T> want = scan_reference(op, in, reverse);
  for (size_t k = 0; k < want.size(); ++k)
    ASSERT_TRUE(same(out.storage[k + 2], want[k]))
        << "at " << k << ": got " << out.storage[k + 2] << ", want " << want[k];
}

// Both scans, both directions, over shapes with outer and inner 1 or more;
// int64 sums and products that wrap.
template <class D>
void scan_cases(Runner& r) {
  // {2, 130, 3}: the host kernel's groups of four lines across an outer boundary, in blocks of 64 and a tail.
  const std::vector<int64_t> shapes[] = {{1, 1, 1}, {3, 7, 5}, {2, 300, 1}, {1, 40, 33}, {4, 1, 3}, {2, 130, 3}};
  uint64_t seed = 50;
  for (const auto& shape : shapes) {
    for (uint32_t op : {PORTA_OP_CUMSUM, PORTA_OP_CUMPROD}) {
      constexpr bool integral = std::is_integral_v<typename D::type>;
      View<D> in = dense<D>(shape, {}, 1);
      if (op == PORTA_OP_CUMSUM)
        fill_random(in, seed++, integral ? -4e18 : -1, integral ? 4e18 : 1);  // int64 sums wrap
      else
        fill_random(in, seed++, integral ? -5 : 0.5, integral ? 6 : 1.5);  // int64 products wrap
      for (bool reverse : {false, true}) check_scan(r, op, in, reverse, false);
      check_scan(r, op, in, false, true);  // NULL params: forward
    }
  }
}

}  // namespace porta_test::index_scan
