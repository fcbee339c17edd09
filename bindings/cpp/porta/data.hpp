// porta::data — datasets and a DataLoader, as torch.utils.data: batching,
// seeded shuffling, drop_last, background worker threads that prefetch in
// order, and pinned host buffers when the batches are bound for an
// accelerator. Datasets: IDX files (MNIST, Fashion-MNIST; gzip too) and the
// CIFAR-10 binary format, with Normalize. Samplers (data_samplers.hpp) choose
// the indices; Subset, ConcatDataset and random_split (data_composite.hpp)
// build datasets from datasets.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "porta/data_composite.hpp"
#include "porta/data_dataset.hpp"
#include "porta/data_samplers.hpp"
#include "porta/porta.hpp"

namespace porta::data {

/// Per-channel (x / 255 - mean) / std, as ToTensor() then Normalize(mean, std).
struct Normalize {
  std::vector<float> mean{0.0f};  ///< per channel (one value: all channels)
  std::vector<float> std{1.0f};   ///< per channel (one value: all channels)
};

namespace detail {
/// A cpu tensor for `shape` filled from `host`, pinned for `pin_for` if set.
template <class T>
Tensor host_tensor(const std::vector<T>& host, const Shape& shape, const std::optional<Device>& pin_for) {
  if (!pin_for) return Tensor::from_vector(host, shape);
  porta_tensor* t = nullptr;
  porta::detail::check(porta_tensor_empty_pinned(dtype_of<T>(), shape.data(), porta::detail::count(shape),
                                                 pin_for->dl(), &t));
  Tensor out = Tensor::adopt(t);
  porta::detail::check(porta_tensor_from_host_into(t, host.data(), host.size() * sizeof(T)));
  return out;
}
}  // namespace detail

/// Images held in memory as uint8 [N, C, H, W] with int64 labels; batches
/// come out normalized float32.
class ImageDataset : public Dataset {
 public:
  ImageDataset(std::vector<uint8_t> pixels, std::vector<int64_t> labels, Shape sample_shape, Normalize norm = {})
      : pixels_(std::move(pixels)), labels_(std::move(labels)), sample_(std::move(sample_shape)), norm_(std::move(norm)) {
    sample_size_ = 1;
    for (int64_t d : sample_) {
      if (d < 0 || (d > 0 && sample_size_ > INT64_MAX / d))
        throw Error(PORTA_ERROR_INVALID_ARGUMENT, "ImageDataset: the sample shape " + porta::detail::join(sample_, "[", "]") +
                                                      " is negative or its element count overflows int64");
      sample_size_ *= d;
    }
    if ((sample_size_ != 0 && int64_t(labels_.size()) > INT64_MAX / sample_size_) ||
        sample_size_ * int64_t(labels_.size()) != int64_t(pixels_.size()))
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "ImageDataset: pixel count does not match labels x sample shape");
    // Normalize divides by std and indexes mean/std per channel: neither may be empty, std never 0.
    if (norm_.mean.empty() || norm_.std.empty())
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "ImageDataset: Normalize needs at least one mean and one std "
                                                "(one value applies to every channel)");
    for (float sd : norm_.std)
      if (!(sd > 0.0f) || !std::isfinite(sd))
        throw Error(PORTA_ERROR_INVALID_ARGUMENT, "ImageDataset: Normalize std values must be positive and finite, got " +
                                                      std::to_string(sd));
  }
  int64_t size() const override { return int64_t(labels_.size()); }
  /// The shape of one sample, e.g. {1, 28, 28}.
  const Shape& sample_shape() const { return sample_; }
  /// Label of sample i.
  int64_t label(int64_t i) const { return labels_.at(size_t(i)); }

  Batch get_batch(const std::vector<int64_t>& indices, const std::optional<Device>& pin_for) const override {
    const int64_t channels = sample_.empty() ? 1 : sample_[0], plane = sample_size_ / std::max<int64_t>(channels, 1);
    std::vector<float> x(indices.size() * size_t(sample_size_));
    std::vector<int64_t> y(indices.size());
    for (size_t b = 0; b < indices.size(); ++b) {
      const int64_t i = indices[b];
      if (i < 0 || i >= size()) throw Error(PORTA_ERROR_INVALID_ARGUMENT, "ImageDataset: index out of range");
      const uint8_t* src = pixels_.data() + i * sample_size_;
      float* dst = x.data() + int64_t(b) * sample_size_;
      for (int64_t c = 0; c < channels; ++c) {
        const float m = norm_.mean[size_t(c) % norm_.mean.size()], s = norm_.std[size_t(c) % norm_.std.size()];
        const float scale = 1.0f / (255.0f * s), shift = -m / s;
        for (int64_t k = 0; k < plane; ++k) dst[c * plane + k] = float(src[c * plane + k]) * scale + shift;
      }
      y[b] = labels_[size_t(i)];
    }
    Shape shape{int64_t(indices.size())};
    shape.insert(shape.end(), sample_.begin(), sample_.end());
    return Batch{detail::host_tensor(x, shape, pin_for), detail::host_tensor(y, {int64_t(indices.size())}, pin_for)};
  }

 private:
  std::vector<uint8_t> pixels_;
  std::vector<int64_t> labels_;
  Shape sample_;
  int64_t sample_size_ = 0;
  Normalize norm_;
};

