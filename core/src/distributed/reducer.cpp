// DistributedDataParallel's gradient reducer (reducer.hpp).
#include "distributed/reducer.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <unordered_set>
#include <utility>

#include "autograd/node.hpp"
#include "distributed/factored_gradient.hpp"
#include "ops/ops.hpp"
#include "runtime/error.hpp"
#include "runtime/log.hpp"
#include "runtime/registry.hpp"

namespace porta::dist {

struct Reducer::State : std::enable_shared_from_this<Reducer::State> {
  struct Slot {
    size_t bucket = 0;
    TensorPtr view;  // the parameter's place in its bucket's buffer, in its shape
    bool ready = false;
    bool used = false;  // its hook ran in this backward
    bool written_in_place = false;  // its gradient's node was handed the view (destination())
    Factors factors;  // handed over instead of the gradient (destination().factored): written at the launch
  };
  struct Bucket {
    TensorPtr flat;
    std::vector<size_t> params;
    size_t pending = 0;
    std::shared_ptr<Work> work;  // none where its gradient was gathered as factors
    // One 2-D parameter alone: its gradient may be reduced as factors
    // (factored_gradient.hpp). The same on every rank: the parameters'
    // shapes and order, the bucket sizes and the world size decide it.
    bool factorable = false;
  };

  std::vector<TensorPtr> params;
  std::vector<uint64_t> hook_ids;
  std::vector<Slot> slots;
  std::vector<Bucket> buckets;
  std::shared_ptr<ProcessGroup> group;
  bool find_unused = false;
  bool as_bucket_view = false;  // .grad is the slot's view itself
  // Whether this rank hands factors over (PORTA_DDP_FACTORED_GRADIENTS):
  // a rank that does not makes every rank fall back, through the header.
  bool offer_factors = true;
  // 1 / world size, exact (a power of two): a gradient scaled by it on its
  // way into the bucket equals one divided by the world size.
  double exact_reciprocal = 0;
  bool armed = false;  // prepare_for_backward ran; its backward has not finished
  // find_unused_parameters: the parameters this rank's forward did not
  // reach, marked ready at the first gradient of the backward (torch's
  // reducer), never in forward: a bucket reduced between forward and
  // backward would pair with whatever collective another rank calls there.
  std::vector<size_t> unused;
  bool finalize_queued = false;
  size_t next_launch = 0;  // buckets start in index order on every rank
  bool alive = true;
  std::mutex mu;
  // For the report at the end (PORTA_LOG=info): synchronized backwards, and
  // the time backward's end waited for their all-reduces, the buckets
  // reduced as factors.
  int64_t synced = 0, factored = 0;
  double waited_s = 0;

  void reset_for_backward() {
    for (Slot& s : slots) s.ready = s.used = s.written_in_place = false, s.factors = {};
    for (Bucket& b : buckets) b.pending = b.params.size(), b.work.reset();
    next_launch = 0;
    finalize_queued = false;
    unused.clear();
  }

  // The unused parameters' places in their buckets: the .grad each holds
  // (accumulated under no_sync) or zeros; then they are ready.
  void mark_unused_ready() {
    for (size_t i : std::exchange(unused, {})) {
      const porta_tensor& p = *params[i];
      fill(i, p.grad ? TensorPtr::borrow(p.grad) : ops::full(*p.device, Dims{}, 0.0, p.dtype));
      mark_ready(i);
    }
  }

  void mark_ready(size_t i) {
    Slot& s = slots[i];
    if (s.ready)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "DistributedDataParallel: parameter ", i, " got a gradient twice in one ",
           "backward (a reentrant backward, or the module's parameters used in two graphs backward runs together)");
    s.ready = true;
    --buckets[s.bucket].pending;
    while (next_launch < buckets.size() && buckets[next_launch].pending == 0) launch(buckets[next_launch++]);
  }

