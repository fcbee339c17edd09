// The TCP store (tcp_store.hpp). One request at a time on a connection, each
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
//
// The server is one thread and a poll loop over non-blocking sockets: it
// never waits on one client. What it owes a connection waits in that
// connection's output buffer, sent as the socket takes it. Whatever else
// reaches the port (a scanner, a stray or hostile program) is bounded:
//  - a connection that has not said HELLO (a stranger) may read (GET,
//    STATES) but not write, and is closed 5 s after it connected;
//  - a connection whose unread replies pass 1 MiB is closed (a client reads
//    each reply before its next request, so it never has any);
//  - a request the protocol does not have, or a length over its limit,
//    closes that connection;
//  - at most 4 connections per rank and 32 more: past that, and when the
//    process is out of file descriptors, the oldest stranger is closed to
//    make room; with no stranger to close, a reserve descriptor is given up
//    to accept the newcomer and close it at once (the listening socket is
//    never left readable, so the loop never spins).
// Each of these is logged (warn, at most once per kind per 10 s).
//
// A client bounds each wait (connect, send, receive, its own lock) by the
// process group's timeout. A request that times out leaves the connection
// out of step with the replies, so it is not used again.
#include "dist/tcp_store.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/error.hpp"
#include "runtime/log.hpp"

namespace porta::dist {
namespace {

using Clock = std::chrono::steady_clock;

enum Request : uint8_t { kHello = 1, kSet, kPost, kGet, kStates, kBye };

constexpr uint32_t kMaxKey = 64 << 10;
constexpr uint32_t kMaxValue = 256u << 20;

// The server's bounds on what reaches its port (the file's comment).
constexpr size_t kMaxUnread = 1u << 20;
constexpr auto kHelloWithin = std::chrono::seconds(5);
constexpr auto kListenPause = std::chrono::milliseconds(100);
constexpr int kAcceptsPerTurn = 64;
size_t connection_limit(int32_t world_size) { return 4 * static_cast<size_t>(world_size) + 32; }

void append_raw(std::string& out, const void* p, size_t n) { out.append(static_cast<const char*>(p), n); }
void append_u8(std::string& out, uint8_t v) { out.push_back(static_cast<char>(v)); }
void append_i32(std::string& out, int32_t v) { append_raw(out, &v, sizeof v); }
void append_str(std::string& out, const std::string& s) {
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

std::string endpoint(const std::string& host, int port) { return cat(host, ":", port); }

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
int ms_until(Clock::time_point deadline) {
  const auto left = deadline - Clock::now();
  if (left <= Clock::duration::zero()) return 0;
  return static_cast<int>(
      std::min<int64_t>(std::chrono::ceil<std::chrono::milliseconds>(left).count(), static_cast<int64_t>(INT_MAX)));
}

// ------------------------------------------------------------------ server

// Whether porta-run chose `port` and holds it for this job (PORTA_RUN_HELD_PORT).
bool held_by_launcher(int port) {
  const char* held = std::getenv("PORTA_RUN_HELD_PORT");
  return held && std::to_string(port) == held;
}

std::string peer_name(const sockaddr_storage& addr, socklen_t len) {
  char host[NI_MAXHOST], service[NI_MAXSERV];
  if (::getnameinfo(reinterpret_cast<const sockaddr*>(&addr), len, host, sizeof host, service, sizeof service,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return "an unknown address";
  return addr.ss_family == AF_INET6 ? cat("[", host, "]:", service) : cat(host, ":", service);
}

// The descriptor given up to accept (and close) a connection when the
// process has no other.
int open_reserve() { return ::open("/dev/null", O_RDONLY | O_CLOEXEC); }

class Server {
 public:
  Server(const std::string& host, int port, int32_t world_size)
      : where_(endpoint(host, port)), limit_(connection_limit(world_size)), states_(static_cast<size_t>(world_size)) {
    AddrInfo ai(host, port);
    int last_errno = 0;
    for (addrinfo* a = ai.list; a && listen_fd_ < 0; a = a->ai_next) {
      const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
      if (fd < 0) continue;
      const int one = 1;
      ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
      // porta-run holds the port it chose until the job ends (bindings/cli/porta_run.cpp): share it.
      if (held_by_launcher(port)) ::setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
      if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 256) == 0) {
        listen_fd_ = fd;
      } else {
        last_errno = errno;
        ::close(fd);
      }
    }
    if (listen_fd_ < 0) {
      if (last_errno == EADDRINUSE)
        fail(PORTA_ERROR_IO, "tcp store: rank 0 cannot serve at ", where_,
             ": the port is in use (another job, or one that just ended); choose another MASTER_PORT");
      if (last_errno == EADDRNOTAVAIL)
        fail(PORTA_ERROR_INVALID_ARGUMENT, "tcp store: rank 0 cannot serve at ", where_, ": '", host,
             "' is not an address of this machine; MASTER_ADDR must name rank 0's host");
      fail(PORTA_ERROR_IO, "tcp store: rank 0 cannot serve at ", where_, ": ", std::strerror(last_errno));
    }
    if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) {
      const int e = errno;
      ::close(listen_fd_);
      fail(PORTA_ERROR_IO, "tcp store: pipe: ", std::strerror(e));
    }
    reserve_ = open_reserve();
    thread_ = std::thread([this] { run(); });
  }

  ~Server() {
    stop_.store(true);
    const char stop = 1;
    if (::write(wake_[1], &stop, 1) < 0) {
      // the pipe holds a byte already: the thread is waking
    }
    thread_.join();
    for (auto& c : conns_) ::close(c.fd);
    ::close(listen_fd_);
    ::close(wake_[0]);
    ::close(wake_[1]);
    if (reserve_ >= 0) ::close(reserve_);
  }

  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Until no rank but those gone is connected, at most `ms`: rank 0 keeps
  // serving while the others finish.
  void wait_for_workers(int64_t ms) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::milliseconds(ms), [this] {
      for (RankState s : states_)
        if (s == RankState::present) return false;
      return true;
    });
  }