/// Samples from two tensors indexed along dim 0 (like torch's TensorDataset).
class TensorDataset : public Dataset {
 public:
  TensorDataset(Tensor data, Tensor target) : data_(data.cpu()), target_(target.cpu()) {
    if (data_.size(0) != target_.size(0))
      throw Error(PORTA_ERROR_SHAPE_MISMATCH, "TensorDataset: data and target differ in length");
  }
  int64_t size() const override { return data_.size(0); }
  Batch get_batch(const std::vector<int64_t>& indices, const std::optional<Device>&) const override {
    Batch b;
    Shape ds = data_.shape(), ts = target_.shape();
    ds[0] = ts[0] = int64_t(indices.size());
    b.data = Tensor::empty(ds, Device(), data_.dtype());
    b.target = Tensor::empty(ts, Device(), target_.dtype());
    for (size_t k = 0; k < indices.size(); ++k) {
      b.data.select(0, int64_t(k)).copy_(data_.select(0, indices[k]));
      b.target.select(0, int64_t(k)).copy_(target_.select(0, indices[k]));
    }
    return b;
  }

 private:
  Tensor data_, target_;
};

namespace detail {
/// Reads an IDX file into host memory (uint8 payload).
inline std::pair<std::vector<uint8_t>, Shape> read_idx_u8(const std::string& path) {
  porta_tensor* t = nullptr;
  porta::detail::check(porta_read_idx(path.c_str(), &t));
  Tensor x = Tensor::adopt(t);
  if (x.dtype() != kUInt8) throw Error(PORTA_ERROR_IO, path + ": expected unsigned bytes");
  return {x.to_vector<uint8_t>(), x.shape()};
}

/// `dir/name` or `dir/name.gz`, whichever exists.
inline std::string find_file(const std::string& dir, const std::string& name) {
  for (const std::string& candidate : {dir + "/" + name, dir + "/" + name + ".gz"})
    if (std::FILE* f = std::fopen(candidate.c_str(), "rb")) {
      std::fclose(f);
      return candidate;
    }
  throw Error(PORTA_ERROR_IO, "dataset file " + name + "(.gz) not found in " + dir);
}
}  // namespace detail

/// MNIST-format dataset (MNIST, Fashion-MNIST) from `root` holding
/// {train,t10k}-{images-idx3,labels-idx1}-ubyte[.gz].
inline std::shared_ptr<ImageDataset> mnist_format(const std::string& root, bool train, Normalize norm = {}) {
  const std::string split = train ? "train" : "t10k";
  auto [pixels, ishape] = detail::read_idx_u8(detail::find_file(root, split + "-images-idx3-ubyte"));
  auto [labels_u8, lshape] = detail::read_idx_u8(detail::find_file(root, split + "-labels-idx1-ubyte"));
  if (ishape.size() != 3 || lshape.size() != 1 || ishape[0] != lshape[0])
    throw Error(PORTA_ERROR_IO, "MNIST files in " + root + " do not match: images " + porta::detail::join(ishape, "[", "]") +
                                    ", labels " + porta::detail::join(lshape, "[", "]"));
  std::vector<int64_t> labels(labels_u8.begin(), labels_u8.end());
  return std::make_shared<ImageDataset>(std::move(pixels), std::move(labels), Shape{1, ishape[1], ishape[2]}, norm);
}

/// Fashion-MNIST (Debian's dataset-fashion-mnist puts it in /usr/share/datasets/fashion-mnist).
inline std::shared_ptr<ImageDataset> FashionMNIST(const std::string& root, bool train, Normalize norm = {}) {
  return mnist_format(root, train, norm);
}
/// MNIST.
inline std::shared_ptr<ImageDataset> MNIST(const std::string& root, bool train, Normalize norm = {}) {
  return mnist_format(root, train, norm);
}

