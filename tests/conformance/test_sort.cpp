// SORT (porta_sort and what composes it: argsort, topk, kthvalue, unique,
// unique_consecutive, bincount) on every device against a host reference:
// every dtype, dim and layout, both directions, ties (indices must be the
// stable ones, so every device agrees), NaN, signed zeros, lines long
// enough for many merge passes, 0-d and empty tensors.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "device_params.hpp"
#include "host_tensor.hpp"
#include "tensor_handle.hpp"

namespace conformance {
namespace {

// porta/ops.h's order, written again independently: NaN after every number
// ascending and before it descending; NaNs tie; -0.0 ties with 0.0.
bool before(double a, double b, bool descending) {
  const bool an = std::isnan(a), bn = std::isnan(b);
  if (an || bn) return descending ? an && !bn : bn && !an;
  return descending ? b < a : a < b;
}

struct SortRef {
  HostTensor values, indices;
};

SortRef ref_sort(const HostTensor& in, int32_t dim, bool descending) {
  SortRef r{in, make_host(porta_int64, in.shape, std::vector<double>(in.v.size(), 0))};
  if (in.shape.empty()) return r;
  const int32_t d = dim < 0 ? dim + static_cast<int32_t>(in.shape.size()) : dim;
  int64_t outer = 1, n = in.shape[d], inner = 1;
  for (int32_t i = 0; i < d; ++i) outer *= in.shape[i];
  for (size_t i = d + 1; i < in.shape.size(); ++i) inner *= in.shape[i];
  std::vector<int64_t> order(n);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * n * inner + i;
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return before(in.v[base + a * inner], in.v[base + b * inner], descending);
      });
      for (int64_t k = 0; k < n; ++k) {
        r.values.v[base + k * inner] = in.v[base + order[k] * inner];
        r.indices.v[base + k * inner] = static_cast<double>(order[k]);
      }
    }
  return r;
}

