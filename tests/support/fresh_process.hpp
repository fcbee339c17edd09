// Runs a test body in a forked child, so that it meets Porta as a new
// process does: no plugin loaded yet, environment variables read for the
// first time. The parent must not have used Porta itself. The body returns
// "" on success or what went wrong; a crash or exit in the child is reported.
// With capture_stderr, what the child writes to stderr is returned too.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <string>

// In a body run by in_fresh_process: returns `what` (the failure) unless `cond`.
#define CHILD_REQUIRE(cond, what) \
  if (!(cond)) return std::string(what)

namespace porta_test {

inline std::string in_fresh_process(const std::function<std::string()>& body, bool capture_stderr = false) {
  int fds[2];
  if (pipe(fds) != 0) return "pipe() failed";
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return "fork() failed";
  if (pid == 0) {
    close(fds[0]);
    if (capture_stderr) dup2(fds[1], STDERR_FILENO);
    const std::string result = body();
    const char* p = result.data();
    for (size_t left = result.size(); left > 0;) {
      const ssize_t n = write(fds[1], p, left);
      if (n <= 0) break;
      p += n;
      left -= static_cast<size_t>(n);
    }
    _exit(0);  // no static destructors: the parent's gtest state is not ours to tear down
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status)) return "the child died (signal " + std::to_string(WTERMSIG(status)) + "): " + out;
  return out;
}

}  // namespace porta_test
