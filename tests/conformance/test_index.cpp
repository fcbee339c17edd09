// The INDEX ops of PORTA_OP_LIST (gather, scatter with every reduction) on
// every dtype of their rows and every layout, with repeated, empty and 0-d
// indices and their refusals; then the ops porta.h composes from them
// (index_select, index_add, index_copy, index_fill, masked_fill,
// masked_select, nonzero, take, embedding) and the joins (cat, stack,
// split, unbind), each against a reference written here from PyTorch's
// semantics.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "device_params.hpp"
#include "op_tables.hpp"
#include "reference.hpp"

namespace conformance {
namespace {

// ---- host helpers

using Coords = std::vector<int64_t>;

Coords coords_of(const Shape& shape, int64_t i) {
  Coords c(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    c[k] = i % shape[k];
    i /= shape[k];
  }
  return c;
}

int64_t position_of(const Shape& shape, const Coords& c) {
  int64_t pos = 0;
  for (size_t k = 0; k < shape.size(); ++k) pos = pos * shape[k] + c[k];
  return pos;
}

HostTensor index_host(Shape shape, const std::vector<double>& v) { return make_host(porta_int64, std::move(shape), v); }

// int64 values drawn from [lo, hi] (repeats likely when the range is small).
HostTensor random_index(const Shape& shape, int64_t lo, int64_t hi, uint32_t seed) {
  std::mt19937 rng(seed * 7919u + 17u);
  std::vector<double> v(static_cast<size_t>(numel(shape)));
  for (double& x : v) x = static_cast<double>(lo + static_cast<int64_t>(rng() % static_cast<uint32_t>(hi - lo + 1)));
  return index_host(shape, v);
}

Shape with_dim(Shape s, size_t dim, int64_t n) {
  s[dim] = n;
  return s;
}

size_t wrapped(int32_t dim, size_t ndim) {
  const int64_t n = static_cast<int64_t>(ndim > 0 ? ndim : 1);
  return static_cast<size_t>(dim < 0 ? dim + n : dim);
}

// A value every dtype stores exactly (fill values of the tests).
double fill_value(DLDataType d) { return is_bool(d) ? 1 : is_float(d) ? -2.5 : same_dtype(d, porta_uint8) ? 7 : -3; }

const char* reduce_name(int32_t reduce) {
  static const char* const names[] = {"assign", "sum", "prod", "amax", "amin", "mean"};
  return reduce >= 0 && reduce <= PORTA_SCATTER_MEAN ? names[reduce] : "?";
}

// The reductions bool refuses (the core never asks a kernel for sums of bool).
bool refused_on_bool(int32_t reduce) {
  return reduce == PORTA_SCATTER_SUM || reduce == PORTA_SCATTER_PROD || reduce == PORTA_SCATTER_MEAN;
}

constexpr int32_t kAllReduces[] = {PORTA_SCATTER_ASSIGN, PORTA_SCATTER_SUM,  PORTA_SCATTER_PROD,
                                   PORTA_SCATTER_AMAX,   PORTA_SCATTER_AMIN, PORTA_SCATTER_MEAN};

// Expects a refusal whose message contains `needle`.
template <typename Call>
void expect_refused(porta_status status, const std::string& needle, Call&& call) {
  const std::string message = expect_failure(status, call);
  EXPECT_NE(message.find(needle), std::string::npos) << "the message \"" << message << "\" lacks \"" << needle << "\"";
}

class Index : public DeviceTest {
 protected:
  void check_gather(const HostTensor& src, int32_t dim, const HostTensor& index, Layout layout) {
    op_case("gather", src.dtype, [&] {
      SCOPED_TRACE("gather " + dtype_name(src.dtype) + " " + shape_str(src.shape) + " dim " + std::to_string(dim) +
                   " index " + shape_str(index.shape) + " " + layout_name(layout));
      Tensor s = upload(src, dev(), layout), i = upload(index, dev(), layout), out;
      CHECK_OK(porta_gather(s, dim, i, out.out()));
      expect_close(download(out), ref_gather(src, dim, index), kExact, "gather");
    });
  }