 private:
  struct Conn {
    int fd = -1;
    std::string peer;         // its address, for the log
    Clock::time_point since;  // when it was accepted
    std::string in;           // received, not yet a whole request
    std::string out;          // replies not yet taken by the socket, from out_sent
    size_t out_sent = 0;
    int32_t rank = -1;  // -1: a stranger (no HELLO yet)
    bool bye = false;
    bool closing = false;  // its HELLO was refused: closed once the answer is sent, nothing more read
    size_t unsent() const { return out.size() - out_sent; }
    std::string who() const {
      return rank >= 0 ? cat("rank ", rank, "'s connection (", peer, ")") : "the connection from " + peer;
    }
  };

  // What the log says, each kind at most once per 10 s.
  enum Note { kNoteFlood, kNoteGarbage, kNoteLimit, kNoteStranger, kNoteDescriptors, kNoteKinds };
  template <typename... Parts>
  void note(Note kind, Parts&&... parts) {
    auto& n = noted_[kind];
    const auto now = Clock::now();
    if (now < n.next) {
      ++n.quiet;
      return;
    }
    std::string line = cat("tcp store ", where_, " (rank 0): ", std::forward<Parts>(parts)...);
    if (n.quiet) line += cat(" (and ", n.quiet, " more like it since the last such message)");
    log_line(PORTA_LOG_WARN, line);
    n.quiet = 0;
    n.next = now + std::chrono::seconds(10);
  }

