// Collective conformance, run by mpirun with 1, 2 and 4 ranks (CMakeLists.txt;
// this file's main() makes the group for test_distributed_data_parallel.cpp's tests too):
// every op of porta/distributed.hpp x dtype x size {0, 1, 7, 1 Mi + 3} x
// device (cpu, the mock devices: staged through host memory, and the
// emulated cuda devices when PORTA_PLUGIN_PATH has them), in place and on
// non-contiguous views, against results each rank computes itself from the
// values every rank was given (a function of rank and position), in each
// dtype's own arithmetic. Every collective on every dtype Porta has (bool,
// uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64), and
// how float16 and bfloat16 sums round. Then the errors that must be refused
// before anything is enqueued.
#include <gtest/gtest.h>
#include <porta/float16.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <porta/distributed.hpp>
#include <porta/porta.hpp>
#include <string>
#include <vector>

#include "test_world.hpp"

namespace dist = porta::distributed;
using dist::ReduceOp;
using porta::Tensor;
using porta::operator==;

namespace {

int g_rank = 0, g_size = 1;

using test_world::devices;
using test_world::home;

// Rank r's value at position i: small integers, so sums, products of up to
// four ranks and averages over 1, 2 or 4 are exact in every dtype.
template <class T>
T value(int r, int64_t i) {
  if constexpr (std::is_same_v<T, bool>)
    return (i + r) % 3 != 0;
  else
    return static_cast<T>((i * 7 + r * 3) % 5 + 1);
}

template <class T>
T fold(ReduceOp op, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return (op == ReduceOp::SUM || op == ReduceOp::MAX) ? (a || b) : (a && b);
  } else {
    switch (op) {
      case ReduceOp::SUM:
      case ReduceOp::AVG:
        return static_cast<T>(a + b);
      case ReduceOp::MAX:
        return a > b ? a : b;
      case ReduceOp::MIN:
        return a < b ? a : b;
      case ReduceOp::PRODUCT:
        return static_cast<T>(a * b);
    }
    return a;
  }
}

template <class T>
std::vector<T> values_of(int r, int64_t n, int64_t offset = 0) {
  std::vector<T> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(value<T>(r, offset + i));
  return v;
}

template <class T>
std::vector<T> reduced(ReduceOp op, int64_t n, int64_t offset = 0) {
  std::vector<T> out = values_of<T>(0, n, offset);
  for (int r = 1; r < g_size; ++r)
    for (int64_t i = 0; i < n; ++i) out[size_t(i)] = fold<T>(op, out[size_t(i)], value<T>(r, offset + i));
  if constexpr (std::is_floating_point_v<T>)
    if (op == ReduceOp::AVG)
      for (T& x : out) x /= static_cast<T>(g_size);
  return out;
}

const int64_t kSizes[] = {0, 1, 7, (1 << 20) + 3};

template <class T>
void all_reduce_cases(const porta::Device& dev) {
  std::vector<ReduceOp> ops{ReduceOp::SUM, ReduceOp::MAX, ReduceOp::MIN, ReduceOp::PRODUCT};
  if constexpr (std::is_floating_point_v<T>) ops.push_back(ReduceOp::AVG);
  for (ReduceOp op : ops)
    for (int64_t n : kSizes) {
      if (n > 7 && op != ReduceOp::SUM && !std::is_same_v<T, float>)
        continue;  // the large size: once per dtype and op kind
      SCOPED_TRACE(testing::Message() << dev.str() << " " << porta::dtype_name(porta::dtype_of<T>()) << " op "
                                      << int(op) << " n " << n);
      Tensor t = Tensor::from_vector(values_of<T>(g_rank, n), dev);
      dist::all_reduce(t, op);
      EXPECT_EQ(t.to_vector<T>(), reduced<T>(op, n));
    }
}

}  // namespace

