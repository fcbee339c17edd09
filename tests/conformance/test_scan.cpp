// Every SCAN op of PORTA_OP_LIST (cumsum, cumprod): each dim, every dtype
// (integers and bool give int64), strided inputs, 0-d and empty tensors,
// rows of 10000, float32 accumulated in double, int64 wrapping, NaN. And the
// RUNNING_EXTREME kind (cummax, cummin), values and where they came from.
#include <cmath>
#include <optional>
#include <string>

#include "device_params.hpp"
#include "op_tables.hpp"
#include "reference.hpp"

namespace conformance {
namespace {

// float32 accumulated in double and rounded once: within a unit in the last
// place of the double reference (a float32 accumulator drifts far more).
constexpr Tolerance kRoundedOnce{2.5e-7, 1e-30};

class Scan : public DeviceTest {
 protected:
  void check(const ScanOp& op, const HostTensor& in, int32_t dim, Layout layout,
             std::optional<Tolerance> tol = std::nullopt) {
    op_case(op.name, in.dtype, [&] {
      SCOPED_TRACE(std::string(op.name) + " " + dtype_name(in.dtype) + " " + shape_str(in.shape) + " " +
                   layout_name(layout) + " dim " + std::to_string(dim));
      Tensor t = upload(in, dev(), layout), out;
      CHECK_OK(op.fn(t, dim, out.out()));
      const Reduction ref = ref_scan(op.op, in, dim);
      const HostTensor got = download(out);
      if (tol) {
        expect_close(got, ref.value, *tol, op.name);  // against |ref| alone
      } else {
        expect_close(got, ref.value, tolerance_for(ref.value.dtype), op.name, &ref.scale);
      }
      expect_close(download(t), in, kExact, std::string(op.name) + " left its input alone");
    });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Scan);

TEST_P(Scan, EveryDtypeDimAndLayout) {
  uint32_t seed = 1;
  for (const ScanOp& op : kScanOps)
    for (DLDataType dt : kAllDtypes)
      for (int32_t dim : {0, 1, 2, -1, -3})
        for (Layout layout : kAllLayouts) {
          if (layout != Layout::Contiguous && (dim == 1 || dim == -3)) continue;  // enough strided cases
          check(op, sample_host(dt, {3, 4, 5}, seed++, Values::Grid), dim, layout);
        }
}

TEST_P(Scan, IntegersAndBoolGiveInt64) {
  for (const ScanOp& op : kScanOps)
    for (DLDataType dt : {porta_bool, porta_uint8, porta_int32})
      op_case(op.name, dt, [&] {
        Tensor t = upload(sample_host(dt, {2, 3}, 7, Values::Positive), dev()), out;
        CHECK_OK(op.fn(t, 1, out.out()));
        EXPECT_EQ(dtype_name(dtype_of(out)), "int64") << op.name << " of " << dtype_name(dt);
      });
  // uint8 and int32 prefixes beyond their range: computed in int64, nothing wraps.
  const HostTensor bytes = make_host(porta_uint8, {5}, {200, 200, 200, 200, 200});
  const HostTensor ints = make_host(porta_int32, {3}, {2000000000, 2000000000, 2000000000});
  for (const ScanOp& op : kScanOps) {
    check(op, bytes, 0, Layout::Contiguous);
    check(op, ints, 0, Layout::Contiguous);
  }
}

TEST_P(Scan, Int64Wraps) {
  const double p62 = std::ldexp(1.0, 62), p32 = std::ldexp(1.0, 32);
  for (const ScanOp& op : kScanOps) {
    const HostTensor in = op.op == PORTA_OP_CUMSUM ? make_host(porta_int64, {3}, {p62, p62, p62})  // -2^63, -2^62
                                                   : make_host(porta_int64, {3}, {p32, p32, 3});   // 2^64 -> 0
    check(op, in, 0, Layout::Contiguous);
  }
}

// 2^24 + 1 + 1 + ... : a float32 accumulator never moves from 2^24.
TEST_P(Scan, Float32CumsumAccumulatesInDouble) {
  for (int32_t dim : {0, 1}) {
    const Shape shape = dim == 1 ? Shape{2, 10000} : Shape{10000, 2};
    HostTensor in = make_host(porta_float32, shape, std::vector<double>(20000, 1.0));
    in.v[0] = in.v[dim == 1 ? 10000 : 1] = 16777216;
    for (const ScanOp& op : kScanOps)
      if (op.op == PORTA_OP_CUMSUM) check(op, in, dim, Layout::Contiguous, kRoundedOnce);
  }
}

// Products of 10000 factors near 1: a float32 accumulator drifts by ~1e-5.
TEST_P(Scan, Float32CumprodAccumulatesInDouble) {
  HostTensor in = sample_host(porta_float64, {3, 10000}, 11, Values::Unit);
  for (double& x : in.v) x = 1 + x / 256;
  in = cast_host(in, porta_float32);
  for (const ScanOp& op : kScanOps)
    if (op.op == PORTA_OP_CUMPROD) check(op, in, 1, Layout::Contiguous, kRoundedOnce);
}

TEST_P(Scan, LongRowsAndColumns) {
  for (const ScanOp& op : kScanOps)
    for (DLDataType dt : {porta_float32, porta_float64, porta_int64}) {
      HostTensor in = sample_host(dt, {4, 10000}, 21, Values::Grid);
      if (op.op == PORTA_OP_CUMPROD)  // factors that neither overflow nor vanish
        for (size_t k = 0; k < in.v.size(); ++k) in.v[k] = is_float(dt) ? 1 + in.v[k] / 1024 : (k % 7 ? 1 : -1);
      check(op, in, 1, Layout::Contiguous);
      HostTensor cols = sample_host(dt, {10000, 3}, 22, Values::Grid);
      if (op.op == PORTA_OP_CUMPROD)
        for (size_t k = 0; k < cols.v.size(); ++k) cols.v[k] = is_float(dt) ? 1 - cols.v[k] / 1024 : (k % 5 ? 1 : -1);
      check(op, cols, 0, Layout::Strided);
    }
}

TEST_P(Scan, ZeroDimEmptyAndSizeOne) {
  for (const ScanOp& op : kScanOps) {
    for (int32_t dim : {0, -1}) {
      check(op, make_host(porta_float32, {}, {2.5}), dim, Layout::Contiguous);
      check(op, make_host(porta_bool, {}, {1}), dim, Layout::Contiguous);
    }
    for (int32_t dim : {0, 1}) {
      check(op, sample_host(porta_float64, {0, 3}, 1), dim, Layout::Contiguous);
      check(op, sample_host(porta_int32, {2, 0}, 2), dim, Layout::Contiguous);
      check(op, sample_host(porta_float32, {1, 5}, 3), dim, Layout::Transposed);
    }
  }
}

TEST_P(Scan, NaNAndInfinityPropagate) {
  const HostTensor in = make_host(porta_float32, {3, 4}, {1, NAN, 2, 3, INFINITY, -INFINITY, 1, 2, 0, INFINITY, 2, -1});
  for (const ScanOp& op : kScanOps)
    for (int32_t dim : {0, 1})
      for (Layout layout : kAllLayouts) check(op, in, dim, layout);
}

TEST_P(Scan, BadDimsAreRejected) {
  Tensor t = upload(sample_host(porta_float32, {2, 3}, 1), dev()), z = upload(make_host(porta_int64, {}, {4}), dev());
  for (const ScanOp& op : kScanOps) {
    SCOPED_TRACE(op.name);
    for (int32_t dim : {2, -3, INT32_MIN}) {
      const std::string m =
          expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return op.fn(t, dim, o); });
      EXPECT_NE(m.find(op.name), std::string::npos) << m;
    }
    for (int32_t dim : {1, -2})
      expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return op.fn(z, dim, o); });
  }
}

