// The TCP store's wire protocol (tcp_store.hpp). One request at a time on a connection, each
// answered at once (a get of a key not yet stored answers "not found" and the
// client asks again), so the server never holds a request and a client never
// waits on a reply longer than a round trip.
//
// Messages, in the host's byte order (every rank runs the same build):
//   HELLO rank:i32 world:i32      -> ok:u8 message:str
//   SET key:str value:str         -> ok:u8
//   POST key:str value:str        (no reply)
//   GET key:str                   -> found:u8 [value:str]
//   STATES                        -> n:u32 state:u8 * n
//   BYE                           (no reply)
// where str is a u32 length and its bytes.
// Shared by the server (tcp_store_server.cpp) and the client (tcp_store.cpp).
#pragma once

#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>

#include "runtime/error.hpp"

namespace porta::dist::tcp_wire {

using Clock = std::chrono::steady_clock;

enum Request : uint8_t { kHello = 1, kSet, kPost, kGet, kStates, kBye };

inline constexpr uint32_t kMaxKey = 64 << 10;
inline constexpr uint32_t kMaxValue = 256u << 20;

inline void append_raw(std::string& out, const void* p, size_t n) { out.append(static_cast<const char*>(p), n); }
inline void append_u8(std::string& out, uint8_t v) { out.push_back(static_cast<char>(v)); }
inline void append_i32(std::string& out, int32_t v) { append_raw(out, &v, sizeof v); }
inline void append_str(std::string& out, const std::string& s) {
  const auto n = static_cast<uint32_t>(s.size());
  append_raw(out, &n, sizeof n);
  out += s;
}

// Reads fields from a buffer at `pos`; each returns false when the buffer
// does not hold the whole field yet.
struct Reader {
  const std::string& buf;
  size_t pos = 0;
  bool raw(void* p, size_t n) {
    if (buf.size() - pos < n) return false;
    std::memcpy(p, buf.data() + pos, n);
    pos += n;
    return true;
  }
  bool u8(uint8_t& v) { return raw(&v, 1); }
  bool i32(int32_t& v) { return raw(&v, sizeof v); }
  bool u32(uint32_t& v) { return raw(&v, sizeof v); }
  // A length over `limit` is a protocol error: `bad` says what was wrong.
  bool str(std::string& s, uint32_t limit, const char* what, std::string& bad) {
    uint32_t n = 0;
    if (!u32(n)) return false;
    if (n > limit) {
      bad = cat("a ", what, " of ", n, " bytes (at most ", limit, ")");
      return false;
    }
    if (buf.size() - pos < n) return false;
    s.assign(buf.data() + pos, n);
    pos += n;
    return true;
  }
};

inline std::string endpoint(const std::string& host, int port) { return cat(host, ":", port); }

struct AddrInfo {
  addrinfo* list = nullptr;
  AddrInfo(const std::string& host, int port) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    const std::string service = std::to_string(port);
    if (int e = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &list); e != 0)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "tcp store: cannot resolve the host '", host, "': ", ::gai_strerror(e));
  }
  ~AddrInfo() {
    if (list) ::freeaddrinfo(list);
  }
  AddrInfo(const AddrInfo&) = delete;
  AddrInfo& operator=(const AddrInfo&) = delete;
};

// Milliseconds to `deadline` for poll(), rounded up (0 once it has passed).
inline int ms_until(Clock::time_point deadline) {
  const auto left = deadline - Clock::now();
  if (left <= Clock::duration::zero()) return 0;
  return static_cast<int>(
      std::min<int64_t>(std::chrono::ceil<std::chrono::milliseconds>(left).count(), static_cast<int64_t>(INT_MAX)));
}

}  // namespace porta::dist::tcp_wire
