// DistributedDataParallel's factored gradients (factored_gradient.hpp).
#include "distributed/factored_gradient.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "ops/ops.hpp"
#include "runtime/registry.hpp"
#include "runtime/threads.hpp"

namespace porta::dist {
namespace {

uint64_t fnv1a(const void* data, size_t bytes) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ull;
  return h;
}

// A small float32 product's bits on `dev`, hashed: devices that sum in
// another order or round otherwise (with FMA or without) differ here,
// whatever their names say. A device without a float32 product says so
// instead (its parameters' dtype is another).
std::string canary_bits(DeviceState& dev) try {
  constexpr int64_t m = 16, k = 96, n = 32;
  std::vector<float> a(m * k), b(k * n);
  uint32_t x = 12345;
  for (float& v : a) x = x * 1664525u + 1013904223u, v = static_cast<float>(x >> 8) / 16777216.0f - 0.5f;
  for (float& v : b) x = x * 1664525u + 1013904223u, v = static_cast<float>(x >> 8) / 7340033.0f - 1.1f;
  TensorPtr c = ops::matmul(ops::from_host(a.data(), Dtype::Float32, Dims{m, k}, dev),
                            ops::from_host(b.data(), Dtype::Float32, Dims{k, n}, dev));
  std::vector<float> out(m * n);
  ops::to_host(*c, out.data(), out.size() * sizeof(float));
  return std::to_string(fnv1a(out.data(), out.size() * sizeof(float)));
} catch (const Error&) {
  return "no float32 product";
}

// What decides a product's bits on `dev`: its plugin and version, the
// device's model and capability, a small product's bits (asked once per
// device), and the thread count (a GEMM splits its sums by threads).
// FNV-1a of their text.
int64_t multiply_fingerprint(DeviceState& dev) {
  static std::mutex mu;
  static std::map<const DeviceState*, std::string> models;
  std::string model;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = models.find(&dev);
    if (it == models.end()) {
      porta_device_props props{};
      props.struct_size = sizeof(props);
      if (dev.backend->api.device_props(dev.index, &props) != PORTA_OK) props.name[0] = '\0';
      props.name[sizeof(props.name) - 1] = '\0';
      it = models
               .emplace(&dev, cat(dev.backend->name, '|', dev.backend->version, '|', props.name, '|',
                                  props.capability_major, '.', props.capability_minor, '|', canary_bits(dev)))
               .first;
    }
    model = it->second;
  }
  const std::string text = cat(model, '|', num_threads());
  return static_cast<int64_t>(fnv1a(text.data(), text.size()));
}

// Every rank's rows of one factor, [world * rows, k]: this rank's `f`
// ([m, k], m <= rows) padded with zero rows (which add nothing to the
// product), gathered in rank order.
std::shared_ptr<Work> gather_rows(ProcessGroup& group, const TensorPtr& f, int64_t rows, TensorPtr* all) {
  const int64_t m = f->shape[0], k = f->shape[1];
  TensorPtr mine = ops::contiguous(f);
  if (m < rows) {
    TensorPtr padded = ops::full(*f->device, Dims{rows, k}, 0.0, f->dtype);
    if (m > 0) ops::copy_into(ops::slice(padded, 0, 0, m, 1), mine);
    mine = padded;
  }
  *all = empty(*f->device, f->dtype, Dims{group.size() * rows, k});
  return group.all_gather(*all, mine);
}

}  // namespace

bool factored_gradients_enabled() {
  const char* v = std::getenv("PORTA_DDP_FACTORED_GRADIENTS");
  if (!v || !*v || std::strcmp(v, "1") == 0) return true;
  if (std::strcmp(v, "0") == 0) return false;
  fail(PORTA_ERROR_INVALID_ARGUMENT, "PORTA_DDP_FACTORED_GRADIENTS='", v,
       "' is neither 0 (gradients all-reduced) nor 1 (a wide linear layer's gathered as factors, the default)");
}

bool factors_pay(int64_t world, int64_t rows, int64_t in, int64_t out) {
  return world * rows * (in + out) <= in * out / 4;
}

bool reduce_factored(ProcessGroup& group, const TensorPtr& out, const Factors& mine, double scale) {
  const bool has = mine.g_rows && mine.x_rows;
  const int64_t world = group.size();
  // Each rank's [holds factors, rows, fingerprint], gathered on the
  // gradient's device (the one the group's backend serves: nccl takes no
  // host tensors).
  DeviceState& dev = *out->device;
  const std::array<int64_t, 3> said = {has ? 1 : 0, has ? mine.g_rows->shape[0] : 0, multiply_fingerprint(dev)};
  TensorPtr all = empty(dev, Dtype::Int64, Dims{world * 3});
  group.all_gather(all, ops::from_host(said.data(), Dtype::Int64, Dims{3}, dev))->wait();
  std::vector<int64_t> heard(static_cast<size_t>(world * 3));
  ops::to_host(*all, heard.data(), heard.size() * sizeof(int64_t));
  bool every = true;
  int64_t rows = 0;
  for (int64_t r = 0; r < world; ++r) {
    every = every && heard[r * 3] == 1 && heard[r * 3 + 2] == said[2];
    rows = std::max(rows, heard[r * 3 + 1]);
  }
  const int64_t n_out = out->shape[0], n_in = out->shape[1];
  if (every && factors_pay(world, rows, n_in, n_out)) {
    TensorPtr g_all, x_all;
    std::shared_ptr<Work> g_work = gather_rows(group, mine.g_rows, rows, &g_all);
    std::shared_ptr<Work> x_work = gather_rows(group, mine.x_rows, rows, &x_all);
    g_work->wait(), x_work->wait();
    ops::matmul_into(out, ops::transpose(g_all, 0, 1), x_all, scale, 0.0);
    return true;
  }
  if (has) ops::matmul_into(out, ops::transpose(mine.g_rows, 0, 1), mine.x_rows, scale, 0.0);
  return false;
}

}  // namespace porta::dist
