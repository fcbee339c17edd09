// INDEX kind (kernels/index.cl): gather with a work-item per output
// element, scatter with one per line, walked in increasing p[dim]. The
// kernels address operands through a porta_layout over the index's shape
// (scatter: its lines), the data tensor's stride along dim set to 0: index
// values add their own offset there. The core checks index ranges, so the
// index is not read back.
#include "index_call.hpp"
#include "ops.hpp"

namespace porta::opencl {

porta_status run_index(uint32_t op, int dt, const porta_kernel_call* c) {
  const char* name = op_name(op);
  plugin::IndexCall k;
  char msg[256];
  if (!plugin::index_call(op, c, &k, msg, sizeof msg)) return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  if (numel(*k.index) == 0) return PORTA_OK;
  const bool gather = op == PORTA_OP_GATHER;
  OpCall call;
  if (const porta_status st = begin(c, Family::Index, dt, std::string("op_") + name, &call); st != PORTA_OK) return st;
  // Operands 0 values (gather's out, scatter's src), 1 index, 2 data (gather's src, scatter's self).
  const DLTensor* ts[3] = {k.values, k.index, k.data};
  Operand ops[3];
  Layout layout{};
  cl_long along[3];  // each operand's stride along dim
  const int32_t nd = k.index->ndim;
  for (int i = 0; i < 3; ++i) {
    if (const porta_status st = operand(*ts[i], name, &ops[i]); st != PORTA_OK) return st;
    int64_t compact = 1;
    for (int32_t d = nd - 1; d >= 0; --d) {
      layout.stride[i][d] = ts[i]->strides ? ts[i]->strides[d] : compact;
      compact *= ts[i]->shape[d];
    }
    along[i] = layout.stride[i][k.dim];
  }
  layout.stride[2][k.dim] = 0;
  for (int32_t d = 0; d < nd; ++d) layout.shape[d] = (!gather && d == k.dim) ? 1 : k.index->shape[d];
  const int64_t items = gather ? numel(*k.index) : k.lines();
  Launch l(*call.kernel, call.name);
  l.arg(static_cast<cl_long>(items)).arg(static_cast<cl_int>(nd)).arg(layout);
  if (gather)
    l.arg(along[2]);
  else
    l.arg(static_cast<cl_long>(k.index->shape[k.dim])).arg(along[0]).arg(along[1]).arg(along[2]);
  l.arg(static_cast<cl_long>(k.extent()));
  if (!gather) l.arg(static_cast<cl_int>(k.reduce));
  l.arg(ops[0]).arg(ops[1]).arg(ops[2]);
  return l.enqueue(call.queue, items);
}

}  // namespace porta::opencl
