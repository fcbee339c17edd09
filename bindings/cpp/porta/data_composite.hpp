// porta::data's datasets made of other datasets, as torch.utils.data's:
// Subset (some samples of a dataset), ConcatDataset (datasets one after
// another) and random_split (PyTorch's rule for fractions; the permutation
// Python's random_split draws from the same generator state).
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "porta/data_dataset.hpp"
#include "porta/data_samplers.hpp"
#include "porta/porta.hpp"

namespace porta::data {

namespace detail {
inline void check_dataset(const std::shared_ptr<const Dataset>& dataset, const char* who) {
  if (!dataset) throw Error(PORTA_ERROR_INVALID_ARGUMENT, porta::detail::cat(who, ": the dataset is null"));
}

/// `t` copied into page-locked host memory for `device`.
inline Tensor pinned_copy(const Tensor& t, const Device& device) {
  const Shape shape = t.shape();
  porta_tensor* out = nullptr;
  porta::detail::check(
      porta_tensor_empty_pinned(t.dtype(), shape.data(), porta::detail::count(shape), device.dl(), &out));
  Tensor pinned = Tensor::adopt(out);
  pinned.copy_(t);
  return pinned;
}
}  // namespace detail

/// The samples of `dataset` at `indices` (each in [0, dataset->size())).
class Subset : public Dataset {
 public:
  Subset(std::shared_ptr<const Dataset> dataset, std::vector<int64_t> indices)
      : dataset_(std::move(dataset)), indices_(std::move(indices)) {
    detail::check_dataset(dataset_, "Subset");
    for (int64_t i : indices_)
      if (i < 0 || i >= dataset_->size())
        throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                    porta::detail::cat("Subset: index ", i, " is out of range for a dataset of ", dataset_->size(),
                                       " samples"));
  }
  int64_t size() const override { return int64_t(indices_.size()); }
  /// The dataset's indices this subset holds, in order.
  const std::vector<int64_t>& indices() const { return indices_; }
  Batch get_batch(const std::vector<int64_t>& indices, const std::optional<Device>& pin_for) const override {
    std::vector<int64_t> mapped;
    mapped.reserve(indices.size());
    for (int64_t i : indices) {
      if (i < 0 || i >= size())
        throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                    porta::detail::cat("Subset: index ", i, " is out of range for ", size(), " samples"));
      mapped.push_back(indices_[size_t(i)]);
    }
    return dataset_->get_batch(mapped, pin_for);
  }

 private:
  std::shared_ptr<const Dataset> dataset_;
  std::vector<int64_t> indices_;
};

/// Datasets one after another: index i is in the first dataset whose cumulative size exceeds it; a negative
/// index counts from the end, as in Python. The datasets' batches must share dtypes and sample shapes.
class ConcatDataset : public Dataset {
 public:
  explicit ConcatDataset(std::vector<std::shared_ptr<const Dataset>> datasets) : datasets_(std::move(datasets)) {
    if (datasets_.empty()) throw Error(PORTA_ERROR_INVALID_ARGUMENT, "ConcatDataset: datasets should not be empty");
    int64_t total = 0;
    for (const auto& d : datasets_) {
      detail::check_dataset(d, "ConcatDataset");
      cumulative_.push_back(total += d->size());
    }
  }
  int64_t size() const override { return cumulative_.back(); }
  /// The running totals of the datasets' sizes.
  const std::vector<int64_t>& cumulative_sizes() const { return cumulative_; }

  Batch get_batch(const std::vector<int64_t>& indices, const std::optional<Device>& pin_for) const override {
    // Consecutive indices in one dataset make one run, fetched with one get_batch; the runs are then joined.
    std::vector<std::pair<size_t, std::vector<int64_t>>> runs;
    for (int64_t i : indices) {
      const auto [k, local] = locate(i);
      if (runs.empty() || runs.back().first != k) runs.push_back({k, {}});
      runs.back().second.push_back(local);
    }
    if (runs.size() <= 1)
      return datasets_[runs.empty() ? 0 : runs[0].first]->get_batch(runs.empty() ? indices : runs[0].second, pin_for);
    std::vector<Tensor> data, target;
    for (const auto& [k, local] : runs) {
      Batch b = datasets_[k]->get_batch(local, std::nullopt);
      data.push_back(b.data), target.push_back(b.target);
    }
    Batch out{cat(data), cat(target)};
    if (pin_for) out = Batch{detail::pinned_copy(out.data, *pin_for), detail::pinned_copy(out.target, *pin_for)};
    return out;
  }

