// Host kernels of the INDEX kind: GATHER in parallel over output elements (a
// run with one index value copied as a row, a contiguous run gathered after
// checking its indices in one pass), SCATTER in parallel over lines (the
// positions with p[dim] == 0), each line applied serially in increasing
// p[dim], as porta/ops.h requires. Both walk
// the index's shape with strided_loop.hpp, the data tensor taking part with
// stride 0 along dim, where each index value then adds its own offset.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>

#include "copy_run.hpp"
#include "dtype_dispatch.hpp"
#include "index_call.hpp"
#include "index_math.hpp"
#include "lane_math.hpp"
#include "strided_loop.hpp"

namespace porta::host {
namespace {

using plugin::IndexCall;

// The walk over the index's shape S, or over its lines (S with S[dim] = 1):
// operand 0 the values (GATHER's out, SCATTER's src), 1 the index, 2 the data
// tensor, whose stride along dim is 0 (index values address it there).
class IndexWalk {
 public:
  StridedOperands<3> ops;
  int64_t along[3] = {};  // bytes per step along dim: values, index, data

  IndexWalk(const IndexCall& k, bool lines) {
    const DLTensor* ts[3] = {k.values, k.index, k.data};
    ops.ndim = k.index->ndim;
    ops.shape = shape_;
    for (int32_t d = 0; d < ops.ndim; ++d) shape_[d] = (lines && d == k.dim) ? 1 : k.index->shape[d];
    for (int i = 0; i < 3; ++i) {
      const DLTensor& t = *ts[i];
      int64_t row_major = 1;
      for (int32_t d = t.ndim - 1; d >= 0; --d) {
        strides_[i][d] = t.strides ? t.strides[d] : row_major;
        row_major *= t.shape[d];
      }
      ops.base[i] = static_cast<char*>(t.data) + t.byte_offset;
      ops.strides[i] = strides_[i];
      ops.esize[i] = (t.dtype.bits * t.dtype.lanes + 7) / 8;
      along[i] = strides_[i][k.dim] * ops.esize[i];
    }
    strides_[2][k.dim] = 0;
  }
  IndexWalk(const IndexWalk&) = delete;  // ops points into this object
  IndexWalk& operator=(const IndexWalk&) = delete;

 private:
  int64_t shape_[PORTA_MAX_DIMS] = {};
  int64_t strides_[3][PORTA_MAX_DIMS] = {};
};

// The first index value outside [0, extent) the walk met, reported after
// the parallel loop: the cpu plugin declares PORTA_PLUGIN_CAP_CHECKS_INDEX_RANGE,
// so the core relies on it; on others the core checks first.
class BadIndex {
 public:
  void note(int64_t at, int64_t value) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (at < at_) at_ = at, value_ = value;
  }
  porta_status status(uint32_t op, const IndexCall& k) const {
    if (at_ == std::numeric_limits<int64_t>::max()) return PORTA_OK;
    char msg[192];
    std::snprintf(msg, sizeof msg, "%s: index value %lld is outside [0, %lld), the size of %s's dim %d",
                  plugin::op_name(op), (long long)value_, (long long)k.extent(), k.data_name, k.dim);
    return report(PORTA_ERROR_INVALID_ARGUMENT, msg);
  }