  void run() {
    std::vector<pollfd> fds;
    std::vector<size_t> gone;
    while (!stop_.load()) {
      const auto now = Clock::now();
      if (reserve_ < 0) reserve_ = open_reserve();
      reap_strangers(now);
      const bool listening = now >= listen_paused_until_;
      fds.clear();
      fds.push_back({wake_[0], POLLIN, 0});
      fds.push_back({listening ? listen_fd_ : -1, POLLIN, 0});  // a negative fd: poll skips it
      for (const Conn& c : conns_)
        fds.push_back({c.fd, static_cast<short>((c.closing ? 0 : POLLIN) | (c.unsent() ? POLLOUT : 0)), 0});
      if (::poll(fds.data(), fds.size(), poll_timeout(now, listening)) < 0) {
        if (errno != EINTR) {
          note(kNoteDescriptors, "poll failed: ", std::strerror(errno));
          std::this_thread::sleep_for(kListenPause);
        }
        continue;
      }
      if (fds[0].revents) continue;  // stop_ is set
      // Connections first (their indices match fds from 2), new ones after.
      gone.clear();
      for (size_t i = 0; i < conns_.size(); ++i)
        if (fds[i + 2].revents && !turn(conns_[i], fds[i + 2].revents)) gone.push_back(i);
      for (auto it = gone.rbegin(); it != gone.rend(); ++it) drop(*it);
      if (listening && (fds[1].revents & POLLIN)) accept_some();
    }
  }

  // Until the next stranger is due to be closed, or listening resumes; -1: none.
  int poll_timeout(Clock::time_point now, bool listening) const {
    Clock::time_point next = Clock::time_point::max();
    for (const Conn& c : conns_)
      if (c.rank < 0) next = std::min(next, c.since + kHelloWithin);
    if (!listening) next = std::min(next, listen_paused_until_);
    if (next == Clock::time_point::max()) return -1;
    return next <= now ? 0 : ms_until(next);
  }

  void reap_strangers(Clock::time_point now) {
    for (size_t i = conns_.size(); i-- > 0;) {
      if (conns_[i].rank >= 0 || now - conns_[i].since < kHelloWithin) continue;
      note(kNoteStranger, "closed ", conns_[i].who(), ": it did not say which rank it is within ",
           std::chrono::duration_cast<std::chrono::seconds>(kHelloWithin).count(), " s");
      drop(i);
    }
  }

  // Serves one connection's events; false: close it.
  bool turn(Conn& c, short events) {
    if (events & POLLNVAL) return false;
    if (!c.closing && (events & (POLLIN | POLLHUP | POLLERR)) && !receive(c)) return false;
    if (c.unsent() && !flush(c)) return false;
    if (c.closing && (!c.unsent() || (events & (POLLHUP | POLLERR)))) return false;
    return true;
  }

  // Reads what arrived and answers every whole request; false: close it.
  bool receive(Conn& c) {
    char chunk[64 << 10];
    const ssize_t n = ::recv(c.fd, chunk, sizeof chunk, MSG_DONTWAIT);
    if (n < 0) return errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK;
    if (n == 0) return false;
    c.in.append(chunk, static_cast<size_t>(n));
    Reader r{c.in};
    for (;;) {
      const size_t start = r.pos;
      const size_t unread = c.unsent();
      std::string bad;
      const int done = handle(c, r, bad);
      if (!bad.empty()) {
        note(kNoteGarbage, "closed ", c.who(), ": it sent ", bad);
        return false;
      }
      if (done == 0) {  // the rest has not arrived
        r.pos = start;
        break;
      }
      if (done < 0) return false;
      if (unread > kMaxUnread) {
        note(kNoteFlood, "closed ", c.who(), ": it sent requests without reading the replies (", unread,
             " bytes unread)");
        return false;
      }
      if (c.closing) {
        r.pos = c.in.size();  // nothing more is read from it
        break;
      }
    }
    c.in.erase(0, r.pos);
    return true;
  }

  // Sends what the socket takes now; false: close it.
  bool flush(Conn& c) {
    while (c.unsent()) {
      const ssize_t n = ::send(c.fd, c.out.data() + c.out_sent, c.unsent(), MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        c.out_sent += static_cast<size_t>(n);
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        break;
      } else {
        return false;
      }
    }
    if (!c.unsent()) {
      c.out.clear();
      c.out_sent = 0;
    } else if (c.out_sent >= (1u << 20) && c.out_sent * 2 >= c.out.size()) {
      c.out.erase(0, c.out_sent);
      c.out_sent = 0;
    }
    return true;
  }