  void check_scatter(const HostTensor& self, int32_t dim, const HostTensor& index, const HostTensor& src,
                     int32_t reduce, bool include_self, Layout layout) {
    op_case("scatter", self.dtype, [&] {
      SCOPED_TRACE(std::string("scatter ") + reduce_name(reduce) + " include_self " + std::to_string(include_self) +
                   " " + dtype_name(self.dtype) + " " + shape_str(self.shape) + " dim " + std::to_string(dim) +
                   " index " + shape_str(index.shape) + " src " + shape_str(src.shape) + " " + layout_name(layout));
      Tensor t = upload(self, dev(), layout), i = upload(index, dev(), layout), s = upload(src, dev(), layout), out;
      if (is_bool(self.dtype) && refused_on_bool(reduce)) {
        expect_refused(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool",
                       [&](porta_tensor** o) { return porta_scatter(t, dim, i, s, reduce, include_self, o); });
        return;
      }
      CHECK_OK(porta_scatter(t, dim, i, s, reduce, include_self, out.out()));
      const Reduction ref = ref_scatter(self, dim, index, src, reduce, include_self);
      expect_close(download(out), ref.value, tolerance_for(self.dtype), reduce_name(reduce), &ref.scale);
      expect_close(download(t), self, kExact, "scatter left self alone");
    });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Index);

// ---- gather

TEST_P(Index, GatherEveryDtypeDimAndLayout) {
  uint32_t seed = 1;
  const Shape src_shape{4, 5, 6};
  for (DLDataType dt : table_dtypes(PORTA_OP_GATHER))
    for (int32_t dim : {0, 1, 2, -1})
      for (Layout layout : kAllLayouts) {
        const size_t d = wrapped(dim, 3);
        // Smaller than src in the other dims; longer than src along dim (repeats).
        const Shape index_shape = with_dim({3, 4, 5}, d, 7);
        check_gather(sample_host(dt, src_shape, next_seed(seed)), dim,
                     random_index(index_shape, 0, src_shape[d] - 1, next_seed(seed)), layout);
      }
}

TEST_P(Index, GatherZeroDimAndEmpty) {
  const HostTensor scalar = make_host(porta_float32, {}, {2.5}), vec = sample_host(porta_int32, {5}, 3);
  for (int32_t dim : {0, -1}) {
    check_gather(scalar, dim, index_host({}, {0}), Layout::Contiguous);         // 0-d from 0-d
    check_gather(scalar, dim, index_host({3}, {0, 0, 0}), Layout::Contiguous);  // [3] from 0-d
    check_gather(vec, dim, index_host({}, {3}), Layout::Contiguous);            // 0-d from [5]
  }
  const HostTensor src = sample_host(porta_float64, {3, 4}, 4);
  check_gather(src, 1, index_host({2, 0}, {}), Layout::Contiguous);
  check_gather(src, 0, index_host({0, 4}, {}), Layout::Contiguous);
  check_gather(sample_host(porta_float32, {0, 4}, 5), 1, index_host({0, 2}, {}), Layout::Contiguous);
}

// ---- scatter

TEST_P(Index, ScatterEveryReduceDtypeAndDim) {
  uint32_t seed = 100;
  const Shape self_shape{4, 5};
  for (int32_t reduce : kAllReduces)
    for (DLDataType dt : table_dtypes(PORTA_OP_SCATTER))
      for (bool include_self : {true, false})
        for (int32_t dim : {0, 1, -1}) {
          const size_t d = wrapped(dim, 2);
          // index [6, 4] along dim 0 ([3, 8] along dim 1) into 4 (5) slots: repeats; src larger than index.
          const Shape index_shape = d == 0 ? Shape{6, 4} : Shape{3, 8};
          const Layout layout = kAllLayouts[seed % 3];
          check_scatter(sample_host(dt, self_shape, next_seed(seed), Values::Grid), dim,
                        random_index(index_shape, 0, self_shape[d] - 1, next_seed(seed)),
                        sample_host(dt, {7, 9}, next_seed(seed), Values::Grid), reduce, include_self, layout);
        }
}

TEST_P(Index, ScatterEveryLayoutOn3d) {
  uint32_t seed = 200;
  for (int32_t reduce : kAllReduces)
    for (Layout layout : kAllLayouts)
      for (int32_t dim : {0, 2}) {
        const Shape self_shape{3, 4, 5};
        const size_t d = wrapped(dim, 3);
        check_scatter(sample_host(porta_float32, self_shape, next_seed(seed)), dim,
                      random_index(with_dim({2, 3, 4}, d, 6), 0, self_shape[d] - 1, next_seed(seed)),
                      sample_host(porta_float32, {6, 4, 6}, next_seed(seed)), reduce, seed % 2 == 0, layout);
      }
}

// Positions of one line apply in increasing order along dim: ASSIGN keeps the last.
TEST_P(Index, ScatterAssignKeepsTheLastAlongDim) {
  const HostTensor zeros = make_host(porta_float32, {3}, {0, 0, 0});
  const HostTensor index = index_host({4}, {1, 1, 1, 0}), src = make_host(porta_float32, {4}, {10, 20, 30, 40});
  for (Layout layout : kAllLayouts) check_scatter(zeros, 0, index, src, PORTA_SCATTER_ASSIGN, true, layout);
  op_case("scatter", porta_float32, [&] {
    Tensor t = upload(zeros, dev()), i = upload(index, dev()), s = upload(src, dev()), out;
    CHECK_OK(porta_scatter(t, 0, i, s, PORTA_SCATTER_ASSIGN, 1, out.out()));
    expect_close(download(out), make_host(porta_float32, {3}, {40, 30, 0}), kExact, "the last of index 1 is 30");
  });
  // Along dim 1 of a [2, 5] (each row a line) and dim 0 (each column one).
  const HostTensor self = sample_host(porta_int64, {2, 5}, 9);
  const HostTensor rows = index_host({2, 4}, {3, 3, 0, 3, 1, 1, 1, 4}), cols = index_host({3, 2}, {1, 0, 1, 0, 1, 1});
  for (Layout layout : kAllLayouts) {
    check_scatter(self, 1, rows, sample_host(porta_int64, {2, 4}, 10), PORTA_SCATTER_ASSIGN, true, layout);
    check_scatter(self, 0, cols, sample_host(porta_int64, {3, 2}, 11), PORTA_SCATTER_ASSIGN, true, layout);
  }
}

TEST_P(Index, ScatterReductionsOfSpecialValues) {
  const HostTensor self = make_host(porta_float64, {2, 3}, {1, NAN, -INFINITY, 2, 0, 5});
  const HostTensor index = index_host({2, 3}, {0, 0, 1, 1, 1, 0});
  const HostTensor src = make_host(porta_float64, {2, 3}, {NAN, 3, INFINITY, -1, 2, NAN});
  for (int32_t reduce : kAllReduces)
    for (bool include_self : {true, false})
      check_scatter(self, 0, index, src, reduce, include_self, Layout::Transposed);
}

TEST_P(Index, ScatterZeroDimAndEmpty) {
  for (int32_t reduce : kAllReduces)
    for (int32_t dim : {0, -1}) {
      const bool include_self = reduce % 2 == 0;
      check_scatter(make_host(porta_int32, {}, {4}), dim, index_host({}, {0}), make_host(porta_int32, {}, {-3}), reduce,
                    include_self, Layout::Contiguous);
      check_scatter(make_host(porta_float32, {}, {1.5}), dim, index_host({2}, {0, 0}),
                    make_host(porta_float32, {3}, {2, -4, 8}), reduce, include_self, Layout::Contiguous);
      check_scatter(sample_host(porta_float64, {3, 4}, 1), dim, index_host({3, 0}, {}),
                    sample_host(porta_float64, {3, 4}, 2), reduce, include_self, Layout::Contiguous);
    }
}

// ---- refusals of gather and scatter

TEST_P(Index, OutOfRangeAndNegativeIndicesNameTheValue) {
  Tensor src = upload(sample_host(porta_float32, {3, 4}, 1), dev());
  const struct {
    HostTensor index;
    int32_t dim;
    const char* message;
  } cases[] = {
      {index_host({2, 2}, {0, 1, 4, 2}), 1, "index 4 is out of bounds for dimension 1 with size 4"},
      {index_host({1, 3}, {0, 3, 1}), 0, "index 3 is out of bounds for dimension 0 with size 3"},
      {index_host({2, 2}, {0, -1, 2, 1}), 1, "index -1 is out of bounds for dimension 1 with size 4"},
      {index_host({2, 1}, {-7, 9}), -1, "index -7 is out of bounds"},
  };
  // Strided indices, and contiguous ones, whose runs a checking kernel
  // (PORTA_PLUGIN_CAP_CHECKS_INDEX_RANGE: cpu; mock leaves it to the core)
  // checks in a vector pass before gathering.
  for (const auto& c : cases)
    for (Layout layout : {Layout::Strided, Layout::Contiguous}) {
      SCOPED_TRACE(c.message);
      Tensor index = upload(c.index, dev(), layout);
      op_case("gather", porta_float32, [&] {
        expect_refused(PORTA_ERROR_INVALID_ARGUMENT, std::string("gather: ") + c.message,
                       [&](porta_tensor** o) { return porta_gather(src, c.dim, index, o); });
      });
      op_case("scatter", porta_float32, [&] {
        for (int32_t reduce : kAllReduces)
          expect_refused(PORTA_ERROR_INVALID_ARGUMENT, c.message,
                         [&](porta_tensor** o) { return porta_scatter(src, c.dim, index, src, reduce, 1, o); });
      });
    }
}

TEST_P(Index, GatherAndScatterRefusals) {
  Tensor src = upload(sample_host(porta_float32, {3, 4}, 1), dev()),
         ok = upload(index_host({2, 2}, {0, 1, 1, 0}), dev());
  Tensor ints = upload(sample_host(porta_int32, {3, 4}, 2), dev());
  op_case("gather", porta_float32, [&] {
    // int32 indices are taken (converted), as PyTorch's gather and scatter take them
    Tensor narrow = upload(make_host(porta_int32, {2, 2}, {0, 1, 1, 0}), dev()), by_int32, by_int64;
    CHECK_OK(porta_gather(src, 0, narrow, by_int32.out()));
    CHECK_OK(porta_gather(src, 0, ok, by_int64.out()));
    expect_close(download(by_int32), download(by_int64), kExact, "gather with an int32 index");
    for (DLDataType dt : {porta_uint8, porta_float32, porta_bool}) {
      Tensor wrong = upload(make_host(dt, {2, 2}, {0, 1, 1, 0}), dev());
      expect_refused(PORTA_ERROR_UNSUPPORTED_DTYPE, "int64",
                     [&](porta_tensor** o) { return porta_gather(src, 0, wrong, o); });
      expect_refused(PORTA_ERROR_UNSUPPORTED_DTYPE, "int64",
                     [&](porta_tensor** o) { return porta_scatter(src, 0, wrong, src, PORTA_SCATTER_SUM, 1, o); });
    }
    Tensor flat = upload(index_host({2}, {0, 1}), dev()),
           wide = upload(index_host({2, 5}, std::vector<double>(10)), dev());
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_gather(src, 0, flat, o); });
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_gather(src, 0, wide, o); });
    for (int32_t dim : {2, -3})
      expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_gather(src, dim, ok, o); });
  });
  op_case("scatter", porta_float32, [&] {
    Tensor wide = upload(index_host({2, 5}, std::vector<double>(10)), dev());
    Tensor small = upload(sample_host(porta_float32, {1, 2}, 3), dev());
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH,
                   [&](porta_tensor** o) { return porta_scatter(src, 0, wide, src, PORTA_SCATTER_ASSIGN, 1, o); });
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH,  // src smaller than index
                   [&](porta_tensor** o) { return porta_scatter(src, 0, ok, small, PORTA_SCATTER_ASSIGN, 1, o); });
    expect_refused(PORTA_ERROR_UNSUPPORTED_DTYPE, "dtype",
                   [&](porta_tensor** o) { return porta_scatter(src, 0, ok, ints, PORTA_SCATTER_SUM, 1, o); });
    for (int32_t reduce : {-1, 6, INT32_MAX})
      expect_refused(PORTA_ERROR_INVALID_ARGUMENT, "reduce " + std::to_string(reduce),
                     [&](porta_tensor** o) { return porta_scatter(src, 0, ok, src, reduce, 1, o); });
    for (int32_t dim : {2, -3})
      expect_failure(PORTA_ERROR_INVALID_ARGUMENT,
                     [&](porta_tensor** o) { return porta_scatter(src, dim, ok, src, PORTA_SCATTER_SUM, 1, o); });
  });
  for (const DeviceCase& other : other_devices()) {
    SCOPED_TRACE("index on " + other.name);
    Tensor there = upload(index_host({2, 2}, {0, 1, 1, 0}), other.device);
    expect_failure(PORTA_ERROR_DEVICE_MISMATCH, [&](porta_tensor** o) { return porta_gather(src, 0, there, o); });
    expect_failure(PORTA_ERROR_DEVICE_MISMATCH,
                   [&](porta_tensor** o) { return porta_scatter(src, 0, there, src, PORTA_SCATTER_SUM, 1, o); });
    break;  // one other device is enough
  }
}

