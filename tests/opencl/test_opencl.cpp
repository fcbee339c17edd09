// What is specific to the opencl plugin (every op's results are checked by
// the conformance, gradcheck, DLPack and training suites, which run on
// opencl:0 like on any device): device selection with PORTA_OPENCL_DEVICES,
// the zero-device report, the on-disk program cache and its repair, DLPack's
// OpenCL convention (data is the cl_mem, the offset in byte_offset), device
// properties, thread safety, and CL errors turned into messages.
// Tests that need their own environment run porta_opencl_probe.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlpack/dlpack.h>
#include <gtest/gtest.h>
#include <porta/porta.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "../conformance/tensor_handle.hpp"
#include "../support/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using conformance::Tensor;

const DLDevice kOpencl{kDLOpenCL, 0};

int opencl_devices() {
  int n = 0;
  return porta_device_count("opencl", &n) == PORTA_OK ? n : 0;
}

#define REQUIRE_OPENCL_DEVICE() \
  if (opencl_devices() == 0) GTEST_SKIP() << "no OpenCL device"

// Runs the probe with `env` ("NAME=value ..." prefixes) and returns its
// stdout and stderr together.
std::string probe(const std::string& env, bool run = true) {
  const std::string command = env + " " + PORTA_OPENCL_PROBE + (run ? " --run" : "") + " 2>&1";
  return porta_test::run_command(command).output;
}

