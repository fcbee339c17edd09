// Key-value stores of the rendezvous (store.hpp).
#include "distributed/store.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "runtime/error.hpp"
#include "runtime/plugin_errors.hpp"

namespace porta::dist {
namespace {

namespace fs = std::filesystem;

// A key as a file name: letters, digits, '-' and '_' kept, anything else as
// %XX, so that no key names a path outside the directory.
std::string file_name_of(const std::string& key) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : key) {
    if (std::isalnum(c) || c == '-' || c == '_') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

class FileStore final : public Store {
 public:
  explicit FileStore(std::string dir) : dir_(std::move(dir)) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec || !fs::is_directory(dir_))
      fail(PORTA_ERROR_IO, "file store: cannot make the directory ", dir_, ": ", ec ? ec.message() : "not a directory");
  }

  void put(const std::string& key, const std::string& value) override {
    const fs::path final_path = fs::path(dir_) / file_name_of(key);
    const fs::path tmp = fs::path(dir_) / cat(".", file_name_of(key), ".", ::getpid(), ".tmp");
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out.write(value.data(), static_cast<std::streamsize>(value.size()));
      if (!out.flush()) fail(PORTA_ERROR_IO, "file store ", dir_, ": cannot write ", tmp.string());
    }
    std::error_code ec;
    fs::rename(tmp, final_path, ec);
    if (ec) fail(PORTA_ERROR_IO, "file store ", dir_, ": cannot rename ", tmp.string(), ": ", ec.message());
  }

  std::optional<std::string> try_get(const std::string& key) override {
    std::ifstream in(fs::path(dir_) / file_name_of(key), std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::string describe() const override { return "file store " + dir_; }

 private:
  std::string dir_;
};

class AbsentStore final : public Store {
 public:
  explicit AbsentStore(std::string why) : why_(std::move(why)) {}
  void put(const std::string&, const std::string&) override { fail(PORTA_ERROR_NOT_IMPLEMENTED, why_); }
  std::string get(const std::string&, int64_t) override { fail(PORTA_ERROR_NOT_IMPLEMENTED, why_); }
  std::optional<std::string> try_get(const std::string&) override { return std::nullopt; }
  void post(const std::string&, const std::string&) noexcept override {}
  bool present() const override { return false; }
  std::string describe() const override { return "no store"; }

 private:
  std::string why_;
};

}  // namespace

std::string Store::get(const std::string& key, int64_t timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  auto pause = std::chrono::microseconds(100);
  for (;;) {
    if (auto v = try_get(key)) return *v;
    if (std::chrono::steady_clock::now() >= deadline)
      fail(PORTA_ERROR_TIMEOUT, describe(), ": key '", key, "' was not stored within ", timeout_ms,
           " ms (a rank that never came, or a store another job still uses)");
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
}

std::unique_ptr<Store> make_file_store(const std::string& dir) { return std::make_unique<FileStore>(dir); }
std::unique_ptr<Store> make_absent_store(const std::string& why) { return std::make_unique<AbsentStore>(why); }

KvAdapter::KvAdapter(Store& store, std::string scope) : store_(store), scope_(std::move(scope)) {
  kv_.struct_size = sizeof(porta_comm_kv);
  kv_.context = this;
  kv_.put = &KvAdapter::put;
  kv_.get = &KvAdapter::get;
}

// The table's slots: the store's errors become a status and the plugin-error
// message the core reads back when the plugin passes the status on.
porta_status KvAdapter::put(void* context, const char* key, const void* value, size_t size) {
  auto* self = static_cast<KvAdapter*>(context);
  if (!key || (!value && size)) {
    comm_host_api()->set_error("kv put: NULL key or value");
    return PORTA_ERROR_INVALID_ARGUMENT;
  }
  try {
    self->store_.put(self->scope_ + "/" + key, std::string(static_cast<const char*>(value), size));
    return PORTA_OK;
  } catch (const Error& e) {
    comm_host_api()->set_error(e.what());
    return e.status();
  }
}

porta_status KvAdapter::get(void* context, const char* key, void* value, size_t capacity, size_t* size,
                            int64_t timeout_ms) {
  auto* self = static_cast<KvAdapter*>(context);
  if (!key || !size || (!value && capacity)) {
    comm_host_api()->set_error("kv get: NULL key, value or size");
    return PORTA_ERROR_INVALID_ARGUMENT;
  }
  try {
    const std::string v = self->store_.get(self->scope_ + "/" + key, timeout_ms);
    std::memcpy(value, v.data(), std::min(capacity, v.size()));
    *size = v.size();
    return PORTA_OK;
  } catch (const Error& e) {
    comm_host_api()->set_error(e.what());
    return e.status();
  }
}

}  // namespace porta::dist
