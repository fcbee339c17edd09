// porta/porta.hpp — the header-only C++20 API over the user C ABI.
//
// porta::Device, porta::Tensor (RAII handles, operators, views, autograd,
// PyTorch-style printing) and porta::Error in place of status codes. It
// includes nothing of the core: only porta/porta.h and the op table in
// porta/ops.h, from which the op methods are generated, so a new op of an
// existing kind appears here without edits. Modules, optimizers and datasets
// belong in headers of their own over this one.
#pragma once

#include <porta/ops.h>
#include <porta/porta.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <concepts>
#include <optional>
#include <source_location>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace porta {

/// Whether two DLPack dtypes are the same (code, bits and lanes). In Porta's
/// namespace, not the global one, so it cannot collide with another
/// library's operator for DLPack's struct (tvm-ffi's dtype.h has one):
/// Porta's own code finds it, and so does yours with `using porta::operator==;`.
constexpr bool operator==(DLDataType a, DLDataType b) noexcept {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}
/// Whether two DLPack dtypes are the same, callable from anywhere.
constexpr bool same_dtype(DLDataType a, DLDataType b) noexcept { return a == b; }

// ================================ errors ================================

/// Thrown when a Porta call fails; what() is the core's porta_last_error().
class Error : public std::runtime_error {
 public:
  /// An error with a status code and its message.
  Error(porta_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  /// The status code of the failed call.
  porta_status status() const noexcept { return status_; }
  /// The status code's stable name, e.g. "PORTA_ERROR_DEVICE_MISMATCH".
  const char* status_name() const noexcept { return porta_status_name(status_); }

 private:
  porta_status status_;
};

/// Implementation helpers; not part of the API.
namespace detail {

/// Throws porta::Error carrying the core's message when `status` is not OK.
inline void check(porta_status status) {
  if (status != PORTA_OK) throw Error(status, porta_last_error());
}

/// Concatenates streamable parts into one string.
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  return os.str();
}

/// Calls a C getter `f(args..., &value)` and returns value; sets struct_size
/// first for the ABI's versioned structs.
template <class T, class F, class... Args>
T get(F f, Args... args) {
  T value{};
  if constexpr (requires { value.struct_size; }) value.struct_size = sizeof(T);
  check(f(args..., &value));
  return value;
}

/// A vector's length as the C API's int32 counts.
template <class V>
int32_t count(const V& v) {
  return static_cast<int32_t>(v.size());
}

/// Joins values with ", " between `open` and `close`: "[2, 3]", "(2, 3)".
template <class V>
std::string join(const V& values, const char* open, const char* close) {
  std::ostringstream os;
  os << open;
  for (size_t i = 0; i < values.size(); ++i) os << (i ? ", " : "") << values[i];
  os << close;
  return os.str();
}

}  // namespace detail

// ================================ dtypes ================================

/// float32 (DLPack {kDLFloat, 32, 1}), the default dtype.
inline constexpr DLDataType kFloat32{kDLFloat, 32, 1};
/// float64 (DLPack {kDLFloat, 64, 1}).
inline constexpr DLDataType kFloat64{kDLFloat, 64, 1};
/// int32 (DLPack {kDLInt, 32, 1}).
inline constexpr DLDataType kInt32{kDLInt, 32, 1};
/// int64 (DLPack {kDLInt, 64, 1}).
inline constexpr DLDataType kInt64{kDLInt, 64, 1};
/// uint8 (DLPack {kDLUInt, 8, 1}).
inline constexpr DLDataType kUInt8{kDLUInt, 8, 1};
/// bool (DLPack {kDLBool, 8, 1}), one byte per element.
inline constexpr DLDataType kBool{kDLBool, 8, 1};
/// int8 (DLPack {kDLInt, 8, 1}). Since 1.10.
inline constexpr DLDataType kInt8{kDLInt, 8, 1};
/// int16 (DLPack {kDLInt, 16, 1}). Since 1.10.
inline constexpr DLDataType kInt16{kDLInt, 16, 1};
/// float16 (DLPack {kDLFloat, 16, 1}), torch::kHalf; computed in float32. No
/// C++ element type: read it with cast(kFloat32), which is exact. Since 1.10.
inline constexpr DLDataType kFloat16{kDLFloat, 16, 1};
/// bfloat16 (DLPack {kDLBfloat, 16, 1}), torch::kBFloat16; computed in
/// float32, read with cast(kFloat32) as kFloat16. Since 1.10.
inline constexpr DLDataType kBFloat16{kDLBfloat, 16, 1};

/// The dtype's name ("float32"), or a description of an unknown DLPack dtype.
inline std::string dtype_name(DLDataType dtype) {
  const std::pair<DLDataType, const char*> names[] = {
      {kFloat32, "float32"}, {kFloat64, "float64"}, {kInt32, "int32"}, {kInt64, "int64"},     {kUInt8, "uint8"},
      {kBool, "bool"},       {kInt8, "int8"},       {kInt16, "int16"}, {kFloat16, "float16"}, {kBFloat16, "bfloat16"}};
  for (const auto& [dt, name] : names)
    if (dt == dtype) return name;
  return detail::cat("dtype(code=", int(dtype.code), ", bits=", int(dtype.bits), ", lanes=", dtype.lanes, ")");
}

/// The dtype an elementwise op of dtypes a and b returns (torch::promote_types):
/// bool < integers < floats, the wider within each; uint8 with int8 is int16,
/// float16 with bfloat16 is float32.
inline DLDataType promote_types(DLDataType a, DLDataType b) {
  DLDataType out{};
  detail::check(porta_promote_types(a, b, &out));
  return out;
}

/// The dtype of C++ element type T (float, double, int32_t, int64_t, uint8_t, bool).
template <class T>
constexpr DLDataType dtype_of() {
  if constexpr (std::is_same_v<T, float>) return kFloat32;
  else if constexpr (std::is_same_v<T, double>) return kFloat64;
  else if constexpr (std::is_same_v<T, int32_t>) return kInt32;
  else if constexpr (std::is_same_v<T, int64_t>) return kInt64;
  else if constexpr (std::is_same_v<T, uint8_t>) return kUInt8;
  else if constexpr (std::is_same_v<T, bool>) return kBool;
  else if constexpr (std::is_same_v<T, int8_t>) return kInt8;
  else if constexpr (std::is_same_v<T, int16_t>) return kInt16;
  else static_assert(sizeof(T) == 0, "Porta tensors hold float, double, int32_t, int64_t, uint8_t, bool, int8_t or "
                                     "int16_t (float16 and bfloat16: cast to kFloat32 first)");
}

namespace detail {

/// How T is laid out in host buffers: bool as one byte (std::vector<bool> packs bits).
template <class T>
using host_element = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

/// Calls `f.template operator()<T>()` with the C++ element type of `dtype`.
template <class F>
decltype(auto) with_element_type(DLDataType dtype, F&& f) {
  if (dtype == kFloat32) return f.template operator()<float>();
  if (dtype == kFloat64) return f.template operator()<double>();
  if (dtype == kInt32) return f.template operator()<int32_t>();
  if (dtype == kInt64) return f.template operator()<int64_t>();
  if (dtype == kUInt8) return f.template operator()<uint8_t>();
  if (dtype == kBool) return f.template operator()<bool>();
  if (dtype == kInt8) return f.template operator()<int8_t>();
  if (dtype == kInt16) return f.template operator()<int16_t>();
  throw Error(PORTA_ERROR_UNSUPPORTED_DTYPE, cat("[tensor] no C++ element type for ", dtype_name(dtype)));
}

/// `value` (read exactly from a tensor: double for floating dtypes, int64 for
/// the others) as T, or porta::Error when T cannot hold it, as libtorch's
/// item<T>() refuses: NaN or an infinity to an integer, a value outside T's
/// range (1e10 to int32_t, 300 to uint8_t, 1e300 to float). Integers keep
/// every bit; a float to an integer drops its fraction, as C++ does.
template <class T, class V>
T checked_convert(V value, const char* op) {
  static_assert(std::is_arithmetic_v<V>);
  auto refuse = [&] {
    return Error(PORTA_ERROR_INVALID_ARGUMENT, cat("[", op, "] the value ", value, " cannot be converted to ",
                                                   dtype_name(dtype_of<T>()), " without overflow"));
  };
  if constexpr (std::is_same_v<T, bool>) {
    return value != V(0);
  } else if constexpr (std::is_floating_point_v<T>) {
    if constexpr (std::is_floating_point_v<V>)
      if (std::isfinite(value) && std::fabs(value) > static_cast<V>(std::numeric_limits<T>::max())) throw refuse();
    return static_cast<T>(value);
  } else if constexpr (std::is_floating_point_v<V>) {
    // [min, max + 1) holds every double that truncates into T's range.
    if (!(value >= static_cast<V>(std::numeric_limits<T>::min()) &&
          value < static_cast<V>(std::numeric_limits<T>::max()) + V(1)))
      throw refuse();
    return static_cast<T>(value);
  } else {
    if (!std::in_range<T>(value)) throw refuse();
    return static_cast<T>(value);
  }
}

/// An integer scalar operand or fill value (bool is not one: it converts to double).
template <class I>
concept IntegerScalar = std::integral<I> && !std::same_as<I, bool>;

/// `s` as an int64, or porta::Error when it is beyond int64 (a uint64_t above
/// INT64_MAX), as PyTorch refuses such a Python int.
template <IntegerScalar I>
int64_t int64_scalar(I s) {
  if (!std::in_range<int64_t>(s))
    throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                cat("the scalar ", s, " is out of range for int64 (Porta's and PyTorch's widest integer)"));
  return static_cast<int64_t>(s);
}

}  // namespace detail

class Tensor;
namespace detail {
// torch.scatter_reduce's reduce names as porta_scatter's values.
inline int32_t scatter_reduce_of(std::string_view reduce) {
  if (reduce == "sum") return PORTA_SCATTER_SUM;
  if (reduce == "prod") return PORTA_SCATTER_PROD;
  if (reduce == "mean") return PORTA_SCATTER_MEAN;
  if (reduce == "amax") return PORTA_SCATTER_AMAX;
  if (reduce == "amin") return PORTA_SCATTER_AMIN;
  throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[scatter_reduce] reduce must be \"sum\", \"prod\", \"mean\", \"amax\" or "
                                            "\"amin\", got \"" + std::string(reduce) + "\"");
}
// A C++ number: bool, an integer or a floating type (a scalar operand).
template <class S>
concept Number = std::is_arithmetic_v<S>;
// Whether PyTorch's signature of a binary op takes a number as its second operand (torch.maximum(t, 3) is a
// TypeError; the Python binding refuses the same three).
constexpr bool takes_scalar_other(porta_op op) {
  return op != PORTA_OP_MAXIMUM && op != PORTA_OP_MINIMUM && op != PORTA_OP_ATAN2;
}
// A scalar operand as the core's wrapped-number tensor beside `like` (defined after Tensor).
Tensor wrapped_number(double s, const Tensor& like);
Tensor wrapped_number(bool s, const Tensor& like);
template <IntegerScalar I>
Tensor wrapped_number(I s, const Tensor& like);
}  // namespace detail

// ================================ devices ================================

/// One device: a DLDevice with its string form and properties.
class Device {
 public:
  /// The CPU ({kDLCPU, 0}; no lookup needed).
  Device() = default;
  /// Wraps a DLDevice as is; it is checked when first used.
  Device(DLDevice dl) : dl_(dl) {}
  /// Parses "cpu", "cuda:1", "mock:0"; throws porta::Error naming what exists.
  Device(const char* str) : dl_(detail::get<DLDevice>(porta_device_parse, str)) {}
  /// Parses a device string, as Device(const char*).
  Device(const std::string& str) : Device(str.c_str()) {}