TEST(Collectives, AllReduceEveryOpDtypeSizeAndDevice) {
  for (const porta::Device& dev : devices()) {
    all_reduce_cases<float>(dev);
    all_reduce_cases<double>(dev);
    all_reduce_cases<int32_t>(dev);
    all_reduce_cases<int64_t>(dev);
    all_reduce_cases<uint8_t>(dev);
    all_reduce_cases<bool>(dev);
  }
}

TEST(Collectives, AllReduceOfANonContiguousViewLeavesTheRestAlone) {
  for (const porta::Device& dev : devices()) {
    SCOPED_TRACE(dev.str());
    // [4, 6] with rank-dependent values; the all_reduce covers columns 1, 3, 5 of its transpose.
    Tensor base = Tensor::from_vector(values_of<float>(g_rank, 24), {4, 6}, dev);
    Tensor view = base.transpose(0, 1).slice(0, 1, 6, 2);  // [3, 4], strided
    ASSERT_FALSE(view.is_contiguous());
    dist::all_reduce(view, ReduceOp::SUM);
    const std::vector<float> got = base.to_vector<float>(), sum = reduced<float>(ReduceOp::SUM, 24);
    const std::vector<float> mine = values_of<float>(g_rank, 24);
    for (int64_t i = 0; i < 24; ++i)
      EXPECT_EQ(got[size_t(i)], (i % 6) % 2 == 1 ? sum[size_t(i)] : mine[size_t(i)]) << i;
  }
}

TEST(Collectives, BroadcastFromEveryRoot) {
  for (const porta::Device& dev : devices())
    for (int root = 0; root < g_size; ++root)
      for (int64_t n : {int64_t(0), int64_t(7), int64_t(1 << 20) + 3}) {
        SCOPED_TRACE(testing::Message() << dev.str() << " root " << root << " n " << n);
        Tensor t = Tensor::from_vector(values_of<int64_t>(g_rank, n), dev);
        dist::broadcast(t, root);
        EXPECT_EQ(t.to_vector<int64_t>(), values_of<int64_t>(root, n));
      }
}

TEST(Collectives, AllGatherAndReduceScatter) {
  for (const porta::Device& dev : devices())
    for (int64_t n : {int64_t(0), int64_t(1), int64_t(7), int64_t(1 << 20) + 3}) {
      SCOPED_TRACE(testing::Message() << dev.str() << " n " << n);
      Tensor in = Tensor::from_vector(values_of<double>(g_rank, n), dev);
      Tensor out = Tensor::full({g_size, n}, -1.0, dev, porta::kFloat64);
      dist::all_gather_into_tensor(out, in);
      std::vector<double> want;
      for (int r = 0; r < g_size; ++r)
        for (double x : values_of<double>(r, n)) want.push_back(x);
      EXPECT_EQ(out.to_vector<double>(), want);

      Tensor whole = Tensor::from_vector(values_of<int32_t>(g_rank, n * g_size), dev);
      Tensor share = Tensor::full({n}, -1.0, dev, porta::kInt32);
      dist::reduce_scatter_tensor(share, whole, ReduceOp::SUM);
      EXPECT_EQ(share.to_vector<int32_t>(), reduced<int32_t>(ReduceOp::SUM, n, n * g_rank));
    }
}

TEST(Collectives, AsyncWorkCompletesInAnyWaitOrder) {
  // Index 1 is all-reduced in several pieces (more than the mpi plugin's 4 MiB), which its sequencer posts one
  // after another, and a broadcast called after them all is waited for first: waiting for any work moves the
  // collectives called before it along, in call order on every rank.
  const int64_t sizes[] = {1000, 1500000, 1000, 1000, 1000};
  for (const porta::Device& dev : devices()) {
    SCOPED_TRACE(dev.str());
    std::vector<Tensor> ts;
    std::vector<dist::Work> works;
    for (int k = 0; k < 5; ++k) {
      ts.push_back(Tensor::from_vector(values_of<float>(g_rank + k, sizes[k]), dev));
      works.push_back(*dist::all_reduce(ts.back(), ReduceOp::MAX, {}, /*async_op=*/true));
    }
    Tensor b = Tensor::from_vector(values_of<float>(g_rank + 7, 1000), dev);
    dist::broadcast(b, 0, {}, /*async_op=*/true)->wait();
    EXPECT_EQ(b.to_vector<float>(), values_of<float>(7, 1000));
    for (int k = 4; k >= 0; --k) works[size_t(k)].wait();
    for (int k = 0; k < 5; ++k) {
      std::vector<float> want = values_of<float>(k, sizes[k]);
      for (int r = 1; r < g_size; ++r)
        for (int64_t i = 0; i < sizes[k]; ++i) want[size_t(i)] = std::max(want[size_t(i)], value<float>(r + k, i));
      EXPECT_EQ(ts[size_t(k)].to_vector<float>(), want) << k;
      EXPECT_TRUE(works[size_t(k)].is_completed());
    }
    dist::barrier();
  }
}

