// float16 and bfloat16 for the mpi plugin. MPI has no 16-bit float type, so
// these move as MPI_UINT16_T (their bits, which every move only copies) and
// reduce with user-defined ops (MPI_Op_create): each combine of two values
// widens both to float32 (exactly), combines them there and rounds the
// result back once, to nearest even, a NaN staying a NaN (porta/float16.h's
// rules, through the host kernels' conversion runs, half_runs.hpp). That is
// what torch.distributed gives over NCCL or Gloo, whose reductions of half
// and bfloat16 also combine in float32 and round at each step.
//
// For 2 ranks an all-reduce's SUM is the float32 sum of the two values
// rounded once, which is their exact sum correctly rounded (float32's 24
// significant bits are at least 2p + 2 for float16's p = 11 and bfloat16's
// 8, so the two roundings give what one would), as NCCL's. For more ranks each combine of two partial results is
// rounded to the dtype in the order MPI's algorithm combines them (OpenMPI's
// libnbc ring: each segment is added rank after rank around the ring, from a
// rank that differs by segment; below 1 KiB per rank, iallreduce.hpp, a
// binomial tree), as NCCL's ring rounds at each step: a sum whose partial
// sums are not exact in the dtype can differ from one rounding of the exact
// sum, and from NCCL's, whose ring visits the ranks in another order. Every
// rank gets the same result. MAX and MIN give one of the values unchanged
// (a NaN if either is one); PRODUCT rounds as SUM does.
#pragma once

#define OMPI_SKIP_MPICXX 1  // the C API only
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <porta/comm.h>

#include <cstdint>

namespace porta::comm_mpi {

// Which 16-bit float dtype.
enum class Half : int { Float16 = 0, BFloat16 = 1 };

class HalfOps {
 public:
  // After MPI_Init_thread: makes the ops (once; later calls do nothing); false, with MPI's error code in *error
  // and no op kept, when MPI refused one.
  bool init(int* error);
  // Before MPI_Finalize.
  void finalize();
  // The op for `op` on `kind` (SUM for AVG, which the plugin divides after), or MPI_OP_NULL.
  MPI_Op op(Half kind, porta_reduce_op op) const;

 private:
  static constexpr int kCombines = 4;  // sum, product, max, min
  MPI_Op ops_[2][kCombines] = {{MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL},
                               {MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL}};
};

// AVG's division: the `n` values of `kind` at `data` divided by `by` in
// float32, each rounded back once.
void divide_half(Half kind, void* data, int64_t n, int by);

}  // namespace porta::comm_mpi
