#include "program_cache.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace porta::opencl {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'P', 'O', 'R', 'T', 'A', 'C', 'L', '1'};

// FNV-1a, 64 bits: names files and checks contents (not a defence against
// tampering, which the cache does not attempt).
uint64_t fnv1a(const void* data, size_t n, uint64_t h = 0xcbf29ce484222325ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}
uint64_t fnv1a(const std::string& s) { return fnv1a(s.data(), s.size()); }

std::string hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// File layout: magic, then these fields, then the key text, then the binary.
struct Header {
  uint64_t key_length;
  uint64_t source_hash;
  uint64_t binary_length;
  uint64_t binary_hash;
};

std::string cache_key(const Device& dev, const std::string& options) {
  return "device=" + dev.name + "\ndriver=" + dev.driver + "\nplatform=" + dev.platform_name + " " +
         dev.platform_version + "\noptions=" + options + "\n";
}

std::string build_log(cl_program prog, cl_device_id dev) {
  size_t n = 0;
  clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string s(n, '\0');
  if (n > 0) clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, s.data(), nullptr);
  while (!s.empty() && (s.back() == '\0' || s.back() == '\n')) s.pop_back();
  return s.size() > 2000 ? s.substr(0, 2000) + "..." : s;
}

// The cached binary, or empty with `why` saying what was wrong with the entry.
std::vector<unsigned char> read_entry(const fs::path& file, const std::string& key, uint64_t source_hash,
                                      std::string* why) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Header h{};
  if (bytes.size() < sizeof(kMagic) + sizeof(h) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    *why = "bad header";
    return {};
  }
  std::memcpy(&h, bytes.data() + sizeof(kMagic), sizeof(h));
  const size_t at = sizeof(kMagic) + sizeof(h);
  if (h.key_length > bytes.size() - at || h.binary_length != bytes.size() - at - h.key_length) {
    *why = "wrong length";
    return {};
  }
  if (std::string(bytes.data() + at, h.key_length) != key || h.source_hash != source_hash) {
    *why = "key or source hash mismatch";
    return {};
  }
  const char* binary = bytes.data() + at + h.key_length;
  if (h.binary_length == 0 || fnv1a(binary, h.binary_length) != h.binary_hash) {
    *why = "binary hash mismatch";
    return {};
  }
  return std::vector<unsigned char>(binary, binary + h.binary_length);
}

// Writes the entry next to `file` and renames it into place.
void write_entry(const fs::path& file, const std::string& key, uint64_t source_hash,
                 const std::vector<unsigned char>& binary) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  static std::atomic<unsigned> counter{0};
  const fs::path tmp = file.string() + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return;  // an unwritable cache only costs build time
    const Header h{key.size(), source_hash, binary.size(), fnv1a(binary.data(), binary.size())};
    out.write(kMagic, sizeof(kMagic));
    out.write(reinterpret_cast<const char*>(&h), sizeof(h));
    out.write(key.data(), static_cast<std::streamsize>(key.size()));
    out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
}

std::vector<unsigned char> program_binary(cl_program prog) {
  size_t size = 0;
  if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr) != CL_SUCCESS || size == 0)
    return {};
  std::vector<unsigned char> binary(size);
  unsigned char* ptr = binary.data();
  if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof(ptr), &ptr, nullptr) != CL_SUCCESS) return {};
  return binary;
}

// clCreateProgramWithBinary + clBuildProgram; nullptr when the binary is refused.
cl_program load_binary(Device& dev, const std::vector<unsigned char>& binary, const std::string& options) {
  const size_t size = binary.size();
  const unsigned char* ptr = binary.data();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program prog = clCreateProgramWithBinary(dev.context(), 1, &dev.id, &size, &ptr, &status, &err);
  if (err != CL_SUCCESS || status != CL_SUCCESS) {
    if (prog) clReleaseProgram(prog);
    return nullptr;
  }
  if (clBuildProgram(prog, 1, &dev.id, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    clReleaseProgram(prog);
    return nullptr;
  }
  return prog;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::string program_cache_dir() {
  if (const char* d = std::getenv("PORTA_OPENCL_CACHE"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/porta/opencl";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/porta/opencl";
  return {};
}

porta_status build_program(Device& dev, const std::string& label, const std::string& source, const std::string& options,
                           cl_program* out) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string key = cache_key(dev, options);
  const uint64_t source_hash = fnv1a(source.data(), source.size(), fnv1a(std::to_string(source.size())));
  const std::string dir = program_cache_dir();
  const fs::path file = dir.empty() ? fs::path() : fs::path(dir) / (hex(fnv1a(key + source)) + ".clbin");

  std::string why = "no entry";
  if (!file.empty()) {
    const std::vector<unsigned char> binary = read_entry(file, key, source_hash, &why);
    if (!binary.empty()) {
      if (cl_program prog = load_binary(dev, binary, options)) {
        log(PORTA_LOG_DEBUG,
            "program " + label + " loaded from cache " + file.string() + " in " + std::to_string(ms_since(t0)) + " ms");
        *out = prog;
        return PORTA_OK;
      }
      why = "clBuildProgram refused the cached binary";
    }
  }

  const char* text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program prog = clCreateProgramWithSource(dev.context(), 1, &text, nullptr, &err);
  if (err != CL_SUCCESS) return report_cl("clCreateProgramWithSource", err, label);
  err = clBuildProgram(prog, 1, &dev.id, options.c_str(), nullptr, nullptr);
  if (err != CL_SUCCESS) {
    const std::string log_text = build_log(prog, dev.id);
    clReleaseProgram(prog);
    return report_cl("clBuildProgram", err, label + " for " + dev.name + " with \"" + options + "\":\n" + log_text);
  }
  if (!file.empty()) {
    const std::vector<unsigned char> binary = program_binary(prog);
    if (!binary.empty()) write_entry(file, key, source_hash, binary);
  }
  log(PORTA_LOG_DEBUG, "program " + label + " built from source in " + std::to_string(ms_since(t0)) + " ms (" +
                           (file.empty() ? std::string("no cache directory") : why + " in cache " + file.string()) +
                           ")");
  *out = prog;
  return PORTA_OK;
}

}  // namespace porta::opencl