/// CIFAR-10 from the binary version's files in `root` (or root/cifar-10-batches-bin):
/// data_batch_1..5.bin for training, test_batch.bin for testing.
inline std::shared_ptr<ImageDataset> CIFAR10(const std::string& root, bool train, Normalize norm = {}) {
  std::string dir = root;
  if (std::FILE* f = std::fopen((root + "/cifar-10-batches-bin/test_batch.bin").c_str(), "rb"))
    std::fclose(f), dir = root + "/cifar-10-batches-bin";
  std::vector<std::string> files;
  if (train)
    for (int i = 1; i <= 5; ++i) files.push_back(dir + "/data_batch_" + std::to_string(i) + ".bin");
  else
    files.push_back(dir + "/test_batch.bin");
  std::vector<uint8_t> pixels;
  std::vector<int64_t> labels;
  for (const std::string& f : files) {
    porta_tensor *img = nullptr, *lab = nullptr;
    porta::detail::check(porta_read_cifar10(f.c_str(), &img, &lab));
    Tensor images = Tensor::adopt(img), targets = Tensor::adopt(lab);
    auto p = images.to_vector<uint8_t>();
    auto l = targets.to_vector<int64_t>();
    pixels.insert(pixels.end(), p.begin(), p.end());
    labels.insert(labels.end(), l.begin(), l.end());
  }
  return std::make_shared<ImageDataset>(std::move(pixels), std::move(labels), Shape{3, 32, 32}, norm);
}

/// DataLoader options (torch.utils.data.DataLoader's).
struct LoaderOptions {
  int64_t batch_size = 1;        ///< samples per batch
  bool shuffle = false;          ///< a new permutation every epoch
  /// Shuffling: unset, each epoch draws a permutation from Porta's global generator (porta::manual_seed
  /// makes it reproducible, as PyTorch's DataLoader); set, epoch e uses the generator state
  /// (seed, e * size), the order Python's DataLoader(generator=porta.Generator().manual_seed(seed)) gives.
  std::optional<uint64_t> seed{};
  bool drop_last = false;        ///< drop a final, partial batch
  int num_workers = 0;           ///< background threads assembling batches (0: in the caller)
  int prefetch = 2;              ///< batches each worker keeps ready
  std::optional<Device> pin_memory_for{};  ///< page-locked batches for this accelerator
  /// Each epoch's indices, batch_size at a time, instead of 0..size-1 (torch's sampler=); not with shuffle.
  std::shared_ptr<samplers::Sampler> sampler{};
  /// Each epoch's batches of indices (torch's batch_sampler=); not with batch_size != 1, shuffle, sampler or
  /// drop_last.
  std::shared_ptr<samplers::BatchSampler> batch_sampler{};
};

