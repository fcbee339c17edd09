// The TCP store's client (tcp_store.hpp; the protocol in tcp_store_wire.hpp,
// rank 0's server in tcp_store_server.cpp).
// A client bounds each wait (connect, send, receive, its own lock) by the
// process group's timeout. A request that times out leaves the connection
// out of step with the replies, so it is not used again.
#include "distributed/tcp_store.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "distributed/tcp_store_server.hpp"
#include "distributed/tcp_store_wire.hpp"
#include "runtime/error.hpp"

namespace porta::dist {
namespace {
using namespace tcp_wire;

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

// Moves n bytes through `step` (one non-blocking send or recv of the bytes
// from `done` on), waiting for `events` while the socket cannot take more;
// a step that moves nothing is the peer gone.
template <class Step>
Io move_all(int fd, size_t n, short events, Clock::time_point deadline, Step step) {
  size_t done = 0;
  while (done < n) {
    const ssize_t moved = step(done);
    if (moved > 0) {
      done += static_cast<size_t>(moved);
    } else if (moved < 0 && errno == EINTR) {
      continue;
    } else if (moved < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (Io w = wait_for(fd, events, deadline); w != Io::ok) return w;
    } else {
      return Io::closed;
    }
  }
  return Io::ok;
}

Io send_all(int fd, const std::string& data, Clock::time_point deadline) {
  return move_all(fd, data.size(), POLLOUT, deadline, [&](size_t done) {
    return ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
  });
}

Io recv_exact(int fd, void* p, size_t n, Clock::time_point deadline) {
  auto* c = static_cast<char*>(p);
  return move_all(fd, n, POLLIN, deadline, [&](size_t done) { return ::recv(fd, c + done, n - done, MSG_DONTWAIT); });
}

class TcpStore final : public Store {
 public:
  TcpStore(const std::string& host, int port, int32_t rank, int32_t world_size, int64_t timeout_ms)
      : where_(endpoint(host, port)), rank_(rank), timeout_ms_(timeout_ms) {
    if (rank == 0) server_ = std::make_unique<TcpStoreServer>(host, port, world_size);
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
  std::unique_ptr<TcpStoreServer> server_;  // rank 0's; destroyed after the connection closes
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