  /// The DLPack value.
  DLDevice dl() const noexcept { return dl_; }
  /// The device string, e.g. "cuda:1".
  std::string str() const {
    char buf[64];
    detail::check(porta_device_to_string(dl_, buf, sizeof buf));
    return buf;
  }
  /// The device type's name, e.g. "cuda".
  std::string type_name() const {
    const std::string s = str();
    return s.substr(0, s.find(':'));
  }
  /// The index among devices of its type.
  int index() const noexcept { return dl_.device_id; }
  /// Whether this is a CPU device (which printing leaves unnamed, as PyTorch does).
  bool is_cpu() const noexcept { return dl_.device_type == kDLCPU; }
  /// Name, memory, compute units and kind, from the plugin.
  porta_device_info info() const { return detail::get<porta_device_info>(porta_device_get_info, dl_); }
  /// The caching allocator's and transfer ledger's counters.
  porta_memory_stats memory_stats() const {
    return detail::get<porta_memory_stats>(porta_device_memory_stats, dl_);
  }
  /// Returns cached, unused memory to the plugin.
  void empty_cache() const { detail::check(porta_device_empty_cache(dl_)); }

  /// Same device type and index.
  friend bool operator==(const Device& a, const Device& b) noexcept {
    return a.dl_.device_type == b.dl_.device_type && a.dl_.device_id == b.dl_.device_id;
  }
  /// Writes the device string.
  friend std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }

 private:
  DLDevice dl_{kDLCPU, 0};
};

/// Number of accelerators (GPUs and the like; not CPUs or mock devices).
inline int accelerator_count() { return detail::get<int32_t>(porta_accelerator_count); }

/// The i-th accelerator if it exists (CUDA first), else the CPU.
inline Device try_gpu(int i = 0) {
  if (i < 0 || i >= accelerator_count()) return Device();
  return detail::get<DLDevice>(porta_accelerator_get, i);
}

/// Every accelerator in preference order, or {cpu} when there is none.
inline std::vector<Device> try_all_gpus() {
  std::vector<Device> all;
  for (int i = 0, n = accelerator_count(); i < n; ++i) all.push_back(try_gpu(i));
  if (all.empty()) all.push_back(Device());
  return all;
}

// ========================= plugins, logging, threads =========================

/// Loads the plugin file at `path` now (porta_load_plugin); throws with the reason when it fails.
inline void load_plugin(const std::string& path) { detail::check(porta_load_plugin(path.c_str())); }
/// Adds an absolute directory or plugin file to the search, loading nothing yet.
inline void add_plugin_path(const std::string& path) { detail::check(porta_add_plugin_path(path.c_str())); }

/// Sets how many threads host kernels use (torch::set_num_threads); n >= 1.
inline void set_num_threads(int n) { detail::check(porta_set_num_threads(n)); }
/// The number of threads host kernels use (PORTA_NUM_THREADS, then OMP_NUM_THREADS, then every core).
inline int get_num_threads() { return detail::get<int32_t>(porta_get_num_threads); }

/// The threshold below which log lines are dropped.
inline porta_log_level get_log_level() { return static_cast<porta_log_level>(detail::get<int32_t>(porta_get_log_level)); }
/// Sets the log threshold (PORTA_LOG_DEBUG ... PORTA_LOG_OFF).
inline void set_log_level(porta_log_level level) { detail::check(porta_set_log_level(level)); }

/// Receives log lines: the level and the message.
using LogHandler = std::function<void(porta_log_level, const std::string&)>;
/// Sends the log lines of the core and its plugins to `handler` (called from
/// any thread, possibly concurrently); an empty handler restores stderr.
inline void set_log_handler(LogHandler handler) {
  if (!handler) {
    detail::check(porta_set_log_callback(nullptr, nullptr));
    return;
  }
  // Kept until exit, never destroyed: a line may still be in flight to a handler after it is
  // replaced, and plugins may log during static destruction.
  static auto* installed = new std::vector<std::unique_ptr<LogHandler>>();
  static std::mutex mu;
  LogHandler* h;
  {
    std::lock_guard<std::mutex> lock(mu);
    installed->push_back(std::make_unique<LogHandler>(std::move(handler)));
    h = installed->back().get();
  }
  detail::check(porta_set_log_callback(
      [](int32_t level, const char* message, void* user) {
        (*static_cast<LogHandler*>(user))(static_cast<porta_log_level>(level), message);
      },
      h));
}

/// Waits for all work enqueued on `device`.
inline void synchronize(const Device& device) { detail::check(porta_synchronize(device.dl())); }

/// Reseeds the global random generator (same seed, same numbers on every device).
inline void manual_seed(uint64_t seed) { detail::check(porta_manual_seed(seed)); }

/// A random generator of the caller's own (torch::Generator): a (seed, offset)
/// that each draw from it advances; the same state gives the same numbers on
/// every device, and the global generator is untouched.
class Generator {
 public:
  explicit Generator(uint64_t seed = 67280421310721ull) { manual_seed(seed); }
  /// Reseeds and rewinds; returns *this.
  Generator& manual_seed(uint64_t seed) {
    s_.seed = seed, s_.offset = 0;
    return *this;
  }
  uint64_t initial_seed() const { return s_.seed; }
  /// (seed, offset), for set_state.
  std::pair<uint64_t, uint64_t> get_state() const { return {s_.seed, s_.offset}; }
  Generator& set_state(std::pair<uint64_t, uint64_t> state) {
    s_.seed = state.first, s_.offset = state.second;
    return *this;
  }
  /// The C state the porta_* sampling functions take and advance.
  porta_generator_state* state() { return &s_; }

 private:
  porta_generator_state s_{sizeof(porta_generator_state), 0, 0};
};

namespace detail {
inline porta_generator_state* state_of(Generator* g) { return g ? g->state() : nullptr; }
}  // namespace detail

/// Whether ops on this thread are recorded for autograd.
inline bool is_grad_enabled() { return detail::get<int>(porta_is_grad_enabled) != 0; }
/// Turns recording of ops for autograd on or off for this thread.
inline void set_grad_enabled(bool enabled) { detail::check(porta_set_grad_enabled(int{enabled})); }

/// Stops autograd recording on this thread while it lives (torch.no_grad()).
class NoGradGuard {
 public:
  /// Turns recording off, remembering whether it was on.
  NoGradGuard() : was_enabled_(is_grad_enabled()) { set_grad_enabled(false); }
  /// Restores recording as it was (never throws: the C call cannot fail for a bool).
  ~NoGradGuard() { porta_set_grad_enabled(int{was_enabled_}); }
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;

 private:
  bool was_enabled_;
};

// ================================ tensors ================================

/// Sizes of a tensor's dimensions, outermost first.
using Shape = std::vector<int64_t>;
/// Dimension indices; negative ones count from the end.
using Dims = std::vector<int32_t>;

// How each op kind of porta/ops.h appears in C++: the shape of its generated
// method and free function, or NONE where porta.h has hand-written entry
// points (factories, copies) or none at all (kernels the core runs itself:
// convolution lowering, pooling, softmax, losses, optimizer steps). A new
// kind needs one line here; without it the build fails naming the kind.
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_FACTORY NONE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_COPY NONE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_UNARY UNARY
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_BINARY BINARY
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_COMPARE BINARY
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_WHERE WHERE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_REDUCE REDUCE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_ARGREDUCE ARGREDUCE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_MATMUL MATMUL
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_CONV NONE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_POOL NONE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_SOFTMAX NONE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_LOSS NONE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_OPTIMIZER NONE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_INDEX NONE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_SCAN SCAN
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_SORT NONE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_NORM NONE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_RNN NONE
#define PORTA_CPP_SHAPE_PORTA_OP_KIND_RUNNING_EXTREME NONE
#define PORTA_CPP_PASTE(a, b) PORTA_CPP_PASTE_EXPANDED(a, b)
#define PORTA_CPP_PASTE_EXPANDED(a, b) a##b

/// An n-dimensional array on one device; owns one reference to a porta_tensor.
/// Copies share the handle (and storage); use clone() for a deep copy.
class Tensor {
 public:
  /// An undefined tensor holding no handle.
  Tensor() = default;
  /// Shares `other`'s handle (one more reference).
  Tensor(const Tensor& other) noexcept : t_(other.t_) { porta_tensor_retain(t_); }
  /// Takes `other`'s reference, leaving it undefined (moved from).
  Tensor(Tensor&& other) noexcept : t_(std::exchange(other.t_, nullptr)) { other.moved_from_ = true; }
  /// Rebinds this handle (not an in-place copy of values: see copy_()).
  Tensor& operator=(Tensor other) noexcept {
    std::swap(t_, other.t_);
    moved_from_ = false;
    return *this;
  }
  /// Drops this reference; storage goes with the last view.
  ~Tensor() { porta_tensor_release(t_); }

  /// Takes ownership of one reference to `t` (e.g. a C call's out-parameter).
  static Tensor adopt(porta_tensor* t) noexcept {
    Tensor r;
    r.t_ = t;
    return r;
  }
  /// The borrowed C handle (still owned by this Tensor).
  porta_tensor* handle() const noexcept { return t_; }
  /// Hands this reference to the caller, leaving the Tensor undefined.
  porta_tensor* release() noexcept {
    moved_from_ = t_ != nullptr || moved_from_;
    return std::exchange(t_, nullptr);
  }
  /// Whether this Tensor holds a handle.
  bool defined() const noexcept { return t_ != nullptr; }
  /// The C handle for a call that needs a tensor; porta::Error naming the
  /// call (`where`) and the Tensor's state when it holds none (undefined:
  /// default-constructed, or moved from / released), instead of the C
  /// ABI's "a is NULL".
  porta_tensor* checked_handle(std::source_location where = std::source_location::current()) const {
    if (t_) return t_;
    throw Error(PORTA_ERROR_INVALID_HANDLE,
                detail::cat("[", where.function_name(), "] ",
                            moved_from_ ? "a porta::Tensor that was moved from (or released) holds no tensor any more: "
                                          "use the Tensor it was moved to, or assign it a new one"
                                        : "an undefined porta::Tensor (default-constructed) holds no tensor: assign "
                                          "it one (Tensor::zeros, from_vector, ...) before using it"));
  }

  // ------------------------------ metadata ------------------------------

  /// Element type.
  DLDataType dtype() const { return detail::get<DLDataType>(porta_tensor_dtype, live()); }
  /// Number of dimensions.
  int ndim() const { return detail::get<int32_t>(porta_tensor_ndim, live()); }
  /// Sizes of all dimensions.
  Shape shape() const { return per_dim(porta_tensor_shape); }
  /// Strides of all dimensions, in elements.
  Shape strides() const { return per_dim(porta_tensor_strides); }
  /// Number of elements.
  int64_t numel() const { return detail::get<int64_t>(porta_tensor_numel, live()); }
  /// Size of dimension `dim` (negative counts from the end).
  int64_t size(int dim) const { return shape()[wrap_dim(dim, "size")]; }
  /// The device holding the data.
  Device device() const { return detail::get<DLDevice>(porta_tensor_device, live()); }
  /// Whether elements are laid out contiguously in row-major order.
  bool is_contiguous() const { return detail::get<int>(porta_tensor_is_contiguous, live()) != 0; }
  /// Whether this tensor lives in page-locked host memory.
  bool is_pinned() const { return detail::get<int>(porta_tensor_is_pinned, live()) != 0; }

  // ------------------------------ factories ------------------------------

