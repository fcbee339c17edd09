// porta-run: starts the processes of a data-parallel job on this machine,
// as torchrun --standalone does for PyTorch:
//
//   porta-run -n 4 python train.py --epochs 3
//
// The processes are started by the MPI launcher (the mpi communicator
// plugin's ranks must be: MPI connects processes only within one launch),
// with MASTER_ADDR and MASTER_PORT set to a free port of this machine, so
// that init_process_group() makes the TCP store of "env://" there: rank 0
// serves it, a rank that dies ends the others' waits, a timeout names the
// ranks missing. When a rank fails the launcher ends the others, saying
// which rank and why. Several machines: run mpirun yourself with the same
// variables (docs/distributed.md).
//
// Each process then gets torchrun's variables too (RANK, LOCAL_RANK,
// WORLD_SIZE, LOCAL_WORLD_SIZE): the launcher starts porta-run itself in
// its child mode, which reads them from the launcher's own (OpenMPI's
// OMPI_COMM_WORLD_*, MPICH's PMI_*) and runs the program, so backends
// without a launcher of their own (nccl) know their rank, and a program can
// pick its device as cuda:LOCAL_RANK.
//
// PORTA_MPIEXEC chooses the launcher command, split at spaces (default
// "mpiexec"), e.g. "mpiexec --allow-run-as-root --oversubscribe".
#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace {

void usage(FILE* to) {
  std::fputs(
      "usage: porta-run -n N [--master-addr ADDR] [--master-port PORT] [--] PROGRAM [ARGS...]\n"
      "Starts N processes of PROGRAM on this machine through the MPI launcher, with MASTER_ADDR and\n"
      "MASTER_PORT set for init_process_group's env:// store.\n"
      "  -n, --nproc N        number of processes (ranks)\n"
      "  --master-addr ADDR   where rank 0 serves the store (default 127.0.0.1)\n"
      "  --master-port PORT   its TCP port (default: a free one)\n"
      "Each process gets RANK, LOCAL_RANK, WORLD_SIZE and LOCAL_WORLD_SIZE as torchrun sets them.\n"
      "PORTA_MPIEXEC: the launcher command (default \"mpiexec\"), split at spaces.\n",
      to);
}

[[noreturn]] void die(const std::string& message) {
  std::fprintf(stderr, "porta-run: %s\n", message.c_str());
  std::exit(2);
}

int positive(const char* text, const char* what, long max) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (errno || !*text || *end || v < 1 || v > max)
    die(std::string(what) + " must be a whole number from 1 to " + std::to_string(max) + ", got '" + text + "'");
  return static_cast<int>(v);
}

// A free port on `addr`, held for the whole job: the socket bound to it
// (SO_REUSEPORT, never listening) is inherited by the launcher this process
// becomes, so no other program (the launcher's own daemons, another job) can
// take the port before rank 0's store binds it, which it may, being told the
// port is held (PORTA_RUN_HELD_PORT) and binding with SO_REUSEPORT too.
// Connections reach only the listening socket, rank 0's.
int hold_free_port(const std::string& addr) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  if (int e = ::getaddrinfo(addr.c_str(), "0", &hints, &list); e != 0)
    die("cannot resolve --master-addr '" + addr + "': " + ::gai_strerror(e));
  int port = -1;
  for (addrinfo* a = list; a && port < 0; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);  // no CLOEXEC: it outlives exec
    if (fd < 0) continue;
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len) == 0)
      port = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                               : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    else
      ::close(fd);
  }
  ::freeaddrinfo(list);
  if (port < 0) die("no free port on '" + addr + "' (is it an address of this machine?)");
  return port;
}

// The first of `names` set in the environment, or nullptr.
const char* first_env(std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (const char* v = std::getenv(n); v && *v) return v;
  return nullptr;
}

// Child mode (porta-run --as-rank -- PROGRAM ARGS, as the launcher starts
// it): torchrun's variables from the launcher's, then PROGRAM.
[[noreturn]] void run_as_rank(char** program) {
  const char* rank = first_env({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"});
  const char* size = first_env({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"});
  if (!rank || !size)
    die("--as-rank: this process was not started by an MPI launcher (no OMPI_COMM_WORLD_RANK or "
        "PMI_RANK): run porta-run -n N PROGRAM instead");
  const char* local = first_env({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK"});
  const char* local_size = first_env({"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "PMI_LOCAL_SIZE"});
  ::setenv("RANK", rank, 1);
  ::setenv("WORLD_SIZE", size, 1);
  ::setenv("LOCAL_RANK", local ? local : rank, 1);
  ::setenv("LOCAL_WORLD_SIZE", local_size ? local_size : size, 1);
  ::execvp(program[0], program);
  die(std::string("cannot run '") + program[0] + "': " + std::strerror(errno));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::strcmp(argv[1], "--as-rank") == 0 && std::strcmp(argv[2], "--") == 0) run_as_rank(argv + 3);
  int nproc = 0, port = 0;
  std::string addr = "127.0.0.1";
  int i = 1;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) die(std::string(name) + " needs a value");
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      usage(stdout);
      return 0;
    } else if (a == "-n" || a == "--nproc" || a == "--nproc-per-node") {
      nproc = positive(value("-n"), "-n", 4096);
    } else if (a == "--master-addr") {
      addr = value("--master-addr");
    } else if (a == "--master-port") {
      port = positive(value("--master-port"), "--master-port", 65535);
    } else if (a == "--") {
      ++i;
      break;
    } else if (!a.empty() && a[0] == '-') {
      usage(stderr);
      die("unknown option '" + a + "'");
    } else {
      break;
    }
  }
  if (nproc == 0) {
    usage(stderr);
    die("give the number of processes: -n N");
  }
  if (i >= argc) {
    usage(stderr);
    die("give the program to run");
  }
  if (port == 0) {
    port = hold_free_port(addr);
    ::setenv("PORTA_RUN_HELD_PORT", std::to_string(port).c_str(), 1);
  }
  ::setenv("MASTER_ADDR", addr.c_str(), 1);
  ::setenv("MASTER_PORT", std::to_string(port).c_str(), 1);

  const char* launcher = std::getenv("PORTA_MPIEXEC");
  std::vector<std::string> words;
  std::istringstream split(launcher && *launcher ? launcher : "mpiexec");
  for (std::string w; split >> w;) words.push_back(w);
  words.push_back("-n");
  words.push_back(std::to_string(nproc));
  char self[4096];
  const ssize_t len = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) die(std::string("cannot find its own executable (/proc/self/exe): ") + std::strerror(errno));
  words.push_back(std::string(self, static_cast<size_t>(len)));
  words.push_back("--as-rank");
  words.push_back("--");
  for (; i < argc; ++i) words.push_back(argv[i]);
  std::vector<char*> args;
  for (auto& w : words) args.push_back(w.data());
  args.push_back(nullptr);
  ::execvp(args[0], args.data());
  die("cannot start the MPI launcher '" + words[0] + "': " + std::strerror(errno) +
      " (install MPI: scripts/install-deps.sh, or set PORTA_MPIEXEC)");
}
