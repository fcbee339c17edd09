// The mock plugin's fault-injection hooks (plugins/test/mock_faults.hpp),
// found in the plugin Porta already loaded, plus helpers the reliability
// suites share.
#pragma once

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <porta/porta.h>

#include <cstdint>
#include <string>

#include "../unit/unit_util.hpp"

namespace porta_test {

class FaultHooks {
 public:
  // Loads Porta's plugins (if not yet) and finds the hooks in the mock plugin.
  FaultHooks() {
    int n = 0;
    EXPECT_EQ(porta_device_count("mock", &n), PORTA_OK) << porta_last_error();
    void* lib = dlopen(PORTA_TEST_MOCK_PLUGIN_DIR "/libporta_plugin_mock.so", RTLD_NOW | RTLD_NOLOAD);
    EXPECT_NE(lib, nullptr) << "the mock plugin is not loaded: " << dlerror();
    if (lib == nullptr) return;
    inject_ = reinterpret_cast<int (*)(const char*, int64_t)>(dlsym(lib, "porta_mock_inject_fault"));
    cap_ = reinterpret_cast<void (*)(uint64_t)>(dlsym(lib, "porta_mock_set_memory_cap"));
    dlclose(lib);  // drops only the reference RTLD_NOLOAD added
  }
  ~FaultHooks() {
    disarm();
    set_memory_cap(0);
  }
  bool ok() const { return inject_ != nullptr && cap_ != nullptr; }

  // Makes the nth next call of `kind` ("alloc", "kernel", "copy") fail.
  void fail_nth(const char* kind, int64_t nth) { EXPECT_EQ(inject_(kind, nth), 0) << kind; }
  void disarm() {
    if (!ok()) return;
    for (const char* k : {"alloc", "kernel", "copy"}) inject_(k, 0);
  }
  // 0 restores the default capacity.
  void set_memory_cap(uint64_t bytes) {
    if (cap_) cap_(bytes);
  }

 private:
  int (*inject_)(const char*, int64_t) = nullptr;
  void (*cap_)(uint64_t) = nullptr;
};

inline porta_memory_stats memory_stats(DLDevice dev) {
  porta_memory_stats s{};
  s.struct_size = sizeof(s);
  EXPECT_EQ(porta_device_memory_stats(dev, &s), PORTA_OK) << porta_last_error();
  return s;
}

inline bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace porta_test
