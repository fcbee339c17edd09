// FACTORY kind (kernels/factory.cl): fill, arange and the Philox samplers,
// over outputs of any strides. float64 normal samples are the exception:
// they are made on the host by philox.h's porta_normal and copied over, so
// that their log and cos are the host libm's (glibc rounds about 1 in 1000
// of them differently from a correctly rounded libm, and no device libm
// reproduces its choices), which keeps them bit-identical to cpu's.
// float32 samples are made on the device in double: an ulp of difference
// there vanishes in the rounding to float.
#include <porta/float16.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "ops.hpp"
#include "philox.h"

namespace porta::opencl {
namespace {

// a + b * porta_normal for every element, on the host's threads.
std::vector<double> host_normals(const porta_random_params& p, int64_t n) {
  std::vector<double> out(static_cast<size_t>(n));
  auto fill = [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      out[static_cast<size_t>(i)] = p.a + p.b * porta_normal(p.seed, p.offset + static_cast<uint64_t>(i));
  };
  const int64_t workers = std::clamp<int64_t>(n >> 16, 1, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (int64_t w = 1; w < workers; ++w) pool.emplace_back(fill, n * w / workers, n * (w + 1) / workers);
  fill(0, n / workers);
  for (std::thread& t : pool) t.join();
  return out;
}

// Writes host samples into `out` (any strides): directly when contiguous,
// else through a temporary buffer and the strided copy kernel.
porta_status write_samples(const OpCall& call, const DLTensor& out, const std::vector<double>& samples) {
  const size_t bytes = samples.size() * sizeof(double);
  Operand dst;
  if (const porta_status st = operand(out, "randn", &dst); st != PORTA_OK) return st;
  std::vector<int64_t> compact(static_cast<size_t>(out.ndim));  // the staging buffer's strides
  int64_t stride = 1;
  for (int32_t d = out.ndim - 1; d >= 0; --d) compact[static_cast<size_t>(d)] = stride, stride *= out.shape[d];
  DLTensor staged = out;
  staged.strides = compact.data();
  const DLTensor* ts[2] = {&out, &staged};
  const ElementwiseLayout layout = elementwise_layout(ts, 2);
  if (layout.mode == kContiguous) {
    const cl_int err = clEnqueueWriteBuffer(call.queue, dst.mem, CL_TRUE, static_cast<size_t>(dst.offset) * 8, bytes,
                                            samples.data(), 0, nullptr, nullptr);
    return err == CL_SUCCESS ? PORTA_OK : report_cl("clEnqueueWriteBuffer", err, "randn");
  }
  cl_int err = CL_SUCCESS;
  cl_mem tmp = clCreateBuffer(call.dev->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                              const_cast<double*>(samples.data()), &err);
  if (err != CL_SUCCESS) return report_cl("clCreateBuffer", err, "randn staging");
  Kernel* copy = nullptr;
  porta_status st = find_cl_kernel(*call.dev, Family::Copy, 5, std::string("cast_from_5") + layout.variant(), &copy);
  if (st == PORTA_OK) {
    Launch l(*copy, "randn copy");
    st = l.elementwise(layout).arg(dst).arg(Operand{tmp, 0}).enqueue(call.queue, layout);
  }
  clReleaseMemObject(tmp);  // released once the copy has run
  return st;
}

// Sets `v` as the kernel's T argument for dtype `dt`, converted as the host's
// fill converts it: integers truncate int_value, the 16-bit floats round
// value to float32 and then to their bits with porta/float16.h.
void fill_value(Launch& l, int dt, const porta_fill_params& p) {
  switch (dt) {
    case kDtBool:
    case kDtUInt8:
      l.arg(static_cast<cl_uchar>(p.int_value));
      break;
    case kDtInt32:
      l.arg(static_cast<cl_int>(p.int_value));
      break;
    case kDtInt64:
      l.arg(static_cast<cl_long>(p.int_value));
      break;
    case kDtFloat32:
      l.arg(static_cast<cl_float>(p.value));
      break;
    case kDtInt8:
      l.arg(static_cast<cl_char>(p.int_value));
      break;
    case kDtInt16:
      l.arg(static_cast<cl_short>(p.int_value));
      break;
    case kDtFloat16:
      l.arg(static_cast<cl_ushort>(porta_float32_to_float16(static_cast<float>(p.value))));
      break;
    case kDtBFloat16:
      l.arg(static_cast<cl_ushort>(porta_float32_to_bfloat16(static_cast<float>(p.value))));
      break;
    default:
      l.arg(p.value);
      break;
  }
}

}  // namespace

porta_status run_factory(uint32_t op, int dt, const porta_kernel_call* c) {
  if (op == PORTA_OP_RAND_NORMAL && dt == kDtFloat64) {
    const auto* p = op_params<porta_random_params>(c);
    if (!p) return missing_params(op, "porta_random_params");
    OpCall call;
    if (const porta_status st = begin(c, Family::Factory, dt, "", &call); st != PORTA_OK) return st;
    return write_samples(call, c->outputs[0], host_normals(*p, numel(c->outputs[0])));
  }
  const DLTensor* ts[1] = {&c->outputs[0]};
  const ElementwiseLayout layout = elementwise_layout(ts, 1);
  OpCall call;
  if (const porta_status st = begin(c, Family::Factory, dt, std::string("op_") + op_name(op) + layout.variant(), &call);
      st != PORTA_OK)
    return st;
  Operand out;
  if (const porta_status st = operand(c->outputs[0], op_name(op), &out); st != PORTA_OK) return st;
  Launch l(*call.kernel, call.name);
  l.elementwise(layout).arg(out);
  switch (op) {
    case PORTA_OP_FULL: {
      const auto* p = op_params<porta_fill_params>(c);
      if (!p) return missing_params(op, "porta_fill_params");
      fill_value(l, dt, *p);
      break;
    }
    case PORTA_OP_ARANGE: {
      const auto* p = op_params<porta_arange_params>(c);
      if (!p) return missing_params(op, "porta_arange_params");
      l.real(*call.dev, p->start).real(*call.dev, p->step);
      break;
    }
    default: {  // RAND_UNIFORM, RAND_NORMAL
      const auto* p = op_params<porta_random_params>(c);
      if (!p) return missing_params(op, "porta_random_params");
      l.arg(static_cast<cl_ulong>(p->seed)).arg(static_cast<cl_ulong>(p->offset));
      if (op == PORTA_OP_RAND_NORMAL) {
        l.real(*call.dev, p->a).real(*call.dev, p->b);
      } else if (dt == kDtFloat32) {  // a + u * (b - a) in float, as the host rounds them
        l.arg(static_cast<cl_float>(p->a)).arg(static_cast<cl_float>(p->b - p->a));
      } else {
        l.arg(p->a).arg(p->b - p->a);
      }
      break;
    }
  }
  return l.enqueue(call.queue, layout);
}

}  // namespace porta::opencl
