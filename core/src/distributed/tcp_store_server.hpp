// The TCP store's server, rank 0's (tcp_store_server.cpp says what it
// bounds): a thread serving the store at host:port for `world_size` ranks
// from construction to destruction.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace porta::dist {

class TcpStoreServer {
 public:
  TcpStoreServer(const std::string& host, int port, int32_t world_size);
  ~TcpStoreServer();
  TcpStoreServer(const TcpStoreServer&) = delete;
  TcpStoreServer& operator=(const TcpStoreServer&) = delete;

  // Until no rank but those gone is connected, at most `ms`: rank 0 keeps
  // serving while the others finish.
  void wait_for_workers(int64_t ms);

 private:
  class Loop;
  std::unique_ptr<Loop> loop_;
};

}  // namespace porta::dist
