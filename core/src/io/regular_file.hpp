// Opening a file to read it, refusing anything but a regular file before it
// can block: the open itself is non-blocking (a FIFO with no writer, a
// terminal or a device would otherwise hang it), then fstat decides.
#pragma once

#include <string>

namespace porta::io {

// A read-only descriptor of `path` (blocking again once opened), owned by the
// caller; throws PORTA_ERROR_IO naming `where` ("read_idx: '<path>'") when
// it cannot be opened or is not a regular file.
int open_regular_file(const char* path, const std::string& where);

}  // namespace porta::io
