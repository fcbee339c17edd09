// Loading one plugin file: the trust check, dlopen, validation of the
// plugin's table, initialize and device enumeration, and a record of the
// attempt with its reason. Which files are tried when: plugin_search.cpp.
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "runtime/error.hpp"
#include "runtime/log.hpp"
#include "runtime/op_descriptors.hpp"
#include "runtime/plugin_errors.hpp"
#include "runtime/plugin_guard.hpp"
#include "runtime/plugin_table.hpp"
#include "runtime/registry.hpp"

namespace porta {
namespace {

// More devices than any machine has: a count above it is a plugin bug, and
// honouring it would allocate per-device state until memory runs out.
constexpr int32_t kMaxDevicesPerPlugin = 4096;

// The directory part of `path` ("/a/b/c.so" -> "/a/b", "/c.so" -> "/").
std::string parent_dir(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Why the plugin file at `path` must not be loaded, or nothing. Code that
// anyone on the machine can rewrite is never trusted: the file (after
// symlinks) must be a regular file, neither it nor the directory holding it,
// nor the directory holding the name as given (a symlink there could be
// swapped), may be writable by others. The sticky bit does not help: it stops
// others from renaming or removing files, not from adding a new one. Further
// up, an ancestor writable by others must be sticky (as /tmp is): else anyone
// could rename the directory below it away and put their own in its place.
std::optional<std::string> untrusted(const std::string& path) {
  auto refuse = [](std::string why) { return std::optional<std::string>(std::move(why)); };
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return refuse(cat("no such file (", std::strerror(errno), ")"));
  if (!S_ISREG(st.st_mode)) return refuse("not a regular file (a plugin must be a shared library file)");
  char* resolved = realpath(path.c_str(), nullptr);
  if (resolved == nullptr) return refuse(cat("cannot resolve the real path: ", std::strerror(errno)));
  const std::string real = resolved;
  std::free(resolved);
  auto mode = [](mode_t m) { return cat("mode ", std::oct, (m & 07777)); };
  if (st.st_mode & S_IWOTH)
    return refuse(cat("refused: ", real, " is writable by every user (", mode(st.st_mode),
                      "), so anyone could replace its code; run chmod o-w on it"));
  for (const std::string& dir : {parent_dir(real), parent_dir(path)}) {
    struct stat ds {};
    if (stat(dir.c_str(), &ds) != 0) return refuse(cat("cannot stat its directory ", dir, ": ", std::strerror(errno)));
    if (ds.st_mode & S_IWOTH)
      return refuse(cat("refused: its directory ", dir, " is writable by every user (", mode(ds.st_mode),
                        "; the sticky bit does not make it safe), so anyone could plant a plugin there; "
                        "run chmod o-w on it or move the plugin to a directory only its owner can write"));
    for (std::string up = parent_dir(dir); up != dir; up = parent_dir(up)) {
      struct stat as {};
      if (stat(up.c_str(), &as) != 0) return refuse(cat("cannot stat its ancestor ", up, ": ", std::strerror(errno)));
      if ((as.st_mode & S_IWOTH) && !(as.st_mode & S_ISVTX))
        return refuse(cat("refused: its ancestor directory ", up, " is writable by every user without the sticky bit (",
                          mode(as.st_mode), "), so anyone could rename what lies below it and put their own plugin "
                          "in its place; run chmod o-w (or +t) on it"));
      if (up == "/" || up == ".") break;
    }
  }
  return std::nullopt;
}

}  // namespace

void Registry::load_locked(const std::string& path) {
  PluginAttempt rec;
  rec.path = path;
  rec.file_type = plugin_file_type(path);
  tried_paths_.insert(path);
  auto finish = [&](porta_plugin_state state, std::string reason) {
    rec.state = state;
    rec.reason = std::move(reason);
    attempts_.push_back(rec);
    const char* what = state == PORTA_PLUGIN_LOADED ? "loaded" : state == PORTA_PLUGIN_NO_DEVICES ? "loaded, no devices"
                       : state == PORTA_PLUGIN_REJECTED ? "rejected" : "failed";
    if (state == PORTA_PLUGIN_LOADED && !rec.file_type.empty() && rec.file_type != rec.name)
      log_line(PORTA_LOG_WARN, cat("plugin ", path, " serves '", rec.name, "', not the '", rec.file_type,
                                   "' its file name announces: it is loaded only when every plugin is; rename it "
                                   "libporta_plugin_", rec.name, ".so"));
    log_line(state == PORTA_PLUGIN_LOADED ? PORTA_LOG_DEBUG : PORTA_LOG_INFO,
             cat("plugin ", path, ": ", what, rec.reason.empty() ? "" : ": ", rec.reason));
    if (state == PORTA_PLUGIN_FAILED || state == PORTA_PLUGIN_REJECTED)
      fail(PORTA_ERROR_BACKEND, "plugin ", path, " ", what, ": ", rec.reason);
  };

  log_line(PORTA_LOG_DEBUG, cat("trying plugin ", path));
  if (auto refusal = untrusted(path)) return finish(PORTA_PLUGIN_FAILED, *refusal);

  PluginCallGuard guard(path);  // names the plugin on stderr if one of the calls below crashes or hangs
  void* dl = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (dl == nullptr) {
    const char* e = dlerror();
    return finish(PORTA_PLUGIN_FAILED, cat("dlopen failed: ", e ? e : "unknown error"));
  }
  auto entry = reinterpret_cast<porta_plugin_get_api_fn>(dlsym(dl, PORTA_PLUGIN_ENTRY_SYMBOL));
  if (entry == nullptr) {
    dlclose(dl);
    return finish(PORTA_PLUGIN_FAILED,
                  cat("no symbol ", PORTA_PLUGIN_ENTRY_SYMBOL, " (not a Porta plugin)"));
  }
  // From here on the library stays loaded: it may have run constructors.
  guard.entering(PORTA_PLUGIN_ENTRY_SYMBOL);
  const porta_plugin_api* table = entry();
  if (table == nullptr) return finish(PORTA_PLUGIN_FAILED, "porta_plugin_get_api returned NULL");
  auto b = std::make_unique<Backend>();
  const auto refusal = check_plugin_table(table, static_cast<int32_t>(by_type_.size()), &b->api);
  rec.abi_major = b->api.abi_major;
  rec.abi_minor = b->api.abi_minor;
  if (valid_device_type_name(b->api.name)) {
    b->name = b->api.name;
    b->version = b->api.version ? b->api.version : "";
    b->device_type = b->api.device_type;
    rec.name = b->name;
    rec.version = b->version;
    rec.device_type = b->device_type;
  }
  if (refusal) return finish(PORTA_PLUGIN_FAILED, *refusal);
  b->path = path;
  for (auto& other : backends_) {
    if (other->device_type == b->device_type)
      return finish(PORTA_PLUGIN_REJECTED, cat("DLPack device type ", b->device_type, " ('", b->name,
                                               "') is already served by ", other->path));
    if (other->name == b->name)
      return finish(PORTA_PLUGIN_REJECTED,
                    cat("device type name '", b->name, "' is already served by ", other->path));
  }

  take_plugin_error();
  guard.entering("initialize");
  porta_status s = b->api.initialize(host_api());
  if (s != PORTA_OK) {
    std::string why = take_plugin_error();
    return finish(PORTA_PLUGIN_FAILED, cat("initialize failed: ", why.empty() ? porta_status_name(s) : why));
  }
  int32_t count = 0;
  guard.entering("device_count");
  s = b->api.device_count(&count);
  if (s != PORTA_OK) {
    std::string why = take_plugin_error();
    return finish(PORTA_PLUGIN_FAILED, cat("device_count failed: ", why.empty() ? porta_status_name(s) : why));
  }
  if (count < 0 || count > kMaxDevicesPerPlugin)
    return finish(PORTA_PLUGIN_FAILED, cat("device_count returned PORTA_OK with ", count, " devices; a plugin may ",
                                           "report 0 to ", kMaxDevicesPerPlugin, " (a bug in the plugin)"));
  rec.device_count = count;
  const int32_t known_ops = ops_known_at_plugin_minor(b->api.abi_minor);
  for (int op = 0; op < known_ops; ++op)
    for (int d = 0; d < kDtypeCount; ++d)
      b->kernels[op][d] = b->api.find_kernel(static_cast<uint32_t>(op), to_dl(static_cast<Dtype>(d)));
  for (int32_t i = 0; i < count; ++i) {
    auto dev = std::make_unique<DeviceState>();
    dev->backend = b.get();
    dev->index = i;
    dev->dl = DLDevice{static_cast<DLDeviceType>(b->device_type), i};
    // A lone CPU is "cpu", as PyTorch prints it; everything else is "type:index".
    dev->name = b->device_type == kDLCPU && count == 1 ? b->name : cat(b->name, ":", i);
    dev->allocator = std::make_unique<CachingAllocator>(&b->api, i, dev->name, &b->lost_to_fork);
    b->devices.push_back(std::move(dev));
  }
  porta_plugin_state state = PORTA_PLUGIN_LOADED;
  std::string reason;
  if (count == 0) {
    state = PORTA_PLUGIN_NO_DEVICES;
    const char* r = b->api.unavailable_reason ? b->api.unavailable_reason() : nullptr;
    b->unavailable_reason = r && *r ? r : "the plugin reported no devices";
    reason = b->unavailable_reason;
  }
  by_type_[b->device_type].store(b.get(), std::memory_order_release);
  backends_.push_back(std::move(b));
  finish(state, reason);
}

}  // namespace porta