// ---- index_select, index_add, index_copy, index_fill

HostTensor ref_index_select(const HostTensor& src, int32_t dim, const HostTensor& index) {
  const size_t d = wrapped(dim, src.shape.size());
  HostTensor r{src.dtype, with_dim(src.shape, d, index.numel()), {}};
  for (int64_t i = 0; i < numel(r.shape); ++i) {
    Coords c = coords_of(r.shape, i);
    c[d] = static_cast<int64_t>(index.v[c[d]]);
    r.v.push_back(src.v[position_of(src.shape, c)]);
  }
  return r;
}

// index_add (add) or index_copy: source's slice i into self's slice index[i], in order.
Reduction ref_index_put(const HostTensor& self, int32_t dim, const HostTensor& index, const HostTensor& source,
                        bool add, double alpha) {
  const size_t d = wrapped(dim, self.shape.size());
  Reduction r{self, {}};
  for (double x : self.v) r.scale.push_back(std::fabs(x));
  for (int64_t i = 0; i < source.numel(); ++i) {
    Coords c = coords_of(source.shape, i);
    c[d] = static_cast<int64_t>(index.v[c[d]]);
    const size_t q = static_cast<size_t>(position_of(self.shape, c));
    const double x = alpha == 1 ? source.v[i] : store_as(self.dtype, alpha * source.v[i]);
    r.value.v[q] = store_as(self.dtype, add ? r.value.v[q] + x : x);
    r.scale[q] += std::fabs(x);
  }
  return r;
}

