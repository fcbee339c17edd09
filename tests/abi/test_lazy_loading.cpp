// Plugins load on first use of their device type, PORTA_DEVICES restricts
// what may load, and a failed load's reason reaches the error of the device
// type it was for. Each case runs in a fresh process (see fresh_process.hpp);
// PORTA_PLUGIN_PATH is set by each case.
#include <gtest/gtest.h>
#include <porta/porta.h>
#include <stdlib.h>

#include <fstream>
#include <sstream>
#include <string>

#include "../support/fresh_process.hpp"

namespace {

using porta_test::in_fresh_process;

bool mapped(const char* library) {
  std::ifstream maps("/proc/self/maps");
  std::stringstream s;
  s << maps.rdbuf();
  return s.str().find(library) != std::string::npos;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The recorded attempt for the plugin file whose name contains `file`, or a
// zeroed struct (state -1) when there is none. Calling this loads everything.
porta_plugin_info attempt(const char* file) {
  int32_t n = 0;
  porta_plugin_info none{};
  none.state = -1;
  if (porta_plugin_count(&n) != PORTA_OK) return none;
  for (int32_t i = 0; i < n; ++i) {
    porta_plugin_info info{};
    info.struct_size = sizeof info;
    if (porta_plugin_get_info(i, &info) == PORTA_OK && contains(info.path, file)) return info;
  }
  return none;
}

std::string cpu_op() {
  const int64_t shape[1] = {4};
  porta_tensor* t = nullptr;
  if (porta_full(shape, 1, 1.0, porta_float32, DLDevice{kDLCPU, 0}, &t) != PORTA_OK) return porta_last_error();
  porta_tensor_release(t);
  return "";
}

TEST(LazyLoading, ACpuOpOpensOnlyTheCpuPlugin) {
  EXPECT_EQ(in_fresh_process([] {
              setenv("PORTA_PLUGIN_PATH", PORTA_TEST_MOCK_PLUGIN_DIR ":" PORTA_TEST_ABI_PLUGIN_DIR, 1);
              CHILD_REQUIRE(cpu_op().empty(), "cpu op failed: " + cpu_op());
              CHILD_REQUIRE(mapped("libporta_plugin_cpu.so"), "the cpu plugin was not loaded");
              for (const char* other : {"libporta_plugin_mock.so", "libporta_plugin_cuda.so", "libporta_plugin_opencl.so",
                                        "libporta_plugin_init_fails.so", "libcublas", "libpocl", "libOpenCL",
                                        "libdnnl", "libsleef"})
                CHILD_REQUIRE(!mapped(other), std::string(other) + " was mapped by a cpu-only program");
              return std::string();
            }),
            "");
}

// oneDNN (float32 GEMM) and SLEEF (exp, ...) load at their first use; Debian's
// oneDNN brings the OpenCL ICD loader, but no OpenCL platform (PoCL) starts.
TEST(LazyLoading, AFloatGemmAndExpLoadOneDnnAndSleefButNoOpenClPlatform) {
  EXPECT_EQ(in_fresh_process([] {
              setenv("PORTA_PLUGIN_PATH", PORTA_TEST_MOCK_PLUGIN_DIR ":" PORTA_TEST_ABI_PLUGIN_DIR, 1);
              const int64_t shape[2] = {8, 8};
              porta_tensor *a = nullptr, *c = nullptr, *e = nullptr;
              CHILD_REQUIRE(porta_full(shape, 2, 1.0, porta_float32, DLDevice{kDLCPU, 0}, &a) == PORTA_OK, porta_last_error());
              CHILD_REQUIRE(porta_matmul(a, a, &c) == PORTA_OK, porta_last_error());
              CHILD_REQUIRE(porta_exp(c, &e) == PORTA_OK, porta_last_error());
              float v[64] = {};
              CHILD_REQUIRE(porta_tensor_to_host(e, v, sizeof v) == PORTA_OK, porta_last_error());
              CHILD_REQUIRE(v[63] > 2980.9f && v[63] < 2981.0f, "exp(8) came out as " + std::to_string(v[63]));
              porta_tensor_release(e);
              porta_tensor_release(c);
              porta_tensor_release(a);
              CHILD_REQUIRE(mapped("libdnnl"), "the float32 GEMM did not load oneDNN (is libdnnl2 installed?)");
              CHILD_REQUIRE(mapped("libsleef"), "exp did not load SLEEF (is libsleef3 installed?)");
              for (const char* other : {"libporta_plugin_opencl.so", "libpocl", "libporta_plugin_cuda.so", "libcublas"})
                CHILD_REQUIRE(!mapped(other), std::string(other) + " was mapped by a cpu-only program");
              return std::string();
            }),
            "");
}

TEST(LazyLoading, ADeviceStringOpensItsPluginAndIntrospectionOpensAll) {
  EXPECT_EQ(in_fresh_process([] {
              setenv("PORTA_PLUGIN_PATH", PORTA_TEST_MOCK_PLUGIN_DIR ":" PORTA_TEST_ABI_PLUGIN_DIR, 1);
              DLDevice d{};
              CHILD_REQUIRE(porta_device_parse("mock:1", &d) == PORTA_OK, porta_last_error());
              CHILD_REQUIRE(mapped("libporta_plugin_mock.so"), "mock:1 did not load the mock plugin");
              CHILD_REQUIRE(!mapped("libporta_plugin_zero_devices.so"), "an unrelated plugin was loaded");
              CHILD_REQUIRE(attempt("libporta_plugin_zero_devices.so").state == PORTA_PLUGIN_NO_DEVICES,
                      "porta_plugin_count did not load every plugin");
              CHILD_REQUIRE(attempt("libporta_plugin_cpu.so").state == PORTA_PLUGIN_LOADED, "cpu missing from the list");
              return std::string();
            }),
            "");
}

TEST(LazyLoading, PortaDevicesExcludesTheOthers) {
  EXPECT_EQ(in_fresh_process([] {
              setenv("PORTA_PLUGIN_PATH", PORTA_TEST_MOCK_PLUGIN_DIR, 1);
              setenv("PORTA_DEVICES", " cpu ", 1);
              CHILD_REQUIRE(cpu_op().empty(), "cpu op failed: " + cpu_op());
              DLDevice d{};
              CHILD_REQUIRE(porta_device_parse("mock:0", &d) == PORTA_ERROR_NO_SUCH_DEVICE, "mock:0 parsed");
              const std::string e = porta_last_error();
              CHILD_REQUIRE(contains(e, "device type 'mock' is unavailable") && contains(e, "PORTA_DEVICES= cpu "),
                      "unexpected message: " + e);
              CHILD_REQUIRE(!mapped("libporta_plugin_mock.so"), "an excluded plugin was loaded");
              const porta_plugin_info mock = attempt("libporta_plugin_mock.so");
              CHILD_REQUIRE(mock.state == PORTA_PLUGIN_EXCLUDED, "mock is not listed as excluded");
              CHILD_REQUIRE(contains(mock.reason, "PORTA_DEVICES"), std::string("reason: ") + mock.reason);
              CHILD_REQUIRE(!mapped("libporta_plugin_mock.so"), "listing loaded an excluded plugin");
              // An explicit load is the user's choice and is not restricted.
              CHILD_REQUIRE(porta_load_plugin(PORTA_TEST_MOCK_PLUGIN_DIR "/libporta_plugin_mock.so") == PORTA_OK,
                      porta_last_error());
              CHILD_REQUIRE(porta_device_parse("mock:0", &d) == PORTA_OK, porta_last_error());
              return std::string();
            }),
            "");
}

TEST(LoadFailures, TheReasonIsInTheErrorOfTheDeviceType) {
  EXPECT_EQ(in_fresh_process([] {
              char dir[] = "/tmp/porta-broken-XXXXXX";
              CHILD_REQUIRE(mkdtemp(dir) != nullptr, "mkdtemp failed");
              std::ofstream(std::string(dir) + "/libporta_plugin_acme.so") << "not an ELF file";
              setenv("PORTA_PLUGIN_PATH", (std::string(dir) + ":" PORTA_TEST_ABI_PLUGIN_DIR).c_str(), 1);
              DLDevice d{};
              std::string e;
              CHILD_REQUIRE(porta_device_parse("acme:0", &d) == PORTA_ERROR_NO_SUCH_DEVICE, "acme parsed");
              e = porta_last_error();
              CHILD_REQUIRE(contains(e, "device type 'acme' is unavailable: plugin ") && contains(e, "libporta_plugin_acme.so") &&
                          contains(e, "failed to load: dlopen failed"),
                      "unexpected message: " + e);
              int n = 0;
              CHILD_REQUIRE(porta_device_count("init_fails", &n) == PORTA_ERROR_NO_SUCH_DEVICE, "init_fails counted");
              e = porta_last_error();
              CHILD_REQUIRE(contains(e, "simulated driver failure"), "unexpected message: " + e);
              CHILD_REQUIRE(porta_device_parse("xpu", &d) == PORTA_ERROR_NO_SUCH_DEVICE, "xpu parsed");
              e = porta_last_error();
              CHILD_REQUIRE(contains(e, "unknown device type 'xpu' (available: "), "unexpected message: " + e);
              unlink((std::string(dir) + "/libporta_plugin_acme.so").c_str());
              rmdir(dir);
              return std::string();
            }),
            "");
}

TEST(LoadFailures, FilesNamedOtherwiseAreSkippedAndSaidSoAtDebug) {
  EXPECT_EQ(in_fresh_process([] {
              char dir[] = "/tmp/porta-named-XXXXXX";
              CHILD_REQUIRE(mkdtemp(dir) != nullptr, "mkdtemp failed");
              const std::string odd = std::string(dir) + "/porta_plugin_mock.so";
              std::ofstream(odd) << "x";
              setenv("PORTA_PLUGIN_PATH", dir, 1);
              static std::string lines;
              porta_set_log_callback([](int32_t level, const char* m, void*) { lines += std::to_string(level) + m + "\n"; },
                                     nullptr);
              porta_set_log_level(PORTA_LOG_DEBUG);
              int32_t n = 0;
              porta_plugin_count(&n);
              unlink(odd.c_str());
              rmdir(dir);
              CHILD_REQUIRE(contains(lines, "0skipping " + odd + ": not a plugin file name"), "log was:\n" + lines);
              return std::string();
            }),
            "");
}

}  // namespace