TEST(Collectives, ARankBlockedInARecvStillPostsTheCollectiveItCalledBefore) {
  // Rank 0 calls a large all-reduce (several pieces in the mpi plugin, posted one after another) and then waits in
  // a receive; rank 1 sends only once the all-reduce has completed, which needs rank 0 to post every piece: the
  // receive's wait must move the all-reduce along. (NCCL orders both on the stream: the point-to-point part is
  // the mpi plugin's.)
  const porta::Device dev = test_world::home();
  Tensor t = Tensor::from_vector(values_of<float>(g_rank, 1500000), dev);
  std::optional<dist::Work> w = dist::all_reduce(t, ReduceOp::SUM, {}, /*async_op=*/true);
  if (g_size > 1 && test_world::backend() == "mpi") {
    Tensor token = Tensor::full({1}, double(g_rank), dev);
    if (g_rank == 0) dist::recv(token, 1, {}, 5);
    if (g_rank == 1) {
      w->wait();
      dist::send(token, 0, {}, 5);
    }
    if (g_rank == 0) {
      EXPECT_EQ(token.to_vector<float>(), std::vector<float>{1.0f});
    }
  }
  w->wait();
  EXPECT_EQ(t.to_vector<float>(), reduced<float>(ReduceOp::SUM, 1500000));
}

TEST(Collectives, SendAndRecvAroundARing) {
  if (g_size < 2) GTEST_SKIP() << "needs 2 ranks (this run has 1)";
  for (const porta::Device& dev : devices()) {
    SCOPED_TRACE(dev.str());
    const int next = (g_rank + 1) % g_size, prev = (g_rank + g_size - 1) % g_size;
    Tensor out = Tensor::from_vector(values_of<int64_t>(g_rank, 9), dev);
    Tensor in = Tensor::full({9}, 0.0, dev, porta::kInt64);
    // NCCL matches by order, not tags (the nccl plugin refuses any tag but 0). The send first: the CUDA
    // emulator runs a device's streams as one queue, where a receive enqueued first would wait on itself.
    const int tag = test_world::backend() == "nccl" ? 0 : 3;
    dist::Work s = dist::isend(out, next, {}, tag);
    dist::Work r = dist::irecv(in, prev, {}, tag);
    s.wait();
    r.wait();
    EXPECT_EQ(in.to_vector<int64_t>(), values_of<int64_t>(prev, 9));
  }
}

TEST(Collectives, SubgroupsReduceAmongTheirMembersOnly) {
  std::vector<int32_t> evens;
  for (int r = 0; r < g_size; r += 2) evens.push_back(r);
  dist::ProcessGroup group = dist::new_group(evens);
  ASSERT_EQ(bool(group), g_rank % 2 == 0);
  if (group) {
    EXPECT_EQ(dist::get_world_size(group), int32_t(evens.size()));
    EXPECT_EQ(dist::get_rank(group), g_rank / 2);
    Tensor t = Tensor::full({3}, double(g_rank + 1), home(), porta::kInt64);
    dist::all_reduce(t, ReduceOp::SUM, group);
    int64_t want = 0;
    for (int32_t r : evens) want += r + 1;
    EXPECT_EQ(t.to_vector<int64_t>(), (std::vector<int64_t>{want, want, want}));
    dist::broadcast(t, evens.back(), group);  // a rank of the default group names the source
  }
  dist::barrier();
}