 private:
  /// (dataset, index within it) of index i.
  std::pair<size_t, int64_t> locate(int64_t i) const {
    const int64_t n = size();
    if (i < -n || i >= n)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  porta::detail::cat("ConcatDataset: index ", i, " is out of range for ", n,
                                     " samples (negative indices count from the end)"));
    if (i < 0) i += n;
    const size_t k = size_t(std::upper_bound(cumulative_.begin(), cumulative_.end(), i) - cumulative_.begin());
    return {k, i - (k ? cumulative_[k - 1] : 0)};
  }

  std::vector<std::shared_ptr<const Dataset>> datasets_;
  std::vector<int64_t> cumulative_;
};

namespace detail {
/// PyTorch's rule: lengths that are fractions summing to 1 (math.isclose) become floor(n * f) each, and the
/// remainder goes one at a time to the splits in turn from the first; other lengths must be whole counts.
inline std::vector<int64_t> split_lengths(int64_t n, const std::vector<double>& lengths) {
  double sum = 0;
  for (double x : lengths) sum += x;
  std::vector<int64_t> out;
  if (std::abs(sum - 1) <= 1e-9 * std::max(std::abs(sum), 1.0) && sum <= 1) {
    for (size_t i = 0; i < lengths.size(); ++i) {
      if (!(lengths[i] >= 0 && lengths[i] <= 1))
        throw Error(PORTA_ERROR_INVALID_ARGUMENT, porta::detail::cat("random_split: fraction at index ", i, " (",
                                                                     lengths[i], ") is not between 0 and 1"));
      out.push_back(int64_t(std::floor(double(n) * lengths[i])));
    }
    int64_t remainder = n;
    for (int64_t k : out) remainder -= k;
    for (int64_t i = 0; i < remainder; ++i) ++out[size_t(i) % out.size()];
    return out;
  }
  for (size_t i = 0; i < lengths.size(); ++i) {
    if (!(lengths[i] >= 0) || lengths[i] != std::floor(lengths[i]) || lengths[i] > double(INT64_MAX))
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  porta::detail::cat("random_split: length at index ", i, " (", lengths[i],
                                     ") is neither a whole count nor one of fractions "
                                     "summing to 1"));
    out.push_back(int64_t(lengths[i]));
  }
  return out;
}
}  // namespace detail

/// Subsets of the given lengths (or fractions summing to 1) over one random permutation of the dataset, drawn from
/// `generator` (advanced by the dataset's size) or the global generator: Python's random_split's subsets for the
/// same generator state.
inline std::vector<std::shared_ptr<Subset>> random_split(const std::shared_ptr<const Dataset>& dataset,
                                                         const std::vector<double>& lengths,
                                                         Generator* generator = nullptr) {
  detail::check_dataset(dataset, "random_split");
  const int64_t n = dataset->size();
  const std::vector<int64_t> counts = detail::split_lengths(n, lengths);
  int64_t total = 0;
  for (int64_t k : counts) total += std::min(k, n + 1);  // clamped: a huge length cannot overflow the sum
  if (total != n)
    throw Error(
        PORTA_ERROR_INVALID_ARGUMENT,
        porta::detail::cat("random_split: sum of input lengths does not equal the length of the input dataset (",
                           porta::detail::join(counts, "[", "]"), " for ", n, " samples)"));
  const std::vector<int64_t> order = samplers::detail::randperm(n, generator);
  std::vector<std::shared_ptr<Subset>> out;
  auto start = order.begin();
  for (int64_t k : counts) {
    out.push_back(std::make_shared<Subset>(dataset, std::vector<int64_t>(start, start + k)));
    start += k;
  }
  return out;
}

}  // namespace porta::data
