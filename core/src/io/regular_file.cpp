#include "io/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "runtime/error.hpp"

namespace porta::io {

int open_regular_file(const char* path, const std::string& where) {
  const int fd = ::open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    fail(PORTA_ERROR_IO, where, ": cannot open: ", std::strerror(errno), " (check the path and its permissions)");
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (!regular || ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
    ::close(fd);
    fail(PORTA_ERROR_IO, where, ": not a regular file (",
         S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket",
         "), which Porta does not read: reading it could block or never end");
  }
  return fd;
}

}  // namespace porta::io
