// Every REDUCE op of PORTA_OP_LIST (sum, mean, max, min): single dims,
// non-adjacent dims, all dims, keepdim, every dtype, strided inputs, 0-d and
// empty tensors, and reductions large enough to need several blocks.
#include <algorithm>
#include <cmath>

#include "device_params.hpp"
#include "op_tables.hpp"
#include "reference.hpp"

namespace conformance {
namespace {

class Reduce : public DeviceTest {
 protected:
  void check(const ReduceOp& op, const HostTensor& in, const std::vector<int32_t>& dims, bool keepdim, Layout layout) {
    op_case(op.name, in.dtype, [&] {
      std::string d;
      for (int32_t x : dims) d += std::to_string(x) + " ";
      SCOPED_TRACE(std::string(op.name) + " " + dtype_name(in.dtype) + " " + shape_str(in.shape) + " " +
                   layout_name(layout) + " dims {" + d + "} keepdim " + std::to_string(keepdim));
      Tensor t = upload(in, dev(), layout), out;
      const int32_t* dp = dims.empty() ? nullptr : dims.data();
      const int32_t n = static_cast<int32_t>(dims.size());
      if (op.op == PORTA_OP_MEAN && !is_float(in.dtype)) {
        expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return op.fn(t, dp, n, keepdim, o); });
        return;
      }
      CHECK_OK(op.fn(t, dp, n, keepdim, out.out()));
      const Reduction ref = ref_reduce(op.op, in, dims, keepdim);
      expect_close(download(out), ref.value, tolerance_for(ref.value.dtype), op.name, &ref.scale);
    });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Reduce);

const std::vector<int32_t> kDimSets[] = {{}, {0}, {1}, {2}, {-1}, {0, 2}, {2, 0}, {0, 1}, {1, 2}, {0, 1, 2}, {-3, -1}};

TEST_P(Reduce, EveryDtypeAndDimSet) {
  uint32_t seed = 1;
  for (const ReduceOp& op : kReduceOps)
    for (DLDataType dt : kAllDtypes)
      for (const auto& dims : kDimSets)
        for (bool keepdim : {false, true})
          check(op, sample_host(dt, {3, 4, 5}, seed++), dims, keepdim, Layout::Contiguous);
}

TEST_P(Reduce, NonContiguousInputs) {
  uint32_t seed = 1000;
  for (const ReduceOp& op : kReduceOps)
    for (DLDataType dt : {porta_float32, porta_float64, porta_int32, porta_uint8})
      for (const auto& dims : kDimSets)
        for (Layout layout : {Layout::Transposed, Layout::Strided}) {
          const bool keepdim = seed % 2 == 0;
          check(op, sample_host(dt, {4, 3, 6}, seed++), dims, keepdim, layout);
        }
}

TEST_P(Reduce, SizeOneDims) {
  uint32_t seed = 2000;
  for (const ReduceOp& op : kReduceOps)
    for (const auto& dims : {std::vector<int32_t>{1}, {0, 1}, {1, 3}, {0, 2}})
      for (bool keepdim : {false, true})
        check(op, sample_host(porta_float64, {3, 1, 4, 1}, seed++), dims, keepdim, Layout::Contiguous);
}

TEST_P(Reduce, ZeroDimTensor) {
  uint32_t seed = 3000;
  for (const ReduceOp& op : kReduceOps)
    for (DLDataType dt : {porta_float32, porta_int32, porta_bool})
      for (const auto& dims : {std::vector<int32_t>{}, {0}, {-1}})
        for (bool keepdim : {false, true}) check(op, sample_host(dt, {}, seed++), dims, keepdim, Layout::Contiguous);
}

TEST_P(Reduce, EmptyTensors) {
  uint32_t seed = 4000;
  for (const ReduceOp& op : kReduceOps)
    for (DLDataType dt : {porta_float32, porta_int64})
      for (const auto& [shape, dims] : {std::pair<Shape, std::vector<int32_t>>{{0, 3}, {0}},
                                        {{0, 3}, {1}},
                                        {{0, 3}, {}},
                                        {{2, 0, 3}, {0, 2}},
                                        {{2, 0, 3}, {1}}}) {
        const HostTensor in = sample_host(dt, shape, seed++);
        int64_t reduced = 1;  // elements per output
        for (size_t i = 0; i < shape.size(); ++i)
          if (dims.empty() || std::find(dims.begin(), dims.end(), static_cast<int32_t>(i)) != dims.end())
            reduced *= shape[i];
        if ((op.op == PORTA_OP_MAX || op.op == PORTA_OP_MIN) && reduced == 0) {
          Tensor t = upload(in, dev());
          expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) {
            return op.fn(t, dims.empty() ? nullptr : dims.data(), static_cast<int32_t>(dims.size()), 0, o);
          });
          continue;
        }
        for (bool keepdim : {false, true}) check(op, in, dims, keepdim, Layout::Contiguous);
      }
}

// Integer-valued floats sum exactly in any order, so long reductions are
// checked exactly whatever the device's reduction tree.
TEST_P(Reduce, LongReductionsAreExactOnIntegerValues) {
  HostTensor in = sample_host(porta_float32, {1031, 67}, 5000, Values::Grid);
  for (double& x : in.v) x = std::round(x);
  for (const ReduceOp& op : kReduceOps)
    for (const auto& dims : {std::vector<int32_t>{0}, {1}, {}}) {
      if (op.op == PORTA_OP_MEAN) continue;  // division rounds: covered by EveryDtypeAndDimSet
      op_case(op.name, in.dtype, [&] {
        Tensor t = upload(in, dev()), out;
        CHECK_OK(op.fn(t, dims.empty() ? nullptr : dims.data(), static_cast<int32_t>(dims.size()), 0, out.out()));
        expect_close(download(out), ref_reduce(op.op, in, dims, false).value, kExact, op.name);
      });
    }
  HostTensor ints = sample_host(porta_int32, {100003}, 5001);
  op_case("sum", ints.dtype, [&] {
    Tensor t = upload(ints, dev()), out;
    CHECK_OK(porta_sum(t, nullptr, 0, 0, out.out()));
    expect_close(download(out), ref_reduce(PORTA_OP_SUM, ints, {}, false).value, kExact, "sum of 100003 int32");
  });
}

TEST_P(Reduce, NaNAndInfinity) {
  const HostTensor in = make_host(porta_float32, {3, 4}, {1, NAN, 3, -INFINITY, INFINITY, 2, -1, 0, 5, 6, NAN, NAN});
  for (const ReduceOp& op : kReduceOps)
    for (const auto& dims : {std::vector<int32_t>{0}, {1}, {}})
      for (Layout layout : kAllLayouts) check(op, in, dims, false, layout);
}

TEST_P(Reduce, BadDimsAreRejected) {
  Tensor t = upload(sample_host(porta_float32, {2, 3}, 1), dev());
  for (const ReduceOp& op : kReduceOps) {
    SCOPED_TRACE(op.name);
    const int32_t twice[] = {1, -1}, out_of_range[] = {2}, negative[] = {-3};
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return op.fn(t, twice, 2, 0, o); });
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return op.fn(t, out_of_range, 1, 0, o); });
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return op.fn(t, negative, 1, 0, o); });
  }
}

}  // namespace
}  // namespace conformance