// ---- RUNNING_EXTREME: cummax, cummin

struct RunningExtremeOp {
  porta_op op;
  const char* name;
  porta_status (*fn)(porta_tensor*, int32_t, porta_tensor**, porta_tensor**);
};
const RunningExtremeOp kRunningExtremeOps[] = {{PORTA_OP_CUMMAX, "cummax", porta_cummax},
                                               {PORTA_OP_CUMMIN, "cummin", porta_cummin}};

class RunningExtreme : public Scan {
 protected:
  void check(const RunningExtremeOp& op, const HostTensor& in, int32_t dim, Layout layout) {
    op_case(op.name, in.dtype, [&] {
      SCOPED_TRACE(std::string(op.name) + " " + dtype_name(in.dtype) + " " + shape_str(in.shape) + " " +
                   layout_name(layout) + " dim " + std::to_string(dim));
      Tensor t = upload(in, dev(), layout), values, indices;
      CHECK_OK(op.fn(t, dim, values.out(), indices.out()));
      const auto [want_values, want_indices] = ref_running_extreme(op.op, in, dim);
      expect_close(download(values), want_values, kExact, op.name);
      expect_close(download(indices), want_indices, kExact, std::string(op.name) + " indices");
    });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(RunningExtreme);

// Grid values repeat, so every line has ties: the later element must win.
TEST_P(RunningExtreme, EveryDtypeDimAndLayout) {
  uint32_t seed = 1;
  for (const RunningExtremeOp& op : kRunningExtremeOps)
    for (DLDataType dt : kAllDtypes)
      for (int32_t dim : {0, 1, 2, -1})
        for (Layout layout : kAllLayouts) {
          if (layout != Layout::Contiguous && dim == 1) continue;  // enough strided cases
          check(op, sample_host(dt, {3, 4, 5}, seed++, Values::Grid), dim, layout);
        }
}

TEST_P(RunningExtreme, NaNWinsAndLongLines) {
  const HostTensor nans =
      make_host(porta_float32, {3, 4}, {1, NAN, 2, NAN, INFINITY, -INFINITY, INFINITY, 2, 0, -0.0, 0, NAN});
  for (const RunningExtremeOp& op : kRunningExtremeOps) {
    for (int32_t dim : {0, 1})
      for (Layout layout : kAllLayouts) check(op, nans, dim, layout);
    check(op, sample_host(porta_float64, {2, 3000}, 5), 1, Layout::Contiguous);
    check(op, sample_host(porta_int64, {700, 3}, 6), 0, Layout::Contiguous);
  }
}

}  // namespace
}  // namespace conformance
