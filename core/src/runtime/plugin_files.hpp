// Plugin files (device plugins and communicator plugins alike): where the
// install keeps them, how a search path lists them, and the trust check each
// passes before dlopen.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace porta {

// Why the plugin file at `path` must not be loaded, or nothing. The file
// (after symlinks) must be a regular file; neither it nor the directory
// holding it, nor the directory holding the name as given, may be writable
// by others; further up, an ancestor writable by others must be sticky.
std::optional<std::string> untrusted_plugin_file(const std::string& path);

// <dir of libporta.so>/porta/<name> ("plugins", "comm"), or "" when the
// library's own path is unknown.
std::string install_plugin_dir(const char* name);

// The `separator`-separated entries of `list`, empty ones included.
std::vector<std::string> split_entries(const std::string& list, char separator);

}  // namespace porta
