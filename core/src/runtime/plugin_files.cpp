// Plugin files: the trust check (code that anyone on the machine can
// rewrite is never loaded), the install's plugin directories, search lists.
#include "runtime/plugin_files.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "runtime/error.hpp"

namespace porta {
namespace {

// The directory part of `path` ("/a/b/c.so" -> "/a/b", "/c.so" -> "/").
std::string parent_dir(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

// Why the plugin file at `path` must not be loaded, or nothing. Code that
// anyone on the machine can rewrite is never trusted: the file (after
// symlinks) must be a regular file, neither it nor the directory holding it,
// nor the directory holding the name as given (a symlink there could be
// swapped), may be writable by others. The sticky bit does not help: it stops
// others from renaming or removing files, not from adding a new one. Further
// up, an ancestor writable by others must be sticky (as /tmp is): else anyone
// could rename the directory below it away and put their own in its place.
std::optional<std::string> untrusted_plugin_file(const std::string& path) {
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
                          mode(as.st_mode),
                          "), so anyone could rename what lies below it and put their own plugin "
                          "in its place; run chmod o-w (or +t) on it"));
      if (up == "/" || up == ".") break;
    }
  }
  return std::nullopt;
}

std::string install_plugin_dir(const char* name) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&install_plugin_dir), &info) == 0 || info.dli_fname == nullptr) return "";
  // lexically_normal: "<prefix>/bin/../lib/..." when an executable's run path found the library.
  const std::filesystem::path lib(info.dli_fname);
  if (!lib.has_parent_path()) return "";
  return (lib.parent_path() / "porta" / name).lexically_normal().string();
}

std::vector<std::string> split_entries(const std::string& list, char separator) {
  std::vector<std::string> out;
  for (size_t start = 0; start <= list.size();) {
    const size_t end = std::min(list.find(separator, start), list.size());
    out.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace porta
