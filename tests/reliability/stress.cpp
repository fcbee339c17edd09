// porta_stress: many threads using one runtime at once, through the C API
// only, for a bounded time. Each thread cycles through
//   ops        matmul/add/relu/sum on shared read-only inputs on cpu and mock:0
//   transfers  cpu -> mock:0 -> mock:1 -> cpu, checked value by value
//   autograd   backward through a graph with a private leaf and a leaf that
//              every thread shares (accumulation into it is serialized)
//   DLPack     export a shared tensor and import it back, zero-copy; import a
//              thread-owned host buffer and count its deleter calls
//   churn      allocations of varying sizes on mock:1
// and checks every result. At the end the shared leaf's gradient must equal
// the sum of every backward's contribution, and every deleter must have run.
// Prints operations completed and errors; exits 1 on any error. It is built
// normally and under ThreadSanitizer (scripts/test.sh).
//
//   porta_stress [--threads N] [--seconds S]
#include <porta/porta.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

std::atomic<int64_t> g_errors{0};
std::atomic<int64_t> g_deleter_calls{0};

// Records a failure with its message (the message is per thread).
bool check(bool ok, const char* what) {
  if (!ok) {
    if (g_errors.fetch_add(1) < 20) std::fprintf(stderr, "stress: %s failed: %s\n", what, porta_last_error());
  }
  return ok;
}
#define OK(expr) check((expr) == PORTA_OK, #expr)

struct Tensor {
  porta_tensor* p = nullptr;
  Tensor() = default;
  explicit Tensor(porta_tensor* t) : p(t) {}
  Tensor(const Tensor&) = delete;
  Tensor& operator=(const Tensor&) = delete;
  ~Tensor() { porta_tensor_release(p); }
  porta_tensor** out() {
    porta_tensor_release(p);
    p = nullptr;
    return &p;
  }
};

DLDevice dev(const char* s) {
  DLDevice d{};
  OK(porta_device_parse(s, &d));
  return d;
}

bool make(const std::vector<float>& v, std::vector<int64_t> shape, DLDevice d, Tensor* t) {
  return OK(porta_tensor_from_host(v.data(), porta_float32, shape.data(), static_cast<int32_t>(shape.size()), d,
                                   t->out()));
}

bool equals(porta_tensor* t, const std::vector<float>& want) {
  std::vector<float> got(want.size());
  if (!OK(porta_tensor_to_host(t, got.data(), got.size() * sizeof(float)))) return false;
  return check(got == want, "value check");
}

// Inputs every thread reads at once.
struct Shared {
  Tensor a_cpu, a_mock;          // [[1, 2], [3, 4]]
  Tensor leaf;                   // [2]: requires grad, every thread's backward adds to it
  std::atomic<int64_t> backward_calls{0};
};

const std::vector<float> kA{1, 2, 3, 4};
const std::vector<float> kAA{7, 10, 15, 22};  // a @ a

void ops(Shared& s) {
  for (porta_tensor* a : {s.a_cpu.p, s.a_mock.p}) {
    Tensor mm, sum, r, total;
    if (!OK(porta_matmul(a, a, mm.out())) || !equals(mm.p, kAA)) return;
    if (!OK(porta_add(mm.p, a, sum.out())) || !OK(porta_relu(sum.p, r.out()))) return;
    if (!OK(porta_sum(r.p, nullptr, 0, 0, total.out()))) return;
    equals(total.p, {8 + 12 + 18 + 26});
  }
}

void transfers(Shared& s) {
  Tensor m0, m1, back;
  if (!OK(porta_tensor_to(s.a_cpu.p, dev("mock:0"), m0.out()))) return;
  if (!OK(porta_tensor_to(m0.p, dev("mock:1"), m1.out()))) return;
  if (!OK(porta_tensor_to(m1.p, dev("cpu"), back.out()))) return;
  equals(back.p, kA);
}

