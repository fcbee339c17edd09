#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <random>

#include "runtime/error.hpp"

namespace porta::io {
namespace {

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// "<dir>/.<name>.tmp-<pid>-<n><random>": unique per process and call, and
// hidden, so a crash mid-write leaves nothing that looks like the file.
std::string temporary_name(const std::string& target) {
  static std::atomic<uint64_t> counter{0};
  static thread_local std::mt19937_64 random{std::random_device{}()};
  const auto slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : target.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
  return cat(dir, ".", name, ".tmp-", ::getpid(), "-", counter.fetch_add(1), "-", std::hex, random() & 0xffffffff);
}

}  // namespace

AtomicFile::AtomicFile(const char* path, const char* op) : target_(path), where_(cat(op, ": '", path, "'")) {
  struct stat st {};
  mode_t mode = 0666;  // as fopen creates files: the umask decides
  bool keep_mode = false;
  if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
    char* resolved = realpath(path, nullptr);
    if (resolved == nullptr)
      fail(PORTA_ERROR_IO, where_, ": it is a symlink to a missing file (", std::strerror(errno),
           "); save to the link's target or remove the link");
    target_ = resolved;
    std::free(resolved);
  }
  if (stat(target_.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode))
      fail(PORTA_ERROR_IO, where_, ": it exists and is not a regular file (a directory, FIFO or device); "
           "choose another path");
    mode = st.st_mode & 07777;
    keep_mode = true;
  }
  for (int attempt = 0; fd_ < 0; ++attempt) {
    tmp_ = temporary_name(target_);
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd_ < 0 && (errno != EEXIST || attempt == 16))
      fail(PORTA_ERROR_IO, where_, ": cannot create a temporary file in '", directory_of(target_), "': ",
           std::strerror(errno), " (check that the directory exists and is writable)");
  }
  if (keep_mode && ::fchmod(fd_, mode) != 0)
    fail(PORTA_ERROR_IO, where_, ": cannot give the new file the mode of the old one: ", std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !tmp_.empty()) ::unlink(tmp_.c_str());
}

void AtomicFile::write(const void* data, size_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd_, p, std::min<size_t>(bytes, size_t{1} << 30));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      fail(PORTA_ERROR_IO, where_, ": writing failed: ", n < 0 ? std::strerror(errno) : "nothing written",
           " (is the disk full?)");
    p += n;
    bytes -= static_cast<size_t>(n);
  }
}

void AtomicFile::commit() {
  if (::fsync(fd_) != 0) fail(PORTA_ERROR_IO, where_, ": writing failed: ", std::strerror(errno), " (is the disk full?)");
  const int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0) fail(PORTA_ERROR_IO, where_, ": writing failed: ", std::strerror(errno), " (is the disk full?)");
  if (std::rename(tmp_.c_str(), target_.c_str()) != 0)
    fail(PORTA_ERROR_IO, where_, ": cannot replace '", target_, "': ", std::strerror(errno),
         " (is the path a directory, or the directory read-only?)");
  committed_ = true;
  // The rename is durable once the directory is flushed too.
  const int dir = ::open(directory_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace porta::io
