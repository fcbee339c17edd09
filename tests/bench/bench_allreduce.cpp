// All-reduce through Porta (porta_all_reduce on the mpi backend) against
// MPI_Allreduce called directly, in the same processes on the same buffer,
// float32 SUM from 4 B to 64 MiB: time per call and bus bandwidth as
// nccl-tests defines it (algbw = bytes / time, busbw = algbw * 2(n-1)/n).
// Each size alternates the two sides for three rounds and keeps each side's
// best round (the other processes of the machine move both alike).
//   mpirun -n 2 porta_bench_allreduce  (or porta-run -n 2)  -> a JSON object per size, from rank 0
// tests/bench/report_allreduce.py turns them into the table of docs/benchmarks.md.
#define OMPI_SKIP_MPICXX 1  // the C API only (as plugins/comm_mpi)
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <porta/porta.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

void check(porta_status st, const char* what) {
  if (st != PORTA_OK) {
    std::fprintf(stderr, "%s: %s\n", what, porta_last_error());
    std::exit(1);
  }
}

// Seconds per call of `call`, run `iters` times between barriers; rank 0's clock.
template <class Call>
double per_call(int iters, Call&& call) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) call();
  MPI_Barrier(MPI_COMM_WORLD);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / iters;
}

}  // namespace

int main() {
  porta_init_options o{};
  o.struct_size = sizeof o;
  o.backend = "mpi";
  o.rank = o.world_size = -1;
  o.timeout_ms = 120000;
  check(porta_init_process_group(&o), "init_process_group");
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {  // the mpi plugin initializes MPI; its MPI_COMM_WORLD is this program's too
    std::fprintf(stderr, "MPI is not initialized: run under mpirun or porta-run\n");
    return 1;
  }
  int32_t rank = 0, world = 1;
  check(porta_get_rank(nullptr, &rank), "get_rank");
  check(porta_get_world_size(nullptr, &world), "get_world_size");
  DLDevice cpu{};
  check(porta_device_parse("cpu", &cpu), "device");
  for (int64_t bytes = 4; bytes <= (int64_t{64} << 20); bytes *= 4) {
    const int64_t n = bytes / 4;
    porta_tensor* t = nullptr;
    check(porta_zeros(&n, 1, porta_float32, cpu, &t), "zeros");  // zeros: sums stay finite
    void* data = nullptr;
    check(porta_tensor_data_ptr(t, &data), "data_ptr");
    // About 0.1 s per side and round, at least 5 calls and at most 2000.
    const int iters = static_cast<int>(std::clamp<int64_t>((int64_t{200} << 20) / bytes, 5, 2000));
    auto porta = [&] { check(porta_all_reduce(t, PORTA_REDUCE_SUM, nullptr, nullptr), "all_reduce"); };
    auto mpi = [&] { MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(n), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); };
    for (int i = 0; i < 3; ++i) porta(), mpi();  // warm-up
    double p = 1e30, m = 1e30;
    for (int round = 0; round < 3; ++round) {
      p = std::min(p, per_call(iters, porta));
      m = std::min(m, per_call(iters, mpi));
    }
    const double bus = 2.0 * (world - 1) / world;
    if (rank == 0)
      std::printf(
          "{\"bench\": \"allreduce\", \"world\": %d, \"bytes\": %lld, \"iters\": %d, \"porta_us\": %.3f, "
          "\"mpi_us\": %.3f, \"porta_busbw_gbs\": %.4f, \"mpi_busbw_gbs\": %.4f}\n",
          world, static_cast<long long>(bytes), iters, p * 1e6, m * 1e6, bytes / p * bus / 1e9, bytes / m * bus / 1e9);
    std::fflush(stdout);
    porta_tensor_release(t);
  }
  check(porta_destroy_process_group(nullptr), "destroy_process_group");
  return 0;
}
