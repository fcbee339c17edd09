// Finding, checking and loading communicator plugins (comm_registry.hpp).
#include "distributed/comm_registry.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "runtime/error.hpp"
#include "runtime/log.hpp"
#include "runtime/plugin_errors.hpp"
#include "runtime/plugin_files.hpp"
#include "runtime/plugin_guard.hpp"
#include "runtime/plugin_table.hpp"

namespace porta::dist {
namespace {

constexpr const char* kPrefix = "libporta_comm_";
constexpr const char* kSuffix = ".so";

// "mpi" for ".../libporta_comm_mpi.so"; "" for another name.
std::string comm_file_name(const std::string& path) {
  const std::string file = path.substr(path.rfind('/') + 1);
  const std::string prefix = kPrefix, suffix = kSuffix;
  if (file.size() <= prefix.size() + suffix.size() || file.rfind(prefix, 0) != 0 ||
      file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
    return "";
  const std::string name = file.substr(prefix.size(), file.size() - prefix.size() - suffix.size());
  return valid_device_type_name(name.c_str()) ? name : "";
}

// Every communicator plugin file of the search, in search order.
std::vector<std::string> candidate_files() {
  std::vector<std::string> entries;
  if (const char* env = std::getenv("PORTA_COMM_PLUGIN_PATH"))
    for (const std::string& e : split_entries(env, ':')) {
      if (e.empty()) continue;
      if (e[0] == '/')
        entries.push_back(e);
      else
        log_line(PORTA_LOG_WARN,
                 cat("PORTA_COMM_PLUGIN_PATH entry '", e, "' ignored: only absolute paths are searched"));
    }
  if (std::string dir = install_plugin_dir("comm"); !dir.empty()) entries.push_back(dir);
  std::vector<std::string> files;
  for (const std::string& entry : entries) {
    struct stat st {};
    if (stat(entry.c_str(), &st) != 0) continue;
    if (!S_ISDIR(st.st_mode)) {
      files.push_back(entry);
      continue;
    }
    std::vector<std::string> here;
    if (DIR* d = opendir(entry.c_str())) {
      while (dirent* e = readdir(d))
        if (!comm_file_name(e->d_name).empty()) here.push_back(entry + "/" + e->d_name);
      closedir(d);
    }
    std::sort(here.begin(), here.end());
    files.insert(files.end(), here.begin(), here.end());
  }
  return files;
}

// Why `table` cannot be used, or "" (the copy in *out covers what it declares).
std::string check_table(const porta_comm_api* table, porta_comm_api* out) {
  if (table->struct_size < offsetof(porta_comm_api, work_release) + sizeof(table->work_release))
    return cat("its table is ", table->struct_size, " bytes, smaller than ABI 1.0's (a broken plugin)");
  if (table->abi_major != PORTA_COMM_ABI_MAJOR)
    return cat("built for communicator ABI ", table->abi_major, ".", table->abi_minor, ", this core implements ",
               PORTA_COMM_ABI_MAJOR, ".", PORTA_COMM_ABI_MINOR, " (rebuild the plugin against this porta/comm.h)");
  std::memcpy(out, table, std::min(sizeof(porta_comm_api), table->struct_size));
  out->struct_size = sizeof(porta_comm_api);
  if (!out->name || !valid_device_type_name(out->name)) return "its name is not lowercase letters, digits and '_'";
  if (out->num_device_types < 1 || out->num_device_types > 64 || !out->device_types)
    return cat("it lists ", out->num_device_types, " device types (1 to 64 expected)");
  const void* required[] = {reinterpret_cast<void*>(out->initialize),   reinterpret_cast<void*>(out->comm_create),
                            reinterpret_cast<void*>(out->comm_destroy), reinterpret_cast<void*>(out->comm_abort),
                            reinterpret_cast<void*>(out->all_reduce),   reinterpret_cast<void*>(out->broadcast),
                            reinterpret_cast<void*>(out->all_gather),   reinterpret_cast<void*>(out->reduce_scatter),
                            reinterpret_cast<void*>(out->barrier),      reinterpret_cast<void*>(out->send),
                            reinterpret_cast<void*>(out->recv),         reinterpret_cast<void*>(out->work_test),
                            reinterpret_cast<void*>(out->work_wait),    reinterpret_cast<void*>(out->work_release)};
  for (const void* slot : required)
    if (!slot) return "a required slot is NULL (every slot but launched_rank is required)";
  return "";
}

// Loads `path` as a communicator plugin; throws BACKEND saying why it cannot be.
std::unique_ptr<CommBackend> load(const std::string& path) {
  auto refuse = [&](const std::string& why) -> std::unique_ptr<CommBackend> {
    fail(PORTA_ERROR_BACKEND, "communicator plugin ", path, ": ", why);
  };
  if (auto why = untrusted_plugin_file(path)) return refuse(*why);
  PluginCallGuard guard(path);
  void* dl = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!dl) {
    const char* e = dlerror();
    return refuse(cat("dlopen failed: ", e ? e : "unknown error"));
  }
  auto entry = reinterpret_cast<porta_comm_get_api_fn>(dlsym(dl, PORTA_COMM_ENTRY_SYMBOL));
  if (!entry) {
    dlclose(dl);
    return refuse(cat("no symbol ", PORTA_COMM_ENTRY_SYMBOL, " (not a Porta communicator plugin)"));
  }
  guard.entering(PORTA_COMM_ENTRY_SYMBOL);
  const porta_comm_api* table = entry();
  if (!table) return refuse(cat(PORTA_COMM_ENTRY_SYMBOL, " returned NULL"));
  auto b = std::make_unique<CommBackend>();
  if (std::string why = check_table(table, &b->api); !why.empty()) return refuse(why);
  b->path = path;
  b->name = b->api.name;
  b->version = b->api.version ? b->api.version : "";
  b->device_types.assign(b->api.device_types, b->api.device_types + b->api.num_device_types);
  take_plugin_error();
  guard.entering("initialize");
  if (porta_status st = b->api.initialize(comm_host_api()); st != PORTA_OK) {
    const std::string why = take_plugin_error();
    return refuse(cat("initialize failed: ", why.empty() ? porta_status_name(st) : why));
  }
  log_line(PORTA_LOG_DEBUG, cat("communicator plugin ", path, ": loaded '", b->name, "' ", b->version));
  return b;
}

std::mutex g_mu;
std::map<std::string, std::unique_ptr<CommBackend>>& loaded() {
  static auto* m = new std::map<std::string, std::unique_ptr<CommBackend>>();  // plugins stay until exit
  return *m;
}

}  // namespace

bool CommBackend::serves(int32_t device_type) const {
  return std::find(device_types.begin(), device_types.end(), device_type) != device_types.end();
}

CommBackend& comm_backend(const std::string& name) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (auto it = loaded().find(name); it != loaded().end()) return *it->second;
  std::string tried;
  for (const std::string& file : candidate_files()) {
    if (comm_file_name(file) != name) continue;
    try {
      auto b = load(file);
      if (b->name != name) {
        tried += cat("\n  ", file, ": serves '", b->name, "', not the '", name, "' its file name announces");
        continue;
      }
      return *(loaded()[name] = std::move(b));
    } catch (const Error& e) {
      tried += cat("\n  ", e.what());
    }
  }
  if (!tried.empty()) fail(PORTA_ERROR_BACKEND, "no communicator backend '", name, "' could be loaded:", tried);
  std::string known;
  for (const std::string& n : comm_backend_names()) known += (known.empty() ? "" : ", ") + n;
  fail(PORTA_ERROR_NO_SUCH_DEVICE, "no communicator backend '", name, "': no file libporta_comm_", name,
       ".so in PORTA_COMM_PLUGIN_PATH or ", install_plugin_dir("comm"), " (found: ", known.empty() ? "none" : known,
       ")");
}

std::vector<std::string> comm_backend_names() {
  std::vector<std::string> names;
  for (const std::string& f : candidate_files())
    if (std::string n = comm_file_name(f); !n.empty() && std::find(names.begin(), names.end(), n) == names.end())
      names.push_back(n);
  return names;
}

void check_comm(porta_status st, const CommBackend& b, const char* what) {
  if (st == PORTA_OK) return;
  const std::string why = take_plugin_error();
  throw Error(st, cat(b.name, " ", what, ": ", why.empty() ? porta_status_name(st) : why));
}

}  // namespace porta::dist
