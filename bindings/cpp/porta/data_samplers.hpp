// porta::data::samplers — the index orders a DataLoader walks, as
// torch.utils.data's samplers: in order, random permutations (or draws with
// replacement), a random order of given indices, weighted draws, each
// rank's share of a distributed run, and batches of another sampler's indices. A random sampler owns a porta::Generator
// (none: it draws from the global generator), so a seed gives the order
// Python's sampler gives with porta.Generator().manual_seed(seed); it is not
// PyTorch's order (another RNG).
#pragma once

#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "porta/porta.hpp"

namespace porta::data::samplers {

namespace detail {
/// A random permutation of 0..n-1 from `generator`, advanced by n (nullptr: the global generator).
inline std::vector<int64_t> randperm(int64_t n, Generator* generator) {
  const DLDevice cpu{kDLCPU, 0};
  porta_tensor* perm = nullptr;
  if (generator == nullptr) {
    porta::detail::check(porta_randperm(n, cpu, &perm));
  } else {
    const auto [seed, offset] = generator->get_state();
    porta::detail::check(porta_randperm_at(n, seed, offset, cpu, &perm));
    generator->set_state({seed, offset + uint64_t(n)});
  }
  return Tensor::adopt(perm).to_vector<int64_t>();
}

/// `order` cut into batches of `batch_size` (the last shorter, or dropped if `drop_last`).
inline std::vector<std::vector<int64_t>> chunk(const std::vector<int64_t>& order, int64_t batch_size, bool drop_last) {
  std::vector<std::vector<int64_t>> out;
  for (size_t start = 0; start < order.size();) {
    const size_t take = std::min(order.size() - start, size_t(batch_size));  // no start + batch_size: it may overflow
    if (drop_last && take < size_t(batch_size)) break;
    out.emplace_back(order.begin() + std::ptrdiff_t(start), order.begin() + std::ptrdiff_t(start + take));
    start += take;
  }
  return out;
}

inline void check_positive(int64_t value, const char* who, const char* name) {
  if (value <= 0)
    throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                porta::detail::cat(who, ": ", name, " should be a positive integer value, but got ", name, "=", value));
}
}  // namespace detail

/// A source of dataset indices, one epoch per call (the role of torch.utils.data.Sampler).
class Sampler {
 public:
  virtual ~Sampler() = default;
  /// The next epoch's indices, in order; a random sampler draws a new order at each call.
  virtual std::vector<int64_t> indices() = 0;
  /// How many indices an epoch has.
  virtual int64_t size() const = 0;
};

/// 0, 1, ..., size - 1.
class SequentialSampler : public Sampler {
 public:
  explicit SequentialSampler(int64_t size) : size_(size) {
    if (size < 0)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, porta::detail::cat("SequentialSampler: size must be >= 0, got ", size));
  }
  std::vector<int64_t> indices() override {
    std::vector<int64_t> out(static_cast<size_t>(size_));
    std::iota(out.begin(), out.end(), 0);
    return out;
  }
  int64_t size() const override { return size_; }

 private:
  int64_t size_;
};

/// A random permutation of 0..size-1 per epoch (several, cut to num_samples, when num_samples > size), or with
/// replacement num_samples uniform draws; num_samples defaults to size.
class RandomSampler : public Sampler {
 public:
  explicit RandomSampler(int64_t size, bool replacement = false, std::optional<int64_t> num_samples = std::nullopt,
                         std::optional<Generator> generator = std::nullopt)
      : size_(size), num_samples_(num_samples.value_or(size)), replacement_(replacement), generator_(generator) {
    detail::check_positive(num_samples_, "RandomSampler", "num_samples");
    if (size_ <= 0)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, porta::detail::cat("RandomSampler: the data source is empty (size ",
                                                                   size_, "), so no sample can be drawn from it"));
  }
  RandomSampler(int64_t size, Generator generator) : RandomSampler(size, false, std::nullopt, generator) {}

  std::vector<int64_t> indices() override {
    Generator* g = generator();
    if (replacement_) return Tensor::randint(0, size_, {num_samples_}, Device(), kInt64, g).to_vector<int64_t>();
    std::vector<int64_t> out;
    out.reserve(size_t(num_samples_));
    while (int64_t(out.size()) < num_samples_) {
      const std::vector<int64_t> perm = detail::randperm(size_, g);
      out.insert(out.end(), perm.begin(),
                 perm.begin() + std::min<std::ptrdiff_t>(size_, num_samples_ - int64_t(out.size())));
    }
    return out;
  }
  int64_t size() const override { return num_samples_; }
  /// The generator this sampler draws from and advances (nullptr: the global one).
  Generator* generator() { return generator_ ? &*generator_ : nullptr; }

 private:
  int64_t size_, num_samples_;
  bool replacement_;
  std::optional<Generator> generator_;
};

/// The given indices in a random order, drawn anew each epoch.
class SubsetRandomSampler : public Sampler {
 public:
  explicit SubsetRandomSampler(std::vector<int64_t> indices, std::optional<Generator> generator = std::nullopt)
      : indices_(std::move(indices)), generator_(generator) {}
  std::vector<int64_t> indices() override {
    std::vector<int64_t> out;
    out.reserve(indices_.size());
    for (int64_t i : detail::randperm(size(), generator())) out.push_back(indices_[size_t(i)]);
    return out;
  }
  int64_t size() const override { return int64_t(indices_.size()); }
  /// The generator this sampler draws from and advances (nullptr: the global one).
  Generator* generator() { return generator_ ? &*generator_ : nullptr; }

