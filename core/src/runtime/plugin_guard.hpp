// Calls into a plugin that is being loaded (dlopen and its constructors,
// porta_plugin_get_api, initialize, device_count), watched: if the plugin
// crashes, the process still dies, but first says on stderr which plugin and
// which call it was and how to exclude it; if a call takes long, a warning
// says so while it runs. Loads are serialized by the registry, so one guard
// is active at a time.
#pragma once

#include <memory>
#include <string>

namespace porta {

class PluginCallGuard {
 public:
  explicit PluginCallGuard(std::string path);
  ~PluginCallGuard();
  PluginCallGuard(const PluginCallGuard&) = delete;
  PluginCallGuard& operator=(const PluginCallGuard&) = delete;

  // The plugin call about to run ("initialize"): named if it crashes or hangs.
  void entering(const char* step);

 private:
  struct Watchdog;
  std::string path_;
  std::unique_ptr<Watchdog> watchdog_;
};

}  // namespace porta