namespace {

// ---- Every collective on every dtype, through float64 on the host: a tensor of `dtype` is made by casting
// float64 values and read back by casting to float64, which is exact for the values below.

// The dtypes the backend under test moves: every one over mpi; NCCL has no 16-bit integer type (the nccl plugin
// refuses int16), and the NCCL emulation (tests/cuda_emulator) has no 16-bit floats.
std::vector<DLDataType> backend_dtypes() {
  std::vector<DLDataType> out{porta::kBool,  porta::kUInt8,   porta::kInt8,     porta::kInt16,   porta::kInt32,
                              porta::kInt64, porta::kFloat16, porta::kBFloat16, porta::kFloat32, porta::kFloat64};
  if (test_world::backend() == "mpi") return out;
  const bool emulated = std::getenv("PORTA_CUDA_EMULATOR_DEVICES") != nullptr;
  std::vector<DLDataType> kept;
  for (DLDataType t : out)
    if (!(t == porta::kInt16) && !(emulated && (t == porta::kFloat16 || t == porta::kBFloat16))) kept.push_back(t);
  return kept;
}

bool floating(DLDataType t) { return t.code == kDLFloat || t.code == kDLBfloat; }

// Rank r's value at position i in `dtype`: bool 0 or 1; uint8 1..3; the others -1..3 (distinct on up to 4
// ranks). Sums over 4 ranks lie in [-4, 12], products in [-27, 81], averages are quarters: all exact in every
// dtype, bfloat16's 8 significant bits and int8 included, whatever order the ranks are combined in.
double any_value(DLDataType dtype, int r, int64_t i) {
  if (dtype == porta::kBool) return (i + r) % 3 != 0 ? 1 : 0;
  if (dtype == porta::kUInt8) return double((i * 7 + r) % 3 + 1);
  return double((i * 7 + r * 3) % 5 - 1);
}

std::vector<double> any_values(DLDataType dtype, int r, int64_t n, int64_t offset = 0) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(any_value(dtype, r, offset + i));
  return v;
}

// The reduction over the ranks, computed exactly (bool: SUM and MAX a logical or, PRODUCT and MIN an and).
std::vector<double> any_reduced(DLDataType dtype, ReduceOp op, int64_t n, int64_t offset = 0) {
  std::vector<double> out = any_values(dtype, 0, n, offset);
  for (int r = 1; r < g_size; ++r)
    for (int64_t i = 0; i < n; ++i) {
      double& a = out[size_t(i)];
      const double b = any_value(dtype, r, offset + i);
      if (dtype == porta::kBool) {
        a = (op == ReduceOp::SUM || op == ReduceOp::MAX) ? double(a != 0 || b != 0) : double(a != 0 && b != 0);
        continue;
      }
      switch (op) {
        case ReduceOp::SUM:
        case ReduceOp::AVG:
          a += b;
          break;
        case ReduceOp::MAX:
          a = std::max(a, b);
          break;
        case ReduceOp::MIN:
          a = std::min(a, b);
          break;
        case ReduceOp::PRODUCT:
          a *= b;
          break;
      }
    }
  if (op == ReduceOp::AVG)
    for (double& x : out) x /= g_size;
  return out;
}

Tensor tensor_of(DLDataType dtype, const std::vector<double>& values, const porta::Device& dev) {
  return Tensor::from_vector(values, dev).cast(dtype);
}

std::vector<double> read(const Tensor& t) { return t.cast(porta::kFloat64).to_vector<double>(); }

std::vector<ReduceOp> ops_of(DLDataType dtype) {
  std::vector<ReduceOp> ops{ReduceOp::SUM, ReduceOp::MAX, ReduceOp::MIN, ReduceOp::PRODUCT};
  if (floating(dtype)) ops.push_back(ReduceOp::AVG);
  return ops;
}

