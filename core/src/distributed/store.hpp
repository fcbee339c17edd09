// The key-value rendezvous of a process group (porta_comm_kv in
// porta/comm.h): what communicator plugins exchange before their engine can
// connect (NCCL's unique id), and where the core's own checks meet.
#pragma once

#include <porta/comm.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace porta::dist {

// How a rank of the store's world stands, as far as the store knows.
enum class RankState : int8_t {
  unknown,  // not connected yet, or a store that cannot tell
  present,
  left,    // said goodbye: its process groups were destroyed or its process ended normally
  failed,  // went away without goodbye: the process died
};

class Store {
 public:
  virtual ~Store() = default;
  virtual void put(const std::string& key, const std::string& value) = 0;
  // The value of `key`, waiting up to timeout_ms for it to be stored;
  // throws TIMEOUT naming the key when it was not. By default try_get
  // until it is there, pausing from 100 us up to 20 ms between tries.
  virtual std::string get(const std::string& key, int64_t timeout_ms);
  // The value of `key` if it is stored now.
  virtual std::optional<std::string> try_get(const std::string& key) = 0;
  // A put whose failure is not reported and which may complete later: the
  // progress notes failure reports read, which must not slow or break the
  // collectives that write them.
  virtual void post(const std::string& key, const std::string& value) noexcept {
    try {
      put(key, value);
    } catch (...) {
    }
  }
  // Each world rank's state, or empty when this store cannot tell.
  virtual std::vector<RankState> rank_states() { return {}; }
  // False for the store of a group made without a rendezvous.
  virtual bool present() const { return true; }
  // What it is, for messages ("file store /tmp/x").
  virtual std::string describe() const = 0;
};

// A store in a directory every rank can reach (init_method "file://<dir>",
// as torch.distributed's FileStore): one file per key, written whole under a
// temporary name and renamed, so a reader sees all of a value or none. The
// directory is made if missing and must be fresh for each job: a value left
// by an earlier job would be read as this one's.
std::unique_ptr<Store> make_file_store(const std::string& dir);

// A store for groups made without a rendezvous (a process launched by the
// backend's own launcher, mpirun): every use fails, saying how to give one.
std::unique_ptr<Store> make_absent_store(const std::string& why);

// porta_comm_kv over `store`, each key prefixed with `scope` (the group).
class KvAdapter {
 public:
  KvAdapter(Store& store, std::string scope);
  const porta_comm_kv* table() const { return &kv_; }

 private:
  static porta_status put(void* context, const char* key, const void* value, size_t size);
  static porta_status get(void* context, const char* key, void* value, size_t capacity, size_t* size,
                          int64_t timeout_ms);
  Store& store_;
  std::string scope_;
  porta_comm_kv kv_{};
};

}  // namespace porta::dist