  /// A tensor of `shape` on `device` holding `data` (row-major); dtype from T.
  template <class T>
  static Tensor from_vector(const std::vector<T>& data, const Shape& shape, Device device = {}) {
    int64_t n = 1;  // the shape's element count, checked before it can overflow
    bool empty = false, too_many = false;
    for (int64_t s : shape) {
      if (s < 0)
        throw Error(PORTA_ERROR_SHAPE_MISMATCH, detail::cat("[from_vector] shape ", detail::join(shape, "[", "]"),
                                                            " has a negative size"));
      if (s == 0) empty = true;
      else if (n > std::numeric_limits<int64_t>::max() / s) too_many = true;
      else n *= s;
    }
    if (empty) n = 0;
    else if (too_many)
      throw Error(PORTA_ERROR_SHAPE_MISMATCH, detail::cat("[from_vector] shape ", detail::join(shape, "[", "]"),
                                                          " has more elements than an int64 counts"));
    if (n != static_cast<int64_t>(data.size()))
      throw Error(PORTA_ERROR_SHAPE_MISMATCH, detail::cat("[from_vector] ", data.size(), " values cannot fill shape ",
                                                          detail::join(shape, "[", "]"), " (", n, " elements)"));
    const void* host = nullptr;
    std::vector<uint8_t> unpacked;  // std::vector<bool> packs bits; Porta wants a byte per bool
    if constexpr (std::is_same_v<T, bool>) host = (unpacked.assign(data.begin(), data.end()), unpacked.data());
    else host = data.data();
    return make(porta_tensor_from_host, host, dtype_of<T>(), shape.data(), detail::count(shape), device.dl());
  }
  /// A 1-D tensor on `device` holding `data`.
  template <class T>
  static Tensor from_vector(const std::vector<T>& data, Device device = {}) {
    return from_vector(data, Shape{static_cast<int64_t>(data.size())}, device);
  }
  /// `value` as the core's wrapped number on `device` (porta_scalar_tensor):
  /// a 0-d tensor that promotes as PyTorch's scalar operands do, so that
  /// int_tensor + 2 stays an integer, int_tensor + 2.0 is float32 and
  /// bool_tensor + true stays bool. The methods and operators taking a
  /// scalar pass it so.
  static Tensor wrapped_number(double value, Device device = {}) {
    return make(porta_scalar_tensor, int32_t{PORTA_SCALAR_FLOAT}, int64_t{0}, value, device.dl());
  }
  /// A bool scalar operand (see above).
  static Tensor wrapped_number(bool value, Device device = {}) {
    return make(porta_scalar_tensor, int32_t{PORTA_SCALAR_BOOL}, int64_t{value}, 0.0, device.dl());
  }
  /// An integer scalar operand, every bit kept (see above).
  template <detail::IntegerScalar I>
  static Tensor wrapped_number(I value, Device device = {}) {
    return make(porta_scalar_tensor, int32_t{PORTA_SCALAR_INT}, detail::int64_scalar(value), 0.0, device.dl());
  }
  /// A tensor with every element `value` (converted to dtype).
  static Tensor full(const Shape& shape, double value, Device device = {}, DLDataType dtype = kFloat32) {
    return make(porta_full, shape.data(), detail::count(shape), value, dtype, device.dl());
  }
  /// A tensor with every element the integer `value`, every bit kept for an
  /// integer dtype (porta_full_int64; a value outside the dtype is refused).
  template <detail::IntegerScalar I>
  static Tensor full(const Shape& shape, I value, Device device = {}, DLDataType dtype = kFloat32) {
    const int64_t v = detail::int64_scalar(value);
    if (dtype.code == kDLFloat) return full(shape, static_cast<double>(v), device, dtype);
    return make(porta_full_int64, shape.data(), detail::count(shape), v, dtype, device.dl());
  }
  /// A tensor of zeros.
  static Tensor zeros(const Shape& shape, Device device = {}, DLDataType dtype = kFloat32) {
    return make(porta_zeros, shape.data(), detail::count(shape), dtype, device.dl());
  }
  /// A tensor of ones.
  static Tensor ones(const Shape& shape, Device device = {}, DLDataType dtype = kFloat32) {
    return make(porta_ones, shape.data(), detail::count(shape), dtype, device.dl());
  }
  /// A tensor of uninitialized values.
  static Tensor empty(const Shape& shape, Device device = {}, DLDataType dtype = kFloat32) {
    return make(porta_tensor_empty, dtype, shape.data(), detail::count(shape), device.dl());
  }
  /// 1-D: start, start + step, ... up to but excluding end.
  static Tensor arange(double start, double end, double step = 1, Device device = {}, DLDataType dtype = kFloat32) {
    return make(porta_arange, start, end, step, dtype, device.dl());
  }
  /// torch.logspace: `steps` values base ** e, e evenly spaced from start to end inclusive (porta_logspace).
  static Tensor logspace(double start, double end, int64_t steps, double base = 10, Device device = {},
                         DLDataType dtype = kFloat32) {
    return make(porta_logspace, start, end, steps, base, dtype, device.dl());
  }
  /// arange with integers: exact in an integer dtype (porta_arange_int64).
  template <detail::IntegerScalar I>
  static Tensor arange(I start, I end, I step = 1, Device device = {}, DLDataType dtype = kFloat32) {
    const int64_t a = detail::int64_scalar(start), b = detail::int64_scalar(end), c = detail::int64_scalar(step);
    if (dtype.code == kDLFloat) return arange(double(a), double(b), double(c), device, dtype);
    return make(porta_arange_int64, a, b, c, dtype, device.dl());
  }
  /// Uniform samples in [0, 1), the same on every device for one seed.
  static Tensor rand(const Shape& shape, Device device = {}, DLDataType dtype = kFloat32) {
    return make(porta_rand, shape.data(), detail::count(shape), dtype, device.dl());
  }
  /// Standard normal samples, the same on every device for one seed.
  static Tensor randn(const Shape& shape, Device device = {}, DLDataType dtype = kFloat32) {
    return make(porta_randn, shape.data(), detail::count(shape), dtype, device.dl());
  }
  /// Uniform samples in [low, high) from `generator` (nullptr: the global one).
  static Tensor uniform(const Shape& shape, double low, double high, Device device = {}, DLDataType dtype = kFloat32,
                        Generator* generator = nullptr) {
    return make(porta_uniform, shape.data(), detail::count(shape), dtype, device.dl(), low, high,
                detail::state_of(generator));
  }
  /// Normal samples of mean and std from `generator` (nullptr: the global one).
  static Tensor normal(const Shape& shape, double mean, double std, Device device = {}, DLDataType dtype = kFloat32,
                       Generator* generator = nullptr) {
    return make(porta_normal, shape.data(), detail::count(shape), dtype, device.dl(), mean, std,
                detail::state_of(generator));
  }
  /// Integers uniform in [low, high) (torch::randint; int64 by default).
  static Tensor randint(int64_t low, int64_t high, const Shape& shape, Device device = {}, DLDataType dtype = kInt64,
                        Generator* generator = nullptr) {
    return make(porta_randint, low, high, shape.data(), detail::count(shape), dtype, device.dl(),
                detail::state_of(generator));
  }
  /// An uninitialized cpu tensor in page-locked memory from `for_device`'s plugin, for fast copies to it.
  static Tensor empty_pinned(const Shape& shape, Device for_device, DLDataType dtype = kFloat32) {
    return make(porta_tensor_empty_pinned, dtype, shape.data(), detail::count(shape), for_device.dl());
  }

  // ------------------------------ host I/O ------------------------------