// 5000 elements is at least 1 KiB per rank for every dtype on up to 4 ranks: the mpi plugin's all-reduce runs as
// libnbc's ring there (iallreduce.hpp), below it as a binomial tree. 2 Mi + 3 elements are several of its 4 MiB
// pieces for every dtype wider than a byte.
const int64_t kAnySizes[] = {0, 1, 7, 5000};
const int64_t kAnyLarge = (int64_t{1} << 21) + 3;

}  // namespace

TEST(Collectives, AllReduceEveryDtype) {
  for (const porta::Device& dev : devices())
    for (DLDataType dtype : backend_dtypes()) {
      for (ReduceOp op : ops_of(dtype))
        for (int64_t n : kAnySizes) {
          SCOPED_TRACE(testing::Message()
                       << dev.str() << " " << porta::dtype_name(dtype) << " op " << int(op) << " n " << n);
          Tensor t = tensor_of(dtype, any_values(dtype, g_rank, n), dev);
          dist::all_reduce(t, op);
          EXPECT_TRUE(porta::same_dtype(t.dtype(), dtype));
          EXPECT_EQ(read(t), any_reduced(dtype, op, n));
        }
      if (dev.str() != home().str()) continue;  // the large size: on one device (the staging is the same for all)
      SCOPED_TRACE(testing::Message() << dev.str() << " " << porta::dtype_name(dtype) << " large SUM");
      Tensor t = tensor_of(dtype, any_values(dtype, g_rank, kAnyLarge), dev);
      dist::all_reduce(t, ReduceOp::SUM);
      EXPECT_EQ(read(t), any_reduced(dtype, ReduceOp::SUM, kAnyLarge));
    }
}

TEST(Collectives, BroadcastAllGatherAndReduceScatterEveryDtype) {
  for (const porta::Device& dev : devices())
    for (DLDataType dtype : backend_dtypes())
      for (int64_t n : kAnySizes) {
        SCOPED_TRACE(testing::Message() << dev.str() << " " << porta::dtype_name(dtype) << " n " << n);
        for (int root = 0; root < g_size; ++root) {
          Tensor t = tensor_of(dtype, any_values(dtype, g_rank, n), dev);
          dist::broadcast(t, root);
          EXPECT_EQ(read(t), any_values(dtype, root, n)) << "root " << root;
        }

        Tensor in = tensor_of(dtype, any_values(dtype, g_rank, n), dev);
        Tensor out = tensor_of(dtype, std::vector<double>(size_t(n * g_size), 0.0), dev).reshape({g_size, n});
        dist::all_gather_into_tensor(out, in);
        std::vector<double> want;
        for (int r = 0; r < g_size; ++r)
          for (double x : any_values(dtype, r, n)) want.push_back(x);
        EXPECT_EQ(read(out), want);

        for (ReduceOp op : ops_of(dtype)) {
          Tensor whole = tensor_of(dtype, any_values(dtype, g_rank, n * g_size), dev);
          Tensor share = tensor_of(dtype, std::vector<double>(size_t(n), 0.0), dev);
          dist::reduce_scatter_tensor(share, whole, op);
          EXPECT_EQ(read(share), any_reduced(dtype, op, n, n * g_rank)) << "op " << int(op);
        }
      }
}

