// Runs a shell command from a test and captures what it prints.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace porta_test {

struct CommandResult {
  std::string output;  // standard output (append " 2>&1" to the command for standard error too)
  int exit_status;     // the exit code; -1 when the command could not start or did not exit normally
};

inline CommandResult run_command(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {"", -1};
  std::string out;
  std::array<char, 4096> buf;
  for (size_t n; (n = fread(buf.data(), 1, buf.size(), pipe)) > 0;) out.append(buf.data(), n);
  const int status = pclose(pipe);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

}  // namespace porta_test