  // Starts bucket b's reduction: its all-reduce, or for a factorable one,
  // first the ranks' choice between gathering factors (done here, so no
  // work is left) and the all-reduce (every rank makes the same calls).
  // A bucket the ranks once chose the all-reduce for stays with it (every
  // rank saw the same choice), so a weight whose gradient never comes as
  // factors (an embedding's) pays the choosing synchronization only once.
  void launch(Bucket& b) {
    if (b.factorable) {
      Slot& s = slots[b.params.front()];
      if (reduce_factored(*group, s.view, std::exchange(s.factors, {}), exact_reciprocal)) {
        b.work.reset();
        ++factored;
        return;
      }
      b.factorable = false;
    }
    b.work = group->all_reduce(b.flat, PORTA_REDUCE_SUM);
  }

  // Parameter i's gradient `sum` into its place in the bucket, divided by
  // the world size on the way (one pass; the all-reduce's SUM then gives
  // the average, as torch's reducer divides before it reduces).
  void fill(size_t i, const TensorPtr& sum) {
    ops::binary_scalar_into(PORTA_OP_DIV, sum, static_cast<double>(group->size()), slots[i].view);
  }

  // The slot's view as parameter i's gradient destination: the node that
  // computes its gradient writes it there already divided by the world size
  // (plus the .grad it holds, when that is the view: no_sync steps with
  // gradient_as_bucket_view), instead of fill() copying it in. Offered only
  // where that scaling is exact and before the slot is ready.
  autograd::GradDestination destination(size_t i) {
    std::lock_guard<std::mutex> lock(mu);
    Slot& s = slots[i];
    if (!alive || !armed || exact_reciprocal == 0 || s.ready) return {};
    const porta_tensor& p = *params[i];
    if (p.grad && p.grad != s.view.get()) return {};  // a .grad of its own: fill() adds it
    s.written_in_place = true;
    autograd::GradDestination dst;
    dst.out = s.view, dst.scale = exact_reciprocal, dst.keep = p.grad ? exact_reciprocal : 0.0;
    // Factors only for a gradient that starts from zero: a .grad it adds
    // to differs by rank and cannot be gathered as rows.
    if (offer_factors && buckets[s.bucket].factorable && !p.grad) {
      std::weak_ptr<State> self = weak_from_this();
      dst.factored = [self, i](const TensorPtr& g_rows, const TensorPtr& x_rows) {
        auto st = self.lock();
        if (!st) return false;
        std::lock_guard<std::mutex> lock(st->mu);
        if (!st->alive || !st->armed || st->slots[i].ready) return false;
        st->slots[i].factors = {g_rows, x_rows};
        return true;
      };
    }
    return dst;
  }

  TensorPtr on_grad(size_t i, const TensorPtr& g) {
    std::lock_guard<std::mutex> lock(mu);
    // Not armed: a backward after a forward under no_sync() (or of the
    // wrapped module called directly): the gradient accumulates locally and
    // joins the next synchronized one.
    if (!alive || !armed) return TensorPtr();
    Slot& s = slots[i];
    const porta_tensor& p = *params[i];
    // The .grad accumulated so far (no_sync steps) joins this gradient, as
    // torch's reducer reads the accumulated .grad: the result is the average
    // of the ranks' sums.
    if (!(s.written_in_place && g.get() == s.view.get()))
      fill(i, p.grad ? ops::binary(PORTA_OP_ADD, TensorPtr::borrow(p.grad), g) : g);
    s.used = true;
    if (!finalize_queued) {
      finalize_queued = true;
      std::weak_ptr<State> self = weak_from_this();
      autograd::queue_callback([self] {
        if (auto st = self.lock()) st->finalize();
      });
    }
    mark_unused_ready();  // the first gradient of this backward: before its own, as torch's
    mark_ready(i);
    return s.view;
  }