// loss = sum(x * shared_leaf + own_leaf) with x = [1, 2]: the shared leaf's
// gradient is x, the private leaf's is ones.
void autograd(Shared& s, int thread) {
  Tensor x, own, prod, z, loss, g;
  if (!make({1, 2}, {2}, dev("cpu"), &x) || !make({float(thread), 0}, {2}, dev("cpu"), &own)) return;
  if (!OK(porta_tensor_set_requires_grad(own.p, 1))) return;
  if (!OK(porta_mul(x.p, s.leaf.p, prod.out())) || !OK(porta_add(prod.p, own.p, z.out()))) return;
  if (!OK(porta_sum(z.p, nullptr, 0, 0, loss.out())) || !OK(porta_backward(loss.p, nullptr))) return;
  s.backward_calls.fetch_add(1);
  if (OK(porta_tensor_grad(own.p, g.out()))) equals(g.p, {1, 1});
}

void count_deleter(DLManagedTensorVersioned* self) {
  delete[] static_cast<float*>(self->dl_tensor.data);
  delete[] self->dl_tensor.shape;
  delete self;
  g_deleter_calls.fetch_add(1);
}

void dlpack(Shared& s, int64_t* deleters_expected) {
  // Round trip of a shared tensor: export, import the same memory back.
  DLManagedTensorVersioned* exported = nullptr;
  if (!OK(porta_to_dlpack_versioned(s.a_cpu.p, 0, &exported))) return;
  Tensor imported;
  if (!OK(porta_from_dlpack_versioned(exported, imported.out()))) {
    exported->deleter(exported);
    return;
  }
  equals(imported.p, kA);
  // A buffer this thread owns, handed over with a counting deleter.
  auto* m = new DLManagedTensorVersioned{};
  m->version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  m->deleter = count_deleter;
  m->dl_tensor.data = new float[3]{5, 6, 7};
  m->dl_tensor.device = {kDLCPU, 0};
  m->dl_tensor.ndim = 1;
  m->dl_tensor.dtype = {kDLFloat, 32, 1};
  m->dl_tensor.shape = new int64_t[1]{3};
  ++*deleters_expected;
  Tensor owned;
  if (!OK(porta_from_dlpack_versioned(m, owned.out()))) return;  // rejected: ownership stays here
  Tensor doubled;
  if (OK(porta_mul_scalar(owned.p, 2.0, doubled.out()))) equals(doubled.p, {10, 12, 14});
}

void churn(int64_t i) {
  const int64_t n = 1 + (i * 7919) % 50000;
  Tensor t;
  OK(porta_zeros(&n, 1, porta_float32, dev("mock:1"), t.out()));
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 8;
  double seconds = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--threads") == 0) threads = std::atoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "--seconds") == 0) seconds = std::atof(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: porta_stress [--threads N] [--seconds S]\n");
      return 2;
    }
  }
  if (threads < 1 || seconds <= 0) {
    std::fprintf(stderr, "porta_stress: --threads must be >= 1 and --seconds > 0\n");
    return 2;
  }

  Shared s;
  if (!make(kA, {2, 2}, dev("cpu"), &s.a_cpu) || !make(kA, {2, 2}, dev("mock:0"), &s.a_mock) ||
      !make({0, 0}, {2}, dev("cpu"), &s.leaf) || !OK(porta_tensor_set_requires_grad(s.leaf.p, 1)))
    return 1;

  std::atomic<int64_t> operations{0}, deleters_expected{0};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      int64_t done = 0, expected = 0;
      for (int64_t i = t; std::chrono::steady_clock::now() < deadline; ++i, ++done) {
        switch (i % 5) {
          case 0: ops(s); break;
          case 1: transfers(s); break;
          case 2: autograd(s, t); break;
          case 3: dlpack(s, &expected); break;
          default: churn(i); break;
        }
      }
      operations += done;
      deleters_expected += expected;
    });
  for (auto& th : pool) th.join();

  // Every backward added x = [1, 2] to the shared leaf's gradient.
  const auto calls = static_cast<float>(s.backward_calls.load());
  Tensor g;
  if (s.backward_calls > 0 && OK(porta_tensor_grad(s.leaf.p, g.out()))) equals(g.p, {calls, 2 * calls});
  check(g_deleter_calls == deleters_expected, "every imported buffer's deleter ran exactly once");

  std::printf("porta_stress: %d threads, %.1f s: %lld operations completed (%lld backward calls, %lld DLPack "
              "imports released), errors: %lld\n",
              threads, seconds, static_cast<long long>(operations.load()),
              static_cast<long long>(s.backward_calls.load()), static_cast<long long>(g_deleter_calls.load()),
              static_cast<long long>(g_errors.load()));
  return g_errors == 0 ? 0 : 1;
}
