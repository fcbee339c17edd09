#include "sequencer.hpp"

#include <algorithm>
#include <utility>

namespace porta::comm_mpi {

std::string mpi_error(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(text, static_cast<size_t>(len));
}

void Sequencer::submit(SequencedWork* work, std::vector<Post> posts) {
  work->unfinished += static_cast<int64_t>(posts.size());
  for (Post& p : posts) queue_.push_back({work, std::move(p)});
  progress();
}

bool Sequencer::post_head(MPI_Request* request) {
  Entry head = std::move(queue_.front());
  queue_.pop_front();
  SequencedWork* w = head.work;
  int e = MPI_SUCCESS;
  if (w->error.empty()) {
    e = head.post(request);
    if (e == MPI_SUCCESS) return true;
    w->error = "posting its MPI operation failed: " + mpi_error(e);
  }
  // A failed work posts nothing more: its queued posts are dropped.
  --w->unfinished;
  const auto mine = [w](const Entry& x) { return x.work == w; };
  w->unfinished -= std::count_if(queue_.begin(), queue_.end(), mine);
  queue_.erase(std::remove_if(queue_.begin(), queue_.end(), mine), queue_.end());
  return false;
}

void Sequencer::progress() {
  for (;;) {
    if (in_flight_work_) {
      int flag = 0;
      if (int e = MPI_Test(&in_flight_, &flag, MPI_STATUS_IGNORE); e != MPI_SUCCESS) {
        if (in_flight_work_->error.empty()) in_flight_work_->error = "MPI_Test failed: " + mpi_error(e);
        flag = 1;
      }
      if (!flag) return;
      --in_flight_work_->unfinished;
      in_flight_work_ = nullptr;
      in_flight_ = MPI_REQUEST_NULL;
    }
    if (queue_.empty()) return;
    SequencedWork* w = queue_.front().work;
    if (post_head(&in_flight_)) in_flight_work_ = w;
  }
}

void Sequencer::flush() {
  if (in_flight_work_) {
    in_flight_work_->requests.push_back(in_flight_);
    --in_flight_work_->unfinished;
    in_flight_work_ = nullptr;
    in_flight_ = MPI_REQUEST_NULL;
  }
  while (!queue_.empty()) {
    SequencedWork* w = queue_.front().work;
    MPI_Request r = MPI_REQUEST_NULL;
    if (post_head(&r)) {
      w->requests.push_back(r);
      --w->unfinished;
    }
  }
}

}  // namespace porta::comm_mpi
