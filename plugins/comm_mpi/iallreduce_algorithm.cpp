#include "iallreduce_algorithm.hpp"

namespace porta::comm_mpi {

void IallreduceAlgorithm::init() {
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

void IallreduceAlgorithm::finalize() {
  if (adjustable_) MPI_T_cvar_handle_free(&handle_);
  adjustable_ = false;
  if (tool_interface_) MPI_T_finalize();
  tool_interface_ = false;
}

}  // namespace porta::comm_mpi
