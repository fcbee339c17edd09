// The plugin search: which files may be plugins, in which order, and which
// of them to open when. Listing is cheap (no dlopen): a plugin is loaded on
// first use of the device type its file name announces
// (libporta_plugin_<type>.so), so a CPU-only program never maps cuBLAS or
// LLVM. Introspection (porta_plugin_count, accelerators) loads every
// candidate; PORTA_DEVICES=cpu,cuda restricts what may load at all.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

#include "runtime/error.hpp"
#include "runtime/log.hpp"
#include "runtime/plugin_files.hpp"
#include "runtime/plugin_table.hpp"
#include "runtime/registry.hpp"

namespace porta {
namespace {

constexpr const char* kPluginPrefix = "libporta_plugin_";
constexpr const char* kPluginSuffix = ".so";

// Plugin files in `dir`, sorted so that the order is deterministic; other
// files are skipped, and said so at debug level.
std::vector<std::string> plugins_in(const std::string& dir) {
  std::vector<std::string> files;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return files;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (plugin_file_type(name).empty())
      log_line(PORTA_LOG_DEBUG, cat("skipping ", dir, "/", name, ": not a plugin file name (libporta_plugin_<type>.so, ",
                                    "<type> in lowercase letters, digits and '_')"));
    else
      files.push_back(dir + "/" + name);
  }
  closedir(d);
  std::sort(files.begin(), files.end());
  return files;
}

// The conventional device type name of a DLPack device type: which file to
// open first for a tensor that arrives by DLPack ("" when there is none).
std::string conventional_name(int32_t type) {
  switch (type) {
    case kDLCPU: return "cpu";
    case kDLCUDA: return "cuda";
    case kDLOpenCL: return "opencl";
    case kDLVulkan: return "vulkan";
    case kDLMetal: return "metal";
    case kDLROCM: return "rocm";
    case kDLOneAPI: return "oneapi";
    case kDLWebGPU: return "webgpu";
    default: return "";
  }
}

}  // namespace

// "cuda" for "libporta_plugin_cuda.so"; "" when the name does not follow the pattern.
std::string plugin_file_type(const std::string& path) {
  const std::string name = path.substr(path.rfind('/') + 1);
  const size_t prefix = std::char_traits<char>::length(kPluginPrefix);
  const size_t suffix = std::char_traits<char>::length(kPluginSuffix);
  if (name.size() <= prefix + suffix || name.rfind(kPluginPrefix, 0) != 0 ||
      name.compare(name.size() - suffix, suffix, kPluginSuffix) != 0)
    return "";
  const std::string type = name.substr(prefix, name.size() - prefix - suffix);
  return valid_device_type_name(type.c_str()) ? type : "";
}

void Registry::add_entry_locked(const std::string& entry, std::vector<PluginCandidate>& out) const {
  if (entry.empty()) return;
  if (entry[0] != '/') {
    log_line(PORTA_LOG_WARN, cat("plugin search path entry '", entry, "' ignored: only absolute paths are searched"));
    return;
  }
  struct stat st {};
  if (stat(entry.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    for (auto& f : plugins_in(entry)) out.push_back({f, plugin_file_type(f)});
  } else {
    out.push_back({entry, plugin_file_type(entry)});  // a file is tried as given, whatever its name
  }
}

void Registry::discover() {
  if (const char* env = std::getenv("PORTA_DEVICES"); env && *env) {
    allowed_spec_ = env;
    std::set<std::string> types;
    for (std::string t : split_entries(allowed_spec_, ',')) {
      t.erase(0, t.find_first_not_of(" \t"));
      t.erase(t.find_last_not_of(" \t") + 1);
      if (valid_device_type_name(t.c_str()))
        types.insert(t);
      else if (!t.empty())
        log_line(PORTA_LOG_WARN, cat("PORTA_DEVICES entry '", t, "' ignored: not a device type name"));
    }
    allowed_types_ = std::move(types);
  }
  if (const char* env = std::getenv("PORTA_PLUGIN_PATH"))
    for (const std::string& entry : split_entries(env, ':')) add_entry_locked(entry, candidates_);
  for (const std::string& p : added_paths_) add_entry_locked(p, candidates_);
  const std::string dir = install_plugin_dir("plugins");
  log_line(PORTA_LOG_DEBUG, cat("searching default plugin directory ", dir.empty() ? "(unknown)" : dir));
  if (!dir.empty())
    for (auto& f : plugins_in(dir)) candidates_.push_back({f, plugin_file_type(f), true});
  if (allowed_types_)
    for (const std::string& t : *allowed_types_)
      if (std::none_of(candidates_.begin(), candidates_.end(), [&](auto& c) { return c.file_type == t; }))
        log_line(PORTA_LOG_WARN, cat("PORTA_DEVICES names '", t, "', but no plugin file libporta_plugin_", t,
                                     ".so was found"));
}

void Registry::add_search_path(const std::string& path) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  if (!discovered_.load(std::memory_order_acquire) && !discovering_) {
    added_paths_.push_back(path);
    return;
  }
  std::vector<PluginCandidate> found;
  add_entry_locked(path, found);
  auto at = std::find_if(candidates_.begin(), candidates_.end(), [](auto& c) { return c.from_default_dir; });
  candidates_.insert(at, found.begin(), found.end());
}