HostTensor ref_index_fill(const HostTensor& self, int32_t dim, const HostTensor& index, double value) {
  const size_t d = wrapped(dim, self.shape.size());
  HostTensor r = self;
  for (int64_t i = 0; i < self.numel(); ++i) {
    const int64_t at = coords_of(self.shape, i)[d];
    for (double j : index.v)
      if (static_cast<int64_t>(j) == at) r.v[i] = store_as(self.dtype, value);
  }
  return r;
}

TEST_P(Index, IndexSelect) {
  uint32_t seed = 300;
  const Shape shape{4, 5, 3};
  for (DLDataType dt : kAllDtypes)
    for (int32_t dim : {0, 1, -1}) {
      const size_t d = wrapped(dim, 3);
      const HostTensor src = sample_host(dt, shape, next_seed(seed));
      for (const HostTensor& index : {random_index({6}, 0, shape[d] - 1, next_seed(seed)),
                                      index_host({}, {static_cast<double>(shape[d] - 1)}), index_host({0}, {})})
        op_case("index_select", dt, [&] {
          const Layout layout = kAllLayouts[seed++ % 3];
          SCOPED_TRACE("index_select " + dtype_name(dt) + " dim " + std::to_string(dim) + " index " +
                       shape_str(index.shape) + " " + layout_name(layout));
          Tensor s = upload(src, dev(), layout), i = upload(index, dev(), layout), out;
          CHECK_OK(porta_index_select(s, dim, i, out.out()));
          expect_close(download(out), ref_index_select(src, dim, index), kExact, "index_select");
        });
    }
  op_case("index_select", porta_float32, [&] {  // int32 indices too, as in PyTorch
    const HostTensor src = sample_host(porta_float32, {3, 4}, 1), index = make_host(porta_int32, {3}, {3, 0, 3});
    Tensor s = upload(src, dev()), i = upload(index, dev()), out, bad = upload(index_host({1}, {4}), dev());
    CHECK_OK(porta_index_select(s, 1, i, out.out()));
    expect_close(download(out), ref_index_select(src, 1, index), kExact, "index_select int32");
    expect_refused(PORTA_ERROR_INVALID_ARGUMENT, "index 4 is out of bounds",
                   [&](porta_tensor** o) { return porta_index_select(s, 1, bad, o); });
    Tensor matrix = upload(index_host({1, 2}, {0, 1}), dev()),
           floats = upload(make_host(porta_float32, {1}, {0}), dev());
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_index_select(s, 1, matrix, o); });
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE,
                   [&](porta_tensor** o) { return porta_index_select(s, 1, floats, o); });
  });
  op_case("index_select", porta_float64, [&] {  // a 0-d src gives a 0-d result, from one index value only
    const HostTensor scalar = make_host(porta_float64, {}, {2.5});
    Tensor s = upload(scalar, dev()), out, two = upload(index_host({2}, {0, 0}), dev());
    for (const HostTensor& index : {index_host({1}, {0}), index_host({}, {0})}) {
      Tensor i = upload(index, dev());
      CHECK_OK(porta_index_select(s, 0, i, out.out()));
      expect_close(download(out), scalar, kExact, "index_select of a 0-d tensor");
    }
    expect_refused(PORTA_ERROR_INVALID_ARGUMENT, "only 1 value, got 2",
                   [&](porta_tensor** o) { return porta_index_select(s, 0, two, o); });
  });
}

TEST_P(Index, IndexAddAndIndexCopy) {
  uint32_t seed = 400;
  const Shape shape{4, 5};
  for (DLDataType dt : {porta_float32, porta_float64, porta_int32, porta_int64, porta_uint8, porta_bool})
    for (int32_t dim : {0, 1})
      for (bool add : {true, false}) {
        if (add && is_bool(dt)) continue;  // a sum of bools: refused below
        const HostTensor self = sample_host(dt, shape, next_seed(seed), Values::Grid);
        const HostTensor index = random_index({6}, 0, shape[static_cast<size_t>(dim)] - 1, next_seed(seed));
        const HostTensor source =
            sample_host(dt, with_dim(shape, static_cast<size_t>(dim), 6), next_seed(seed), Values::Grid);
        const std::vector<double> alphas = !add           ? std::vector<double>{1}
                                           : is_float(dt) ? std::vector<double>{1, -1.5}
                                                          : std::vector<double>{1, 2};
        for (double alpha : alphas)
          op_case(add ? "index_add" : "index_copy", dt, [&] {
            const Layout layout = kAllLayouts[seed++ % 3];
            SCOPED_TRACE(std::string(add ? "index_add" : "index_copy") + " " + dtype_name(dt) + " dim " +
                         std::to_string(dim) + " alpha " + std::to_string(alpha) + " " + layout_name(layout));
            Tensor t = upload(self, dev(), layout), i = upload(index, dev(), layout), s = upload(source, dev(), layout);
            Tensor out;
            CHECK_OK(add ? porta_index_add(t, dim, i, s, alpha, out.out()) : porta_index_copy(t, dim, i, s, out.out()));
            const Reduction ref = ref_index_put(self, dim, index, source, add, alpha);
            expect_close(download(out), ref.value, tolerance_for(dt), add ? "index_add" : "index_copy", &ref.scale);
            expect_close(download(t), self, kExact, "left self alone");
          });
      }
  op_case("index_copy", porta_float32, [&] {  // a repeated index keeps the last slice
    Tensor t = upload(make_host(porta_float32, {3}, {0, 0, 0}), dev()), i = upload(index_host({3}, {2, 2, 0}), dev());
    Tensor s = upload(make_host(porta_float32, {3}, {1, 2, 3}), dev()), out;
    CHECK_OK(porta_index_copy(t, 0, i, s, out.out()));
    expect_close(download(out), make_host(porta_float32, {3}, {3, 0, 2}), kExact, "index_copy keeps the last");
    CHECK_OK(porta_index_add(t, 0, i, s, 1, out.out()));
    expect_close(download(out), make_host(porta_float32, {3}, {3, 0, 3}), kExact, "index_add adds repeats up");
    Tensor wrong = upload(make_host(porta_float32, {2}, {1, 2}), dev()),
           far = upload(index_host({3}, {0, 3, 1}), dev());
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_index_copy(t, 0, i, wrong, o); });
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_index_add(t, 0, i, wrong, 1, o); });
    expect_refused(PORTA_ERROR_INVALID_ARGUMENT, "index 3 is out of bounds",
                   [&](porta_tensor** o) { return porta_index_copy(t, 0, far, s, o); });
    expect_refused(PORTA_ERROR_INVALID_ARGUMENT, "index 3 is out of bounds",
                   [&](porta_tensor** o) { return porta_index_add(t, 0, far, s, 1, o); });
    Tensor flags = upload(make_host(porta_bool, {3}, {1, 0, 1}), dev());
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE,
                   [&](porta_tensor** o) { return porta_index_add(flags, 0, i, flags, 1, o); });
  });
}