  void finalize() {
    std::lock_guard<std::mutex> lock(mu);
    if (!alive) return;
    armed = false;
    std::string missing;
    for (size_t i = 0; i < slots.size(); ++i)
      if (!slots[i].ready) missing += cat(missing.empty() ? "" : ", ", i);
    if (!missing.empty())
      fail(PORTA_ERROR_INVALID_ARGUMENT, "DistributedDataParallel: parameters ", missing, " (in parameters() order) ",
           "got no gradient in this backward, so their buckets were never reduced; pass find_unused_parameters=True ",
           "if the forward does not use every parameter");
    const auto wait_start = std::chrono::steady_clock::now();
    for (Bucket& b : buckets)
      if (b.work) b.work->wait();
    waited_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - wait_start).count();
    ++synced;
    // Which parameters some rank used (find_unused_parameters): one a rank
    // left unused takes the ranks' average; one no rank used keeps its .grad
    // (None stays None, as torch's, so optimizers skip it).
    std::vector<int32_t> used_anywhere(slots.size(), 1);
    if (find_unused) {
      for (size_t i = 0; i < slots.size(); ++i) used_anywhere[i] = slots[i].used ? 1 : 0;
      DeviceState& host = Registry::get().device(DLDevice{kDLCPU, 0});
      TensorPtr map =
          ops::from_host(used_anywhere.data(), Dtype::Int32, Dims{static_cast<int64_t>(used_anywhere.size())}, host);
      group->all_reduce(map, PORTA_REDUCE_MAX)->wait();
      ops::to_host(*map, used_anywhere.data(), used_anywhere.size() * sizeof(int32_t));
    }
    for (size_t i = 0; i < slots.size(); ++i) {
      porta_tensor& p = *params[i];
      if (!slots[i].used && !used_anywhere[i]) continue;
      if (as_bucket_view) {
        // The view is .grad (the .grad it held is already in it).
        if (p.grad != slots[i].view.get()) {
          release_handle(p.grad);
          p.grad = TensorPtr(slots[i].view).release();
        }
      } else if (slots[i].used) {
        // backward installs the bucket's view (a copy of it) as .grad: the
        // .grad it holds is already in the view.
        release_handle(p.grad);
        p.grad = nullptr;
      } else {
        release_handle(p.grad);
        p.grad = ops::clone(slots[i].view).release();
      }
    }
  }
};

Reducer::Reducer(std::vector<TensorPtr> params, std::shared_ptr<ProcessGroup> group, const Options& options)
    : state_(std::make_shared<State>()) {
  const int64_t bucket_bytes = options.bucket_bytes, first_bucket_bytes = options.first_bucket_bytes;
  State& st = *state_;
  if (!group)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "DistributedDataParallel: no process group (init_process_group first)");
  if (bucket_bytes <= 0 || first_bucket_bytes <= 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "DistributedDataParallel: bucket sizes must be positive, got ", bucket_bytes,
         " and ", first_bucket_bytes, " bytes");
  std::unordered_set<const porta_tensor*> seen;
  for (size_t i = 0; i < params.size(); ++i) {
    const porta_tensor& p = check_handle(params[i].get(), "parameter");
    if (!p.requires_grad || p.grad_fn)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "DistributedDataParallel: parameter ", i,
           " must be a leaf that requires grad (give only the parameters that train)");
    if (!seen.insert(&p).second)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "DistributedDataParallel: parameter ", i, " is listed twice");
  }
  st.params = std::move(params);
  st.group = std::move(group);
  st.find_unused = options.find_unused_parameters;
  st.as_bucket_view = options.gradient_as_bucket_view;
  const int32_t world = st.group->size();
  if ((world & (world - 1)) == 0) st.exact_reciprocal = 1.0 / world;
  st.slots.resize(st.params.size());
  // Buckets: reverse order, one device and dtype each, the first one small.
  int64_t used = 0;  // bytes in the last bucket
  for (size_t k = st.params.size(); k-- > 0;) {
    const porta_tensor& p = *st.params[k];
    const int64_t bytes = p.numel() * static_cast<int64_t>(p.itemsize());
    bool fits = false;
    if (!st.buckets.empty()) {
      const porta_tensor& first = *st.params[st.buckets.back().params.front()];
      const int64_t cap = st.buckets.size() == 1 ? first_bucket_bytes : bucket_bytes;
      fits = first.device == p.device && first.dtype == p.dtype && used + bytes <= cap;
    }
    if (!fits) {
      st.buckets.emplace_back();
      used = 0;
    }
    st.buckets.back().params.push_back(k);
    used += bytes;
  }
  for (size_t bi = 0; bi < st.buckets.size(); ++bi) {
    State::Bucket& b = st.buckets[bi];
    const porta_tensor& first = *st.params[b.params.front()];
    int64_t total = 0;
    for (size_t j : b.params) total += st.params[j]->numel();
    b.flat = ops::full(*first.device, Dims{total}, 0.0, first.dtype);
    int64_t offset = 0;
    for (size_t j : b.params) {
      const porta_tensor& p = *st.params[j];
      st.slots[j].bucket = bi;
      st.slots[j].view = make_view(*b.flat, p.shape, contiguous_strides(p.shape),
                                   b.flat->byte_offset + static_cast<uint64_t>(offset) * p.itemsize());
      offset += p.numel();
    }
  }
  for (State::Bucket& b : st.buckets)
    b.factorable = st.exact_reciprocal != 0 && b.params.size() == 1 && st.params[b.params.front()]->ndim() == 2;
  st.offer_factors = factored_gradients_enabled();
  st.reset_for_backward();
  std::weak_ptr<State> weak = state_;
  for (size_t i = 0; i < st.params.size(); ++i)
    st.hook_ids.push_back(autograd::register_hook(
        *st.params[i],
        [weak, i](const TensorPtr& g) -> TensorPtr {
          auto s = weak.lock();
          return s ? s->on_grad(i, g) : TensorPtr();
        },
        /*writes_grad=*/st.as_bucket_view,
        [weak, i]() -> autograd::GradDestination {
          auto s = weak.lock();
          return s ? s->destination(i) : autograd::GradDestination();
        }));
}