  // 1: a request handled, 0: incomplete (or `bad` set), -1: handled and the connection ends.
  int handle(Conn& c, Reader& r, std::string& bad) {
    uint8_t type = 0;
    if (!r.u8(type)) return 0;
    switch (type) {
      case kHello: {
        int32_t rank = 0, world = 0;
        if (!r.i32(rank) || !r.i32(world)) return 0;
        if (c.rank >= 0) {
          bad = "a second HELLO";
          return 0;
        }
        std::string error = hello(c, rank, world);
        append_u8(c.out, error.empty() ? 1 : 0);
        append_str(c.out, error);
        c.closing = !error.empty();
        return 1;
      }
      case kSet:
      case kPost: {
        if (c.rank < 0) {
          bad = cat(type == kSet ? "SET" : "POST", " before HELLO (only a rank writes to the store)");
          return 0;
        }
        std::string key, value;
        if (!r.str(key, kMaxKey, "key", bad) || !r.str(value, kMaxValue, "value", bad)) return 0;
        data_[key] = std::move(value);
        if (type == kSet) append_u8(c.out, 1);
        return 1;
      }
      case kGet: {
        std::string key;
        if (!r.str(key, kMaxKey, "key", bad)) return 0;
        auto it = data_.find(key);
        append_u8(c.out, it != data_.end());
        if (it != data_.end()) append_str(c.out, it->second);
        return 1;
      }
      case kStates: {
        std::lock_guard<std::mutex> lock(mu_);
        const auto n = static_cast<uint32_t>(states_.size());
        append_raw(c.out, &n, sizeof n);
        for (RankState s : states_) append_u8(c.out, static_cast<uint8_t>(s));
        return 1;
      }
      case kBye:
        c.bye = true;
        return -1;
      default:
        bad = cat("request type ", static_cast<int>(type), ", which the store does not have");
        return 0;
    }
  }

  std::string hello(Conn& c, int32_t rank, int32_t world) {
    std::lock_guard<std::mutex> lock(mu_);
    const auto size = static_cast<int32_t>(states_.size());
    if (world != size)
      return cat("rank ", rank, " says the world has ", world, " ranks, rank 0 says ", size,
                 " (check WORLD_SIZE on every process)");
    if (rank < 0 || rank >= size) return cat("rank ", rank, " is outside the world of ", size, " ranks");
    if (states_[static_cast<size_t>(rank)] != RankState::unknown)
      return cat("rank ", rank, " has already joined this store (two processes were given RANK=", rank, ")");
    states_[static_cast<size_t>(rank)] = RankState::present;
    c.rank = rank;
    return "";
  }

  void accept_some() {
    for (int i = 0; i < kAcceptsPerTurn; ++i) {
      sockaddr_storage addr{};
      socklen_t len = sizeof addr;
      const int fd = ::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (fd >= 0) {
        admit(fd, peer_name(addr, len));
        continue;
      }
      switch (errno) {
        case EAGAIN:
#if EWOULDBLOCK != EAGAIN
        case EWOULDBLOCK:
#endif
          return;
        // A connection that failed before it was accepted (accept(2): retry as EAGAIN).
        case EINTR:
        case ECONNABORTED:
        case EPROTO:
        case ENETDOWN:
        case ENOPROTOOPT:
        case EHOSTDOWN:
        case ENONET:
        case EHOSTUNREACH:
        case EOPNOTSUPP:
        case ENETUNREACH:
          continue;
        case EMFILE:
        case ENFILE:
          if (!out_of_descriptors(errno)) return;
          continue;
        default:  // ENOBUFS, ENOMEM: listen again shortly
          note(kNoteDescriptors, "cannot accept a connection: ", std::strerror(errno));
          listen_paused_until_ = Clock::now() + kListenPause;
          return;
      }
    }
  }