TEST_P(Index, IndexFill) {
  uint32_t seed = 500;
  for (DLDataType dt : kAllDtypes)
    for (int32_t dim : {0, 1, -1}) {
      const HostTensor self = sample_host(dt, {3, 4, 5}, next_seed(seed));
      const size_t d = wrapped(dim, 3);
      for (const HostTensor& index : {random_index({4}, 0, self.shape[d] - 1, next_seed(seed)), index_host({0}, {})})
        op_case("index_fill", dt, [&] {
          const Layout layout = kAllLayouts[seed++ % 3];
          SCOPED_TRACE("index_fill " + dtype_name(dt) + " dim " + std::to_string(dim) + " " + layout_name(layout));
          Tensor t = upload(self, dev(), layout), i = upload(index, dev()), out;
          CHECK_OK(porta_index_fill(t, dim, i, fill_value(dt), out.out()));
          expect_close(download(out), ref_index_fill(self, dim, index, fill_value(dt)), kExact, "index_fill");
        });
    }
  op_case("index_fill", porta_int32, [&] {
    Tensor t = upload(sample_host(porta_int32, {2, 3}, 1), dev()), i = upload(index_host({1}, {3}), dev());
    expect_refused(PORTA_ERROR_INVALID_ARGUMENT, "index 3 is out of bounds",
                   [&](porta_tensor** o) { return porta_index_fill(t, 1, i, 1, o); });
    Tensor ok = upload(index_host({1}, {1}), dev());
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT,
                   [&](porta_tensor** o) { return porta_index_fill(t, 1, ok, 1e300, o); });
  });
}

// ---- masked_fill, masked_select, nonzero

TEST_P(Index, MaskedFill) {
  uint32_t seed = 600;
  for (DLDataType dt : kAllDtypes)
    for (const Shape& mask_shape : {Shape{4, 5}, Shape{5}, Shape{4, 1}, Shape{}})
      op_case("masked_fill", dt, [&] {
        const Layout layout = kAllLayouts[seed % 3];
        const HostTensor self = sample_host(dt, {4, 5}, next_seed(seed)),
                         mask = sample_host(porta_bool, mask_shape, next_seed(seed));
        SCOPED_TRACE("masked_fill " + dtype_name(dt) + " mask " + shape_str(mask_shape) + " " + layout_name(layout));
        Tensor t = upload(self, dev(), layout), m = upload(mask, dev(), layout), out;
        CHECK_OK(porta_masked_fill(t, m, fill_value(dt), out.out()));
        const HostTensor wide = broadcast_host(mask, self.shape);
        HostTensor ref = self;
        for (size_t k = 0; k < ref.v.size(); ++k)
          if (wide.v[k] != 0) ref.v[k] = store_as(dt, fill_value(dt));
        expect_close(download(out), ref, kExact, "masked_fill");
      });
  op_case("masked_fill", porta_float32, [&] {
    Tensor t = upload(sample_host(porta_float32, {4, 5}, 1), dev());
    Tensor ints = upload(sample_host(porta_int32, {4, 5}, 2), dev()),
           big = upload(sample_host(porta_bool, {3, 4, 5}, 3), dev());
    expect_refused(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool",
                   [&](porta_tensor** o) { return porta_masked_fill(t, ints, 0, o); });
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_masked_fill(t, big, 0, o); });
  });
}

TEST_P(Index, MaskedSelect) {
  uint32_t seed = 700;
  const struct {
    Shape self, mask;
  } shapes[] = {{{4, 5}, {4, 5}}, {{4, 5}, {5}}, {{5}, {4, 5}}, {{4, 1}, {1, 5}}, {{}, {3}}};
  for (DLDataType dt : kAllDtypes)
    for (const auto& s : shapes)
      op_case("masked_select", dt, [&] {
        const Layout layout = kAllLayouts[seed % 3];
        const HostTensor self = sample_host(dt, s.self, next_seed(seed)),
                         mask = sample_host(porta_bool, s.mask, next_seed(seed));
        SCOPED_TRACE("masked_select " + dtype_name(dt) + " " + shape_str(s.self) + " mask " + shape_str(s.mask) + " " +
                     layout_name(layout));
        Tensor t = upload(self, dev(), layout), m = upload(mask, dev(), layout), out;
        CHECK_OK(porta_masked_select(t, m, out.out()));
        Shape shape;
        ASSERT_TRUE(broadcast_shape(s.self, s.mask, &shape));
        const HostTensor a = broadcast_host(self, shape), b = broadcast_host(mask, shape);
        HostTensor ref{dt, {0}, {}};
        for (size_t k = 0; k < a.v.size(); ++k)
          if (b.v[k] != 0) ref.v.push_back(a.v[k]);
        ref.shape[0] = static_cast<int64_t>(ref.v.size());
        expect_close(download(out), ref, kExact, "masked_select");
      });
  op_case("masked_select", porta_float64, [&] {
    Tensor t = upload(sample_host(porta_float64, {2, 3}, 1), dev()),
           none = upload(make_host(porta_bool, {3}, {0, 0, 0}), dev());
    Tensor out, ints = upload(sample_host(porta_uint8, {2, 3}, 2), dev());
    CHECK_OK(porta_masked_select(t, none, out.out()));
    EXPECT_EQ(shape_str(shape_of(out)), "[0]");
    expect_refused(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool",
                   [&](porta_tensor** o) { return porta_masked_select(t, ints, o); });
  });
}

