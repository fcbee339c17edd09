// Communicator plugins (porta/comm.h): found by name, libporta_comm_<name>.so,
// in PORTA_COMM_PLUGIN_PATH (colon-separated absolute directories or files)
// and then <libdir>/porta/comm beside libporta.so, loaded on first use with
// the same trust check as device plugins, and kept until exit.
#pragma once

#include <porta/comm.h>

#include <string>
#include <vector>

namespace porta::dist {

struct CommBackend {
  porta_comm_api api{};  // copied; fields beyond the plugin's struct_size are NULL
  std::string path, name, version;
  std::vector<int32_t> device_types;
  bool serves(int32_t device_type) const;
};

// The communicator plugin called `name` ("mpi"), loaded on first use; throws
// BACKEND naming each file tried and why it failed, or NO_SUCH_DEVICE when
// no file of that name exists, listing the backends that do.
CommBackend& comm_backend(const std::string& name);

// The names of the communicator plugins the search finds, loaded or not.
std::vector<std::string> comm_backend_names();

// Throws the plugin's error (or the status's name) as a porta::Error
// prefixed with "<backend> <what>: " when `st` is not OK.
void check_comm(porta_status st, const CommBackend& b, const char* what);

}  // namespace porta::dist
