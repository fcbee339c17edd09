// The OpenCL devices the plugin serves: every device of every platform
// (platforms in ICD order, devices in platform order), restricted by
// PORTA_OPENCL_DEVICES. A device's context and in-order queue (its default
// stream) are created on first use, never by enumeration.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "cl_check.hpp"
#include "plugin_support.hpp"

namespace porta::opencl {

class Program;  // program.hpp

// Kernel programs come in families (one .cl file each), built per dtype.
enum class Family : int {
  Elementwise, Copy, Factory, Reduce, Conv, Pool, Softmax, Loss, Optimizer, Index, Scan, Sort, Norm, Rnn, Count
};
// Porta's dtypes in the core's order: bool .. float64, then the storage
// dtypes int8 .. bfloat16, which only the conversion programs (Copy for COPY
// and CAST, Factory for FULL) are built for.
inline constexpr int kDtypes = plugin::kDtAllCount;

class Device {
 public:
  cl_platform_id platform = nullptr;
  cl_device_id id = nullptr;
  std::string name, driver, platform_name, platform_version;
  cl_device_type type = 0;
  uint64_t memory = 0;
  cl_uint compute_units = 0;
  bool fp64 = false;                    // cl_khr_fp64
  bool fp32_correctly_rounded = false;  // -cl-fp32-correctly-rounded-divide-sqrt is allowed
  // PoCL compiles a kernel for each work-group shape on its first launch, on
  // its own threads, with LLVM. Compiling while the process exits crashes
  // (LLVM's statics are being destroyed), so on such a device the first
  // launch of every kernel shape is waited for (kernel_launch.cpp, and after
  // CLBlast calls): no compilation is ever left pending.
  bool lazy_compiler = false;
  std::atomic<uint64_t> allocated{0};  // bytes in live buffers

  // Creates the context and queue on the first call; later calls are cheap.
  porta_status open();
  bool is_open() const { return opened_.load(std::memory_order_acquire); }
  // Valid after open() succeeded.
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }

  // Built programs by (family, dtype); nullptr until first use (program.cpp).
  std::array<std::atomic<Program*>, static_cast<int>(Family::Count) * kDtypes> programs{};
  std::mutex build_mutex;      // one build at a time per device
  std::once_flag gemm_tuning;  // matmul_ops.cpp

 private:
  std::mutex open_mutex_;
  std::atomic<bool> opened_{false};
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
};

// Enumerates platforms and devices and applies PORTA_OPENCL_DEVICES (once,
// from initialize()). Never fails: no platform or device means zero devices.
void enumerate_devices();

int32_t device_count();
// nullptr when `index` is not a device.
Device* device_at(int32_t index);
// Why there are zero devices, or nullptr when there are some.
const char* unavailable_reason();
// True when some device has cl_khr_fp64 (float64 kernels are offered).
bool any_device_has_fp64();

// Looks up device `index` and opens it; reports NO_SUCH_DEVICE or the CL error.
porta_status open_device(int32_t index, Device** out);

}  // namespace porta::opencl
