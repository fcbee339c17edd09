// SORT kind (kernels/sort.cl): a start pass and ceil(log2 n) merge passes
// over every line at once, ping-ponging between the outputs and the
// scratch outputs; the start buffer is chosen so the last pass writes the
// outputs.
#include "ops.hpp"
#include "sort_call.hpp"

namespace porta::opencl {

porta_status run_sort(uint32_t op, int dt, const porta_kernel_call* c) {
  const char* name = op_name(op);
  plugin::SortCall s;
  char msg[256];
  if (!plugin::sort_call(c, &s, msg, sizeof msg)) return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  if (!s.has_scratch) return report(PORTA_ERROR_INVALID_ARGUMENT, "sort: the opencl kernel needs the scratch outputs[2..3]");
  OpCall start, merge;
  if (const porta_status st = begin(c, Family::Sort, dt, "op_sort_start", &start); st != PORTA_OK) return st;
  if (const porta_status st = begin(c, Family::Sort, dt, "op_sort_merge", &merge); st != PORTA_OK) return st;
  Operand x, v[2], idx[2];
  if (const porta_status st = operand(c->inputs[0], name, &x); st != PORTA_OK) return st;
  for (int b = 0; b < 2; ++b) {
    if (const porta_status st = operand(c->outputs[2 * b], name, &v[b]); st != PORTA_OK) return st;
    if (const porta_status st = operand(c->outputs[2 * b + 1], name, &idx[b]); st != PORTA_OK) return st;
  }
  const int64_t total = s.outer * s.n * s.inner;
  int passes = 0;
  for (int64_t w = 1; w < s.n; w *= 2) ++passes;
  int at = passes % 2;  // an odd number of passes starts in the scratch and ends in the outputs
  {
    Launch l(*start.kernel, start.name);
    l.arg(static_cast<cl_long>(total)).arg(static_cast<cl_long>(s.n)).arg(static_cast<cl_long>(s.inner));
    l.arg(x).arg(v[at]).arg(idx[at]);
    if (const porta_status st = l.enqueue(start.queue, total); st != PORTA_OK) return st;
  }
  for (int64_t w = 1; w < s.n; w *= 2, at ^= 1) {
    Launch l(*merge.kernel, merge.name);
    l.arg(static_cast<cl_long>(total)).arg(static_cast<cl_long>(s.n)).arg(static_cast<cl_long>(s.inner));
    l.arg(static_cast<cl_long>(w)).arg(static_cast<cl_int>(s.descending));
    l.arg(v[at]).arg(idx[at]).arg(v[at ^ 1]).arg(idx[at ^ 1]);
    if (const porta_status st = l.enqueue(merge.queue, total); st != PORTA_OK) return st;
  }
  return PORTA_OK;
}

}  // namespace porta::opencl
