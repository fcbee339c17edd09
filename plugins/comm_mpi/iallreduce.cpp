#include "iallreduce.hpp"

#include <algorithm>

namespace porta::comm_mpi {

void Iallreduce::init() {
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) return;
  tool_interface_ = true;
  int index = -1, count = 0;
  if (MPI_T_cvar_get_index("coll_libnbc_iallreduce_algorithm", &index) != MPI_SUCCESS) return;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle_, &count) != MPI_SUCCESS) return;
  int value = -1;
  if (count == 1 && MPI_T_cvar_read(handle_, &value) == MPI_SUCCESS && value == kLibnbcChooses) {
    adjustable_ = true;
    return;
  }
  MPI_T_cvar_handle_free(&handle_);
}

void Iallreduce::finalize() {
  if (adjustable_) MPI_T_cvar_handle_free(&handle_);
  adjustable_ = false;
  if (tool_interface_) MPI_T_finalize();
  tool_interface_ = false;
}

std::vector<Sequencer::Post> Iallreduce::pieces(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                                                MPI_Comm comm, int ranks) {
  int type_size = 0;
  MPI_Type_size(type, &type_size);
  const int64_t bytes = int64_t{count} * type_size;
  const int64_t n = std::max<int64_t>(1, (bytes + kPieceBytes - 1) / kPieceBytes);
  const int64_t per_piece = (count + n - 1) / n;  // elements
  std::vector<Sequencer::Post> out;
  int64_t at = 0;
  do {  // one call at least: an all-reduce of 0 elements is a collective too
    const int k = static_cast<int>(std::min<int64_t>(per_piece, count - at));
    const void* s = send == MPI_IN_PLACE ? MPI_IN_PLACE : static_cast<const char*>(send) + at * type_size;
    void* r = static_cast<char*>(recv) + at * type_size;
    const bool ring = adjustable_ && int64_t{k} * type_size >= kRingFromBytesPerRank * ranks;
    out.push_back([this, s, r, k, type, op, comm, ring](MPI_Request* request) {
      return post(s, r, k, type, op, comm, ring, request);
    });
    at += per_piece;
  } while (at < count);
  return out;
}

int Iallreduce::post(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, bool ring,
                     MPI_Request* request) {
  if (!ring) return MPI_Iallreduce(send, recv, count, type, op, comm, request);
  std::lock_guard<std::mutex> lock(mu_);
  int value = kRing;
  MPI_T_cvar_write(handle_, &value);
  const int e = MPI_Iallreduce(send, recv, count, type, op, comm, request);
  value = kLibnbcChooses;
  MPI_T_cvar_write(handle_, &value);
  return e;
}

}  // namespace porta::comm_mpi