class Sort : public DeviceTest {
 protected:
  void check(const HostTensor& in, int32_t dim, bool descending, Layout layout = Layout::Contiguous) {
    op_case("sort", in.dtype, [&] {
      SCOPED_TRACE(dtype_name(in.dtype) + " " + shape_str(in.shape) + " " + layout_name(layout) + " dim " +
                   std::to_string(dim) + (descending ? " descending" : " ascending"));
      Tensor t = upload(in, dev(), layout), values, indices;
      CHECK_OK(porta_sort(t, dim, descending ? 1 : 0, values.out(), indices.out()));
      const SortRef ref = ref_sort(in, dim, descending);
      expect_close(download(values), ref.values, kExact, "sort values");
      expect_close(download(indices), ref.indices, kExact, "sort indices");
      Tensor arg;
      CHECK_OK(porta_argsort(t, dim, descending ? 1 : 0, arg.out()));
      expect_close(download(arg), ref.indices, kExact, "argsort");
    });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Sort);

TEST_P(Sort, EveryDtypeDimLayoutAndDirection) {
  uint32_t seed = 1;
  for (DLDataType dt : kAllDtypes)
    for (int32_t dim : {0, 1, 2, -1})
      for (Layout layout : kAllLayouts)
        for (bool descending : {false, true}) {
          if (layout != Layout::Contiguous && dim == 1) continue;
          check(sample_host(dt, {3, 4, 5}, seed++, Values::Grid), dim, descending, layout);  // Grid: many ties
        }
}

TEST_P(Sort, NaNInfinitiesAndSignedZeros) {
  const HostTensor in = make_host(porta_float32, {2, 6}, {3, NAN, -0.0, 0.0, INFINITY, NAN,  //
                                                          -INFINITY, 0.0, -0.0, NAN, 1, -1});
  for (bool descending : {false, true})
    for (int32_t dim : {0, 1}) {
      check(in, dim, descending);
      check(cast_host(in, porta_float64), dim, descending, Layout::Transposed);
    }
}

// Lengths that are not powers of two and need a dozen merge passes, along
// rows (inner 1) and columns (inner > 1).
TEST_P(Sort, LongRowsAndColumns) {
  for (DLDataType dt : {porta_float32, porta_int64}) {
    check(sample_host(dt, {2, 5000}, 31, Values::Grid), 1, false);
    check(sample_host(dt, {3000, 3}, 32, Values::General), 0, true, Layout::Strided);
  }
}

// Lines of 64 and more (the cpu plugin's radix sort): every dtype, ties in
// both directions, and for floats NaNs, infinities and both zeros among them.
TEST_P(Sort, LongLinesOfEveryDtype) {
  uint32_t seed = 50;
  for (DLDataType dt : kAllDtypes) {
    HostTensor in = sample_host(dt, {2, 130}, seed++, Values::Grid);
    if (is_float(dt)) {
      const double specials[] = {NAN, -0.0, 0.0, INFINITY, -INFINITY, NAN, -0.0};
      for (size_t i = 0; i < in.v.size(); i += 9) in.v[i] = specials[(i / 9) % 7];
    }
    HostTensor columns = in;  // the same values as [130, 2], sorted down its columns
    columns.shape = {130, 2};
    for (bool descending : {false, true}) {
      check(in, 1, descending);
      check(in, 1, descending, Layout::Strided);
      check(columns, 0, descending);
    }
  }
}

TEST_P(Sort, ZeroDimEmptyAndSizeOne) {
  for (bool descending : {false, true}) {
    check(make_host(porta_float32, {}, {2.5}), 0, descending);
    check(make_host(porta_int32, {}, {7}), -1, descending);
    check(sample_host(porta_float64, {0, 3}, 1), 1, descending);
    check(sample_host(porta_int64, {2, 0}, 2), 1, descending);
    check(sample_host(porta_float32, {4, 1}, 3), 1, descending, Layout::Transposed);
  }
}

TEST_P(Sort, TopkAndKthvalueTakeTheSortedPrefix) {
  const HostTensor in = sample_host(porta_float32, {4, 9}, 41, Values::Grid);
  Tensor t = upload(in, dev());
  for (bool largest : {true, false}) {
    const SortRef ref = ref_sort(in, 1, largest);
    Tensor v, i;
    CHECK_OK(porta_topk(t, 3, 1, largest ? 1 : 0, v.out(), i.out()));
    const HostTensor gv = download(v), gi = download(i);
    ASSERT_EQ(gv.shape, (Shape{4, 3}));
    for (int64_t r = 0; r < 4; ++r)
      for (int64_t k = 0; k < 3; ++k) {
        EXPECT_EQ(gv.v[r * 3 + k], ref.values.v[r * 9 + k]);
        EXPECT_EQ(gi.v[r * 3 + k], ref.indices.v[r * 9 + k]);
      }
  }
  const SortRef up = ref_sort(in, 1, false);
  for (int32_t keepdim : {0, 1}) {
    Tensor v, i;
    CHECK_OK(porta_kthvalue(t, 4, 1, keepdim, v.out(), i.out()));
    const HostTensor gv = download(v), gi = download(i);
    EXPECT_EQ(gv.shape, (keepdim ? Shape{4, 1} : Shape{4}));
    for (int64_t r = 0; r < 4; ++r) {
      EXPECT_EQ(gv.v[r], up.values.v[r * 9 + 3]);
      EXPECT_EQ(gi.v[r], up.indices.v[r * 9 + 3]);
    }
  }
  Tensor v, i;
  EXPECT_EQ(porta_topk(t, 10, 1, 1, v.out(), i.out()), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_kthvalue(t, 0, 1, 0, v.out(), i.out()), PORTA_ERROR_INVALID_ARGUMENT);
}

// topk's k reaches the kernel (porta_sort_params.k, plugin ABI 1.6): the
// host kernel then selects instead of sorting, and its first k must still be
// the stable sort's, ties, NaN and lines along either axis included.
TEST_P(Sort, TopkOfEveryPrefixLengthIsTheStableSortsPrefix) {
  const HostTensor grid = sample_host(porta_float32, {40, 300}, 43, Values::Grid);  // many ties
  HostTensor with_nan = grid;
  for (size_t j = 5; j < with_nan.v.size(); j += 97) with_nan.v[j] = NAN;
  for (const HostTensor& t_in : {with_nan, cast_host(grid, porta_int64)})
    for (int32_t dim : {1, 0})
      for (bool largest : {true, false}) {
        const int64_t n = t_in.shape[dim], other = t_in.shape[1 - dim];
        const SortRef ref = ref_sort(t_in, dim, largest);
        Tensor t = upload(t_in, dev());
        for (int64_t k : {int64_t{1}, int64_t{2}, int64_t{7}, n - 1, n}) {
          SCOPED_TRACE(dtype_name(t_in.dtype) + " dim " + std::to_string(dim) + " k " + std::to_string(k) +
                       (largest ? " largest" : " smallest"));
          Tensor v, i;
          CHECK_OK(porta_topk(t, k, dim, largest ? 1 : 0, v.out(), i.out()));
          const HostTensor gv = download(v), gi = download(i);
          for (int64_t line = 0; line < other; ++line)
            for (int64_t j = 0; j < k; ++j) {
              const int64_t at = dim == 1 ? line * k + j : j * other + line;
              const int64_t ref_at = dim == 1 ? line * n + j : j * other + line;
              const double want = ref.values.v[ref_at];
              ASSERT_TRUE(std::isnan(want) ? std::isnan(gv.v[at]) : gv.v[at] == want) << "line " << line << " j " << j;
              ASSERT_EQ(gi.v[at], ref.indices.v[ref_at]) << "line " << line << " j " << j;
            }
        }
      }
}

TEST_P(Sort, UniqueAndBincount) {
  const HostTensor in = make_host(porta_int64, {2, 4}, {3, 1, 3, 0, 1, 1, 7, 3});
  Tensor t = upload(in, dev()), values, inverse, counts;
  CHECK_OK(porta_unique(t, values.out(), inverse.out(), counts.out()));
  expect_close(download(values), make_host(porta_int64, {4}, {0, 1, 3, 7}), kExact, "unique");
  expect_close(download(inverse), make_host(porta_int64, {2, 4}, {2, 1, 2, 0, 1, 1, 3, 2}), kExact, "inverse");
  expect_close(download(counts), make_host(porta_int64, {4}, {1, 3, 3, 1}), kExact, "counts");
  Tensor cv, ci, cc;
  CHECK_OK(porta_unique_consecutive(t, cv.out(), ci.out(), cc.out()));
  expect_close(download(cv), make_host(porta_int64, {7}, {3, 1, 3, 0, 1, 7, 3}), kExact, "unique_consecutive");
  expect_close(download(cc), make_host(porta_int64, {7}, {1, 1, 1, 1, 2, 1, 1}), kExact, "consecutive counts");
  Tensor flat = upload(make_host(porta_int64, {5}, {0, 1, 1, 4, 1}), dev()), w = upload(
      make_host(porta_float32, {5}, {0.5, 1, 2, 3, 4}), dev()), b, bw;
  CHECK_OK(porta_bincount(flat, nullptr, 7, b.out()));
  expect_close(download(b), make_host(porta_int64, {7}, {1, 3, 0, 0, 1, 0, 0}), kExact, "bincount");
  CHECK_OK(porta_bincount(flat, w, 0, bw.out()));
  expect_close(download(bw), make_host(porta_float32, {5}, {0.5, 7, 0, 0, 3}), kExact, "bincount weights");
  Tensor bad = upload(make_host(porta_int64, {2}, {1, -1}), dev()), out;
  EXPECT_EQ(porta_bincount(bad, nullptr, 0, out.out()), PORTA_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace conformance