  void admit(int fd, std::string peer) {
    if (conns_.size() >= limit_ &&
        !close_oldest_stranger(cat("the store is at its limit of ", limit_, " connections (4 per rank and 32)"))) {
      ::close(fd);  // every connection is a rank's: cannot be, ranks are fewer than the limit
      return;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    Conn c;
    c.fd = fd;
    c.peer = std::move(peer);
    c.since = Clock::now();
    conns_.push_back(std::move(c));
  }

  // Makes room for a newcomer; false: there is no stranger.
  bool close_oldest_stranger(const std::string& why) {
    size_t oldest = conns_.size();
    for (size_t i = 0; i < conns_.size(); ++i)
      if (conns_[i].rank < 0 && (oldest == conns_.size() || conns_[i].since < conns_[oldest].since)) oldest = i;
    if (oldest == conns_.size()) return false;
    note(kNoteLimit, "closed ", conns_[oldest].who(), ", which had not said which rank it is, for a newer one: ", why);
    drop(oldest);
    return true;
  }

  // accept() found no descriptor (error `e`): a stranger's is taken, or the
  // reserve is given up for the newcomer, which is closed at once; true:
  // accept again.
  bool out_of_descriptors(int e) {
    const std::string why = cat("rank 0's process is out of file descriptors (", std::strerror(e), ")");
    if (close_oldest_stranger(why)) return true;
    if (reserve_ >= 0) {
      ::close(reserve_);
      const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      const int accept_errno = errno;
      if (fd >= 0) ::close(fd);
      reserve_ = open_reserve();
      if (fd >= 0) {
        note(kNoteDescriptors, why, ": a connection was closed as soon as it was accepted");
        return true;
      }
      if (accept_errno == EAGAIN || accept_errno == EWOULDBLOCK) return false;
    }
    // No reserve (another thread took its descriptor): listen again shortly.
    note(kNoteDescriptors, why, ": not accepting for ", kListenPause.count(), " ms");
    listen_paused_until_ = Clock::now() + kListenPause;
    return false;
  }

  void drop(size_t i) {
    Conn& c = conns_[i];
    ::close(c.fd);
    if (c.rank >= 0) {
      std::lock_guard<std::mutex> lock(mu_);
      states_[static_cast<size_t>(c.rank)] = c.bye ? RankState::left : RankState::failed;
      cv_.notify_all();
    }
    conns_.erase(conns_.begin() + static_cast<std::ptrdiff_t>(i));
  }

  std::string where_;
  size_t limit_;
  int listen_fd_ = -1;
  int wake_[2] = {-1, -1};
  std::atomic<bool> stop_{false};
  std::thread thread_;
  // The server thread's only:
  int reserve_ = -1;
  Clock::time_point listen_paused_until_{};
  std::vector<Conn> conns_;
  std::map<std::string, std::string> data_;
  struct Noted {
    Clock::time_point next{};
    uint64_t quiet = 0;
  };
  std::array<Noted, kNoteKinds> noted_{};
  // Shared with the destructor's wait_for_workers:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<RankState> states_;
};

// ------------------------------------------------------------------ client

enum class Io { ok, closed, late };

// Until `fd` is ready for `events` (or has an error the next call reports).
Io wait_for(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, ms_until(deadline));
    if (n > 0) return Io::ok;
    if (n == 0) return Io::late;
    if (errno != EINTR) return Io::closed;
  }
}

Io send_all(int fd, const std::string& data, Clock::time_point deadline) {
  size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      off += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (Io w = wait_for(fd, POLLOUT, deadline); w != Io::ok) return w;
    } else {
      return Io::closed;
    }
  }
  return Io::ok;
}