 private:
  std::vector<int64_t> indices_;
  std::optional<Generator> generator_;
};

/// num_samples indices in [0, weights.size()), i drawn with probability weights[i] / sum(weights)
/// (porta::multinomial; without replacement each index at most once).
class WeightedRandomSampler : public Sampler {
 public:
  WeightedRandomSampler(const std::vector<double>& weights, int64_t num_samples, bool replacement = true,
                        std::optional<Generator> generator = std::nullopt)
      : weights_(Tensor::from_vector(weights)),
        num_samples_(num_samples),
        replacement_(replacement),
        generator_(generator) {
    detail::check_positive(num_samples, "WeightedRandomSampler", "num_samples");
  }
  std::vector<int64_t> indices() override {
    return multinomial(weights_, num_samples_, replacement_, generator()).to_vector<int64_t>();
  }
  int64_t size() const override { return num_samples_; }
  /// The generator this sampler draws from and advances (nullptr: the global one).
  Generator* generator() { return generator_ ? &*generator_ : nullptr; }

 private:
  Tensor weights_;  // float64 [C], as Python's sampler holds them: the same draws for the same state
  int64_t num_samples_;
  bool replacement_;
  std::optional<Generator> generator_;
};

/// torch.utils.data.distributed.DistributedSampler: rank `rank` of `num_replicas` gets indices rank, rank +
/// num_replicas, ... of the dataset's order, a permutation drawn from seed + epoch (shuffle; the same on every rank
/// and as Python's DistributedSampler) or 0..size-1; without drop_last padded with its own first indices so that every
/// rank runs the same number of steps, with it the uneven tail dropped. set_epoch(e) before each epoch.
class DistributedSampler : public Sampler {
 public:
  DistributedSampler(int64_t size, int64_t num_replicas, int64_t rank, bool shuffle = true, uint64_t seed = 0,
                     bool drop_last = false)
      : size_(size), replicas_(num_replicas), rank_(rank), shuffle_(shuffle), seed_(seed), drop_last_(drop_last) {
    detail::check_positive(num_replicas, "DistributedSampler", "num_replicas");
    if (rank < 0 || rank >= num_replicas)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  porta::detail::cat("DistributedSampler: invalid rank ", rank, ", rank should be in the interval [0, ",
                                     num_replicas - 1, "]"));
    if (size < 0)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  porta::detail::cat("DistributedSampler: size must be >= 0, got ", size));
    num_samples_ = drop_last && size % num_replicas ? (size - num_replicas + num_replicas - 1) / num_replicas
                                                    : (size + num_replicas - 1) / num_replicas;
    if (num_samples_ < 0) num_samples_ = 0;
  }

  std::vector<int64_t> indices() override {
    std::vector<int64_t> order;
    if (shuffle_) {
      Generator g(seed_ + epoch_);
      order = detail::randperm(size_, &g);
    } else {
      order.resize(size_t(size_));
      std::iota(order.begin(), order.end(), int64_t(0));
    }
    const int64_t total = num_samples_ * replicas_;
    if (!drop_last_) {
      for (size_t k = 0; int64_t(order.size()) < total && size_ > 0; ++k) order.push_back(order[k % size_t(size_)]);
    } else {
      order.resize(size_t(std::min<int64_t>(total, int64_t(order.size()))));
    }
    std::vector<int64_t> mine;
    for (int64_t i = rank_; i < total; i += replicas_) mine.push_back(order[size_t(i)]);
    return mine;
  }
  int64_t size() const override { return num_samples_; }
  /// The epoch the next order is drawn for (seed + epoch): every rank sets the same one.
  void set_epoch(uint64_t epoch) { epoch_ = epoch; }

 private:
  int64_t size_, replicas_, rank_;
  bool shuffle_;
  uint64_t seed_;
  bool drop_last_;
  int64_t num_samples_ = 0;
  uint64_t epoch_ = 0;
};

/// Another sampler's indices, batch_size at a time; the last batch shorter unless drop_last.
class BatchSampler {
 public:
  BatchSampler(std::shared_ptr<Sampler> sampler, int64_t batch_size, bool drop_last)
      : sampler_(std::move(sampler)), batch_size_(batch_size), drop_last_(drop_last) {
    if (!sampler_) throw Error(PORTA_ERROR_INVALID_ARGUMENT, "BatchSampler: the sampler is null");
    detail::check_positive(batch_size, "BatchSampler", "batch_size");
  }
  /// The next epoch's batches (one call of the sampler's indices()).
  std::vector<std::vector<int64_t>> batches() { return detail::chunk(sampler_->indices(), batch_size_, drop_last_); }
  /// Batches per epoch.
  int64_t size() const {
    const int64_t n = sampler_->size();
    return drop_last_ ? n / batch_size_ : n / batch_size_ + (n % batch_size_ != 0);
  }

 private:
  std::shared_ptr<Sampler> sampler_;
  int64_t batch_size_;
  bool drop_last_;
};

}  // namespace porta::data::samplers
