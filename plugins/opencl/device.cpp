#include "device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <vector>

namespace porta::opencl {
namespace {

// Never destroyed: buffers the core still caches at exit keep their context.
std::vector<std::unique_ptr<Device>>& g_devices = *new std::vector<std::unique_ptr<Device>>();
std::string& g_reason = *new std::string();  // read by the core until exit

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  size_t n = 0;
  if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  if (clGetPlatformInfo(p, what, n, s.data(), nullptr) != CL_SUCCESS) return {};
  s.resize(s.find('\0') == std::string::npos ? n : s.find('\0'));
  return s;
}

std::string device_string(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  if (clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return {};
  std::string s(n, '\0');
  if (clGetDeviceInfo(d, what, n, s.data(), nullptr) != CL_SUCCESS) return {};
  s.resize(s.find('\0') == std::string::npos ? n : s.find('\0'));
  return s;
}

template <class V>
V device_value(cl_device_id d, cl_device_info what) {
  V v{};
  if (clGetDeviceInfo(d, what, sizeof(v), &v, nullptr) != CL_SUCCESS) return V{};
  return v;
}

std::unique_ptr<Device> describe(cl_platform_id p, cl_device_id id) {
  auto d = std::make_unique<Device>();
  d->platform = p;
  d->id = id;
  d->name = device_string(id, CL_DEVICE_NAME);
  d->driver = device_string(id, CL_DRIVER_VERSION);
  d->platform_name = platform_string(p, CL_PLATFORM_NAME);
  d->platform_version = platform_string(p, CL_PLATFORM_VERSION);
  d->type = device_value<cl_device_type>(id, CL_DEVICE_TYPE);
  d->memory = device_value<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE);
  d->compute_units = device_value<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS);
  d->fp64 = device_string(id, CL_DEVICE_EXTENSIONS).find("cl_khr_fp64") != std::string::npos;
  d->lazy_compiler = d->platform_name.find("Portable Computing Language") != std::string::npos;
  d->fp32_correctly_rounded =
      (device_value<cl_device_fp_config>(id, CL_DEVICE_SINGLE_FP_CONFIG) & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
  return d;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// PORTA_OPENCL_DEVICES: "0,2" keeps those indices of the full list; any
// other value keeps the devices whose device or platform name contains it
// (case-insensitive).
std::vector<std::unique_ptr<Device>> apply_filter(std::vector<std::unique_ptr<Device>> all, const std::string& spec) {
  std::vector<std::unique_ptr<Device>> kept;
  const bool indices = spec.find_first_not_of("0123456789, ") == std::string::npos;
  if (indices) {
    size_t pos = 0;
    while (pos < spec.size()) {
      const size_t comma = std::min(spec.find(',', pos), spec.size());
      const std::string item = spec.substr(pos, comma - pos);
      pos = comma + 1;
      if (item.find_first_of("0123456789") == std::string::npos) continue;
      const size_t i = std::strtoul(item.c_str(), nullptr, 10);
      if (i < all.size() && all[i]) kept.push_back(std::move(all[i]));  // a repeated index counts once
    }
  } else {
    const std::string needle = lower(spec);
    for (auto& d : all)
      if (lower(d->name).find(needle) != std::string::npos || lower(d->platform_name).find(needle) != std::string::npos)
        kept.push_back(std::move(d));
  }
  return kept;
}

// At exit, lets every queue drain before static destructors run: a driver
// may still be running enqueued work on its own threads.
void finish_all_queues() {
  for (const auto& d : g_devices)
    if (d->is_open()) clFinish(d->queue());
}

}  // namespace

porta_status Device::open() {
  if (opened_.load(std::memory_order_acquire)) return PORTA_OK;
  std::lock_guard<std::mutex> lock(open_mutex_);
  if (opened_.load(std::memory_order_relaxed)) return PORTA_OK;
  cl_int err = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
  cl_context ctx = clCreateContext(props, 1, &id, nullptr, nullptr, &err);
  if (err != CL_SUCCESS) return report_cl("clCreateContext", err, name);
  cl_command_queue q = clCreateCommandQueue(ctx, id, 0, &err);  // in order: the default stream
  if (err != CL_SUCCESS) {
    clReleaseContext(ctx);
    return report_cl("clCreateCommandQueue", err, name);
  }
  context_ = ctx;
  queue_ = q;
  static const int registered = std::atexit(finish_all_queues);
  (void)registered;
  opened_.store(true, std::memory_order_release);
  log(PORTA_LOG_DEBUG, "opened " + name + " (" + platform_name + ")");
  return PORTA_OK;
}

void enumerate_devices() {
  cl_uint n_platforms = 0;
  cl_int err = clGetPlatformIDs(0, nullptr, &n_platforms);
  if (err != CL_SUCCESS || n_platforms == 0) {
    g_reason = "no OpenCL platform found (clGetPlatformIDs: " + cl_error_name(err == CL_SUCCESS ? -1001 : err) +
               "); install an OpenCL driver (ICD), e.g. pocl-opencl-icd for CPUs";
    return;
  }
  std::vector<cl_platform_id> platforms(n_platforms);
  clGetPlatformIDs(n_platforms, platforms.data(), nullptr);
  std::vector<std::unique_ptr<Device>> all;
  for (cl_platform_id p : platforms) {
    cl_uint n = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS || n == 0) continue;
    std::vector<cl_device_id> ids(n);
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr) != CL_SUCCESS) continue;
    for (cl_device_id id : ids) all.push_back(describe(p, id));
  }
  if (all.empty()) {
    g_reason = std::to_string(n_platforms) + " OpenCL platform(s) found, but none has a device";
    return;
  }
  const char* spec = std::getenv("PORTA_OPENCL_DEVICES");
  if (spec == nullptr || *spec == '\0') {
    g_devices = std::move(all);
    return;
  }
  std::string names;
  for (size_t i = 0; i < all.size(); ++i) names += (i ? ", " : "") + std::to_string(i) + ": " + all[i]->name;
  g_devices = apply_filter(std::move(all), spec);
  if (g_devices.empty())
    g_reason = std::string("PORTA_OPENCL_DEVICES=\"") + spec + "\" matches none of the OpenCL devices (" + names +
               "); give indices (\"0,2\") or part of a device or platform name";
}

int32_t device_count() { return static_cast<int32_t>(g_devices.size()); }

Device* device_at(int32_t index) {
  return index >= 0 && index < device_count() ? g_devices[static_cast<size_t>(index)].get() : nullptr;
}

const char* unavailable_reason() { return g_devices.empty() && !g_reason.empty() ? g_reason.c_str() : nullptr; }

bool any_device_has_fp64() {
  return std::any_of(g_devices.begin(), g_devices.end(), [](const auto& d) { return d->fp64; });
}

porta_status open_device(int32_t index, Device** out) {
  Device* d = device_at(index);
  if (d == nullptr)
    return report(PORTA_ERROR_NO_SUCH_DEVICE, "opencl:" + std::to_string(index) + " does not exist (" +
                                                  std::to_string(device_count()) + " devices)");
  if (const porta_status st = d->open(); st != PORTA_OK) return st;
  *out = d;
  return PORTA_OK;
}

}  // namespace porta::opencl
