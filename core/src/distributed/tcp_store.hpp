// The TCP store of init_method "env://" (MASTER_ADDR, MASTER_PORT) and
// "tcp://host:port", as torch.distributed's TCPStore: rank 0 serves the keys
// from a thread of its own, every rank (rank 0 too) is a client over one
// connection. Besides keys, the server knows who is there: each client says
// its rank when it connects and goodbye when its store is destroyed, so a
// connection that closes without goodbye is a rank that died, and a rank's
// waits can end with that news instead of a timeout.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "distributed/store.hpp"

namespace porta::dist {

// Connects rank `rank` of `world_size` to the store at host:port, serving it
// when rank is 0 (bound to host's address only, never every interface).
// Each wait of the client (reaching the server, joining, every request) ends
// within timeout_ms; refuses a rank that is already connected or a world
// size that differs from rank 0's. The server bounds what any other client
// can cost it (tcp_store.cpp).
std::unique_ptr<Store> make_tcp_store(const std::string& host, int port, int32_t rank, int32_t world_size,
                                      int64_t timeout_ms);

}  // namespace porta::dist
