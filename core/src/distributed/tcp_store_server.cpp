// The TCP store's server (tcp_store_server.hpp; the protocol in
// tcp_store_wire.hpp).
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
#include "distributed/tcp_store_server.hpp"

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
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "distributed/store.hpp"
#include "distributed/tcp_store_wire.hpp"
#include "runtime/log.hpp"

namespace porta::dist {
using namespace tcp_wire;
namespace {

// The server's bounds on what reaches its port (the file's comment).
constexpr size_t kMaxUnread = 1u << 20;
constexpr auto kHelloWithin = std::chrono::seconds(5);
constexpr auto kListenPause = std::chrono::milliseconds(100);
constexpr int kAcceptsPerTurn = 64;
size_t connection_limit(int32_t world_size) { return 4 * static_cast<size_t>(world_size) + 32; }

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

}  // namespace

class TcpStoreServer::Loop {
 public:
  Loop(const std::string& host, int port, int32_t world_size)
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

  ~Loop() {
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

  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

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

TcpStoreServer::TcpStoreServer(const std::string& host, int port, int32_t world_size)
    : loop_(std::make_unique<Loop>(host, port, world_size)) {}

TcpStoreServer::~TcpStoreServer() = default;

void TcpStoreServer::wait_for_workers(int64_t ms) { loop_->wait_for_workers(ms); }

}  // namespace porta::dist
