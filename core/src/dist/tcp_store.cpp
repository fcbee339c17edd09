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
#include "dist/tcp_store.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

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

#include "runtime/error.hpp"

namespace porta::dist {
namespace {

enum Request : uint8_t { kHello = 1, kSet, kPost, kGet, kStates, kBye };

constexpr uint32_t kMaxKey = 64 << 10;
constexpr uint32_t kMaxValue = 256u << 20;

void append_raw(std::string& out, const void* p, size_t n) { out.append(static_cast<const char*>(p), n); }
void append_u8(std::string& out, uint8_t v) { out.push_back(static_cast<char>(v)); }
void append_i32(std::string& out, int32_t v) { append_raw(out, &v, sizeof v); }
void append_str(std::string& out, const std::string& s) {
  const auto n = static_cast<uint32_t>(s.size());
  append_raw(out, &n, sizeof n);
  out += s;
}

// Reads fields from the front of a buffer; each returns false when the
// buffer does not hold the whole field yet.
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
  // `limit`: a longer string is a protocol error (`bad` set).
  bool str(std::string& s, uint32_t limit, bool& bad) {
    uint32_t n = 0;
    if (!u32(n)) return false;
    if (n > limit) {
      bad = true;
      return false;
    }
    if (buf.size() - pos < n) return false;
    s.assign(buf.data() + pos, n);
    pos += n;
    return true;
  }
};

bool send_all(int fd, const std::string& data) {
  size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

bool recv_exact(int fd, void* p, size_t n) {
  auto* c = static_cast<char*>(p);
  while (n) {
    const ssize_t got = ::recv(fd, c, n, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    c += got;
    n -= static_cast<size_t>(got);
  }
  return true;
}

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

// ------------------------------------------------------------------ server

// Whether porta-run chose `port` and holds it for this job (PORTA_RUN_HELD_PORT).
bool held_by_launcher(int port) {
  const char* held = std::getenv("PORTA_RUN_HELD_PORT");
  return held && std::to_string(port) == held;
}

class Server {
 public:
  Server(const std::string& host, int port, int32_t world_size) : states_(static_cast<size_t>(world_size)) {
    AddrInfo ai(host, port);
    int last_errno = 0;
    for (addrinfo* a = ai.list; a && listen_fd_ < 0; a = a->ai_next) {
      const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
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
      const std::string where = endpoint(host, port);
      if (last_errno == EADDRINUSE)
        fail(PORTA_ERROR_IO, "tcp store: rank 0 cannot serve at ", where,
             ": the port is in use (another job, or one that just ended); choose another MASTER_PORT");
      if (last_errno == EADDRNOTAVAIL)
        fail(PORTA_ERROR_INVALID_ARGUMENT, "tcp store: rank 0 cannot serve at ", where, ": '", host,
             "' is not an address of this machine; MASTER_ADDR must name rank 0's host");
      fail(PORTA_ERROR_IO, "tcp store: rank 0 cannot serve at ", where, ": ", std::strerror(last_errno));
    }
    if (::pipe2(wake_, O_CLOEXEC) != 0) {
      ::close(listen_fd_);
      fail(PORTA_ERROR_IO, "tcp store: pipe: ", std::strerror(errno));
    }
    thread_ = std::thread([this] { run(); });
  }

  ~Server() {
    const char stop = 1;
    if (::write(wake_[1], &stop, 1) < 0) {
      // the thread then runs until the process ends; nothing else to do
    }
    thread_.join();
    for (auto& c : conns_) ::close(c.fd);
    ::close(listen_fd_);
    ::close(wake_[0]);
    ::close(wake_[1]);
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
    std::string in;
    int32_t rank = -1;
    bool bye = false;
  };

  void run() {
    std::vector<pollfd> fds;
    for (;;) {
      fds.clear();
      fds.push_back({wake_[0], POLLIN, 0});
      fds.push_back({listen_fd_, POLLIN, 0});
      for (auto& c : conns_) fds.push_back({c.fd, POLLIN, 0});
      if (::poll(fds.data(), fds.size(), -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (fds[0].revents) return;
      // Connections first (their indices match fds from 2), new ones after.
      std::vector<size_t> closed;
      for (size_t i = 0; i < conns_.size(); ++i)
        if (fds[i + 2].revents && !serve(conns_[i])) closed.push_back(i);
      for (auto it = closed.rbegin(); it != closed.rend(); ++it) drop(*it);
      if (fds[1].revents & POLLIN) {
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd >= 0) {
          const int one = 1;
          ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          conns_.push_back(Conn{fd, {}, -1, false});
        }
      }
    }
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

  // Reads what arrived and answers every whole request; false: close it.
  bool serve(Conn& c) {
    char chunk[64 << 10];
    const ssize_t n = ::recv(c.fd, chunk, sizeof chunk, 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
    if (n <= 0) return false;
    c.in.append(chunk, static_cast<size_t>(n));
    for (;;) {
      Reader r{c.in};
      bool bad = false;
      std::string reply;
      const int done = handle(c, r, bad, reply);
      if (bad) return false;
      if (done == 0) return true;  // the rest has not arrived
      c.in.erase(0, r.pos);
      if (!reply.empty() && !send_all(c.fd, reply)) return false;
      if (done < 0) return false;
    }
  }

  // 1: a request handled, 0: incomplete, -1: handled and the connection ends.
  int handle(Conn& c, Reader& r, bool& bad, std::string& reply) {
    uint8_t type = 0;
    if (!r.u8(type)) return 0;
    switch (type) {
      case kHello: {
        int32_t rank = 0, world = 0;
        if (!r.i32(rank) || !r.i32(world)) return 0;
        std::string error = hello(c, rank, world);
        append_u8(reply, error.empty() ? 1 : 0);
        append_str(reply, error);
        return 1;
      }
      case kSet:
      case kPost: {
        std::string key, value;
        if (!r.str(key, kMaxKey, bad) || !r.str(value, kMaxValue, bad)) return 0;
        data_[key] = std::move(value);
        if (type == kSet) append_u8(reply, 1);
        return 1;
      }
      case kGet: {
        std::string key;
        if (!r.str(key, kMaxKey, bad)) return 0;
        auto it = data_.find(key);
        append_u8(reply, it != data_.end());
        if (it != data_.end()) append_str(reply, it->second);
        return 1;
      }
      case kStates: {
        std::lock_guard<std::mutex> lock(mu_);
        const auto n = static_cast<uint32_t>(states_.size());
        append_raw(reply, &n, sizeof n);
        for (RankState s : states_) append_u8(reply, static_cast<uint8_t>(s));
        return 1;
      }
      case kBye:
        c.bye = true;
        return -1;
      default:
        bad = true;
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

  int listen_fd_ = -1;
  int wake_[2] = {-1, -1};
  std::thread thread_;
  std::vector<Conn> conns_;                  // the server thread's only
  std::map<std::string, std::string> data_;  // the server thread's only
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<RankState> states_;
};

// ------------------------------------------------------------------ client

class TcpStore final : public Store {
 public:
  TcpStore(const std::string& host, int port, int32_t rank, int32_t world_size, int64_t timeout_ms)
      : where_(endpoint(host, port)), rank_(rank), timeout_ms_(timeout_ms) {
    if (rank == 0) server_ = std::make_unique<Server>(host, port, world_size);
    connect(host, port);
    std::string hello;
    append_u8(hello, kHello);
    append_i32(hello, rank);
    append_i32(hello, world_size);
    std::lock_guard<std::mutex> lock(mu_);
    uint8_t ok = 0;
    std::string error;
    // A refused or broken join throws from here, where no destructor runs: the socket is closed first.
    if (!send_all(fd_, hello) || !recv_exact(fd_, &ok, 1) || !read_str(error)) {
      ::close(fd_);
      lost("joining");
    }
    if (!ok) {
      ::close(fd_);
      fail(PORTA_ERROR_INVALID_ARGUMENT, "tcp store ", where_, ": ", error);
    }
  }

  ~TcpStore() override {
    stop_flusher();
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (fd_ >= 0 && !broken_) {
        std::string bye;
        append_u8(bye, kBye);
        send_all(fd_, bye);
      }
      if (fd_ >= 0) ::close(fd_);
    }
    if (server_) server_->wait_for_workers(5000);
  }

  void put(const std::string& key, const std::string& value) override {
    std::lock_guard<std::mutex> lock(mu_);
    uint8_t ok = 0;
    if (!send_all(fd_, request(kSet, key, &value)) || !recv_exact(fd_, &ok, 1)) lost("storing a key");
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
    std::lock_guard<std::mutex> lock(mu_);
    uint8_t found = 0;
    if (!send_all(fd_, request(kGet, key, nullptr)) || !recv_exact(fd_, &found, 1)) lost("reading a key");
    if (!found) return std::nullopt;
    std::string value;
    if (!read_str(value)) lost("reading a key");
    return value;
  }

  std::vector<RankState> rank_states() override {
    std::lock_guard<std::mutex> lock(mu_);
    std::string ask;
    append_u8(ask, kStates);
    uint32_t n = 0;
    std::vector<RankState> states;
    if (!broken_ && send_all(fd_, ask) && recv_exact(fd_, &n, sizeof n)) {
      std::vector<uint8_t> raw(n);
      if (recv_exact(fd_, raw.data(), n)) {
        for (uint8_t s : raw) states.push_back(static_cast<RankState>(s));
        return states;
      }
    }
    // The server is gone with rank 0's process: that much is known.
    broken_ = true;
    if (rank_ != 0) states.push_back(RankState::failed);
    return states;
  }

  std::string describe() const override { return "tcp store " + where_; }

 private:
  void connect(const std::string& host, int port) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms_);
    int last_errno = 0;
    for (;;) {
      AddrInfo ai(host, port);
      for (addrinfo* a = ai.list; a; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) continue;
        if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
          const int one = 1;
          ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          fd_ = fd;
          return;
        }
        last_errno = errno;
        ::close(fd);
      }
      if (std::chrono::steady_clock::now() >= deadline)
        fail(PORTA_ERROR_TIMEOUT, "tcp store: rank ", rank_, " could not reach rank 0's store at ", where_, " within ",
             timeout_ms_, " ms (", std::strerror(last_errno),
             "); is rank 0 running, and do MASTER_ADDR and MASTER_PORT name its host and a free port?");
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  std::string request(Request type, const std::string& key, const std::string* value) const {
    std::string out;
    append_u8(out, type);
    append_str(out, key);
    if (value) append_str(out, *value);
    return out;
  }

  bool read_str(std::string& s) {
    uint32_t n = 0;
    if (!recv_exact(fd_, &n, sizeof n)) return false;
    s.resize(n);
    return recv_exact(fd_, s.data(), n);
  }

  void send_posts(const std::map<std::string, std::string>& posts) noexcept {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [key, value] : posts)
      if (!broken_ && !send_all(fd_, request(kPost, key, &value))) broken_ = true;
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
    broken_ = true;
    fail(PORTA_ERROR_BACKEND, "tcp store ", where_, ": the connection closed while ", doing,
         ": rank 0, which serves the store, has ended (or the network between failed)");
  }

  std::string where_;
  int32_t rank_;
  int64_t timeout_ms_;
  std::unique_ptr<Server> server_;  // rank 0's; destroyed after the connection closes
  std::mutex mu_;
  int fd_ = -1;
  bool broken_ = false;
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
