// Builds OpenCL programs through an on-disk cache of program binaries, so a
// second process start skips the compiler.
//
// Directory: $PORTA_OPENCL_CACHE, else $XDG_CACHE_HOME/porta/opencl, else
// ~/.cache/porta/opencl. One file per program, named by a hash of its key:
// device name, driver version, platform name and version, build options and
// the source. The file's header repeats the key and the source hash and
// gives the binary's length and hash; an entry that does not match, or
// whose binary fails clBuildProgram, is rebuilt from source and overwritten.
// Writes go to a temporary file renamed into place, so readers never see a
// partial entry.
#pragma once

#include <string>

#include "device.hpp"

namespace porta::opencl {

// The cache directory (may not exist yet); empty when no location is known.
std::string program_cache_dir();

// Builds `source` with `options` for `dev`; `label` names the program in
// messages and debug logs.
porta_status build_program(Device& dev, const std::string& label, const std::string& source, const std::string& options,
                           cl_program* out);

}  // namespace porta::opencl
