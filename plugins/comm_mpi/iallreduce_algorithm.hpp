// Which algorithm OpenMPI runs a nonblocking all-reduce with. OpenMPI's
// libnbc serves MPI_Iallreduce and, left to itself, picks a binomial tree
// (a reduce of the whole buffer to one rank, then its broadcast) for fewer
// than 4 ranks or an in-place buffer: twice the bytes through one rank that
// the blocking MPI_Allreduce moves. Measured on 2 ranks of this project's
// 2-core machine (docs/benchmarks.md): 4 KiB in 8.8 us against 2.1 us for
// libnbc's own ring, 64 MiB in 97 ms against 36 ms. The ring reduces and
// gathers p segments of bytes / p, 2(p - 1) steps, and matches the blocking
// call from a few KiB up.
//
// libnbc reads its choice, the MCA variable coll_libnbc_iallreduce_algorithm,
// on each call, and MPI's tool interface (MPI_T) may change it while MPI runs
// (scope MPI_T_SCOPE_ALL: every rank must choose alike, which they do, the
// choice depending only on the bytes and the ranks, equal on every rank of
// a matching call). So each large all-reduce is posted with the ring chosen
// and the variable put back after. Nothing is changed where the library has
// no such variable (MPICH, another OpenMPI) or where the user set it
// (OMPI_MCA_coll_libnbc_iallreduce_algorithm): their choice stands.
#pragma once

#define OMPI_SKIP_MPICXX 1  // the C API only
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cstdint>
#include <mutex>

namespace porta::comm_mpi {

class IallreduceAlgorithm {
 public:
  // After MPI_Init_thread: finds the variable, if the library has one the
  // user left at its default.
  void init();
  // Before MPI_Finalize.
  void finalize();

  // Runs `post` (which calls MPI_Iallreduce) with the algorithm for `bytes`
  // on `ranks` ranks chosen; returns its MPI error code.
  template <typename Post>
  int post(int64_t bytes, int ranks, Post&& post) {
    if (!adjustable_ || bytes < kRingFromBytesPerRank * ranks) return post();
    std::lock_guard<std::mutex> lock(mu_);
    int ring = kRing;
    MPI_T_cvar_write(handle_, &ring);
    const int e = post();
    int chosen_by_libnbc = kLibnbcChooses;
    MPI_T_cvar_write(handle_, &chosen_by_libnbc);
    return e;
  }

 private:
  static constexpr int kLibnbcChooses = 0;  // the variable's values
  static constexpr int kRing = 1;
  // The ring from 1 KiB per rank: on 2 ranks it was as fast as the binomial
  // tree at 2 KiB and 4x faster at 4 KiB (vader's eager limit); more ranks
  // need larger segments to pay for the ring's 2(p - 1) steps.
  static constexpr int64_t kRingFromBytesPerRank = 1024;

  bool adjustable_ = false;
  bool tool_interface_ = false;
  MPI_T_cvar_handle handle_ = MPI_T_CVAR_HANDLE_NULL;
  std::mutex mu_;
};

}  // namespace porta::comm_mpi