HostTensor ref_nonzero(const HostTensor& t) {
  HostTensor r{porta_int64, {0, static_cast<int64_t>(t.shape.size())}, {}};
  for (int64_t i = 0; i < t.numel(); ++i)
    if (t.v[i] != 0) {  // NaN counts, -0.0 does not
      ++r.shape[0];
      for (int64_t c : coords_of(t.shape, i)) r.v.push_back(static_cast<double>(c));
    }
  return r;
}

TEST_P(Index, Nonzero) {
  uint32_t seed = 800;
  std::vector<HostTensor> cases;
  for (DLDataType dt : kAllDtypes) {
    cases.push_back(sample_host(dt, {3, 4, 5}, next_seed(seed), Values::Unit));  // ints in [-1, 1]: many zeros
    cases.push_back(sample_host(dt, {7}, next_seed(seed), Values::Grid));
  }
  cases.push_back(make_host(porta_float32, {2, 3}, {0, -0.0, NAN, INFINITY, 0, 1e-30}));
  cases.push_back(make_host(porta_int64, {}, {5}));
  cases.push_back(make_host(porta_bool, {}, {0}));
  cases.push_back(make_host(porta_float64, {0, 3}, {}));
  cases.push_back(make_host(porta_int32, {2, 2}, {0, 0, 0, 0}));
  for (const HostTensor& t : cases)
    op_case("nonzero", t.dtype, [&] {
      const Layout layout = kAllLayouts[seed++ % 3];
      SCOPED_TRACE("nonzero " + dtype_name(t.dtype) + " " + shape_str(t.shape) + " " + layout_name(layout));
      Tensor in = upload(t, dev(), layout), out;
      CHECK_OK(porta_nonzero(in, out.out()));
      expect_close(download(out), ref_nonzero(t), kExact, "nonzero");
    });
}

// ---- take, embedding

TEST_P(Index, TakeWithNegativePositions) {
  uint32_t seed = 900;
  for (DLDataType dt : kAllDtypes)
    for (const HostTensor& index : {index_host({2, 3}, {0, -1, 11, -12, 5, 5}), index_host({}, {-5}),
                                    index_host({0}, {}), random_index({9}, -12, 11, seed)})
      op_case("take", dt, [&] {
        const Layout layout = kAllLayouts[seed++ % 3];
        const HostTensor t = sample_host(dt, {3, 4}, next_seed(seed));
        SCOPED_TRACE("take " + dtype_name(dt) + " index " + shape_str(index.shape) + " " + layout_name(layout));
        Tensor in = upload(t, dev(), layout), i = upload(index, dev(), layout), out;
        CHECK_OK(porta_take(in, i, out.out()));
        HostTensor ref{dt, index.shape, {}};
        for (double p : index.v) ref.v.push_back(t.v[static_cast<size_t>(p < 0 ? p + 12 : p)]);
        expect_close(download(out), ref, kExact, "take");
      });
  op_case("take", porta_float32, [&] {
    Tensor t = upload(sample_host(porta_float32, {3, 4}, 1), dev());
    for (double bad : {12.0, -13.0}) {
      Tensor i = upload(index_host({2}, {0, bad}), dev());
      expect_refused(PORTA_ERROR_INVALID_ARGUMENT, "index " + std::to_string(static_cast<int64_t>(bad)),
                     [&](porta_tensor** o) { return porta_take(t, i, o); });
    }
    Tensor narrow = upload(make_host(porta_int32, {2}, {0, 1}), dev());
    expect_refused(PORTA_ERROR_UNSUPPORTED_DTYPE, "int64", [&](porta_tensor** o) { return porta_take(t, narrow, o); });
  });
}

TEST_P(Index, Embedding) {
  uint32_t seed = 1000;
  for (DLDataType dt : {porta_float32, porta_float64, porta_int64})
    for (DLDataType it : {porta_int64, porta_int32})
      for (int64_t padding_idx : {INT64_MIN, int64_t{2}, int64_t{-1}})
        op_case("embedding", dt, [&] {
          const HostTensor weight = sample_host(dt, {6, 4}, next_seed(seed));
          const HostTensor indices = cast_host(random_index({2, 3}, 0, 5, next_seed(seed)), it);
          const Layout layout = kAllLayouts[seed % 3];
          SCOPED_TRACE("embedding " + dtype_name(dt) + " indices " + dtype_name(it) + " padding_idx " +
                       std::to_string(padding_idx) + " " + layout_name(layout));
          Tensor w = upload(weight, dev(), layout), i = upload(indices, dev(), layout), out;
          CHECK_OK(porta_embedding(w, i, padding_idx, out.out()));
          HostTensor ref{dt, {2, 3, 4}, {}};
          for (double row : indices.v)
            for (int64_t e = 0; e < 4; ++e) ref.v.push_back(weight.v[static_cast<size_t>(row) * 4 + e]);
          expect_close(download(out), ref, kExact, "embedding");  // padding rows read as any other
        });
  op_case("embedding", porta_float32, [&] {
    Tensor w = upload(sample_host(porta_float32, {6, 4}, 1), dev());
    for (double bad : {6.0, -1.0}) {
      Tensor i = upload(index_host({2}, {0, bad}), dev());
      expect_refused(PORTA_ERROR_INVALID_ARGUMENT, "index " + std::to_string(static_cast<int64_t>(bad)),
                     [&](porta_tensor** o) { return porta_embedding(w, i, INT64_MIN, o); });
    }
    Tensor ok = upload(index_host({2}, {0, 1}), dev()), flat = upload(sample_host(porta_float32, {6}, 2), dev());
    Tensor floats = upload(make_host(porta_float32, {2}, {0, 1}), dev());
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH,
                   [&](porta_tensor** o) { return porta_embedding(flat, ok, INT64_MIN, o); });
    expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE,
                   [&](porta_tensor** o) { return porta_embedding(w, floats, INT64_MIN, o); });
    for (int64_t padding_idx : {int64_t{6}, int64_t{-7}})
      expect_refused(PORTA_ERROR_INVALID_ARGUMENT, "padding_idx",
                     [&](porta_tensor** o) { return porta_embedding(w, ok, padding_idx, o); });
  });
}

// ---- cat, stack, split, unbind

