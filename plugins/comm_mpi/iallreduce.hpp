// How the mpi plugin posts an all-reduce: as MPI_Iallreduce calls that OpenMPI
// runs at the blocking MPI_Allreduce's speed or better (docs/benchmarks.md,
// all measured on 2 ranks of this project's 2-core machine).
//
// * The ring. OpenMPI's libnbc serves MPI_Iallreduce and, left to itself,
//   picks a binomial tree (a reduce of the whole buffer to one rank, then its
//   broadcast) for fewer than 4 ranks or an in-place buffer: 4 KiB in 8.8 us
//   against 2.1 us for libnbc's own ring, 64 MiB in 97 ms against 36 ms. The
//   ring reduces and gathers p segments of bytes / p, 2(p - 1) steps, and
//   matches the blocking call from a few KiB up. libnbc reads its choice, the
//   MCA variable coll_libnbc_iallreduce_algorithm, on each call, and MPI's
//   tool interface (MPI_T) may change it while MPI runs (scope
//   MPI_T_SCOPE_ALL: every rank must choose alike, which they do, the choice
//   depending only on the bytes and the ranks, equal on every rank of a
//   matching call). So each large all-reduce is posted with the ring chosen
//   and the variable put back after. Nothing is changed where the library
//   has no such variable (MPICH, another OpenMPI) or where the user set it
//   (OMPI_MCA_coll_libnbc_iallreduce_algorithm): their choice stands.
// * Pieces. An all-reduce of more than kPieceBytes is cut into pieces of
//   about that size, each its own MPI_Iallreduce (every rank cuts a buffer
//   alike), which the communicator's sequencer posts one after another
//   (sequencer.hpp says why): 51.7 MB (the demo's gradients) took 33 ms in
//   one call, and in 4 MiB pieces one after another a median of 10.9-14.7 ms
//   in three of four runs, whose working set stays in the cache, where one
//   call's streams through memory (MPI_Allreduce itself: 36.9 ms at 64 MiB,
//   4.8 ms at 16 MiB).
#pragma once

#define OMPI_SKIP_MPICXX 1  // the C API only
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cstdint>
#include <mutex>
#include <vector>

#include "sequencer.hpp"

namespace porta::comm_mpi {

class Iallreduce {
 public:
  // After MPI_Init_thread: finds the variable, if the library has one the
  // user left at its default.
  void init();
  // Before MPI_Finalize.
  void finalize();

  // The MPI calls of the all-reduce of `count` elements of `type` at `recv`
  // (`send`: MPI_IN_PLACE or another buffer) over `comm` of `ranks` ranks:
  // one per piece, in order.
  std::vector<Sequencer::Post> pieces(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                                      MPI_Comm comm, int ranks);

  static constexpr int64_t kPieceBytes = int64_t{4} << 20;

 private:
  static constexpr int kLibnbcChooses = 0;  // the variable's values
  static constexpr int kRing = 1;
  // The ring from 1 KiB per rank: on 2 ranks it was as fast as the binomial
  // tree at 2 KiB and 4x faster at 4 KiB (vader's eager limit); more ranks
  // need larger segments to pay for the ring's 2(p - 1) steps.
  static constexpr int64_t kRingFromBytesPerRank = 1024;

  // One piece: MPI_Iallreduce, with libnbc's ring chosen if `ring`.
  int post(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, bool ring,
           MPI_Request* request);

  bool adjustable_ = false;
  bool tool_interface_ = false;
  MPI_T_cvar_handle handle_ = MPI_T_CVAR_HANDLE_NULL;
  std::mutex mu_;
};

}  // namespace porta::comm_mpi