  /// All elements in row-major order; T must match dtype() exactly.
  template <class T>
  std::vector<T> to_vector() const {
    const DLDataType dt = dtype();
    if (!(dt == dtype_of<T>()))
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, detail::cat("[to_vector] the tensor is ", dtype_name(dt), ", not ",
                                                            dtype_name(dtype_of<T>()), "; cast() it first"));
    std::vector<detail::host_element<T>> host(static_cast<size_t>(numel()));
    if (!host.empty())
      detail::check(porta_tensor_to_host(live(), host.data(), host.size() * sizeof(host.front())));
    if constexpr (std::is_same_v<T, bool>) return std::vector<bool>(host.begin(), host.end());
    else return host;
  }
  /// The single element of a one-element tensor, converted to T; throws when
  /// T cannot hold it (1e10 to int32_t, 300 to uint8_t, NaN to int64_t), as libtorch does.
  template <class T>
  T item() const {
    if (numel() != 1)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, detail::cat("[item] needs exactly one element, the tensor has shape ",
                                                            detail::join(shape(), "[", "]")));
    // Read exactly in a dtype that holds every value of ours, then convert checked.
    const DLDataType dt = dtype();
    if (dt.code == kDLFloat || dt.code == kDLBfloat)
      return detail::checked_convert<T>(cast(kFloat64).template to_vector<double>()[0], "item");
    return detail::checked_convert<T>(cast(kInt64).template to_vector<int64_t>()[0], "item");
  }

  // ------------------------------ transfers ------------------------------

  /// This tensor on `device`: the same handle when already there, else a copy.
  /// non_blocking: a copy from pinned memory (a DataLoader's pin_memory_for
  /// batches) to an accelerator may return before it completes, ordered
  /// before later work there, as PyTorch's non_blocking=True.
  Tensor to(const Device& device, bool non_blocking = false) const {
    return make(non_blocking ? porta_tensor_to_non_blocking : porta_tensor_to, live(), device.dl());
  }
  /// This tensor on the CPU, as to(Device()).
  Tensor cpu() const { return to(Device()); }
  /// The same handle if contiguous, else a contiguous copy.
  Tensor contiguous() const { return make(porta_contiguous, live()); }
  /// A contiguous copy that shares nothing with this tensor.
  Tensor clone() const { return make(porta_clone, live()); }
  /// Converted to `dtype` (the same handle when it already is).
  Tensor cast(DLDataType dtype) const { return make(porta_cast, live(), dtype); }
  /// Converted to `dtype`, as libtorch's to(torch::kHalf): cast(dtype).
  Tensor to(DLDataType dtype) const { return cast(dtype); }
  /// Converted to float16, rounded to nearest even (libtorch's half()).
  Tensor half() const { return cast(kFloat16); }
  /// Converted to bfloat16, rounded to nearest even (libtorch's bfloat16()).
  Tensor bfloat16() const { return cast(kBFloat16); }

  // --------------------------- in-place writes ---------------------------

  /// Overwrites every element from `src` (broadcast, cast, any device); returns *this.
  const Tensor& copy_(const Tensor& src) const {
    detail::check(porta_copy_into(live(), src.live()));
    return *this;
  }
  /// Writes `result` (computed from this tensor) into it, as PyTorch's in-place forms of composite ops: a result
  /// of a higher category (float into an integer tensor, a number into bool) is refused.
  const Tensor& assign_(const Tensor& result, const char* name) const {
    const auto category = [](DLDataType d) { return d == kBool ? 0 : d.code == kDLFloat || d.code == kDLBfloat ? 2 : 1; };
    if (category(result.dtype()) > category(dtype()))
      throw Error(PORTA_ERROR_UNSUPPORTED_DTYPE, std::string(name) + ": result type " + dtype_name(result.dtype()) +
                                                     " can't be cast to the desired output type " +
                                                     dtype_name(dtype()) + " (an in-place op keeps the tensor's dtype)");
    return copy_(result);
  }
  /// Sets every element to `value`; returns *this.
  const Tensor& fill_(double value) const { return copy_(full({}, value, device(), dtype())); }
  /// Fills from U(low, high) with Porta's generator (not recorded by autograd); returns *this.
  const Tensor& uniform_(double low = 0, double high = 1) const {
    detail::check(porta_init_uniform_(live(), low, high));
    return *this;
  }
  /// Fills from N(mean, std^2) with Porta's generator (not recorded by autograd); returns *this.
  const Tensor& normal_(double mean = 0, double std = 1) const {
    detail::check(porta_init_normal_(live(), mean, std));
    return *this;
  }
  /// Moves this leaf to `device` in place: the handle stays, storage and gradient move.
  const Tensor& move_to(const Device& device) const {
    detail::check(porta_tensor_move_to(live(), device.dl()));
    return *this;
  }
  /// PyTorch's `t.data = src` (porta_tensor_set_data): this leaf takes src's memory, shape and dtype.
  const Tensor& set_data(const Tensor& src) const {
    detail::check(porta_tensor_set_data(live(), src.live()));
    return *this;
  }

  // ------------------------------ autograd ------------------------------

  /// Marks this leaf as requiring gradients (or not); returns *this.
  const Tensor& requires_grad_(bool requires_grad = true) const {
    detail::check(porta_tensor_set_requires_grad(live(), int{requires_grad}));
    return *this;
  }
  /// Whether gradients flow to or through this tensor.
  bool requires_grad() const { return detail::get<int>(porta_tensor_requires_grad, live()) != 0; }
  /// Whether this tensor was not produced by a recorded op.
  bool is_leaf() const { return detail::get<int>(porta_tensor_is_leaf, live()) != 0; }
  /// The accumulated gradient of this leaf; undefined when there is none yet.
  Tensor grad() const { return make(porta_tensor_grad, live()); }
  /// Replaces the gradient; an undefined Tensor clears it.
  void set_grad(const Tensor& grad) const { detail::check(porta_tensor_set_grad(live(), grad.handle())); }
  /// Back-propagates into every leaf's grad() (or only `inputs`'), as libtorch's Tensor::backward:
  /// dL/dthis = `grad` (this tensor's shape; undefined: 1, this tensor having one element).
  /// retain_graph (default: create_graph) keeps the graph for another backward; create_graph
  /// records the backward pass so that gradients can be differentiated again. Defined in
  /// porta/autograd.hpp, with hooks and custom functions.
  void backward(const Tensor& grad, std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                const std::vector<Tensor>& inputs = {}) const;
  /// backward(Tensor()): from this one-element tensor, dL/dthis = 1.
  void backward() const;
  /// Runs `hook` on each gradient computed for this tensor, before it is accumulated or passed
  /// on: `Tensor(Tensor)` may return a replacement (an undefined Tensor keeps the gradient),
  /// `void(Tensor)` only looks. An exception it throws leaves backward() with no grad changed.
  /// Returns the handle for remove_hook.
  template <class Hook>
  uint64_t register_hook(Hook&& hook) const;
  /// Removes a hook register_hook returned (porta::Error when there is no such hook).
  void remove_hook(uint64_t handle) const { detail::check(porta_tensor_remove_hook(live(), handle)); }
  /// This non-leaf keeps its gradient in grad() (a no-op for a leaf); returns *this.
  const Tensor& retain_grad() const {
    detail::check(porta_tensor_retain_grad(live()));
    return *this;
  }
  /// Whether this non-leaf keeps its gradient (retain_grad()).
  bool retains_grad() const { return detail::get<int>(porta_tensor_retains_grad, live()) != 0; }
  /// libtorch's _version(): how many in-place writes this tensor's memory has had.
  uint64_t _version() const { return detail::get<uint64_t>(porta_tensor_version, live()); }
  /// A tensor sharing this storage, cut from the graph.
  Tensor detach() const { return make(porta_detach, live()); }

  // -------------------------- views (share storage) --------------------------

  /// A view with `shape` (one entry may be -1); fails when strides cannot express it.
  Tensor view(const Shape& shape) const { return make(porta_view, live(), shape.data(), detail::count(shape)); }
  /// A view with `shape` when possible, else a contiguous copy.
  Tensor reshape(const Shape& shape) const { return make(porta_reshape, live(), shape.data(), detail::count(shape)); }
  /// Elements start, start + step, ... < stop along `dim` (Python slice rules).
  Tensor slice(int dim, int64_t start, int64_t stop, int64_t step = 1) const {
    return make(porta_slice, live(), dim, start, stop, step);
  }
  /// Index `index` along `dim`, removing that dimension.
  Tensor select(int dim, int64_t index) const { return make(porta_select, live(), dim, index); }
  /// select(0, i).
  Tensor operator[](int64_t i) const { return select(0, i); }
  /// Dimensions dim0 and dim1 swapped.
  Tensor transpose(int dim0, int dim1) const { return make(porta_transpose, live(), dim0, dim1); }
  /// The transpose of a 2-D tensor (0-D and 1-D tensors are returned as is, as in PyTorch).
  Tensor t() const {
    const int n = ndim();
    if (n > 2)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, detail::cat("[t] expects at most 2 dims, got ", n, "; use transpose()"));
    return n < 2 ? *this : transpose(0, 1);
  }
  /// Dimensions reordered: output dim i is input dim dims[i].
  Tensor permute(const Dims& dims) const { return make(porta_permute, live(), dims.data(), detail::count(dims)); }
  /// Broadcast to `shape` without copying (-1 keeps a dimension).
  Tensor expand(const Shape& shape) const { return make(porta_expand, live(), shape.data(), detail::count(shape)); }
  /// A size-1 dimension inserted at `dim`.
  Tensor unsqueeze(int dim) const { return make(porta_unsqueeze, live(), dim); }
  /// Dimension `dim`, which must have size 1, removed.
  Tensor squeeze(int dim) const { return make(porta_squeeze, live(), dim); }
  /// Every size-1 dimension removed.
  Tensor squeeze() const {
    Shape kept;
    for (int64_t s : shape())
      if (s != 1) kept.push_back(s);
    return view(kept);
  }
  /// Dims start_dim..end_dim merged into one.
  Tensor flatten(int start_dim = 0, int end_dim = -1) const { return make(porta_flatten, live(), start_dim, end_dim); }

  // ---------------------------------- ops ----------------------------------

  /// softmax along `dim` (float dtypes).
  Tensor softmax(int dim) const { return make(porta_softmax, live(), dim); }
  /// log(softmax) along `dim`, computed stably.
  Tensor log_softmax(int dim) const { return make(porta_log_softmax, live(), dim); }

  // Composite ops (porta.h's "composite ops"; the core builds them from the
  // kernel ops, and autograd differentiates them through their parts).

  /// torch.clamp with scalar bounds, either absent (std::nullopt), not both:
  /// t.clamp(0.0, 1.0), t.clamp(std::nullopt, 6). An integer tensor with a
  /// fractional bound gives float32; min > max gives max; bool is refused.
  Tensor clamp(std::optional<double> min, std::optional<double> max = std::nullopt) const {
    return make(porta_clamp, live(), min ? &*min : nullptr, max ? &*max : nullptr);
  }
  /// torch.clamp with tensor bounds (broadcast): t.clamp(lo, hi), t.clamp(lo, std::nullopt).
  /// std::nullopt or an undefined Tensor means absent (as libtorch's optional<Tensor>); not both.
  Tensor clamp(const std::optional<Tensor>& min, const std::optional<Tensor>& max = std::nullopt) const {
    return make(porta_clamp_tensor, live(), min ? min->handle() : nullptr, max ? max->handle() : nullptr);
  }
  /// clamp(min, std::nullopt).
  Tensor clamp_min(double min) const { return clamp(min, std::nullopt); }
  /// clamp(min, std::nullopt), a tensor bound.
  Tensor clamp_min(const Tensor& min) const { return make(porta_clamp_tensor, live(), min.live(), nullptr); }
  /// clamp(std::nullopt, max).
  Tensor clamp_max(double max) const { return clamp(std::nullopt, max); }
  /// clamp(std::nullopt, max), a tensor bound.
  Tensor clamp_max(const Tensor& max) const { return make(porta_clamp_tensor, live(), nullptr, max.live()); }

  /// torch.lerp: this + weight * (end - this), one floating dtype for all three, broadcast.
  Tensor lerp(const Tensor& end, const Tensor& weight) const {
    return make(porta_lerp, live(), end.live(), weight.live());
  }
  /// lerp with a scalar weight (a 0-d tensor of this tensor's dtype and device).
  Tensor lerp(const Tensor& end, double weight) const {
    return lerp(end, full({}, weight, device(), dtype()));
  }
  /// torch.add(this, other, alpha): this + alpha * other (porta_add_alpha); alpha converts to the result dtype as
  /// PyTorch's (an integral result refuses a floating alpha, a bool alpha needs a bool result).
  template <detail::Number S>
  Tensor add(const Tensor& other, S alpha) const {
    return make(porta_add_alpha, int32_t{PORTA_OP_ADD}, live(), other.live(), wrapped_number(alpha, device()).live());
  }
  /// torch.sub(this, other, alpha): this - alpha * other.
  template <detail::Number S>
  Tensor sub(const Tensor& other, S alpha) const {
    return make(porta_add_alpha, int32_t{PORTA_OP_SUB}, live(), other.live(), wrapped_number(alpha, device()).live());
  }
  /// In place add(other, alpha); returns *this.
  template <detail::Number S>
  const Tensor& add_(const Tensor& other, S alpha) const {
    return assign_(add(other, alpha), "add_");
  }
  /// In place sub(other, alpha); returns *this.
  template <detail::Number S>
  const Tensor& sub_(const Tensor& other, S alpha) const {
    return assign_(sub(other, alpha), "sub_");
  }
  /// torch.addcmul: this + value * t1 * t2 (porta_addcmul), broadcast; float16/bfloat16 computed in float32.
  template <detail::Number S = int>
  Tensor addcmul(const Tensor& t1, const Tensor& t2, S value = 1) const {
    return make(porta_addcmul, int32_t{PORTA_OP_MUL}, live(), t1.live(), t2.live(),
                wrapped_number(value, device()).live());
  }
  /// torch.addcdiv: this + value * t1 / t2; integer t1 and t2 are refused, as PyTorch.
  template <detail::Number S = int>
  Tensor addcdiv(const Tensor& t1, const Tensor& t2, S value = 1) const {
    return make(porta_addcmul, int32_t{PORTA_OP_DIV}, live(), t1.live(), t2.live(),
                wrapped_number(value, device()).live());
  }
  /// In place addcmul; returns *this.
  template <detail::Number S = int>
  const Tensor& addcmul_(const Tensor& t1, const Tensor& t2, S value = 1) const {
    return assign_(addcmul(t1, t2, value), "addcmul_");
  }
  /// In place addcdiv; returns *this.
  template <detail::Number S = int>
  const Tensor& addcdiv_(const Tensor& t1, const Tensor& t2, S value = 1) const {
    return assign_(addcdiv(t1, t2, value), "addcdiv_");
  }
  /// torch.nansum over `dims` (as sum()): NaN counts as 0.
  Tensor nansum(const Dims& dims = {}, bool keepdim = false) const {
    return make(porta_nansum, live(), dims.data(), detail::count(dims), int{keepdim});
  }
  /// torch.nanmean over `dims`: the mean of the elements that are not NaN; floating tensors only.
  Tensor nanmean(const Dims& dims = {}, bool keepdim = false) const {
    return make(porta_nanmean, live(), dims.data(), detail::count(dims), int{keepdim});
  }
  /// torch.logsumexp over `dims` (as sum(); {} reduces every dim), without
  /// overflow; integer tensors give float32.
  Tensor logsumexp(const Dims& dims, bool keepdim = false) const {
    return make(porta_logsumexp, live(), dims.data(), detail::count(dims), int{keepdim});
  }

  /// torch.isnan (bool; false for integer and bool tensors).
  Tensor isnan() const { return make(porta_isnan, live()); }
  /// torch.isinf (bool).
  Tensor isinf() const { return make(porta_isinf, live()); }
  /// torch.isfinite (bool; true for integer and bool tensors).
  Tensor isfinite() const { return make(porta_isfinite, live()); }
  /// torch.nan_to_num: NaN, +inf, -inf replaced; an absent value takes
  /// PyTorch's default (0, the dtype's largest finite value, its lowest).
  Tensor nan_to_num(std::optional<double> nan = std::nullopt, std::optional<double> posinf = std::nullopt,
                    std::optional<double> neginf = std::nullopt) const {
    return make(porta_nan_to_num, live(), nan ? &*nan : nullptr, posinf ? &*posinf : nullptr,
                neginf ? &*neginf : nullptr);
  }

  /// torch.logical_not: this == 0 (bool), on every dtype.
  Tensor logical_not() const { return make(porta_logical_not, live()); }
  /// torch.logical_and: both nonzero (bool; NaN counts as nonzero), broadcast.
  Tensor logical_and(const Tensor& other) const { return make(porta_logical_and, live(), other.live()); }
  /// torch.logical_or: either nonzero (bool), broadcast.
  Tensor logical_or(const Tensor& other) const { return make(porta_logical_or, live(), other.live()); }
  /// torch.logical_xor: exactly one nonzero (bool), broadcast.
  Tensor logical_xor(const Tensor& other) const { return make(porta_logical_xor, live(), other.live()); }

  // ---- indexing along a dim (int64 index tensors; porta_gather, ... in porta.h)
  /// torch.gather: out[p] = t[p with p[dim] := index[p]].
  Tensor gather(int32_t dim, const Tensor& index) const { return make(porta_gather, live(), dim, index.live()); }
  /// torch.scatter (out of place): src's values written at index along dim (a repeat keeps the last).
  Tensor scatter(int32_t dim, const Tensor& index, const Tensor& src) const {
    return make(porta_scatter, live(), dim, index.live(), src.live(), int32_t{PORTA_SCATTER_ASSIGN}, 1);
  }
  /// torch.scatter with a scalar value.
  Tensor scatter(int32_t dim, const Tensor& index, double value) const {
    return scatter(dim, index, full(index.shape(), value, device(), dtype()));
  }
  /// torch.scatter_add (out of place).
  Tensor scatter_add(int32_t dim, const Tensor& index, const Tensor& src) const {
    return make(porta_scatter, live(), dim, index.live(), src.live(), int32_t{PORTA_SCATTER_SUM}, 1);
  }
  /// torch.scatter_reduce: reduce is "sum", "prod", "mean", "amax" or "amin".
  Tensor scatter_reduce(int32_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                        bool include_self = true) const {
    return make(porta_scatter, live(), dim, index.live(), src.live(), detail::scatter_reduce_of(reduce),
                int{include_self});
  }
  /// In place: t.scatter_(dim, index, src), t.scatter_add_(...), recorded by autograd.
  const Tensor& scatter_(int32_t dim, const Tensor& index, const Tensor& src) const { return copy_(scatter(dim, index, src)); }
  const Tensor& scatter_(int32_t dim, const Tensor& index, double value) const { return copy_(scatter(dim, index, value)); }
  const Tensor& scatter_add_(int32_t dim, const Tensor& index, const Tensor& src) const {
    return copy_(scatter_add(dim, index, src));
  }
  const Tensor& scatter_reduce_(int32_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                                bool include_self = true) const {
    return copy_(scatter_reduce(dim, index, src, reduce, include_self));
  }
  /// torch.index_select: the slices index (1-D int64 or int32) along dim.
  Tensor index_select(int32_t dim, const Tensor& index) const {
    return make(porta_index_select, live(), dim, index.live());
  }
  /// torch.index_add (out of place): alpha * source's slices added into slices index along dim.
  Tensor index_add(int32_t dim, const Tensor& index, const Tensor& source, double alpha = 1.0) const {
    return make(porta_index_add, live(), dim, index.live(), source.live(), alpha);
  }
  const Tensor& index_add_(int32_t dim, const Tensor& index, const Tensor& source, double alpha = 1.0) const {
    return copy_(index_add(dim, index, source, alpha));
  }
  /// torch.index_copy (out of place).
  Tensor index_copy(int32_t dim, const Tensor& index, const Tensor& source) const {
    return make(porta_index_copy, live(), dim, index.live(), source.live());
  }
  const Tensor& index_copy_(int32_t dim, const Tensor& index, const Tensor& source) const {
    return copy_(index_copy(dim, index, source));
  }
  /// torch.index_fill (out of place): value is a number (as a wrapped number: an integer keeps every bit) or a
  /// 0-d tensor (autograd records its gradient).
  Tensor index_fill(int32_t dim, const Tensor& index, const Tensor& value) const {
    return make(porta_index_fill_tensor, live(), dim, index.live(), value.live());
  }
  template <class V>
  Tensor index_fill(int32_t dim, const Tensor& index, V value) const {
    return index_fill(dim, index, wrapped_number(value, device()));
  }
  template <class V>
  const Tensor& index_fill_(int32_t dim, const Tensor& index, const V& value) const {
    return copy_(index_fill(dim, index, value));
  }
  /// torch.masked_fill: value where the bool mask is true (a number or a 0-d tensor, as index_fill's).
  Tensor masked_fill(const Tensor& mask, const Tensor& value) const {
    return make(porta_masked_fill_tensor, live(), mask.live(), value.live());
  }
  template <class V>
  Tensor masked_fill(const Tensor& mask, V value) const {
    return masked_fill(mask, wrapped_number(value, device()));
  }
  template <class V>
  const Tensor& masked_fill_(const Tensor& mask, const V& value) const {
    return copy_(masked_fill(mask, value));
  }
  /// torch.masked_select: the 1-D elements where the bool mask is true.
  Tensor masked_select(const Tensor& mask) const { return make(porta_masked_select, live(), mask.live()); }
  /// torch.nonzero: int64 [count, ndim] coordinates.
  Tensor nonzero() const { return make(porta_nonzero, live()); }
  /// torch.take: elements at row-major positions.
  Tensor take(const Tensor& index) const { return make(porta_take, live(), index.live()); }
  // ---- sorting: stable (equal elements keep their order), NaN last ascending, first descending
  /// torch.sort: {values, indices} along dim.
  std::tuple<Tensor, Tensor> sort(int32_t dim = -1, bool descending = false) const {
    porta_tensor *v = nullptr, *i = nullptr;
    detail::check(porta_sort(live(), dim, descending ? 1 : 0, &v, &i));
    return {adopt(v), adopt(i)};
  }
  /// torch.argsort: the indices that sort along dim.
  Tensor argsort(int32_t dim = -1, bool descending = false) const {
    return make(porta_argsort, live(), dim, descending ? 1 : 0);
  }
  /// torch.topk: {values, indices} of the k largest (or smallest) along dim, in order.
  std::tuple<Tensor, Tensor> topk(int64_t k, int32_t dim = -1, bool largest = true) const {
    porta_tensor *v = nullptr, *i = nullptr;
    detail::check(porta_topk(live(), k, dim, largest ? 1 : 0, &v, &i));
    return {adopt(v), adopt(i)};
  }
  /// torch.max(dim): {values, indices} of the largest along dim (NaN wins; the first index); the values'
  /// gradient goes to those indices, as PyTorch's. (max(Dims) reduces as amax.)
  std::tuple<Tensor, Tensor> max(int32_t dim, bool keepdim = false) const {
    porta_tensor *v = nullptr, *i = nullptr;
    detail::check(porta_max_dim(live(), dim, keepdim ? 1 : 0, &v, &i));
    return {adopt(v), adopt(i)};
  }
  /// torch.min(dim), as max(dim).
  std::tuple<Tensor, Tensor> min(int32_t dim, bool keepdim = false) const {
    porta_tensor *v = nullptr, *i = nullptr;
    detail::check(porta_min_dim(live(), dim, keepdim ? 1 : 0, &v, &i));
    return {adopt(v), adopt(i)};
  }
  /// torch.kthvalue: {values, indices} of the k-th smallest along dim (k from 1).
  std::tuple<Tensor, Tensor> kthvalue(int64_t k, int32_t dim = -1, bool keepdim = false) const {
    porta_tensor *v = nullptr, *i = nullptr;
    detail::check(porta_kthvalue(live(), k, dim, keepdim ? 1 : 0, &v, &i));
    return {adopt(v), adopt(i)};
  }
  /// torch::_unique2 of the flattened tensor: {sorted values, inverse (this shape), counts}.
  std::tuple<Tensor, Tensor, Tensor> unique() const { return unique3(porta_unique); }
  /// torch::unique_consecutive of the flattened tensor: {values, inverse, counts}.
  std::tuple<Tensor, Tensor, Tensor> unique_consecutive() const { return unique3(porta_unique_consecutive); }
  /// torch::unique_dim: {the distinct slices along dim (sorted), inverse [size(dim)], counts}.
  std::tuple<Tensor, Tensor, Tensor> unique(int32_t dim) const { return unique3(porta_unique_dim, dim); }
  /// torch::unique_consecutive with dim: {one slice per run of equal neighbouring slices, inverse, counts}.
  std::tuple<Tensor, Tensor, Tensor> unique_consecutive(int32_t dim) const {
    return unique3(porta_unique_consecutive_dim, dim);
  }
  /// torch.bincount of a 1-D non-negative integer tensor: counts of each value.
  Tensor bincount(int64_t minlength = 0) const {
    return make(porta_bincount, live(), static_cast<porta_tensor*>(nullptr), minlength);
  }
  /// torch.bincount with weights (an undefined tensor: none): sums of the weights of each value.
  Tensor bincount(const Tensor& weights, int64_t minlength = 0) const {
    return make(porta_bincount, live(), weights.defined() ? weights.live() : nullptr, minlength);
  }

  /// torch.split with sizes: views along dim.
  std::vector<Tensor> split(const Shape& sizes, int32_t dim = 0) const {
    std::vector<porta_tensor*> outs(sizes.size());
    detail::check(porta_split(live(), sizes.data(), detail::count(sizes), dim, outs.data()));
    return adopt_all(outs);
  }
  /// torch.split(int): pieces of split_size along dim (the last may be smaller).
  std::vector<Tensor> split(int64_t split_size, int32_t dim = 0) const {
    if (split_size <= 0) throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[split] split_size must be positive");
    const int64_t n = size(dim);
    Shape sizes;
    for (int64_t at = 0; at < n || (n == 0 && sizes.empty()); at += split_size) sizes.push_back(std::min(split_size, n - at));
    return split(sizes, dim);
  }
  /// torch.chunk: at most `chunks` pieces of ceil(size / chunks) along dim.
  std::vector<Tensor> chunk(int64_t chunks, int32_t dim = 0) const {
    if (chunks <= 0) throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[chunk] chunks must be positive");
    const int64_t n = size(dim);
    return split(std::max<int64_t>((n + chunks - 1) / chunks, 1), dim);
  }
  /// torch.unbind: the views along dim with dim removed.
  std::vector<Tensor> unbind(int32_t dim = 0) const {
    std::vector<porta_tensor*> outs(static_cast<size_t>(size(dim)));
    detail::check(porta_unbind(live(), dim, outs.data()));
    return adopt_all(outs);
  }

  // ---- statistics, shapes and products (porta_var, ... in porta.h); dims {} reduce over every dim
  /// torch.var with Bessel's correction (default 1).
  Tensor var(const Dims& dims = {}, double correction = 1.0, bool keepdim = false) const {
    return make(porta_var, live(), dims.data(), detail::count(dims), correction, int{keepdim});
  }
  /// torch.std with Bessel's correction (default 1).
  Tensor std(const Dims& dims = {}, double correction = 1.0, bool keepdim = false) const {
    return make(porta_std, live(), dims.data(), detail::count(dims), correction, int{keepdim});
  }
  /// torch.prod over every element, or along dim (integers give int64).
  Tensor prod(std::optional<int32_t> dim = std::nullopt, bool keepdim = false) const {
    return make(porta_prod, live(), dim.value_or(PORTA_ALL_DIMS), int{keepdim});
  }
  /// torch.any / all (bool).
  Tensor any(const Dims& dims = {}, bool keepdim = false) const {
    return make(porta_any, live(), dims.data(), detail::count(dims), int{keepdim});
  }
  Tensor all(const Dims& dims = {}, bool keepdim = false) const {
    return make(porta_all, live(), dims.data(), detail::count(dims), int{keepdim});
  }
  /// torch.count_nonzero (int64).
  Tensor count_nonzero(const Dims& dims = {}) const {
    return make(porta_count_nonzero, live(), dims.data(), detail::count(dims));
  }
  /// torch.linalg.vector_norm / Tensor.norm: ord 2 by default (INFINITY: max |x|).
  Tensor norm(double ord = 2.0, const Dims& dims = {}, bool keepdim = false) const {
    return make(porta_vector_norm, live(), ord, dims.data(), detail::count(dims), int{keepdim});
  }
  /// torch.flip along dims.
  Tensor flip(const Dims& dims) const { return make(porta_flip, live(), dims.data(), detail::count(dims)); }
  /// torch.roll: shifts along dims (dims {}: the flattened tensor by one shift).
  Tensor roll(const Shape& shifts, const Dims& dims = {}) const {
    return make(porta_roll, live(), shifts.data(), detail::count(shifts), dims.data(), detail::count(dims));
  }
  /// torch.Tensor.repeat.
  Tensor repeat(const Shape& repeats) const { return make(porta_repeat, live(), repeats.data(), detail::count(repeats)); }
  /// torch.tril / triu over the last two dims.
  Tensor tril(int64_t diagonal = 0) const { return make(porta_tril, live(), diagonal); }
  Tensor triu(int64_t diagonal = 0) const { return make(porta_triu, live(), diagonal); }
  /// torch.outer, mm, mv, dot, bmm (matmul with each one's shape rule).
  Tensor outer(const Tensor& other) const { return make(porta_outer, live(), other.live()); }
  Tensor mm(const Tensor& other) const { return make(porta_mm, live(), other.live()); }
  Tensor mv(const Tensor& vec) const { return make(porta_mv, live(), vec.live()); }
  Tensor dot(const Tensor& other) const { return make(porta_dot, live(), other.live()); }
  Tensor bmm(const Tensor& other) const { return make(porta_bmm, live(), other.live()); }
  /// torch.addmm / baddbmm: beta * self + alpha * (a @ b).
  Tensor addmm(const Tensor& a, const Tensor& b, double beta = 1.0, double alpha = 1.0) const {
    return make(porta_addmm, live(), a.live(), b.live(), beta, alpha);
  }
  Tensor baddbmm(const Tensor& a, const Tensor& b, double beta = 1.0, double alpha = 1.0) const {
    return make(porta_baddbmm, live(), a.live(), b.live(), beta, alpha);
  }
  // ---- since ABI 1.7: moved, repeated and windowed elements, order statistics
  /// torch.movedim / moveaxis: source[i] becomes dim destination[i] (a view).
  Tensor movedim(const Dims& source, const Dims& destination) const {
    if (source.size() != destination.size())
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[movedim] source and destination must have the same number of dims");
    return make(porta_movedim, live(), source.data(), destination.data(), detail::count(source));
  }
  Tensor movedim(int32_t source, int32_t destination) const { return movedim(Dims{source}, Dims{destination}); }
  /// torch.diagonal: a view of the (dim1, dim2) diagonal `offset` above the main one, as the last dim.
  Tensor diagonal(int64_t offset = 0, int32_t dim1 = 0, int32_t dim2 = 1) const {
    return make(porta_diagonal, live(), offset, dim1, dim2);
  }
  /// torch.diag: a vector's square matrix, or a matrix's diagonal (a copy).
  Tensor diag(int64_t diagonal = 0) const { return make(porta_diag, live(), diagonal); }
  /// torch.repeat_interleave: each element `repeats` times along dim (nullopt: the flattened tensor).
  Tensor repeat_interleave(int64_t repeats, std::optional<int32_t> dim = std::nullopt) const {
    return make(porta_repeat_interleave_int, live(), repeats, dim.value_or(PORTA_ALL_DIMS));
  }
  /// torch.repeat_interleave with one count per element along dim (output_size, when given, is checked).
  Tensor repeat_interleave(const Tensor& repeats, std::optional<int32_t> dim = std::nullopt,
                           std::optional<int64_t> output_size = std::nullopt) const {
    return make(porta_repeat_interleave, live(), repeats.live(), dim.value_or(PORTA_ALL_DIMS),
                output_size.value_or(-1));
  }
  /// torch.Tensor.unfold: windows of `size` every `step` along dim as a last dim (a copy, not a view).
  Tensor unfold(int32_t dim, int64_t size, int64_t step) const { return make(porta_unfold, live(), dim, size, step); }
  /// torch.median of every element (the lower middle value; NaN if there is one).
  Tensor median() const { return std::get<0>(pair(porta_median, PORTA_ALL_DIMS, false)); }
  /// torch.median along dim: {values, indices}.
  std::tuple<Tensor, Tensor> median(int32_t dim, bool keepdim = false) const {
    return pair(porta_median, dim, keepdim);
  }
  /// torch.nanmedian: median ignoring NaNs.
  Tensor nanmedian() const { return std::get<0>(pair(porta_nanmedian, PORTA_ALL_DIMS, false)); }
  std::tuple<Tensor, Tensor> nanmedian(int32_t dim, bool keepdim = false) const {
    return pair(porta_nanmedian, dim, keepdim);
  }
  /// torch.histc: counts in `bins` equal bins over [min, max] (min == max: the data's range).
  Tensor histc(int64_t bins = 100, double min = 0.0, double max = 0.0) const {
    return make(porta_histc, live(), bins, min, max);
  }
  /// torch.cummax: {values, indices} of the running maximum along dim (a later equal element takes over).
  std::tuple<Tensor, Tensor> cummax(int32_t dim) const { return running(porta_cummax, dim); }
  /// torch.cummin: {values, indices} of the running minimum along dim.
  std::tuple<Tensor, Tensor> cummin(int32_t dim) const { return running(porta_cummin, dim); }
  /// torch.mode: {values, indices} of the most frequent value along dim (the smallest tied), its last occurrence.
  std::tuple<Tensor, Tensor> mode(int32_t dim = -1, bool keepdim = false) const {
    return pair(porta_mode, dim, keepdim);
  }

  // One method per op in PORTA_OP_LIST, in the shape PORTA_CPP_SHAPE_* gives its kind:
  //   UNARY      t.exp(), in place t.exp_()
  //   BINARY     t.add(u), t.add(2.0), in place t.add_(u), t.add_(2.0)
  //              (compare ops too: t.lt(u), t.lt(0.5))
  //   WHERE      t.where(cond, other)        (cond ? t : other)
  //   REDUCE     t.sum(), t.sum({0, -1}, /*keepdim=*/true)
  //   ARGREDUCE  t.argmax(), t.argmax(1, /*keepdim=*/true)
  //   MATMUL     a.matmul(b)
  //   SCAN       t.cumsum(1)
  // Each op's meaning is documented on its C function (porta_exp, porta_add,
  // ...) in porta/porta.h.
