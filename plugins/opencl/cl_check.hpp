// OpenCL errors as Porta statuses: every failing call becomes a message
// naming the call and the CL error ("clEnqueueNDRangeKernel failed:
// CL_OUT_OF_RESOURCES") recorded through the host table.
#pragma once

#include <CL/cl.h>
#include <porta/plugin.h>

#include <string>

namespace porta::opencl {

// The core's table, kept by initialize().
void set_host_api(const porta_host_api* host);

// Records `message` with the core and returns `status`.
porta_status report(porta_status status, const std::string& message);

// Writes a log line (PORTA_LOG=debug shows debug lines).
void log(porta_log_level level, const std::string& message);

// "CL_OUT_OF_RESOURCES", or "CL error -N" for codes OpenCL 1.2 does not name.
std::string cl_error_name(cl_int err);

// The status for `err`: OUT_OF_MEMORY when memory ran out, else BACKEND.
porta_status cl_status(cl_int err);

// Reports "<call> failed: <CL error>" (plus ": <detail>" when given).
porta_status report_cl(const std::string& call, cl_int err, const std::string& detail = {});

}  // namespace porta::opencl
