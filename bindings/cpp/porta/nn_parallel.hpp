// porta::nn::DistributedDataParallel — torch.nn.parallel.DistributedDataParallel
// for C++ modules, over the core's gradient reducer (porta.h's
// porta_reducer_*, the one Python's uses): rank 0's parameters and buffers
// broadcast at construction (and the buffers before each training forward),
// gradients all-reduced in buckets while backward runs, no_sync() for
// gradient accumulation. docs/distributed.md.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "porta/distributed.hpp"
#include "porta/nn.hpp"

namespace porta::nn {

struct DistributedDataParallelOptions {
  double bucket_cap_mb = 25;  // the first bucket is at most 1 MiB, as torch's
  bool find_unused_parameters = false;
  bool gradient_as_bucket_view = false;  // each .grad a view of its bucket: no copy per backward
  bool broadcast_buffers = true;
  distributed::ProcessGroup process_group = {};  // null: the default group
};

/// Wraps a module held by shared_ptr; call it as the module (forward(args...)).
template <class M>
class DistributedDataParallel {
 public:
  explicit DistributedDataParallel(std::shared_ptr<M> module, DistributedDataParallelOptions options = {})
      : module(std::move(module)), options_(std::move(options)) {
    sync(this->module->parameters());
    sync(this->module->buffers());
    std::vector<porta_tensor*> params;
    for (const Tensor& p : this->module->parameters())
      if (p.requires_grad()) params.push_back(p.handle());
    porta_reducer_options o{};
    o.struct_size = sizeof o;
    o.bucket_bytes = static_cast<int64_t>(options_.bucket_cap_mb * 1024 * 1024);
    o.first_bucket_bytes = 0;  // the core's
    o.find_unused_parameters = options_.find_unused_parameters ? 1 : 0;
    o.gradient_as_bucket_view = options_.gradient_as_bucket_view ? 1 : 0;
    porta_reducer* r = nullptr;
    porta::detail::check(porta_reducer_create_with_options(params.data(), static_cast<int32_t>(params.size()),
                                                           options_.process_group.handle(), &o, &r));
    reducer_.reset(r, &porta_reducer_release);
  }

  /// The module's forward; arms the reducer for this output's backward unless under no_sync().
  template <class... Args>
  auto forward(Args&&... args) {
    if (options_.broadcast_buffers && module->is_training()) sync(module->buffers());
    auto out = module->forward(std::forward<Args>(args)...);
    if (require_sync_ && is_grad_enabled()) {
      std::vector<porta_tensor*> outs = outputs_of(out);
      porta::detail::check(
          porta_reducer_prepare_for_backward(reducer_.get(), outs.data(), static_cast<int32_t>(outs.size())));
    }
    return out;
  }
  template <class... Args>
  auto operator()(Args&&... args) {
    return forward(std::forward<Args>(args)...);
  }

  /// While the guard lives, backward accumulates gradients locally; the first forward and backward after it
  /// synchronizes the accumulated sum.
  class NoSync {
   public:
    explicit NoSync(DistributedDataParallel& d) : d_(d), old_(std::exchange(d.require_sync_, false)) {}
    ~NoSync() { d_.require_sync_ = old_; }
    NoSync(const NoSync&) = delete;
    NoSync& operator=(const NoSync&) = delete;

   private:
    DistributedDataParallel& d_;
    bool old_;
  };
  NoSync no_sync() { return NoSync(*this); }

  int32_t bucket_count() const {
    int32_t n = 0;
    porta::detail::check(porta_reducer_bucket_count(reducer_.get(), &n));
    return n;
  }

  std::shared_ptr<M> module;

 private:
  void sync(const std::vector<Tensor>& tensors) {
    NoGradGuard no_grad;
    // The group's first member, named by its global rank (a subgroup without rank 0 has its own source).
    const int32_t source = distributed::get_global_rank(options_.process_group, 0);
    for (const Tensor& t : tensors) distributed::broadcast(t.detach(), source, options_.process_group);
  }
  static std::vector<porta_tensor*> outputs_of(const Tensor& t) { return {t.handle()}; }
  template <class... T>
  static std::vector<porta_tensor*> outputs_of(const std::tuple<T...>& t) {
    std::vector<porta_tensor*> out;
    std::apply([&](const auto&... x) { (append(out, x), ...); }, t);
    return out;
  }
  template <class X>
  static void append(std::vector<porta_tensor*>& out, const X& x) {
    if constexpr (std::is_same_v<X, Tensor>) out.push_back(x.handle());
  }

  DistributedDataParallelOptions options_;
  std::shared_ptr<porta_reducer> reducer_;
  bool require_sync_ = true;
};

}  // namespace porta::nn