Io recv_exact(int fd, void* p, size_t n, Clock::time_point deadline) {
  auto* c = static_cast<char*>(p);
  while (n) {
    const ssize_t got = ::recv(fd, c, n, MSG_DONTWAIT);
    if (got > 0) {
      c += got;
      n -= static_cast<size_t>(got);
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (Io w = wait_for(fd, POLLIN, deadline); w != Io::ok) return w;
    } else {
      return Io::closed;
    }
  }
  return Io::ok;
}

class TcpStore final : public Store {
 public:
  TcpStore(const std::string& host, int port, int32_t rank, int32_t world_size, int64_t timeout_ms)
      : where_(endpoint(host, port)), rank_(rank), timeout_ms_(timeout_ms) {
    if (rank == 0) server_ = std::make_unique<Server>(host, port, world_size);
    join(host, port, world_size);
  }

  ~TcpStore() override {
    stop_flusher();
    {
      std::lock_guard<std::timed_mutex> lock(mu_);
      if (fd_ >= 0 && link_ == Link::ok) {
        std::string bye;
        append_u8(bye, kBye);
        send_all(fd_, bye, deadline());
      }
      if (fd_ >= 0) ::close(fd_);
    }
    if (server_) server_->wait_for_workers(5000);
  }

  void put(const std::string& key, const std::string& value) override {
    const auto until = deadline();
    auto lock = take(until, "storing a key");
    uint8_t ok = 0;
    Io io = send_all(fd_, request(kSet, key, &value), until);
    if (io == Io::ok) io = recv_exact(fd_, &ok, 1, until);
    check(io, "storing a key");
  }

  // Posts are sent by a flusher thread, each key's latest value, a few
  // milliseconds after the first one waiting: a collective notes its number
  // here, and a send (waking rank 0's server) per collective cost 16 us of
  // a 20 us all-reduce of 4 bytes (docs/benchmarks.md). The notes are read
  // when a wait times out, seconds later.
  void post(const std::string& key, const std::string& value) noexcept override {
    std::lock_guard<std::mutex> lock(pending_mu_);
    const bool first = pending_.empty();  // else the flusher is awake already: no wake-up per post
    pending_[key] = value;
    if (!flusher_.joinable()) {
      try {
        flusher_pid_ = ::getpid();
        flusher_ = std::thread([this] { flush_loop(); });
      } catch (...) {  // no thread: send it now
        send_posts(std::exchange(pending_, {}));
        return;
      }
    }
    if (first) pending_cv_.notify_one();
  }

  std::optional<std::string> try_get(const std::string& key) override {
    const auto until = deadline();
    auto lock = take(until, "reading a key");
    uint8_t found = 0;
    Io io = send_all(fd_, request(kGet, key, nullptr), until);
    if (io == Io::ok) io = recv_exact(fd_, &found, 1, until);
    check(io, "reading a key");
    if (!found) return std::nullopt;
    std::string value;
    check(read_str(value, until), "reading a key");
    return value;
  }

  std::vector<RankState> rank_states() override {
    const auto until = deadline();
    std::unique_lock<std::timed_mutex> lock(mu_, until);
    if (!lock) return {};  // cannot tell
    std::vector<RankState> states;
    if (link_ == Link::ok) {
      std::string ask;
      append_u8(ask, kStates);
      uint32_t n = 0;
      std::vector<uint8_t> raw;
      Io io = send_all(fd_, ask, until);
      if (io == Io::ok) io = recv_exact(fd_, &n, sizeof n, until);
      if (io == Io::ok && n > (1u << 24)) io = Io::closed;  // not this protocol
      if (io == Io::ok) {
        raw.resize(n);
        io = recv_exact(fd_, raw.data(), n, until);
      }
      if (io == Io::ok) {
        for (uint8_t s : raw) states.push_back(static_cast<RankState>(s));
        return states;
      }
      link_ = io == Io::late ? Link::stalled : Link::closed;
    }
    // The server is gone with rank 0's process: that much is known. A server
    // that stopped answering tells nothing.
    if (link_ == Link::closed && rank_ != 0) states.push_back(RankState::failed);
    return states;
  }

