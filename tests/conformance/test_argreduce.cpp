// Every ARGREDUCE op of PORTA_OP_LIST (argmax, argmin): each dim, PORTA_ALL_DIMS,
// keepdim, ties resolved to the first index, every dtype and layout.
#include <cmath>

#include "device_params.hpp"
#include "op_tables.hpp"
#include "reference.hpp"

namespace conformance {
namespace {

class ArgReduce : public DeviceTest {
 protected:
  void check(const ArgReduceOp& op, const HostTensor& in, int32_t dim, bool keepdim, Layout layout) {
    op_case(op.name, in.dtype, [&] {
      SCOPED_TRACE(std::string(op.name) + " " + dtype_name(in.dtype) + " " + shape_str(in.shape) + " " +
                   layout_name(layout) + " dim " + (dim == PORTA_ALL_DIMS ? "ALL" : std::to_string(dim)) + " keepdim " +
                   std::to_string(keepdim));
      Tensor t = upload(in, dev(), layout), out;
      if (is_bool(in.dtype)) {  // PyTorch's argmax and argmin refuse bool
        expect_failure(PORTA_ERROR_UNSUPPORTED_DTYPE, [&](porta_tensor** o) { return op.fn(t, dim, keepdim, o); });
        return;
      }
      CHECK_OK(op.fn(t, dim, keepdim, out.out()));
      expect_close(download(out), ref_argreduce(op.op, in, dim, keepdim), kExact, op.name);
    });
  }
};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(ArgReduce);

const int32_t kDims[] = {0, 1, 2, -1, -3, PORTA_ALL_DIMS};

TEST_P(ArgReduce, EveryDtypeDimAndLayout) {
  uint32_t seed = 1;
  for (const ArgReduceOp& op : kArgReduceOps)
    for (DLDataType dt : kAllDtypes)
      for (int32_t dim : kDims)
        for (Layout layout : kAllLayouts) {
          const bool keepdim = seed % 2 == 0;
          check(op, sample_host(dt, {3, 4, 5}, seed++, Values::Grid), dim, keepdim, layout);
        }
}

TEST_P(ArgReduce, TiesGiveTheFirstIndex) {
  const HostTensor flat = make_host(porta_float32, {6}, {1, 3, 0, 3, 0, 2});
  const HostTensor same = make_host(porta_int32, {2, 4}, {5, 5, 5, 5, 7, 7, 7, 7});
  const HostTensor cols = make_host(porta_float64, {3, 2}, {4, 1, 4, 1, 4, 1});
  for (const ArgReduceOp& op : kArgReduceOps)
    for (Layout layout : kAllLayouts) {
      for (int32_t dim : {0, PORTA_ALL_DIMS}) check(op, flat, dim, false, layout);
      for (int32_t dim : {0, 1, PORTA_ALL_DIMS}) check(op, same, dim, true, layout);
      for (int32_t dim : {0, 1, PORTA_ALL_DIMS}) check(op, cols, dim, false, layout);
    }
}

TEST_P(ArgReduce, NaNIsTheExtreme) {
  const HostTensor in = make_host(porta_float64, {3, 4}, {1, NAN, 3, NAN, INFINITY, 2, -1, 0, -INFINITY, 6, 6, 1});
  for (const ArgReduceOp& op : kArgReduceOps)
    for (int32_t dim : {0, 1, PORTA_ALL_DIMS})
      for (Layout layout : kAllLayouts) check(op, in, dim, false, layout);
}

TEST_P(ArgReduce, LongRowsAndColumns) {
  for (const ArgReduceOp& op : kArgReduceOps)
    for (DLDataType dt : {porta_float32, porta_int64}) {
      const HostTensor in = sample_host(dt, {257, 1029}, 77, Values::Grid);
      for (int32_t dim : {0, 1, PORTA_ALL_DIMS}) check(op, in, dim, false, Layout::Contiguous);
    }
}

TEST_P(ArgReduce, ZeroDimAndSizeOne) {
  for (const ArgReduceOp& op : kArgReduceOps) {
    for (int32_t dim : {0, -1, PORTA_ALL_DIMS})
      for (bool keepdim : {false, true})
        check(op, make_host(porta_float32, {}, {2.5}), dim, keepdim, Layout::Contiguous);
    for (int32_t dim : {0, 1, 2, PORTA_ALL_DIMS})
      check(op, sample_host(porta_int32, {1, 4, 1}, 3), dim, true, Layout::Contiguous);
  }
}

TEST_P(ArgReduce, Errors) {
  const Shape empty{2, 0};
  Tensor e, t = upload(sample_host(porta_float32, {2, 3}, 1), dev());
  CHECK_OK(porta_zeros(empty.data(), 2, porta_float32, dev(), e.out()));
  for (const ArgReduceOp& op : kArgReduceOps) {
    SCOPED_TRACE(op.name);
    for (int32_t dim : {1, PORTA_ALL_DIMS})  // over zero elements: no first extreme
      expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return op.fn(e, dim, 0, o); });
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return op.fn(t, 2, 0, o); });
    expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return op.fn(t, -3, 0, o); });
  }
}

}  // namespace
}  // namespace conformance