Reducer::~Reducer() {
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->alive = false;
    const State& st = *state_;
    if (st.synced > 0 && log_enabled(PORTA_LOG_INFO)) {
      int64_t bytes = 0;
      for (const State::Bucket& b : st.buckets) bytes += b.flat->numel() * static_cast<int64_t>(b.flat->itemsize());
      char line[320];
      std::snprintf(line, sizeof line,
                    "DistributedDataParallel on rank %d of %d: %lld synchronized backwards, %.1f MB of gradients in "
                    "%zu buckets each, %lld bucket reductions gathered as factors; backward's end waited %.2f ms per "
                    "backward for their all-reduces",
                    st.group->rank(), st.group->size(), static_cast<long long>(st.synced), bytes / 1e6,
                    st.buckets.size(), static_cast<long long>(st.factored),
                    st.waited_s * 1e3 / static_cast<double>(st.synced));
      log_line(PORTA_LOG_INFO, line);
    }
  }
  for (size_t i = 0; i < state_->params.size(); ++i) autograd::remove_hook(*state_->params[i], state_->hook_ids[i]);
}

int32_t Reducer::bucket_count() const { return static_cast<int32_t>(state_->buckets.size()); }

void Reducer::prepare_for_backward(const std::vector<TensorPtr>& outputs) {
  State& st = *state_;
  std::lock_guard<std::mutex> lock(st.mu);
  st.reset_for_backward();
  st.armed = true;
  if (!st.find_unused) return;
  // The parameters the outputs' graphs reach; the others become ready with
  // the backward's first gradient (mark_unused_ready; finalize() says what
  // becomes of their .grad).
  std::unordered_set<const porta_tensor*> reached;
  std::unordered_set<const autograd::Node*> visited;
  std::vector<autograd::Node*> stack;
  for (const TensorPtr& t : outputs)
    if (t && t->grad_fn) stack.push_back(t->grad_fn.get());
  while (!stack.empty()) {
    autograd::Node* n = stack.back();
    stack.pop_back();
    if (!visited.insert(n).second) continue;
    if (auto* acc = dynamic_cast<autograd::AccumulateGrad*>(n)) reached.insert(acc->leaf.get());
    for (const auto& next : n->next)
      if (next) stack.push_back(next.get());
  }
  for (size_t i = 0; i < st.params.size(); ++i)
    if (!reached.count(st.params[i].get())) st.unused.push_back(i);
}

}  // namespace porta::dist