  std::string describe() const override { return "tcp store " + where_; }

 private:
  enum class Link { ok, closed, stalled };

  Clock::time_point deadline() const {
    // Capped at a year: a larger timeout would overflow the clock.
    return Clock::now() + std::chrono::milliseconds(std::min<int64_t>(timeout_ms_, int64_t{365} * 24 * 3600 * 1000));
  }

  // The connection, as rank `rank_`: again, until the deadline, when rank
  // 0's store closed it without an answer (it turns a newcomer away while
  // its process is out of file descriptors).
  void join(const std::string& host, int port, int32_t world_size) {
    const auto until = deadline();
    std::string hello;
    append_u8(hello, kHello);
    append_i32(hello, rank_);
    append_i32(hello, world_size);
    std::lock_guard<std::timed_mutex> lock(mu_);
    for (int tries = 1;; ++tries) {
      connect(host, port, until);
      uint8_t ok = 0;
      std::string error;
      Io io = send_all(fd_, hello, until);
      if (io == Io::ok) io = recv_exact(fd_, &ok, 1, until);
      if (io == Io::ok) io = read_str(error, until);
      if (io == Io::ok && ok) return;
      // A refused or broken join throws from here, where no destructor runs: the socket is closed first.
      ::close(fd_);
      fd_ = -1;
      if (io == Io::ok) fail(PORTA_ERROR_INVALID_ARGUMENT, "tcp store ", where_, ": ", error);
      if (io == Io::late)
        fail(PORTA_ERROR_TIMEOUT, "tcp store: rank ", rank_, " could not join rank 0's store at ", where_, " within ",
             timeout_ms_, " ms: it accepted the connection but did not answer (is rank 0's process stalled, or does ",
             "another program serve that port?)");
      if (Clock::now() >= until)
        fail(PORTA_ERROR_TIMEOUT, "tcp store: rank ", rank_, " could not join rank 0's store at ", where_, " within ",
             timeout_ms_, " ms: it closed the connection without an answer (", tries,
             " tries; rank 0's process may be out of file descriptors, or have ended)");
      std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(50), until - Clock::now()));
    }
  }

  void connect(const std::string& host, int port, Clock::time_point until) {
    int last_errno = 0;
    for (;;) {
      AddrInfo ai(host, port);
      for (addrinfo* a = ai.list; a; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
        if (fd < 0) {
          last_errno = errno;
          continue;
        }
        int e = ::connect(fd, a->ai_addr, a->ai_addrlen) == 0 ? 0 : errno;
        if (e == EINPROGRESS || e == EINTR) {  // under way: until it is done or the deadline
          socklen_t len = sizeof e;
          if (const Io w = wait_for(fd, POLLOUT, until); w != Io::ok)
            e = w == Io::late ? ETIMEDOUT : errno;
          else if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len) != 0)
            e = errno;
        }
        if (e == 0) {
          const int one = 1;
          ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          fd_ = fd;
          return;
        }
        last_errno = e;
        ::close(fd);
      }
      if (Clock::now() >= until)
        fail(PORTA_ERROR_TIMEOUT, "tcp store: rank ", rank_, " could not reach rank 0's store at ", where_, " within ",
             timeout_ms_, " ms (", std::strerror(last_errno),
             "); is rank 0 running, and do MASTER_ADDR and MASTER_PORT name its host and a free port?");
      std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(50), until - Clock::now()));
    }
  }

  // The connection's lock, within the deadline, and the connection usable.
  std::unique_lock<std::timed_mutex> take(Clock::time_point until, const char* doing) {
    std::unique_lock<std::timed_mutex> lock(mu_, until);
    if (!lock)
      fail(PORTA_ERROR_TIMEOUT, "tcp store ", where_, ": another request of this process held the connection for ",
           timeout_ms_, " ms while ", doing);
    if (link_ == Link::closed) lost(doing);
    if (link_ == Link::stalled)
      fail(PORTA_ERROR_TIMEOUT, "tcp store ", where_, ": rank 0's store did not answer an earlier request within ",
           timeout_ms_, " ms, so this connection is not used again (while ", doing, ")");
    return lock;
  }

  void check(Io io, const char* doing) {
    if (io == Io::closed) lost(doing);
    if (io == Io::late) {
      link_ = Link::stalled;
      fail(PORTA_ERROR_TIMEOUT, "tcp store ", where_, ": rank 0's store did not answer within ", timeout_ms_,
           " ms while ", doing, " (rank 0's process is stalled, or the network between failed)");
    }
  }

  std::string request(Request type, const std::string& key, const std::string* value) const {
    std::string out;
    append_u8(out, type);
    append_str(out, key);
    if (value) append_str(out, *value);
    return out;
  }

  Io read_str(std::string& s, Clock::time_point until) {
    uint32_t n = 0;
    if (Io io = recv_exact(fd_, &n, sizeof n, until); io != Io::ok) return io;
    if (n > kMaxValue) return Io::closed;  // not this protocol
    s.resize(n);
    return recv_exact(fd_, s.data(), n, until);
  }

  void send_posts(const std::map<std::string, std::string>& posts) noexcept {
    const auto until = deadline();
    std::unique_lock<std::timed_mutex> lock(mu_, until);
    if (!lock) return;  // the notes are dropped
    for (const auto& [key, value] : posts) {
      if (link_ != Link::ok) return;
      const Io io = send_all(fd_, request(kPost, key, &value), until);
      if (io != Io::ok) link_ = io == Io::late ? Link::stalled : Link::closed;
    }
  }

  void flush_loop() {
    std::unique_lock<std::mutex> lock(pending_mu_);
    for (;;) {
      pending_cv_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
      if (!stopping_) pending_cv_.wait_for(lock, std::chrono::milliseconds(5), [&] { return stopping_; });
      std::map<std::string, std::string> posts = std::exchange(pending_, {});
      const bool stop = stopping_;
      lock.unlock();
      send_posts(posts);
      lock.lock();
      if (stop && pending_.empty()) return;
    }
  }

  // Sends what is pending and ends the flusher (in the process that made it:
  // a forked child has the object but not the thread).
  void stop_flusher() noexcept {
    {
      std::lock_guard<std::mutex> lock(pending_mu_);
      stopping_ = true;
    }
    pending_cv_.notify_one();
    if (!flusher_.joinable()) return;
    if (flusher_pid_ == ::getpid())
      flusher_.join();
    else
      flusher_.detach();
  }

  [[noreturn]] void lost(const char* doing) {
    link_ = Link::closed;
    fail(PORTA_ERROR_BACKEND, "tcp store ", where_, ": the connection closed while ", doing,
         ": rank 0, which serves the store, has ended (or the network between failed)");
  }

  std::string where_;
  int32_t rank_;
  int64_t timeout_ms_;
  std::unique_ptr<Server> server_;  // rank 0's; destroyed after the connection closes
  std::timed_mutex mu_;             // the connection: one request and its reply at a time
  int fd_ = -1;
  Link link_ = Link::ok;
  std::mutex pending_mu_;  // the posts not yet sent, and the flusher's state
  std::condition_variable pending_cv_;
  std::map<std::string, std::string> pending_;
  bool stopping_ = false;
  std::thread flusher_;
  pid_t flusher_pid_ = 0;
};

}  // namespace

std::unique_ptr<Store> make_tcp_store(const std::string& host, int port, int32_t rank, int32_t world_size,
                                      int64_t timeout_ms) {
  if (port < 1 || port > 65535)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "tcp store: port ", port, " is not a TCP port (1 to 65535)");
  return std::make_unique<TcpStore>(host, port, rank, world_size, timeout_ms);
}

}  // namespace porta::dist