bool Registry::allowed(const std::string& file_type) const {
  return !allowed_types_ || allowed_types_->count(file_type) > 0;
}

template <typename Wanted>
void Registry::load_candidates_locked(Wanted wanted) {
  // Index-based: loading may log, and a log callback may add search paths.
  for (size_t i = 0; i < candidates_.size(); ++i) {
    const PluginCandidate c = candidates_[i];
    if (tried_paths_.count(c.path) || !allowed(c.file_type) || !wanted(c)) continue;
    try {
      load_locked(c.path);
    } catch (const Error&) {  // recorded in attempts_
    }
  }
}

void Registry::load_all_locked() {
  load_candidates_locked([](const PluginCandidate&) { return true; });
  for (const PluginCandidate& c : candidates_) {
    if (allowed(c.file_type) || !tried_paths_.insert(c.path).second) continue;
    PluginAttempt rec;
    rec.path = c.path;
    rec.file_type = rec.name = c.file_type;  // unopened: the type its file name announces
    rec.state = PORTA_PLUGIN_EXCLUDED;
    rec.reason = cat("not loaded: PORTA_DEVICES=", allowed_spec_, " does not list '", c.file_type, "'");
    attempts_.push_back(rec);
  }
}

void Registry::load_for_dl_type_locked(int32_t type) {
  const std::string name = conventional_name(type);
  if (!name.empty()) load_candidates_locked([&](const PluginCandidate& c) { return c.file_type == name; });
  if (backend_for_type_locked(type) == nullptr) load_all_locked();  // a plugin named otherwise may serve it
}

Backend* Registry::find_named_locked(const std::string& type) {
  for (auto& b : backends_)
    if (b->name == type) return b.get();
  return nullptr;
}

Backend* Registry::backend_named(const std::string& type) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  if (Backend* b = find_named_locked(type)) return b;
  load_candidates_locked([&](const PluginCandidate& c) { return c.file_type == type; });
  if (Backend* b = find_named_locked(type)) return b;
  load_all_locked();  // a plugin whose file name does not say what it serves
  return find_named_locked(type);
}

std::string Registry::why_unavailable(const std::string& type) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  std::string why;
  for (const PluginAttempt& a : attempts_)
    if ((a.name == type || (a.name.empty() && a.file_type == type)) &&
        (a.state == PORTA_PLUGIN_FAILED || a.state == PORTA_PLUGIN_REJECTED))
      why += cat(why.empty() ? "" : "; ", "plugin ", a.path, a.state == PORTA_PLUGIN_FAILED ? " failed to load: " : " was rejected: ",
                 a.reason);
  if (why.empty() && !allowed(type))
    why = cat("PORTA_DEVICES=", allowed_spec_, " does not list it (add '", type, "' to use it)");
  return why;
}

}  // namespace porta
