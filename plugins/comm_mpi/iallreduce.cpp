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

int Iallreduce::post(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                     std::vector<MPI_Request>* requests) {
  int type_size = 0, ranks = 1;
  MPI_Type_size(type, &type_size);
  MPI_Comm_size(comm, &ranks);
  const int64_t bytes = int64_t{count} * type_size;
  const int64_t pieces = std::max<int64_t>(1, (bytes + kPieceBytes - 1) / kPieceBytes);
  const int64_t per_piece = (count + pieces - 1) / pieces;  // elements
  std::unique_lock<std::mutex> lock(mu_, std::defer_lock);
  const bool ring = adjustable_ && bytes >= kRingFromBytesPerRank * ranks;
  if (ring) {
    lock.lock();
    int value = kRing;
    MPI_T_cvar_write(handle_, &value);
  }
  int e = MPI_SUCCESS;
  int64_t at = 0;
  do {  // one call at least: an all-reduce of 0 elements is a collective too
    const int n = static_cast<int>(std::min<int64_t>(per_piece, count - at));
    const void* piece_send = send == MPI_IN_PLACE ? MPI_IN_PLACE : static_cast<const char*>(send) + at * type_size;
    requests->push_back(MPI_REQUEST_NULL);
    e = MPI_Iallreduce(piece_send, static_cast<char*>(recv) + at * type_size, n, type, op, comm, &requests->back());
    at += per_piece;
  } while (e == MPI_SUCCESS && at < count);
  if (ring) {
    int value = kLibnbcChooses;
    MPI_T_cvar_write(handle_, &value);
  }
  return e;
}

}  // namespace porta::comm_mpi