TEST(Collectives, SendRecvAndAsyncWorkEveryDtype) {
  // Every dtype's all-reduce in flight at once (waited for in reverse order), then a ring of sends and receives.
  const std::vector<DLDataType> dtypes = backend_dtypes();
  for (const porta::Device& dev : devices()) {
    SCOPED_TRACE(dev.str());
    std::vector<Tensor> ts;
    std::vector<dist::Work> works;
    for (DLDataType dtype : dtypes) {
      ts.push_back(tensor_of(dtype, any_values(dtype, g_rank, 3000), dev));
      works.push_back(*dist::all_reduce(ts.back(), ReduceOp::MAX, {}, /*async_op=*/true));
    }
    for (size_t k = works.size(); k-- > 0;) works[k].wait();
    for (size_t k = 0; k < dtypes.size(); ++k)
      EXPECT_EQ(read(ts[k]), any_reduced(dtypes[k], ReduceOp::MAX, 3000)) << porta::dtype_name(dtypes[k]);
    if (g_size < 2) continue;
    const int next = (g_rank + 1) % g_size, prev = (g_rank + g_size - 1) % g_size;
    const int tag = test_world::backend() == "nccl" ? 0 : 4;  // NCCL matches by order (see SendAndRecvAroundARing)
    for (DLDataType dtype : dtypes) {
      Tensor out = tensor_of(dtype, any_values(dtype, g_rank, 9), dev);
      Tensor in = tensor_of(dtype, std::vector<double>(9, 0.0), dev);
      dist::Work s = dist::isend(out, next, {}, tag);
      dist::Work r = dist::irecv(in, prev, {}, tag);
      s.wait();
      r.wait();
      EXPECT_EQ(read(in), any_values(dtype, prev, 9)) << porta::dtype_name(dtype);
    }
  }
}

namespace {

// The float32 value of 16-bit float bits, and float32 rounded to them once (porta/float16.h: to nearest even).
float widen(DLDataType dtype, uint16_t h) {
  return dtype == porta::kFloat16 ? porta_float16_to_float32(h) : porta_bfloat16_to_float32(h);
}
uint16_t narrow(DLDataType dtype, float f) {
  return dtype == porta::kFloat16 ? porta_float32_to_float16(f) : porta_float32_to_bfloat16(f);
}

// Pairs (a on rank 0, b on rank 1) whose float32 sum is not a value of the dtype: ties to even both ways, a sum
// rounded up into the next binade, beyond the largest finite value, subnormals, cancellation, -0, infinities and
// NaN, as 16-bit bit patterns.
std::vector<std::pair<uint16_t, uint16_t>> rounding_pairs(DLDataType dtype) {
  if (dtype == porta::kFloat16)
    return {{0x3c00, 0x1000},   // 1 + 2^-11: a tie, to even 1
            {0x3c01, 0x1000},   // (1 + 2^-10) + 2^-11: a tie, to even 1 + 2^-9
            {0x3c00, 0x1400},   // 1 + 2^-10: exact
            {0x3bff, 0x0c00},   // (1 - 2^-11) + 2^-12: a tie, up to 1
            {0x7bff, 0x7bff},   // 65504 + 65504: infinity
            {0x7bff, 0x4c00},   // 65504 + 16: a tie, to even: infinity
            {0x0001, 0x0001},   // two smallest subnormals
            {0x8000, 0x8000},   // -0 + -0 = -0
            {0x4900, 0xc8ff},   // 10 - (10 - 2^-7): exact cancellation
            {0x7c00, 0xfc00},   // inf + -inf: NaN
            {0x7e00, 0x3c00}};  // NaN + 1: NaN
  return {{0x3f80, 0x3b80},     // 1 + 2^-8: a tie, to even 1
          {0x3f81, 0x3b80},     // (1 + 2^-7) + 2^-8: a tie, to even 1 + 2^-6
          {0x3f80, 0x3c00},     // 1 + 2^-7: exact
          {0x4380, 0x3f80},     // 256 + 1: a tie, to even 256
          {0x4381, 0x3f80},     // 258 + 1: a tie, to even 260
          {0x7f7f, 0x7f7f},     // the largest finite twice: infinity
          {0x0001, 0x0001},     // two smallest subnormals
          {0x8000, 0x8000},     // -0 + -0 = -0
          {0x7f80, 0xff80},     // inf + -inf: NaN
          {0x7fc0, 0x3f80}};    // NaN + 1: NaN
}

}  // namespace

