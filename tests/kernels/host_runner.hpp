// The shared host kernels as an index_scan::Runner: operands stay in host
// memory and the kernel is looked up as the cpu plugin does.
#pragma once

#include "index_scan_cases.hpp"
#include "kernel_test_util.hpp"

namespace porta_test::index_scan {

inline Runner host_runner() {
  Runner r;
  r.name = "host kernels";
  r.has = [](uint32_t op, DLDataType dtype) { return porta::host::find_host_kernel(op, dtype) != nullptr; };
  r.run = [](uint32_t op, DLDataType dtype, std::vector<Operand> ins, std::vector<Operand> outs, const void* params) {
    install_error_sink();
    last_error().clear();
    const porta_kernel_fn fn = porta::host::find_host_kernel(op, dtype);
    if (!fn) return PORTA_ERROR_NOT_IMPLEMENTED;
    std::vector<DLTensor> in, out;
    for (const Operand& o : ins) in.push_back(o.t);
    for (const Operand& o : outs) out.push_back(o.t);
    porta_kernel_call c{};
    c.struct_size = sizeof c;
    c.inputs = in.data();
    c.num_inputs = static_cast<int32_t>(in.size());
    c.outputs = out.data();
    c.num_outputs = static_cast<int32_t>(out.size());
    c.params = params;
    return fn(&c);
  };
  r.last_error = [] { return last_error(); };
  return r;
}

}  // namespace porta_test::index_scan
