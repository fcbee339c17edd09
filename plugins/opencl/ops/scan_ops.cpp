// SCAN kind (kernels/scan.cl) over contiguous [outer, n, inner]: one
// work-item per (outer, inner) line; CUMMAX / CUMMIN write a second output,
// the int64 positions.
#include "index_call.hpp"
#include "ops.hpp"

namespace porta::opencl {

porta_status run_scan(uint32_t op, int dt, const porta_kernel_call* c) {
  const char* name = op_name(op);
  plugin::ScanCall s;
  char msg[256];
  if (!plugin::scan_call(op, c, &s, msg, sizeof msg)) return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  OpCall call;
  if (const porta_status st = begin(c, Family::Scan, dt, std::string("op_") + name, &call); st != PORTA_OK) return st;
  Operand x, y;
  if (const porta_status st = operand(c->inputs[0], name, &x); st != PORTA_OK) return st;
  if (const porta_status st = operand(c->outputs[0], name, &y); st != PORTA_OK) return st;
  const int64_t lines = s.outer * s.inner;
  Launch l(*call.kernel, call.name);
  l.arg(static_cast<cl_long>(lines)).arg(static_cast<cl_long>(s.n)).arg(static_cast<cl_long>(s.inner));
  if (op == PORTA_OP_CUMMAX || op == PORTA_OP_CUMMIN) {  // values and where they came from, forward only
    Operand where;
    if (const porta_status st = operand(c->outputs[1], name, &where); st != PORTA_OK) return st;
    l.arg(x).arg(y).arg(where);
  } else {
    l.arg(static_cast<cl_int>(s.reverse)).arg(x).arg(y);
  }
  return l.enqueue(call.queue, lines);
}

}  // namespace porta::opencl