 private:
  std::mutex mutex_;
  int64_t at_ = std::numeric_limits<int64_t>::max(), value_ = 0;
};

porta_status read_call(uint32_t op, const porta_kernel_call* c, IndexCall* k) {
  char msg[256];
  return plugin::index_call(op, c, k, msg, sizeof msg) ? PORTA_OK : report(PORTA_ERROR_INVALID_ARGUMENT, msg);
}

template <class T>
const T& at(const char* p, int64_t bytes) {
  return *reinterpret_cast<const T*>(p + bytes);
}

// A run of contiguous values and index: its indices checked first (a loop
// that vectorizes), then gathered without a branch per element; false
// (nothing written) where one is out of range. A scalar loop: AVX-512
// vector gathers (vpgatherqd/qq) were used here until 2026-12-06, when on
// CI's AMD EPYC they had become 2x slower than this loop (gather [4096, 512]
// by [4096, 256], one thread: 2.1 ms against 0.9-1.0; flip and reflect pad
// slower too; docs/benchmarks.md).
template <class T>
PORTA_WIDEST_VECTORS bool gather_contiguous_run(T* out, const int64_t* index, const char* src, int64_t src_stride,
                                                int64_t step, int64_t extent, int64_t count) {
  uint64_t widest = 0;  // a negative index is wider than any extent as uint64
  for (int64_t t = 0; t < count; ++t) widest = std::max(widest, static_cast<uint64_t>(index[t]));
  if (widest >= static_cast<uint64_t>(extent)) return false;
  const T* base = reinterpret_cast<const T*>(src);  // in elements: every stride is a whole number of them
  const int64_t a = src_stride / static_cast<int64_t>(sizeof(T)), b = step / static_cast<int64_t>(sizeof(T));
  if (a == 0 && b == 1) {  // along the run's own dim of a contiguous line (gather's dim is the last)
    for (int64_t t = 0; t < count; ++t) out[t] = base[index[t]];
  } else {
    for (int64_t t = 0; t < count; ++t) out[t] = base[t * a + index[t] * b];
  }
  return true;
}

// A gather along dim 0 of a 2-D shape whose index holds one value per row
// (broadcast along it), rows contiguous in out and data: index_select's.
bool rows_of_one_index(const IndexWalk& w, const IndexCall& k) {
  return k.dim == 0 && w.ops.ndim == 2 && w.ops.strides[1][1] == 0 && w.ops.strides[0][1] == 1 &&
         w.ops.strides[2][1] == 1;
}

template <class T>
porta_status gather_kernel(const porta_kernel_call* c) {
  IndexCall k;
  if (const porta_status st = read_call(PORTA_OP_GATHER, c, &k); st != PORTA_OK) return st;
  const IndexWalk w(k, false);
  const int64_t extent = k.extent(), step = w.along[2];
  BadIndex bad;
  if (rows_of_one_index(w, k)) {
    // index_select along dim 0 of a matrix: row copies, without the walk's
    // bookkeeping per run (a tenth of the time of 8192 rows of 2 KiB).
    const int64_t rows = w.ops.shape[0], row = w.ops.shape[1];
    const int64_t out_step = w.ops.strides[0][0] * static_cast<int64_t>(sizeof(T)), index_step = w.ops.strides[1][0];
    parallel_for(rows, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(row, 1)), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        const int64_t i = reinterpret_cast<const int64_t*>(w.ops.base[1])[r * index_step];
        char* out = w.ops.base[0] + r * out_step;
        if (i >= 0 && i < extent) {
          copy_run(out, w.ops.base[2] + i * step, static_cast<size_t>(row) * sizeof(T));
        } else {
          bad.note(r * row, i);
          std::fill_n(reinterpret_cast<T*>(out), row, T(0));
        }
      }
    });
    return bad.status(PORTA_OP_GATHER, k);
  }
  parallel_runs(w.ops, numel(*k.index), [&](char* const* p, const int64_t* s, int64_t count, int64_t linear) {
    if (s[1] == 0 && s[0] == sizeof(T) && s[2] == sizeof(T)) {
      // One index value for the whole run, which is contiguous in both: a row
      // copy (index_select's index, broadcast along the other dims).
      const int64_t i = at<int64_t>(p[1], 0);
      if (i >= 0 && i < extent) {
        copy_run(p[0], p[2] + i * step, static_cast<size_t>(count) * sizeof(T));
        return;
      }
    } else if (s[0] == sizeof(T) && s[1] == sizeof(int64_t)) {
      if (gather_contiguous_run(reinterpret_cast<T*>(p[0]), reinterpret_cast<const int64_t*>(p[1]), p[2], s[2], step,
                                extent, count))
        return;
    }
    for (int64_t t = 0; t < count; ++t) {
      const int64_t i = at<int64_t>(p[1], t * s[1]);
      T* out = reinterpret_cast<T*>(p[0] + t * s[0]);
      if (i < 0 || i >= extent) {
        bad.note(linear + t, i);
        *out = T(0);
      } else {
        *out = at<T>(p[2], t * s[2] + i * step);
      }
    }
  });
  return bad.status(PORTA_OP_GATHER, k);
}

// Folds `value` into self's place at index value i along dim (self_line:
// the line's place at position 0, step: bytes per position), or notes i,
// met at linear position `at`, when it is outside [0, extent).
template <class T, int Reduce>
void fold_into(char* self_line, int64_t step, int64_t i, int64_t extent, T value, int64_t at, BadIndex& bad) {
  if (i < 0 || i >= extent) return bad.note(at, i);
  T& dst = *reinterpret_cast<T*>(self_line + i * step);
  dst = math::ScatterReduce<Reduce>{}(dst, value);
}