// torch.cat of host tensors: dtypes promote over all of them; 1-D empty ones are skipped.
HostTensor ref_cat(const std::vector<HostTensor>& ts, int32_t dim) {
  DLDataType dt = ts[0].dtype;
  std::vector<const HostTensor*> kept;
  for (const HostTensor& t : ts) {
    dt = promote(dt, t.dtype);
    if (!(t.shape.size() == 1 && t.shape[0] == 0)) kept.push_back(&t);
  }
  if (kept.empty()) return HostTensor{dt, {0}, {}};
  const size_t d = wrapped(dim, kept[0]->shape.size());
  Shape shape = kept[0]->shape;
  shape[d] = 0;
  for (const HostTensor* t : kept) shape[d] += t->shape[d];
  HostTensor r{dt, shape, std::vector<double>(static_cast<size_t>(numel(shape)))};
  int64_t offset = 0;
  for (const HostTensor* t : kept) {
    for (int64_t i = 0; i < t->numel(); ++i) {
      Coords c = coords_of(t->shape, i);
      c[d] += offset;
      r.v[position_of(shape, c)] = store_as(dt, t->v[i]);
    }
    offset += t->shape[d];
  }
  return r;
}

HostTensor unsqueezed(HostTensor t, size_t dim) {
  t.shape.insert(t.shape.begin() + static_cast<std::ptrdiff_t>(dim), 1);
  return t;
}

// The device tensors of `ts`, each in the next layout, and their raw handles.
struct Uploaded {
  std::vector<Tensor> owned;
  std::vector<porta_tensor*> raw;
};
Uploaded upload_all(const std::vector<HostTensor>& ts, DLDevice dev, uint32_t layout_seed) {
  Uploaded u;
  for (const HostTensor& t : ts) {
    u.owned.push_back(upload(t, dev, kAllLayouts[layout_seed++ % 3]));
    u.raw.push_back(u.owned.back());
  }
  return u;
}

TEST_P(Index, CatShapesLayoutsAndEmptyInputs) {
  uint32_t seed = 1100;
  const struct {
    std::vector<Shape> shapes;
    int32_t dim;
  } cases[] = {
      {{{2, 3}, {4, 3}}, 0},
      {{{2, 3}, {2, 1}, {2, 0}, {2, 4}}, 1},
      {{{2, 3}, {2, 2}}, -1},
      {{{3, 2, 2}, {3, 1, 2}}, 1},
      {{{5}}, 0},
      {{{2, 3}, {0}, {1, 3}}, 0},
      {{{2, 3}, {0}, {2, 2}, {0}}, 1},
      {{{0}, {0}}, 0},
      {{{0}, {3}, {0}}, 0},
      {{{0, 3}, {2, 3}}, 0},
  };
  for (const auto& c : cases)
    for (DLDataType dt : {porta_float32, porta_int64, porta_bool}) {
      std::vector<HostTensor> ts;
      for (const Shape& s : c.shapes) ts.push_back(sample_host(dt, s, next_seed(seed)));
      op_case("cat", dt, [&] {
        SCOPED_TRACE("cat of " + std::to_string(ts.size()) + " " + dtype_name(dt) + " first " + shape_str(ts[0].shape) +
                     " dim " + std::to_string(c.dim));
        Uploaded u = upload_all(ts, dev(), seed);
        Tensor out;
        CHECK_OK(porta_cat(u.raw.data(), static_cast<int32_t>(u.raw.size()), c.dim, out.out()));
        expect_close(download(out), ref_cat(ts, c.dim), kExact, "cat");
      });
    }
}

TEST_P(Index, CatPromotesDtypes) {
  uint32_t seed = 1200;
  for (DLDataType a : kAllDtypes)
    for (DLDataType b : kAllDtypes)
      op_case("cat", promote(a, b), [&] {
        SCOPED_TRACE("cat " + dtype_name(a) + " and " + dtype_name(b));
        const std::vector<HostTensor> ts = {sample_host(a, {2, 3}, next_seed(seed)),
                                            sample_host(b, {1, 3}, next_seed(seed))};
        Uploaded u = upload_all(ts, dev(), seed);
        Tensor out;
        CHECK_OK(porta_cat(u.raw.data(), 2, 0, out.out()));
        expect_close(download(out), ref_cat(ts, 0), kExact, "cat");
      });
  op_case("cat", porta_float64, [&] {  // a skipped empty input still takes part in the promotion
    const std::vector<HostTensor> ts = {sample_host(porta_float32, {2, 3}, 1), make_host(porta_float64, {0}, {}),
                                        sample_host(porta_int32, {1, 3}, 2)};
    Uploaded u = upload_all(ts, dev(), 0);
    Tensor out;
    CHECK_OK(porta_cat(u.raw.data(), 3, 0, out.out()));
    expect_close(download(out), ref_cat(ts, 0), kExact, "cat with an empty float64");
  });
}

TEST_P(Index, CatAndStackRefusals) {
  Tensor a = upload(sample_host(porta_float32, {2, 3}, 1), dev()),
         b = upload(sample_host(porta_float32, {3}, 2), dev());
  Tensor c = upload(sample_host(porta_float32, {2, 4}, 3), dev()), z = upload(make_host(porta_float32, {}, {1}), dev());
  op_case("cat", porta_float32, [&] {
    porta_tensor* ab[] = {a, b};
    porta_tensor* ac[] = {a, c};
    porta_tensor* zz[] = {z, z};
    expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_cat(ab, 2, 0, o); });
    expect_refused(PORTA_ERROR_SHAPE_MISMATCH, "dimension 0", [&](porta_tensor** o) { return porta_cat(ac, 2, 0, o); });
    expect_refused(PORTA_ERROR_INVALID_ARGUMENT, "zero-dimensional",
                   [&](porta_tensor** o) { return porta_cat(zz, 2, 0, o); });
    for (int32_t dim : {2, -3})
      expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_cat(ac, 2, dim, o); });
  });
  op_case("stack", porta_float32, [&] {
    porta_tensor* ac[] = {a, c};
    porta_tensor* aa[] = {a, a};
    expect_refused(PORTA_ERROR_SHAPE_MISMATCH, "equal size",
                   [&](porta_tensor** o) { return porta_stack(ac, 2, 0, o); });
    for (int32_t dim : {3, -4})
      expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_stack(aa, 2, dim, o); });
  });
  for (const DeviceCase& other : other_devices()) {
    Tensor there = upload(sample_host(porta_float32, {2, 3}, 4), other.device);
    porta_tensor* mixed[] = {a, there};
    expect_failure(PORTA_ERROR_DEVICE_MISMATCH, [&](porta_tensor** o) { return porta_cat(mixed, 2, 0, o); });
    expect_failure(PORTA_ERROR_DEVICE_MISMATCH, [&](porta_tensor** o) { return porta_stack(mixed, 2, 0, o); });
    break;
  }
}

