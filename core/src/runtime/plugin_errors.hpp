// The host tables handed to plugins (device and communicator), and the
// channel plugins report errors through (a thread-local message the core
// picks up after a failed call).
#pragma once

#include <porta/comm.h>
#include <porta/plugin.h>

#include <string>

namespace porta {

const porta_host_api* host_api();
// The same services for communicator plugins (porta/comm.h).
const porta_comm_host_api* comm_host_api();
// Returns and clears the message the current thread's last plugin call set.
std::string take_plugin_error();

}  // namespace porta