#define PORTA_CPP_METHOD_NONE(NAME, name)
#define PORTA_CPP_METHOD_UNARY(NAME, name)                       \
  Tensor name() const { return make(porta_##name, live()); }     \
  /** In place (porta_unary_inplace): recorded by autograd. */   \
  const Tensor& name##_() const {                                \
    detail::check(porta_unary_inplace(PORTA_OP_##NAME, live())); \
    return *this;                                                \
  }
#define PORTA_CPP_METHOD_BINARY(NAME, name)                                                                     \
  Tensor name(const Tensor& other) const { return make(porta_##name, live(), other.live()); }                   \
  /** A scalar operand (a wrapped number: bool, integer or floating, promoted as PyTorch's); not for the ops    \
   *  whose PyTorch signature takes a tensor only (maximum, minimum, atan2). */                                 \
  template <detail::Number S>                                                                                   \
    requires(detail::takes_scalar_other(PORTA_OP_##NAME))                                                      \
  Tensor name(S scalar) const {                                                                                 \
    return name(detail::wrapped_number(scalar, *this));                                                         \
  }                                                                                                             \
  /** In place (porta_binary_inplace): recorded by autograd. */                                                 \
  const Tensor& name##_(const Tensor& other) const {                                                            \
    detail::check(porta_binary_inplace(PORTA_OP_##NAME, live(), other.live()));                                 \
    return *this;                                                                                               \
  }                                                                                                             \
  template <detail::Number S>                                                                                   \
    requires(detail::takes_scalar_other(PORTA_OP_##NAME))                                                      \
  const Tensor& name##_(S scalar) const {                                                                       \
    return name##_(detail::wrapped_number(scalar, *this));                                                      \
  }
#define PORTA_CPP_METHOD_WHERE(NAME, name) \
  Tensor name(const Tensor& cond, const Tensor& other) const { return make(porta_##name, cond.live(), live(), other.live()); }
#define PORTA_CPP_METHOD_REDUCE(NAME, name)                                            \
  Tensor name(const Dims& dims = {}, bool keepdim = false) const {                     \
    return make(porta_##name, live(), dims.data(), detail::count(dims), int{keepdim}); \
  }
#define PORTA_CPP_METHOD_ARGREDUCE(NAME, name)                                         \
  Tensor name(std::optional<int32_t> dim = std::nullopt, bool keepdim = false) const { \
    return make(porta_##name, live(), dim.value_or(PORTA_ALL_DIMS), int{keepdim});     \
  }
#define PORTA_CPP_METHOD_MATMUL(NAME, name) \
  Tensor name(const Tensor& other) const { return make(porta_##name, live(), other.live()); }
#define PORTA_CPP_METHOD_SCAN(NAME, name) \
  Tensor name(int32_t dim) const { return make(porta_##name, live(), dim); }
#define PORTA_CPP_METHOD(NAME, name, id, kind, inputs) \
  PORTA_CPP_PASTE(PORTA_CPP_METHOD_, PORTA_CPP_SHAPE_##kind)(NAME, name)
  PORTA_OP_LIST(PORTA_CPP_METHOD)
#undef PORTA_CPP_METHOD
#undef PORTA_CPP_METHOD_NONE
#undef PORTA_CPP_METHOD_UNARY
#undef PORTA_CPP_METHOD_BINARY
#undef PORTA_CPP_METHOD_WHERE
#undef PORTA_CPP_METHOD_REDUCE
#undef PORTA_CPP_METHOD_ARGREDUCE
#undef PORTA_CPP_METHOD_MATMUL
#undef PORTA_CPP_METHOD_SCAN

 private:
  // A two-output op of (dim, keepdim): both or neither.
  std::tuple<Tensor, Tensor> pair(porta_status (*f)(porta_tensor*, int32_t, int, porta_tensor**, porta_tensor**),
                                  int32_t dim, bool keepdim) const {
    porta_tensor *a = nullptr, *b = nullptr;
    detail::check(f(live(), dim, keepdim ? 1 : 0, &a, &b));
    return {adopt(a), adopt(b)};
  }
  std::tuple<Tensor, Tensor> running(porta_status (*f)(porta_tensor*, int32_t, porta_tensor**, porta_tensor**),
                                     int32_t dim) const {
    porta_tensor *a = nullptr, *b = nullptr;
    detail::check(f(live(), dim, &a, &b));
    return {adopt(a), adopt(b)};
  }
  // unique / unique_consecutive: values, inverse and counts, all or none.
  std::tuple<Tensor, Tensor, Tensor> unique3(porta_status (*f)(porta_tensor*, porta_tensor**, porta_tensor**,
                                                                porta_tensor**)) const {
    porta_tensor *v = nullptr, *i = nullptr, *c = nullptr;
    detail::check(f(live(), &v, &i, &c));
    return {adopt(v), adopt(i), adopt(c)};
  }
  std::tuple<Tensor, Tensor, Tensor> unique3(porta_status (*f)(porta_tensor*, int32_t, porta_tensor**, porta_tensor**,
                                                               porta_tensor**),
                                             int32_t dim) const {
    porta_tensor *v = nullptr, *i = nullptr, *c = nullptr;
    detail::check(f(live(), dim, &v, &i, &c));
    return {adopt(v), adopt(i), adopt(c)};
  }

  // Calls C function `f(args..., &out)` and adopts the new tensor, throwing on failure.
  template <class F, class... Args>
  static Tensor make(F f, Args... args) {
    porta_tensor* out = nullptr;
    detail::check(f(args..., &out));
    return adopt(out);
  }

  static std::vector<Tensor> adopt_all(const std::vector<porta_tensor*>& handles) {
    std::vector<Tensor> out;
    for (porta_tensor* h : handles) out.push_back(adopt(h));
    return out;
  }

  // Reads one int64 per dimension with a C getter such as porta_tensor_shape.
  template <class F>
  Shape per_dim(F f) const {
    Shape v(static_cast<size_t>(ndim()));
    if (!v.empty()) detail::check(f(live(), v.data()));
    return v;
  }

  // `dim` in [0, ndim), after counting negative dims from the end.
  int wrap_dim(int dim, const char* op) const {
    const int n = ndim();
    if (dim < -n || dim >= n)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  detail::cat("[", op, "] dim ", dim, " is out of range for a ", n, "-D tensor"));
    return dim < 0 ? dim + n : dim;
  }

  // checked_handle() for the calls in this class (the location is the caller's).
  porta_tensor* live(std::source_location where = std::source_location::current()) const {
    return checked_handle(where);
  }

  porta_tensor* t_ = nullptr;
  bool moved_from_ = false;  // undefined because moved from or released (for checked_handle's message)
};

namespace detail {
/// Calls C function `f(args..., &out)` and adopts the new tensor, throwing on
/// failure (for the nn/optim/data headers and user code calling porta.h).
template <class F, class... Args>
Tensor call(F f, Args... args) {
  porta_tensor* out = nullptr;
  check(f(args..., &out));
  return Tensor::adopt(out);
}
}  // namespace detail

// ============================ free functions ============================

// porta::exp(t), porta::add(a, b), porta::sum(t, {1}), porta::where(c, a, b), ...:
// one per op in PORTA_OP_LIST, forwarding to the method of the same name.
#define PORTA_CPP_FREE_NONE(name)
#define PORTA_CPP_FREE_UNARY(name) \
  inline Tensor name(const Tensor& a) { return a.name(); }
#define PORTA_CPP_FREE_BINARY(name)                                          \
  inline Tensor name(const Tensor& a, const Tensor& b) { return a.name(b); } \
  template <detail::Number S>                                                \
    requires requires(const Tensor& t, S s) { t.name(s); }                   \
  Tensor name(const Tensor& a, S scalar) {                                   \
    return a.name(scalar);                                                   \
  }
#define PORTA_CPP_FREE_WHERE(name) \
  inline Tensor name(const Tensor& cond, const Tensor& a, const Tensor& b) { return a.name(cond, b); }
#define PORTA_CPP_FREE_REDUCE(name)                                                  \
  inline Tensor name(const Tensor& t, const Dims& dims = {}, bool keepdim = false) { \
    return t.name(dims, keepdim);                                                    \
  }
#define PORTA_CPP_FREE_ARGREDUCE(name)                                                                 \
  inline Tensor name(const Tensor& t, std::optional<int32_t> dim = std::nullopt, bool keepdim = false) { \
    return t.name(dim, keepdim);                                                                       \
  }
#define PORTA_CPP_FREE_MATMUL(name) \
  inline Tensor name(const Tensor& a, const Tensor& b) { return a.name(b); }
#define PORTA_CPP_FREE_SCAN(name) \
  inline Tensor name(const Tensor& t, int32_t dim) { return t.name(dim); }
#define PORTA_CPP_FREE(NAME, name, id, kind, inputs) PORTA_CPP_PASTE(PORTA_CPP_FREE_, PORTA_CPP_SHAPE_##kind)(name)
PORTA_OP_LIST(PORTA_CPP_FREE)
#undef PORTA_CPP_FREE
#undef PORTA_CPP_FREE_NONE
#undef PORTA_CPP_FREE_UNARY
#undef PORTA_CPP_FREE_BINARY
#undef PORTA_CPP_FREE_WHERE
#undef PORTA_CPP_FREE_REDUCE
#undef PORTA_CPP_FREE_ARGREDUCE
#undef PORTA_CPP_FREE_MATMUL
#undef PORTA_CPP_FREE_SCAN
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_FACTORY
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_COPY
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_UNARY
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_BINARY
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_COMPARE
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_WHERE
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_REDUCE
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_ARGREDUCE
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_MATMUL
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_CONV
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_POOL
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_SOFTMAX
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_LOSS
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_OPTIMIZER
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_INDEX
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_SCAN
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_SORT
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_NORM
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_RNN
#undef PORTA_CPP_SHAPE_PORTA_OP_KIND_RUNNING_EXTREME
#undef PORTA_CPP_PASTE
#undef PORTA_CPP_PASTE_EXPANDED

// The composite ops as free functions (torch::clamp(t, 0, 1), ...), forwarding to the methods.

/// torch::clamp with scalar bounds (either std::nullopt, not both).
inline Tensor clamp(const Tensor& t, std::optional<double> min, std::optional<double> max = std::nullopt) {
  return t.clamp(min, max);
}
/// torch::clamp with tensor bounds (std::nullopt or undefined: absent; not both).
inline Tensor clamp(const Tensor& t, const std::optional<Tensor>& min, const std::optional<Tensor>& max = std::nullopt) {
  return t.clamp(min, max);
}
/// torch::clamp with both tensor bounds (also an exact match, so that it wins over std::clamp
/// where a `using namespace std;` brings that in).
inline Tensor clamp(const Tensor& t, const Tensor& min, const Tensor& max) {
  return t.clamp(std::optional<Tensor>(min), std::optional<Tensor>(max));
}
/// torch::cat: tensors of one device joined along dim (dtypes promote).
inline Tensor cat(const std::vector<Tensor>& tensors, int32_t dim = 0) {
  std::vector<porta_tensor*> handles;
  for (const Tensor& t : tensors) handles.push_back(t.handle());
  return detail::call(porta_cat, handles.data(), detail::count(handles), dim);
}
/// torch::stack: tensors of one shape joined along a new dim.
inline Tensor stack(const std::vector<Tensor>& tensors, int32_t dim = 0) {
  std::vector<porta_tensor*> handles;
  for (const Tensor& t : tensors) handles.push_back(t.handle());
  return detail::call(porta_stack, handles.data(), detail::count(handles), dim);
}
inline std::vector<Tensor> split(const Tensor& t, int64_t split_size, int32_t dim = 0) { return t.split(split_size, dim); }
inline std::vector<Tensor> split(const Tensor& t, const Shape& sizes, int32_t dim = 0) { return t.split(sizes, dim); }
inline std::vector<Tensor> chunk(const Tensor& t, int64_t chunks, int32_t dim = 0) { return t.chunk(chunks, dim); }
inline std::vector<Tensor> unbind(const Tensor& t, int32_t dim = 0) { return t.unbind(dim); }
inline Tensor gather(const Tensor& t, int32_t dim, const Tensor& index) { return t.gather(dim, index); }
inline Tensor scatter(const Tensor& t, int32_t dim, const Tensor& index, const Tensor& src) {
  return t.scatter(dim, index, src);
}
inline Tensor scatter_add(const Tensor& t, int32_t dim, const Tensor& index, const Tensor& src) {
  return t.scatter_add(dim, index, src);
}
inline Tensor scatter_reduce(const Tensor& t, int32_t dim, const Tensor& index, const Tensor& src,
                             std::string_view reduce, bool include_self = true) {
  return t.scatter_reduce(dim, index, src, reduce, include_self);
}
inline Tensor index_select(const Tensor& t, int32_t dim, const Tensor& index) { return t.index_select(dim, index); }
inline Tensor index_add(const Tensor& t, int32_t dim, const Tensor& index, const Tensor& source, double alpha = 1.0) {
  return t.index_add(dim, index, source, alpha);
}
inline Tensor index_copy(const Tensor& t, int32_t dim, const Tensor& index, const Tensor& source) {
  return t.index_copy(dim, index, source);
}
template <class V>
Tensor index_fill(const Tensor& t, int32_t dim, const Tensor& index, const V& value) {
  return t.index_fill(dim, index, value);
}
template <class V>
Tensor masked_fill(const Tensor& t, const Tensor& mask, const V& value) {
  return t.masked_fill(mask, value);
}
inline Tensor masked_select(const Tensor& t, const Tensor& mask) { return t.masked_select(mask); }
inline Tensor nonzero(const Tensor& t) { return t.nonzero(); }
inline Tensor take(const Tensor& t, const Tensor& index) { return t.take(index); }
inline std::tuple<Tensor, Tensor> sort(const Tensor& t, int32_t dim = -1, bool descending = false) {
  return t.sort(dim, descending);
}
inline Tensor argsort(const Tensor& t, int32_t dim = -1, bool descending = false) { return t.argsort(dim, descending); }
inline std::tuple<Tensor, Tensor> topk(const Tensor& t, int64_t k, int32_t dim = -1, bool largest = true) {
  return t.topk(k, dim, largest);
}
inline std::tuple<Tensor, Tensor> kthvalue(const Tensor& t, int64_t k, int32_t dim = -1, bool keepdim = false) {
  return t.kthvalue(k, dim, keepdim);
}
inline std::tuple<Tensor, Tensor, Tensor> unique(const Tensor& t) { return t.unique(); }
inline std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& t) { return t.unique_consecutive(); }
inline std::tuple<Tensor, Tensor, Tensor> unique_dim(const Tensor& t, int32_t dim) { return t.unique(dim); }
inline std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& t, int32_t dim) {
  return t.unique_consecutive(dim);
}
inline Tensor bincount(const Tensor& t, int64_t minlength = 0) { return t.bincount(minlength); }
inline Tensor bincount(const Tensor& t, const Tensor& weights, int64_t minlength = 0) {
  return t.bincount(weights, minlength);
}
inline Tensor var(const Tensor& t, const Dims& dims = {}, double correction = 1.0, bool keepdim = false) {
  return t.var(dims, correction, keepdim);
}
inline Tensor std(const Tensor& t, const Dims& dims = {}, double correction = 1.0, bool keepdim = false) {
  return t.std(dims, correction, keepdim);
}
inline Tensor prod(const Tensor& t, std::optional<int32_t> dim = std::nullopt, bool keepdim = false) {
  return t.prod(dim, keepdim);
}
inline Tensor any(const Tensor& t, const Dims& dims = {}, bool keepdim = false) { return t.any(dims, keepdim); }
inline Tensor all(const Tensor& t, const Dims& dims = {}, bool keepdim = false) { return t.all(dims, keepdim); }
inline Tensor count_nonzero(const Tensor& t, const Dims& dims = {}) { return t.count_nonzero(dims); }
inline Tensor norm(const Tensor& t, double ord = 2.0, const Dims& dims = {}, bool keepdim = false) {
  return t.norm(ord, dims, keepdim);
}
inline Tensor flip(const Tensor& t, const Dims& dims) { return t.flip(dims); }
inline Tensor roll(const Tensor& t, const Shape& shifts, const Dims& dims = {}) { return t.roll(shifts, dims); }
inline Tensor tril(const Tensor& t, int64_t diagonal = 0) { return t.tril(diagonal); }
inline Tensor triu(const Tensor& t, int64_t diagonal = 0) { return t.triu(diagonal); }
inline Tensor outer(const Tensor& a, const Tensor& b) { return a.outer(b); }
inline Tensor mm(const Tensor& a, const Tensor& b) { return a.mm(b); }
inline Tensor mv(const Tensor& a, const Tensor& v) { return a.mv(v); }
inline Tensor dot(const Tensor& a, const Tensor& b) { return a.dot(b); }
inline Tensor bmm(const Tensor& a, const Tensor& b) { return a.bmm(b); }
inline Tensor addmm(const Tensor& c, const Tensor& a, const Tensor& b, double beta = 1.0, double alpha = 1.0) {
  return c.addmm(a, b, beta, alpha);
}
inline Tensor baddbmm(const Tensor& c, const Tensor& a, const Tensor& b, double beta = 1.0, double alpha = 1.0) {
  return c.baddbmm(a, b, beta, alpha);
}
inline Tensor movedim(const Tensor& t, const Dims& source, const Dims& destination) {
  return t.movedim(source, destination);
}
inline Tensor diagonal(const Tensor& t, int64_t offset = 0, int32_t dim1 = 0, int32_t dim2 = 1) {
  return t.diagonal(offset, dim1, dim2);
}
inline Tensor diag(const Tensor& t, int64_t diagonal = 0) { return t.diag(diagonal); }
inline Tensor histc(const Tensor& t, int64_t bins = 100, double min = 0.0, double max = 0.0) {
  return t.histc(bins, min, max);
}
inline std::tuple<Tensor, Tensor> cummax(const Tensor& t, int32_t dim) { return t.cummax(dim); }
inline std::tuple<Tensor, Tensor> cummin(const Tensor& t, int32_t dim) { return t.cummin(dim); }
inline std::tuple<Tensor, Tensor> mode(const Tensor& t, int32_t dim = -1, bool keepdim = false) {
  return t.mode(dim, keepdim);
}
/// torch::searchsorted: where each value goes in the last dim of sorted_sequence (right: after equal elements);
/// sorter (undefined: none) orders an unsorted sequence.
inline Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values, bool out_int32 = false,
                           bool right = false, const Tensor& sorter = {}) {
  return detail::call(porta_searchsorted, sorted_sequence.checked_handle(), values.checked_handle(), right ? 1 : 0,
                      out_int32 ? 1 : 0, sorter.handle());
}
/// torch::bucketize: the bucket of each element among the 1-D boundaries.
inline Tensor bucketize(const Tensor& t, const Tensor& boundaries, bool out_int32 = false, bool right = false) {
  return detail::call(porta_bucketize, t.checked_handle(), boundaries.checked_handle(), right ? 1 : 0,
                      out_int32 ? 1 : 0);
}
/// torch::meshgrid of 0-D or 1-D tensors; indexing "ij" (PyTorch's default) or "xy".
inline std::vector<Tensor> meshgrid(const std::vector<Tensor>& tensors, const std::string& indexing = "ij") {
  if (indexing != "ij" && indexing != "xy")
    throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[meshgrid] indexing must be \"ij\" or \"xy\", got \"" + indexing + "\"");
  std::vector<porta_tensor*> handles, outs(tensors.size());
  for (const Tensor& t : tensors) handles.push_back(t.handle());
  detail::check(porta_meshgrid(handles.data(), detail::count(handles),
                               indexing == "xy" ? PORTA_MESHGRID_XY : PORTA_MESHGRID_IJ, outs.data()));
  std::vector<Tensor> grid;
  for (porta_tensor* h : outs) grid.push_back(Tensor::adopt(h));
  return grid;
}
/// torch::einsum over operands of one dtype and device ("bij,bjk->bik", "...ij", "ii", implicit outputs).
inline Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands) {
  std::vector<porta_tensor*> handles;
  for (const Tensor& t : operands) handles.push_back(t.handle());
  return detail::call(porta_einsum, equation.c_str(), handles.data(), detail::count(handles));
}
/// torch::var_mean / std_mean: {spread, mean} over dims ({}: all).
inline std::tuple<Tensor, Tensor> var_mean(const Tensor& t, const Dims& dims = {}, double correction = 1.0,
                                           bool keepdim = false) {
  porta_tensor *v = nullptr, *m = nullptr;
  detail::check(porta_var_mean(t.handle(), dims.data(), detail::count(dims), correction, int{keepdim}, &v, &m));
  return {Tensor::adopt(v), Tensor::adopt(m)};
}
inline std::tuple<Tensor, Tensor> std_mean(const Tensor& t, const Dims& dims = {}, double correction = 1.0,
                                           bool keepdim = false) {
  porta_tensor *v = nullptr, *m = nullptr;
  detail::check(porta_std_mean(t.handle(), dims.data(), detail::count(dims), correction, int{keepdim}, &v, &m));
  return {Tensor::adopt(v), Tensor::adopt(m)};
}
/// torch::bernoulli: 1 with probability p (elementwise), else 0.
inline Tensor bernoulli(const Tensor& p, Generator* generator = nullptr) {
  return detail::call(porta_bernoulli, p.checked_handle(), detail::state_of(generator));
}
/// torch::multinomial: class indices drawn with probabilities proportional to probs ([C] or [N, C]).
inline Tensor multinomial(const Tensor& probs, int64_t num_samples, bool replacement = false,
                          Generator* generator = nullptr) {
  return detail::call(porta_multinomial, probs.checked_handle(), num_samples, int{replacement},
                      detail::state_of(generator));
}
/// torch::normal(mean, std) with tensors (either undefined: 0 and 1), broadcast.
inline Tensor normal(const Tensor& mean, const Tensor& std, Generator* generator = nullptr) {
  return detail::call(porta_normal_tensor, mean.handle(), std.handle(), detail::state_of(generator));
}
/// torch::clamp_min.
inline Tensor clamp_min(const Tensor& t, double min) { return t.clamp_min(min); }
/// torch::clamp_min with a tensor bound.
inline Tensor clamp_min(const Tensor& t, const Tensor& min) { return t.clamp_min(min); }
/// torch::clamp_max.
inline Tensor clamp_max(const Tensor& t, double max) { return t.clamp_max(max); }
/// torch::clamp_max with a tensor bound.
inline Tensor clamp_max(const Tensor& t, const Tensor& max) { return t.clamp_max(max); }
/// torch::add(a, b, alpha): a + alpha * b.
template <detail::Number S>
Tensor add(const Tensor& a, const Tensor& b, S alpha) {
  return a.add(b, alpha);
}
/// torch::sub(a, b, alpha): a - alpha * b.
template <detail::Number S>
Tensor sub(const Tensor& a, const Tensor& b, S alpha) {
  return a.sub(b, alpha);
}
/// torch::addcmul(input, t1, t2, value).
template <detail::Number S = int>
Tensor addcmul(const Tensor& input, const Tensor& t1, const Tensor& t2, S value = 1) {
  return input.addcmul(t1, t2, value);
}
/// torch::addcdiv(input, t1, t2, value).
template <detail::Number S = int>
Tensor addcdiv(const Tensor& input, const Tensor& t1, const Tensor& t2, S value = 1) {
  return input.addcdiv(t1, t2, value);
}
/// torch::lerp(start, end, weight).
inline Tensor lerp(const Tensor& start, const Tensor& end, const Tensor& weight) { return start.lerp(end, weight); }
/// torch::lerp with a scalar weight.
inline Tensor lerp(const Tensor& start, const Tensor& end, double weight) { return start.lerp(end, weight); }
/// torch::logsumexp(t, dims, keepdim).
inline Tensor logsumexp(const Tensor& t, const Dims& dims, bool keepdim = false) { return t.logsumexp(dims, keepdim); }
/// torch::isnan.
inline Tensor isnan(const Tensor& t) { return t.isnan(); }
/// torch::isinf.
inline Tensor isinf(const Tensor& t) { return t.isinf(); }
/// torch::isfinite.
inline Tensor isfinite(const Tensor& t) { return t.isfinite(); }
/// torch::nan_to_num.
inline Tensor nan_to_num(const Tensor& t, std::optional<double> nan = std::nullopt,
                         std::optional<double> posinf = std::nullopt, std::optional<double> neginf = std::nullopt) {
  return t.nan_to_num(nan, posinf, neginf);
}
/// torch::logical_not.
inline Tensor logical_not(const Tensor& t) { return t.logical_not(); }
/// torch::logical_and.
inline Tensor logical_and(const Tensor& a, const Tensor& b) { return a.logical_and(b); }
/// torch::logical_or.
inline Tensor logical_or(const Tensor& a, const Tensor& b) { return a.logical_or(b); }
/// torch::logical_xor.
inline Tensor logical_xor(const Tensor& a, const Tensor& b) { return a.logical_xor(b); }

// =============================== operators ===============================

namespace detail {

inline Tensor wrapped_number(double s, const Tensor& like) { return Tensor::wrapped_number(s, like.device()); }
inline Tensor wrapped_number(bool s, const Tensor& like) { return Tensor::wrapped_number(s, like.device()); }
template <IntegerScalar I>
Tensor wrapped_number(I s, const Tensor& like) {
  return Tensor::wrapped_number(s, like.device());
}

}  // namespace detail

/// -t
inline Tensor operator-(const Tensor& t) { return t.neg(); }

// Each operator in three forms: tensor-tensor, tensor-scalar, scalar-tensor.
#define PORTA_CPP_OPERATOR(op, method, scalar_first)                                  \
  inline Tensor operator op(const Tensor& a, const Tensor& b) { return a.method(b); } \
  inline Tensor operator op(const Tensor& a, double s) { return a.method(s); }        \
  inline Tensor operator op(double s, const Tensor& a) { return scalar_first; }       \
  inline Tensor operator op(const Tensor& a, bool s) { return a.method(s); }          \
  inline Tensor operator op(bool s, const Tensor& a) { return scalar_first; }         \
  template <detail::IntegerScalar I>                                                  \
  Tensor operator op(const Tensor& a, I s) {                                          \
    return a.method(s);                                                               \
  }                                                                                   \
  template <detail::IntegerScalar I>                                                  \
  Tensor operator op(I s, const Tensor& a) {                                          \
    return scalar_first;                                                              \
  }
/// a + b (broadcast, promoted)
PORTA_CPP_OPERATOR(+, add, a.add(s))
/// a - b
PORTA_CPP_OPERATOR(-, sub, detail::wrapped_number(s, a).sub(a))
/// a * b
PORTA_CPP_OPERATOR(*, mul, a.mul(s))
/// a / b (true division)
PORTA_CPP_OPERATOR(/, div, detail::wrapped_number(s, a).div(a))
/// a % b: Python's remainder (torch.remainder: the result takes b's sign)
PORTA_CPP_OPERATOR(%, remainder, detail::wrapped_number(s, a).remainder(a))
/// a == b (bool tensor)
PORTA_CPP_OPERATOR(==, eq, a.eq(s))
/// a != b (bool tensor)
PORTA_CPP_OPERATOR(!=, ne, a.ne(s))
/// a < b (bool tensor)
PORTA_CPP_OPERATOR(<, lt, a.gt(s))
/// a <= b (bool tensor)
PORTA_CPP_OPERATOR(<=, le, a.ge(s))
/// a > b (bool tensor)
PORTA_CPP_OPERATOR(>, gt, a.lt(s))
/// a >= b (bool tensor)
PORTA_CPP_OPERATOR(>=, ge, a.le(s))
/// a & b: integers and bool (bool: logical and); floating operands are refused, as PyTorch
PORTA_CPP_OPERATOR(&, bitwise_and, a.bitwise_and(s))
/// a | b
PORTA_CPP_OPERATOR(|, bitwise_or, a.bitwise_or(s))
/// a ^ b
PORTA_CPP_OPERATOR(^, bitwise_xor, a.bitwise_xor(s))
/// a << b: integers; 0 for a shift below 0 or past the width, as PyTorch
PORTA_CPP_OPERATOR(<<, bitwise_left_shift, detail::wrapped_number(s, a).bitwise_left_shift(a))
/// a >> b: integers, arithmetic for signed ones
PORTA_CPP_OPERATOR(>>, bitwise_right_shift, detail::wrapped_number(s, a).bitwise_right_shift(a))
#undef PORTA_CPP_OPERATOR

/// ~t: integers (bool: logical not)
inline Tensor operator~(const Tensor& t) { return t.bitwise_not(); }

// Compound assignment writes in place, as in libtorch (a.add_(b), recorded by autograd).
#define PORTA_CPP_COMPOUND(op, method)                                                       \
  inline const Tensor& operator op(const Tensor& a, const Tensor& b) { return a.method(b); } \
  inline const Tensor& operator op(const Tensor& a, double s) { return a.method(s); }        \
  inline const Tensor& operator op(const Tensor& a, bool s) { return a.method(s); }          \
  template <detail::IntegerScalar I>                                                         \
  const Tensor& operator op(const Tensor& a, I s) {                                          \
    return a.method(s);                                                                      \
  }
PORTA_CPP_COMPOUND(+=, add_)
PORTA_CPP_COMPOUND(-=, sub_)
PORTA_CPP_COMPOUND(*=, mul_)
PORTA_CPP_COMPOUND(/=, div_)
PORTA_CPP_COMPOUND(&=, bitwise_and_)
PORTA_CPP_COMPOUND(|=, bitwise_or_)
PORTA_CPP_COMPOUND(^=, bitwise_xor_)
PORTA_CPP_COMPOUND(<<=, bitwise_left_shift_)
PORTA_CPP_COMPOUND(>>=, bitwise_right_shift_)
#undef PORTA_CPP_COMPOUND

// =============================== printing ===============================

/// Prints like PyTorch: tensor([[1., 1.]], device='mock:0', dtype=int32); the
/// text comes from the core (porta_tensor_format), the one printer Python's
/// repr uses too.
inline std::ostream& operator<<(std::ostream& os, const Tensor& t) {
  if (!t.defined()) return os << "tensor(undefined)";
  // One call (one read from the device) for any text up to 16 KiB; a
  // longer one is asked for its size first.
  std::string text(16384, '\0');
  size_t needed = 0;
  if (porta_tensor_format(t.handle(), text.data(), text.size(), &needed) != PORTA_OK) {
    detail::check(porta_tensor_format(t.handle(), nullptr, 0, &needed));
    text.assign(needed, '\0');
    detail::check(porta_tensor_format(t.handle(), text.data(), text.size(), &needed));
  }
  text.resize(needed - 1);
  return os << text;
}

}  // namespace porta

#include <porta/autograd.hpp>

/// Writes a DLPack dtype's name ("float32"), e.g. in test failure messages.
inline std::ostream& operator<<(std::ostream& os, DLDataType dtype) { return os << porta::dtype_name(dtype); }