TEST(Collectives, Float16AndBFloat16SumsOfTwoRanksRoundOnceFromFloat32) {
  // As PyTorch over NCCL or Gloo: a + b is computed in float32 and rounded to the dtype once (ties to even).
  if (g_size != 2) GTEST_SKIP() << "needs exactly 2 ranks (this run has " << g_size << ")";
  std::vector<DLDataType> halves;
  for (DLDataType dtype : backend_dtypes())
    if (dtype == porta::kFloat16 || dtype == porta::kBFloat16) halves.push_back(dtype);
  if (halves.empty()) GTEST_SKIP() << "the backend under test moves no 16-bit floats";
  for (DLDataType dtype : halves) {
    SCOPED_TRACE(porta::dtype_name(dtype));
    const auto pairs = rounding_pairs(dtype);
    std::vector<float> mine, want;
    for (auto [a, b] : pairs) {
      mine.push_back(widen(dtype, g_rank == 0 ? a : b));
      want.push_back(widen(dtype, narrow(dtype, widen(dtype, a) + widen(dtype, b))));
    }
    for (ReduceOp op : {ReduceOp::SUM, ReduceOp::AVG}) {
      Tensor t = Tensor::from_vector(mine, home()).cast(dtype);
      dist::all_reduce(t, op);
      const std::vector<float> got = t.cast(porta::kFloat32).to_vector<float>();
      for (size_t i = 0; i < pairs.size(); ++i) {
        // AVG: the rounded sum divided by 2 in float32, rounded again (exact for these).
        const float w = op == ReduceOp::SUM ? want[i] : widen(dtype, narrow(dtype, want[i] / 2));
        if (std::isnan(w)) {
          EXPECT_TRUE(std::isnan(got[i])) << "pair " << i;
          continue;
        }
        uint32_t gb = 0, wb = 0;
        std::memcpy(&gb, &got[i], 4);
        std::memcpy(&wb, &w, 4);
        EXPECT_EQ(gb, wb) << "pair " << i << " op " << int(op) << ": got " << got[i] << ", want " << w;
      }
    }
  }
}

TEST(Collectives, BadArgumentsAreRefusedBeforeAnythingIsEnqueued) {
  auto status_of = [](auto&& call) {
    try {
      call();
    } catch (const porta::Error& e) {
      return e.status();
    }
    return PORTA_OK;
  };
  Tensor ints = Tensor::full({4}, 1.0, home(), porta::kInt32);
  EXPECT_EQ(status_of([&] { dist::all_reduce(ints, ReduceOp::AVG); }), PORTA_ERROR_UNSUPPORTED_DTYPE);
  EXPECT_EQ(status_of([&] { dist::all_reduce(ints, static_cast<ReduceOp>(9)); }), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] { dist::broadcast(ints, g_size); }), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] {
              dist::all_gather_into_tensor(Tensor::full({4 * g_size + 1}, 0.0, home(), porta::kInt32), ints);
            }),
            PORTA_ERROR_SHAPE_MISMATCH);
  EXPECT_EQ(status_of([&] { dist::all_gather_into_tensor(Tensor::full({4 * g_size}, 0.0, home()), ints); }),
            PORTA_ERROR_UNSUPPORTED_DTYPE);
  EXPECT_EQ(status_of([&] { dist::send(ints, g_rank); }), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] { dist::send(ints, (g_rank + 1) % g_size, {}, -1); }), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] { dist::init_process_group(); }), PORTA_ERROR_INVALID_ARGUMENT);  // already made
  // Nothing was enqueued: the ranks are still in step.
  Tensor t = Tensor::full({2}, 1.0, home(), porta::kInt32);
  dist::all_reduce(t);
  EXPECT_EQ(t.to_vector<int32_t>(), (std::vector<int32_t>{g_size, g_size}));
}

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  dist::InitOptions options;
  options.backend = test_world::backend();
  options.timeout_ms = 60000;
  dist::init_process_group(options);
  g_rank = dist::get_rank();
  g_size = dist::get_world_size();
  const int result = RUN_ALL_TESTS();
  dist::destroy_process_group();
  return result;
}