TEST_P(Index, Stack) {
  uint32_t seed = 1300;
  for (const Shape& shape : {Shape{2, 3}, Shape{}, Shape{0, 2}, Shape{0}})
    for (int32_t dim : {0, 1, 2, -1, -3}) {
      const int32_t nd = static_cast<int32_t>(shape.size());
      if (dim > nd || dim < -(nd + 1)) continue;
      for (DLDataType second : {porta_float32, porta_int32}) {
        const std::vector<HostTensor> ts = {sample_host(porta_float32, shape, next_seed(seed)),
                                            sample_host(second, shape, next_seed(seed)),
                                            sample_host(porta_float32, shape, next_seed(seed))};
        op_case("stack", porta_float32, [&] {
          SCOPED_TRACE("stack " + shape_str(shape) + " dim " + std::to_string(dim) + " with " + dtype_name(second));
          Uploaded u = upload_all(ts, dev(), seed);
          Tensor out;
          CHECK_OK(porta_stack(u.raw.data(), 3, dim, out.out()));
          const size_t d = static_cast<size_t>(dim < 0 ? dim + nd + 1 : dim);
          std::vector<HostTensor> parts;
          for (const HostTensor& t : ts) parts.push_back(unsqueezed(t, d));
          expect_close(download(out), ref_cat(parts, static_cast<int32_t>(d)), kExact, "stack");
        });
      }
    }
}

// The part of `t` from `start` to `start + n` along dim.
HostTensor narrow_host(const HostTensor& t, size_t dim, int64_t start, int64_t n) {
  HostTensor r{t.dtype, with_dim(t.shape, dim, n), {}};
  for (int64_t i = 0; i < numel(r.shape); ++i) {
    Coords c = coords_of(r.shape, i);
    c[dim] += start;
    r.v.push_back(t.v[position_of(t.shape, c)]);
  }
  return r;
}

// Downloads and releases every handle of `outs`.
std::vector<HostTensor> take_all(std::vector<porta_tensor*>& outs) {
  std::vector<Tensor> owned;  // every handle owned first: a download that throws (a missing kernel) leaks none
  for (porta_tensor*& t : outs) owned.emplace_back(std::exchange(t, nullptr));
  std::vector<HostTensor> r;
  for (const Tensor& t : owned) r.push_back(download(t));
  return r;
}

TEST_P(Index, SplitAndUnbind) {
  const HostTensor t = sample_host(porta_float64, {5, 4}, 1);
  const struct {
    std::vector<int64_t> sizes;
    int32_t dim;
  } splits[] = {{{2, 0, 3}, 0}, {{1, 3}, 1}, {{4}, -1}, {{1, 1, 1, 1, 1}, -2}};
  for (Layout layout : kAllLayouts) {
    Tensor in = upload(t, dev(), layout);
    for (const auto& s : splits)
      op_case("split", t.dtype, [&] {
        SCOPED_TRACE("split dim " + std::to_string(s.dim) + " " + layout_name(layout));
        std::vector<porta_tensor*> outs(s.sizes.size(), nullptr);
        CHECK_OK(porta_split(in, s.sizes.data(), static_cast<int32_t>(s.sizes.size()), s.dim, outs.data()));
        const std::vector<HostTensor> got = take_all(outs);
        const size_t d = wrapped(s.dim, 2);
        int64_t start = 0;
        for (size_t k = 0; k < got.size(); ++k) {
          expect_close(got[k], narrow_host(t, d, start, s.sizes[k]), kExact, "split part " + std::to_string(k));
          start += s.sizes[k];
        }
      });
    for (int32_t dim : {0, 1, -1})
      op_case("unbind", t.dtype, [&] {
        SCOPED_TRACE("unbind dim " + std::to_string(dim) + " " + layout_name(layout));
        const size_t d = wrapped(dim, 2);
        std::vector<porta_tensor*> outs(static_cast<size_t>(t.shape[d]), nullptr);
        CHECK_OK(porta_unbind(in, dim, outs.data()));
        const std::vector<HostTensor> got = take_all(outs);
        for (size_t k = 0; k < got.size(); ++k) {
          HostTensor ref = narrow_host(t, d, static_cast<int64_t>(k), 1);
          ref.shape.erase(ref.shape.begin() + static_cast<std::ptrdiff_t>(d));
          expect_close(got[k], ref, kExact, "unbind part " + std::to_string(k));
        }
      });
  }
  op_case("split", porta_float64, [&] {  // parts are views of t
    Tensor in = upload(t, dev());
    const int64_t sizes[] = {2, 3};
    porta_tensor* outs[2] = {nullptr, nullptr};
    CHECK_OK(porta_split(in, sizes, 2, 0, outs));
    Tensor first(outs[0]), second(outs[1]);
    EXPECT_EQ(byte_offset_of(second), byte_offset_of(in) + 2 * 4 * sizeof(double));
    porta_tensor* untouched[3] = {sentinel(), sentinel(), sentinel()};
    const int64_t short_sizes[] = {2, 2}, negative[] = {6, -1};
    expect_refused(PORTA_ERROR_INVALID_ARGUMENT, "add up to 4",
                   [&](porta_tensor**) { return porta_split(in, short_sizes, 2, 0, untouched); });
    expect_refused(PORTA_ERROR_INVALID_ARGUMENT, "-1",
                   [&](porta_tensor**) { return porta_split(in, negative, 2, 0, untouched); });
    for (porta_tensor* o : untouched) EXPECT_EQ(o, sentinel()) << "a refused split wrote a part";
    Tensor z = upload(make_host(porta_float64, {}, {1}), dev());
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT,
                   [&](porta_tensor**) { return porta_split(z, sizes, 1, 0, untouched); });
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor**) { return porta_unbind(z, 0, untouched); });
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor**) { return porta_unbind(in, 2, untouched); });
    for (porta_tensor* o : untouched) EXPECT_EQ(o, sentinel()) << "a refused call wrote an output";
  });
}

}  // namespace
}  // namespace conformance