/// Iterates a dataset in batches. `for (auto& batch : loader)` runs one epoch.
class DataLoader {
 public:
  DataLoader(std::shared_ptr<const Dataset> dataset, LoaderOptions options)
      : dataset_(std::move(dataset)), o_(std::move(options)) {
    if (o_.batch_size < 1) throw Error(PORTA_ERROR_INVALID_ARGUMENT, "DataLoader: batch_size must be >= 1");
    if (o_.num_workers < 0) throw Error(PORTA_ERROR_INVALID_ARGUMENT, "DataLoader: num_workers must be >= 0");
    if (o_.pin_memory_for && o_.pin_memory_for->is_cpu()) o_.pin_memory_for.reset();
    if (o_.sampler && o_.shuffle)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "DataLoader: sampler option is mutually exclusive with shuffle");
    if (o_.batch_sampler && (o_.batch_size != 1 || o_.shuffle || o_.sampler || o_.drop_last))
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "DataLoader: batch_sampler option is mutually exclusive with "
                                                "batch_size, shuffle, sampler, and drop_last");
  }
  /// Batches per epoch.
  int64_t size() const {
    if (o_.batch_sampler) return o_.batch_sampler->size();
    const int64_t n = o_.sampler ? o_.sampler->size() : dataset_->size(), b = o_.batch_size;
    return o_.drop_last ? n / b : n / b + (n % b != 0);  // not (n + b - 1) / b: that overflows for a huge b
  }

  /// One epoch in progress: yields batches in order, prefetched by workers.
  /// It holds the dataset and a copy of the options, not the loader, so an
  /// iterator may outlive the loader it came from (a temporary's begin()).
  class Epoch {
   public:
    Epoch(const DataLoader& loader, uint64_t epoch)
        : dataset_(loader.dataset_), o_(loader.o_), batches_(loader.batches(epoch)) {
      total_ = int64_t(batches_.size());
      for (int w = 0; w < o_.num_workers; ++w) workers_.emplace_back([this] { work(); });
    }
    ~Epoch() {
      {
        std::lock_guard<std::mutex> lock(mu_);
        stop_ = true;
      }
      cv_.notify_all();
      for (auto& t : workers_) t.join();
    }
    Epoch(const Epoch&) = delete;
    Epoch& operator=(const Epoch&) = delete;

    /// The next batch, or nullopt at the end of the epoch.
    std::optional<Batch> next() {
      if (consumed_ >= total_) return std::nullopt;
      const int64_t k = consumed_++;
      if (workers_.empty()) return make(k);
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return ready_.count(k) || failed_.count(k); });
      if (auto f = failed_.find(k); f != failed_.end()) {  // in order: the batches before it were yielded
        std::exception_ptr error = f->second;
        failed_.erase(f);
        cv_.notify_all();
        std::rethrow_exception(error);
      }
      Batch b = std::move(ready_[k]);
      ready_.erase(k);
      cv_.notify_all();
      return b;
    }

   private:
    Batch make(int64_t k) const { return dataset_->get_batch(batches_[size_t(k)], o_.pin_memory_for); }
    void work() {
      const int64_t limit = int64_t(o_.num_workers) * std::max(1, o_.prefetch);
      for (;;) {
        int64_t k;
        {
          std::unique_lock<std::mutex> lock(mu_);
          cv_.wait(lock, [&] { return stop_ || (next_ < total_ && next_ < consumed_ + limit); });
          if (stop_) return;
          k = next_++;
        }
        try {
          Batch b = make(k);
          std::lock_guard<std::mutex> lock(mu_);
          ready_.emplace(k, std::move(b));
        } catch (...) {
          std::lock_guard<std::mutex> lock(mu_);
          failed_.emplace(k, std::current_exception());
        }
        cv_.notify_all();
      }
    }

    std::shared_ptr<const Dataset> dataset_;
    LoaderOptions o_;
    std::vector<std::vector<int64_t>> batches_;
    int64_t total_ = 0, consumed_ = 0, next_ = 0;
    std::vector<std::thread> workers_;
    std::mutex mu_;
    std::condition_variable cv_;
    std::map<int64_t, Batch> ready_;
    std::map<int64_t, std::exception_ptr> failed_;  // a worker's error, raised when its batch's turn comes
    bool stop_ = false;
  };

  /// Input iterator over one epoch's batches.
  class Iterator {
   public:
    Iterator() = default;
    explicit Iterator(std::shared_ptr<Epoch> e) : epoch_(std::move(e)) { advance(); }
    Batch& operator*() { return *current_; }
    Batch* operator->() { return &*current_; }
    Iterator& operator++() {
      advance();
      return *this;
    }
    bool operator!=(const Iterator& other) const { return current_.has_value() != other.current_.has_value(); }

   private:
    void advance() { current_ = epoch_->next(); }
    std::shared_ptr<Epoch> epoch_;
    std::optional<Batch> current_;
  };

  /// Starts a new epoch (a fresh shuffle).
  Iterator begin() const { return Iterator(std::make_shared<Epoch>(*this, epochs_++)); }
  /// End of the epoch.
  Iterator end() const { return Iterator(); }

 private:
  /// Epoch `epoch`'s batches of indices: the batch sampler's, or the sampler's (or the shuffled, or plain,
  /// 0..size-1) indices cut batch_size at a time.
  std::vector<std::vector<int64_t>> batches(uint64_t epoch) const {
    if (o_.batch_sampler) return o_.batch_sampler->batches();
    std::vector<int64_t> order;
    const int64_t n = dataset_->size();
    if (o_.sampler) {
      order = o_.sampler->indices();
    } else if (o_.shuffle) {
      const DLDevice cpu{kDLCPU, 0};
      porta_tensor* perm = nullptr;
      porta::detail::check(o_.seed ? porta_randperm_at(n, *o_.seed, epoch * uint64_t(n), cpu, &perm)
                                   : porta_randperm(n, cpu, &perm));
      order = Tensor::adopt(perm).to_vector<int64_t>();
    } else {
      order.resize(size_t(n));
      std::iota(order.begin(), order.end(), 0);
    }
    return samplers::detail::chunk(order, o_.batch_size, o_.drop_last);
  }

  std::shared_ptr<const Dataset> dataset_;
  LoaderOptions o_;
  mutable uint64_t epochs_ = 0;
};

}  // namespace porta::data