// The value of the probe's "key=value" line ("" when absent).
std::string value(const std::string& out, const std::string& key) {
  const std::string tag = key + "=";
  for (size_t at = 0; at < out.size();) {
    const size_t end = out.find('\n', at);
    const std::string line = out.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (line.rfind(tag, 0) == 0) return line.substr(tag.size());
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return {};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string device_name(int index) {
  porta_device_info info{};
  info.struct_size = sizeof(info);
  CHECK_OK(porta_device_get_info(DLDevice{kDLOpenCL, index}, &info));
  return info.name;
}

// ---- PORTA_OPENCL_DEVICES and the zero-device report

TEST(OpenclDevices, AnIndexKeepsThatDevice) {
  REQUIRE_OPENCL_DEVICE();
  const std::string out = probe("PORTA_OPENCL_DEVICES=0");
  EXPECT_EQ(value(out, "devices"), "1") << out;
  EXPECT_EQ(value(out, "device0"), device_name(0)) << out;
  EXPECT_EQ(value(out, "result"), "42") << out;
}

TEST(OpenclDevices, ANameSubstringKeepsMatchingDevicesIgnoringCase) {
  REQUIRE_OPENCL_DEVICE();
  const std::string name = device_name(0);
  std::string part = name.substr(name.size() / 3, std::max<size_t>(1, name.size() / 3));
  for (char& c : part)
    c = static_cast<char>(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c));
  ASSERT_EQ(part.find('\''), std::string::npos);
  const std::string out = probe("PORTA_OPENCL_DEVICES='" + part + "'");
  EXPECT_GE(std::atoi(value(out, "devices").c_str()), 1) << out;
  EXPECT_EQ(value(out, "device0"), name) << out;
}

TEST(OpenclDevices, AFilterMatchingNothingGivesZeroDevicesAndSaysWhy) {
  for (const std::string filter : {"no-such-opencl-device", "99"}) {
    SCOPED_TRACE(filter);
    const std::string out = probe("PORTA_OPENCL_DEVICES=" + filter);
    EXPECT_EQ(value(out, "state"), std::to_string(PORTA_PLUGIN_NO_DEVICES)) << out;
    EXPECT_EQ(value(out, "devices"), "0") << out;
    const std::string reason = value(out, "reason");
    EXPECT_TRUE(contains(reason, "PORTA_OPENCL_DEVICES=\"" + filter + "\"")) << out;
    EXPECT_TRUE(contains(reason, "matches none")) << out;
  }
}

TEST(OpenclDevices, PropertiesDescribeTheDevice) {
  REQUIRE_OPENCL_DEVICE();
  porta_device_info info{};
  info.struct_size = sizeof(info);
  CHECK_OK(porta_device_get_info(kOpencl, &info));
  EXPECT_GT(std::strlen(info.name), 0u);
  EXPECT_GT(info.memory_total, 0u);
  EXPECT_LE(info.memory_free, info.memory_total);
  EXPECT_GT(info.compute_units, 0);
  EXPECT_NE(info.kind, PORTA_DEVICE_KIND_VIRTUAL);
  if (contains(info.name, "pthread")) {
    EXPECT_EQ(info.kind, PORTA_DEVICE_KIND_CPU) << "PoCL's CPU device";
  }
}

// ---- the program cache

// A fresh cache directory for one test.
fs::path fresh_cache(const std::string& name) {
  const fs::path dir = fs::path(PORTA_OPENCL_TEST_DIR) / "cache" / name;
  fs::remove_all(dir);
  return dir;
}

std::string cache_env(const fs::path& dir) { return "PORTA_LOG=debug PORTA_OPENCL_CACHE='" + dir.string() + "'"; }

std::vector<fs::path> entries(const fs::path& dir) {
  std::vector<fs::path> files;
  if (fs::exists(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".clbin") files.push_back(e.path());
  return files;
}

std::string read_file(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path& f, const std::string& bytes) {
  std::ofstream out(f, std::ios::binary | std::ios::trunc);
  out << bytes;
}

TEST(OpenclCache, TheSecondProcessLoadsProgramsFromTheCache) {
  REQUIRE_OPENCL_DEVICE();
  const fs::path dir = fresh_cache("second_start");
  const std::string first = probe(cache_env(dir));
  EXPECT_EQ(value(first, "result"), "42") << first;
  EXPECT_TRUE(contains(first, "built from source")) << first;
  EXPECT_FALSE(contains(first, "loaded from cache")) << first;
  const auto files = entries(dir);
  ASSERT_EQ(files.size(), 2u) << "one entry per program (elementwise and reduce, float32)\n" << first;
  for (const fs::path& f : files) EXPECT_EQ(read_file(f).substr(0, 8), "PORTACL1") << f;

  const std::string second = probe(cache_env(dir));
  EXPECT_EQ(value(second, "result"), "42") << second;
  EXPECT_FALSE(contains(second, "built from source")) << second;
  EXPECT_TRUE(contains(second, "loaded from cache")) << second;
  EXPECT_EQ(entries(dir).size(), 2u);
}

// FNV-1a, as the plugin hashes a cached binary.
uint64_t fnv1a(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

TEST(OpenclCache, DamagedEntriesAreRebuiltAndOverwritten) {
  REQUIRE_OPENCL_DEVICE();
  const fs::path dir = fresh_cache("damaged");
  ASSERT_EQ(value(probe(cache_env(dir)), "result"), "42");
  const auto files = entries(dir);
  ASSERT_FALSE(files.empty());
  const std::string good = read_file(files[0]);
  // Header: 8-byte magic, then key length, source hash, binary length, binary hash (8 bytes each).
  const size_t header = 8 + 4 * 8;
  uint64_t key_length = 0;
  std::memcpy(&key_length, good.data() + 8, 8);
  ASSERT_LT(header + key_length, good.size());

  // A binary the driver must refuse, behind a header that checks out.
  std::string refused = good;
  for (size_t i = header + key_length; i < refused.size(); ++i) refused[i] = static_cast<char>(i * 7);
  const uint64_t h = fnv1a(refused.substr(header + key_length));
  std::memcpy(refused.data() + 8 + 3 * 8, &h, 8);

  std::string flipped = good;
  flipped.back() = static_cast<char>(flipped.back() ^ 1);

  const struct {
    const char* what;
    std::string bytes;
    const char* logged;
  } damages[] = {
      {"garbage", std::string(300, 'x'), "bad header"},
      {"truncated", good.substr(0, good.size() / 2), "wrong length"},
      {"flipped bit", flipped, "binary hash mismatch"},
      {"refused binary", refused, "clBuildProgram refused the cached binary"},
  };
  for (const auto& d : damages) {
    SCOPED_TRACE(d.what);
    for (const fs::path& f : files) write_file(f, d.bytes);
    const std::string out = probe(cache_env(dir));
    EXPECT_EQ(value(out, "result"), "42") << out;
    EXPECT_TRUE(contains(out, d.logged)) << out;
    EXPECT_TRUE(contains(out, "built from source")) << out;
    for (const fs::path& f : files) {
      const std::string rewritten = read_file(f);
      EXPECT_EQ(rewritten.substr(0, 8), "PORTACL1") << f;
      EXPECT_NE(rewritten, d.bytes) << f << " was not rewritten";
    }
    EXPECT_TRUE(contains(probe(cache_env(dir)), "loaded from cache")) << "the rewritten entries are used";
  }
}

TEST(OpenclCache, AnUnwritableCacheOnlyCostsTime) {
  REQUIRE_OPENCL_DEVICE();
  const std::string out = probe("PORTA_LOG=debug PORTA_OPENCL_CACHE=/proc/porta-no-such-dir");
  EXPECT_EQ(value(out, "result"), "42") << out;
}

// ---- DLPack's OpenCL convention

TEST(OpenclDlpack, ASliceExportsItsBufferAndAByteOffset) {
  REQUIRE_OPENCL_DEVICE();
  const float host[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  const int64_t n = 10;
  Tensor t, s;
  CHECK_OK(porta_tensor_from_host(host, porta_float32, &n, 1, kOpencl, t.out()));
  CHECK_OK(porta_slice(t, 0, 3, 8, 1, s.out()));
  DLManagedTensorVersioned *base = nullptr, *view = nullptr;
  CHECK_OK(porta_to_dlpack_versioned(t, 0, &base));
  CHECK_OK(porta_to_dlpack_versioned(s, 0, &view));
  const DLTensor& dl = view->dl_tensor;
  EXPECT_EQ(dl.device.device_type, kDLOpenCL);
  EXPECT_EQ(dl.device.device_id, 0);
  EXPECT_EQ(dl.data, base->dl_tensor.data) << "data is the allocation's cl_mem";
  EXPECT_EQ(dl.byte_offset, 3 * sizeof(float));
  ASSERT_EQ(dl.ndim, 1);
  EXPECT_EQ(dl.shape[0], 5);

  // A consumer reads the elements through OpenCL itself.
  cl_mem mem = static_cast<cl_mem>(dl.data);
  size_t size = 0;
  ASSERT_EQ(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof(size), &size, nullptr), CL_SUCCESS) << "not a cl_mem";
  EXPECT_GE(size, sizeof(host));
  cl_context ctx = nullptr;
  ASSERT_EQ(clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof(ctx), &ctx, nullptr), CL_SUCCESS);
  cl_device_id dev = nullptr;
  ASSERT_EQ(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof(dev), &dev, nullptr), CL_SUCCESS);
  cl_int err = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  float got[5] = {};
  EXPECT_EQ(clEnqueueReadBuffer(q, mem, CL_TRUE, dl.byte_offset, sizeof(got), got, 0, nullptr, nullptr), CL_SUCCESS);
  clReleaseCommandQueue(q);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(got[i], 3.0f + i);
  view->deleter(view);
  base->deleter(base);
}

// ---- the rest of the plugin contract

TEST(OpenclErrors, AFailingCallIsNamedWithItsClError) {
  REQUIRE_OPENCL_DEVICE();
  const int64_t huge = int64_t{1} << 50;  // 4 PiB of float32
  porta_tensor* out = nullptr;
  const porta_status st = porta_zeros(&huge, 1, porta_float32, kOpencl, &out);
  EXPECT_NE(st, PORTA_OK);
  const std::string msg = porta_last_error();
  EXPECT_TRUE(contains(msg, "clCreateBuffer failed: CL_")) << msg;
  EXPECT_TRUE(contains(msg, "opencl")) << msg;
}

TEST(OpenclRandom, NormalIntoAStridedFloat64ViewMatchesCpu) {
  REQUIRE_OPENCL_DEVICE();
  const int64_t shape[2] = {7, 5};
  std::vector<double> want(35), got(35);
  for (DLDevice d : {DLDevice{kDLCPU, 0}, kOpencl}) {
    Tensor t, v, c;
    CHECK_OK(porta_zeros(shape, 2, porta_float64, d, t.out()));
    CHECK_OK(porta_transpose(t, 0, 1, v.out()));
    CHECK_OK(porta_generator_set_state(1234, 99));
    CHECK_OK(porta_init_normal_(v, 0.5, 2.0));
    CHECK_OK(porta_tensor_to_host(t, (d.device_type == kDLCPU ? want : got).data(), 35 * sizeof(double)));
  }
  EXPECT_EQ(got, want);
}

TEST(OpenclThreads, OpsFromManyThreadsAtOnce) {
  REQUIRE_OPENCL_DEVICE();
  const int64_t shape[2] = {16, 16};
  std::vector<std::thread> threads;
  std::vector<int> bad(4, 0);
  for (int w = 0; w < 4; ++w)
    threads.emplace_back([&, w] {
      std::vector<float> a(256), r(256);
      for (int i = 0; i < 256; ++i) a[i] = static_cast<float>((i * (w + 3)) % 17) - 8;
      for (int it = 0; it < 20; ++it) {
        porta_tensor *t = nullptr, *m = nullptr, *e = nullptr;
        if (porta_tensor_from_host(a.data(), porta_float32, shape, 2, kOpencl, &t) != PORTA_OK ||
            porta_matmul(t, t, &m) != PORTA_OK || porta_add(m, t, &e) != PORTA_OK ||
            porta_tensor_to_host(e, r.data(), sizeof(float) * 256) != PORTA_OK) {
          ++bad[w];
        } else {
          for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 16; ++j) {
              float want = a[i * 16 + j];
              for (int k = 0; k < 16; ++k) want += a[i * 16 + k] * a[k * 16 + j];
              if (std::fabs(r[i * 16 + j] - want) > 1e-3f) ++bad[w];
            }
        }
        porta_tensor_release(e);
        porta_tensor_release(m);
        porta_tensor_release(t);
      }
    });
  for (auto& t : threads) t.join();
  for (int w = 0; w < 4; ++w) EXPECT_EQ(bad[w], 0) << "thread " << w;
}

}  // namespace
