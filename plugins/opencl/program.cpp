#include "program.hpp"

#include <vector>

#include "kernel_sources.hpp"
#include "plugin_support.hpp"
#include "program_cache.hpp"

namespace porta::opencl {
namespace {

struct FamilySpec {
  const char* name;
  std::vector<const char*> sources;  // concatenated in this order after common.cl
};

const FamilySpec& family_spec(Family f) {
  static const FamilySpec kSpecs[] = {
      {"elementwise", {"elementwise.cl"}},
      {"copy", {"float16.cl", "copy.cl"}},
      {"factory", {"philox_prelude.cl", "philox.h", "factory.cl"}},
      {"reduce", {"reduce.cl"}},
      {"conv", {"window2d.cl", "conv.cl"}},
      {"pool", {"window2d.cl", "pool.cl"}},
      {"softmax", {"softmax.cl"}},
      {"loss", {"loss.cl"}},
      {"optimizer", {"optimizer.cl"}},
      {"index", {"index.cl"}},
      {"scan", {"scan.cl"}},
      {"sort", {"sort.cl"}},
      {"norm", {"norm.cl"}},
      {"rnn", {"rnn.cl"}},
  };
  return kSpecs[static_cast<int>(f)];
}

std::string program_source(Family f) {
  std::string s = kernel_source("common.cl");
  for (const char* name : family_spec(f).sources) s += "\n// ---- " + std::string(name) + "\n" + kernel_source(name);
  return s;
}

std::string build_options(const Device& dev, int dt) {
  std::string o = "-DDT=" + std::to_string(dt);
  o += dev.fp64 ? " -DPORTA_FP64" : " -cl-single-precision-constant";
  if (dev.fp32_correctly_rounded) o += " -cl-fp32-correctly-rounded-divide-sqrt";  // sqrt and / as on the host
  return o;
}

porta_status make_program(Device& dev, Family f, int dt, Program** out) {
  const std::string label = std::string(family_spec(f).name) + " (" + dtype_label(dt) + ")";
  cl_program prog = nullptr;
  if (const porta_status st = build_program(dev, label, program_source(f), build_options(dev, dt), &prog);
      st != PORTA_OK)
    return st;
  cl_uint n = 0;
  cl_int err = clCreateKernelsInProgram(prog, 0, nullptr, &n);
  std::vector<cl_kernel> handles(n);
  if (err == CL_SUCCESS && n > 0) err = clCreateKernelsInProgram(prog, n, handles.data(), nullptr);
  if (err != CL_SUCCESS) {
    clReleaseProgram(prog);
    return report_cl("clCreateKernelsInProgram", err, label);
  }
  std::map<std::string, std::unique_ptr<Kernel>> kernels;
  for (cl_kernel k : handles) {
    char name[128] = {};
    clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(name) - 1, name, nullptr);
    auto kernel = std::make_unique<Kernel>();
    kernel->handle = k;
    kernel->lazy_compiler = dev.lazy_compiler;
    clGetKernelWorkGroupInfo(k, dev.id, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kernel->max_group), &kernel->max_group,
                             nullptr);
    kernels.emplace(name, std::move(kernel));
  }
  clReleaseProgram(prog);                  // the kernels hold it
  *out = new Program(std::move(kernels));  // lives as long as the device: until exit
  return PORTA_OK;
}

}  // namespace

const char* dtype_label(int dt) {
  static const char* const kLabels[] = {"bool",    "uint8", "int32", "int64",   "float32",
                                        "float64", "int8",  "int16", "float16", "bfloat16"};
  static_assert(sizeof kLabels / sizeof kLabels[0] == kDtypes);
  return dt >= 0 && dt < kDtypes ? kLabels[dt] : "unknown dtype";
}

porta_status find_cl_kernel(Device& dev, Family family, int dt, const std::string& name, Kernel** out) {
  if (plugin::is_storage_dt(dt) && family != Family::Copy && family != Family::Factory)
    return report(PORTA_ERROR_INTERNAL, std::string("the ") + family_spec(family).name +
                                            " program has no kernels for " + dtype_label(dt) +
                                            " (a storage dtype: the core computes it in another)");
  if (dt == plugin::kDtFloat64 && !dev.fp64)
    return report(PORTA_ERROR_UNSUPPORTED_DTYPE, "float64 needs cl_khr_fp64, which " + dev.name + " does not have");
  std::atomic<Program*>& slot = dev.programs[static_cast<size_t>(static_cast<int>(family) * kDtypes + dt)];
  Program* p = slot.load(std::memory_order_acquire);
  if (p == nullptr) {
    std::lock_guard<std::mutex> lock(dev.build_mutex);
    p = slot.load(std::memory_order_relaxed);
    if (p == nullptr) {
      if (const porta_status st = make_program(dev, family, dt, &p); st != PORTA_OK) return st;
      slot.store(p, std::memory_order_release);
    }
  }
  Kernel* k = p->kernel(name);
  if (k == nullptr)
    return report(PORTA_ERROR_INTERNAL,
                  "no kernel " + name + " in the " + family_spec(family).name + " program for " + dtype_label(dt));
  *out = k;
  return PORTA_OK;
}

}  // namespace porta::opencl