// Folds the values of a run of `count` lines at step j into self, the lines'
// elements `s` bytes apart in values, index and self.
template <class T, int Reduce>
void scatter_step(char* const* p, const int64_t* s, int64_t count, int64_t first, int64_t j, const IndexWalk& w,
                  int64_t len, int64_t extent, BadIndex& bad) {
  const math::ScatterReduce<Reduce> f;
  const char* src = p[0] + j * w.along[0];
  const char* index = p[1] + j * w.along[1];
  if (s[1] == 0 && s[2] == sizeof(T)) {
    // One index value for the run, whose places in self are contiguous: a
    // row folded into a row (embedding's and index_add's backward; their
    // values are often a broadcast gradient, s[0] == 0).
    const int64_t i = at<int64_t>(index, 0);
    if (i >= 0 && i < extent) {
      T* __restrict dst = reinterpret_cast<T*>(p[2] + i * w.along[2]);
      if (s[0] == sizeof(T)) {
        const T* __restrict from = reinterpret_cast<const T*>(src);
        for (int64_t t = 0; t < count; ++t) dst[t] = f(dst[t], from[t]);
      } else {
        for (int64_t t = 0; t < count; ++t) dst[t] = f(dst[t], at<T>(src, t * s[0]));
      }
      return;
    }
  }
  for (int64_t t = 0; t < count; ++t)
    fold_into<T, Reduce>(p[2] + t * s[2], w.along[2], at<int64_t>(index, t * s[1]), extent, at<T>(src, t * s[0]),
                         (first + t) * len + j, bad);
}

// Each line (the places of index that differ only along dim) folded into
// self in increasing position along dim, so the last write wins and sums add
// in one order. Lines touch disjoint places of self, so a run of lines may
// take its steps together: along dim outermost where the lines are the more
// contiguous in self (scatter along dim 0 of rows), each line in turn where
// dim is.
template <class T, int Reduce>
void scatter_lines(const IndexCall& k, BadIndex& bad) {
  const IndexWalk w(k, true);
  const int64_t len = k.index->shape[k.dim], extent = k.extent();
  parallel_for(k.lines(), std::max<int64_t>(1, kElementwiseGrain / len), [&](int64_t b, int64_t e) {
    for_each_run(w.ops, b, e, [&](char* const* p, const int64_t* s, int64_t count, int64_t line) {
      if (std::abs(s[2]) < std::abs(w.along[2])) {
        for (int64_t j = 0; j < len; ++j) scatter_step<T, Reduce>(p, s, count, line, j, w, len, extent, bad);
      } else {
        for (int64_t t = 0; t < count; ++t) {
          const char *src = p[0] + t * s[0], *index = p[1] + t * s[1];
          for (int64_t j = 0; j < len; ++j)
            fold_into<T, Reduce>(p[2] + t * s[2], w.along[2], at<int64_t>(index, j * w.along[1]), extent,
                                 at<T>(src, j * w.along[0]), (line + t) * len + j, bad);
        }
      }
    });
  });
}

template <class T>
porta_status scatter_kernel(const porta_kernel_call* c) {
  IndexCall k;
  if (const porta_status st = read_call(PORTA_OP_SCATTER, c, &k); st != PORTA_OK) return st;
  if (numel(*k.index) == 0) return PORTA_OK;
  BadIndex bad;
  switch (k.reduce) {
    case PORTA_SCATTER_ASSIGN:
      scatter_lines<T, PORTA_SCATTER_ASSIGN>(k, bad);
      break;
    case PORTA_SCATTER_SUM:
      scatter_lines<T, PORTA_SCATTER_SUM>(k, bad);
      break;
    case PORTA_SCATTER_PROD:
      scatter_lines<T, PORTA_SCATTER_PROD>(k, bad);
      break;
    case PORTA_SCATTER_AMAX:
      scatter_lines<T, PORTA_SCATTER_AMAX>(k, bad);
      break;
    default:
      scatter_lines<T, PORTA_SCATTER_AMIN>(k, bad);
      break;
  }
  return bad.status(PORTA_OP_SCATTER, k);
}

}  // namespace

porta_kernel_fn find_index_kernel(uint32_t op, int dtype) {
  if (!plugin::op_takes_dtype(op, dtype)) return nullptr;
  return visit_dtype(dtype, [&]<int DT>() {
    using T = storage_t<DT>;
    return lookup_kind<PORTA_OP_KIND_INDEX>(op, []<uint32_t Op>(op_id<Op>) -> porta_kernel_fn {
      if constexpr (Op == PORTA_OP_GATHER)
        return &gather_kernel<T>;
      else if constexpr (Op == PORTA_OP_SCATTER)
        return &scatter_kernel<T>;
      else
        static_assert(no_kernel_for<Op>, "an INDEX row without its kernel here");
    });
  });
}

}  // namespace porta::host
