#include "dlpack_test_util.hpp"

#include <cstdlib>
#include <numeric>

namespace dlpack_test {

std::atomic<int64_t> g_live_contexts{0};

namespace {

template <typename Managed>
struct ForeignContext {
  Managed managed{};
  void* buffer = nullptr;
  std::vector<int64_t> shape, strides;
  DeleterLog* log = nullptr;
};

template <typename Managed>
void delete_foreign(Managed* self) {
  auto* ctx = static_cast<ForeignContext<Managed>*>(self->manager_ctx);
  ++ctx->log->calls;
  std::free(ctx->buffer);
  delete ctx;
  g_live_contexts.fetch_sub(1);
}

template <typename Managed>
Managed* build_foreign(const ForeignSpec& spec, DeleterLog* log) {
  auto* ctx = new ForeignContext<Managed>();
  g_live_contexts.fetch_add(1);
  ctx->log = log;
  ctx->buffer = std::malloc(spec.byte_offset + spec.bytes.size() + 1);  // +1: never malloc(0)
  if (!spec.bytes.empty())
    std::memcpy(static_cast<char*>(ctx->buffer) + spec.byte_offset, spec.bytes.data(), spec.bytes.size());
  ctx->shape = spec.shape;
  ctx->shape.push_back(0);  // never an empty vector, so data() is never NULL
  DLTensor& dl = ctx->managed.dl_tensor;
  dl.data = spec.null_data ? nullptr : ctx->buffer;
  dl.byte_offset = spec.byte_offset;
  dl.device = spec.device;
  dl.dtype = spec.dtype;
  dl.ndim = spec.ndim.value_or(static_cast<int32_t>(spec.shape.size()));
  dl.shape = spec.null_shape ? nullptr : ctx->shape.data();
  if (spec.strides) {
    ctx->strides = *spec.strides;
    ctx->strides.push_back(0);
    dl.strides = ctx->strides.data();
  }
  ctx->managed.manager_ctx = ctx;
  ctx->managed.deleter = spec.null_deleter ? nullptr : delete_foreign<Managed>;
  return &ctx->managed;
}

template <typename Managed>
struct CountedContext {
  Managed outer{};
  Managed* inner = nullptr;
  DeleterLog* log = nullptr;
};

template <typename Managed>
void delete_counted(Managed* self) {
  auto* ctx = static_cast<CountedContext<Managed>*>(self->manager_ctx);
  ++ctx->log->calls;
  if (ctx->inner->deleter) ctx->inner->deleter(ctx->inner);
  delete ctx;
  g_live_contexts.fetch_sub(1);
}

template <typename Managed>
CountedContext<Managed>* build_counted(Managed* inner, DeleterLog* log) {
  auto* ctx = new CountedContext<Managed>();
  g_live_contexts.fetch_add(1);
  ctx->inner = inner;
  ctx->log = log;
  ctx->outer.dl_tensor = inner->dl_tensor;
  ctx->outer.manager_ctx = ctx;
  ctx->outer.deleter = delete_counted<Managed>;
  return ctx;
}

}  // namespace

DLManagedTensorVersioned* make_foreign(const ForeignSpec& spec, DeleterLog* log) {
  DLManagedTensorVersioned* m = build_foreign<DLManagedTensorVersioned>(spec, log);
  m->version = spec.version;
  m->flags = spec.flags;
  return m;
}

DLManagedTensor* make_foreign_legacy(const ForeignSpec& spec, DeleterLog* log) {
  return build_foreign<DLManagedTensor>(spec, log);
}

void restore_deleter(DLManagedTensorVersioned* m) { m->deleter = delete_foreign<DLManagedTensorVersioned>; }
void restore_deleter(DLManagedTensor* m) { m->deleter = delete_foreign<DLManagedTensor>; }

DLManagedTensorVersioned* counted(DLManagedTensorVersioned* inner, DeleterLog* log, uint64_t extra_flags) {
  auto* ctx = build_counted(inner, log);
  ctx->outer.version = inner->version;
  ctx->outer.flags = inner->flags | extra_flags;
  return &ctx->outer;
}

DLManagedTensor* counted_legacy(DLManagedTensor* inner, DeleterLog* log) { return &build_counted(inner, log)->outer; }

Tensor arange_f32(int64_t n, DLDevice dev) {
  Tensor t;
  CHECK_OK(porta_arange(0, static_cast<double>(n), 1, porta_float32, dev, t.out()));
  return t;
}

Tensor arange_f32(const std::vector<int64_t>& shape, DLDevice dev) {
  const int64_t n = std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
  Tensor flat = arange_f32(n, dev);
  Tensor t;
  CHECK_OK(porta_view(flat, shape.data(), static_cast<int32_t>(shape.size()), t.out()));
  return t;
}

Tensor from_host_f32(const std::vector<float>& v, const std::vector<int64_t>& shape, DLDevice dev) {
  Tensor t;
  CHECK_OK(
      porta_tensor_from_host(v.data(), porta_float32, shape.data(), static_cast<int32_t>(shape.size()), dev, t.out()));
  return t;
}

void* data_ptr(const porta_tensor* t) {
  void* p = nullptr;
  CHECK_OK(porta_tensor_data_ptr(t, &p));
  return p;
}

bool is_read_only(const porta_tensor* t) {
  int r = -1;
  CHECK_OK(porta_tensor_is_read_only(t, &r));
  return r != 0;
}

std::vector<int64_t> dl_shape(const DLTensor& dl) {
  return dl.ndim == 0 ? std::vector<int64_t>{} : std::vector<int64_t>(dl.shape, dl.shape + dl.ndim);
}

std::vector<int64_t> dl_strides(const DLTensor& dl) {
  return dl.ndim == 0 ? std::vector<int64_t>{} : std::vector<int64_t>(dl.strides, dl.strides + dl.ndim);
}

bool same_device(DLDevice a, DLDevice b) { return a.device_type == b.device_type && a.device_id == b.device_id; }

Tensor import(DLManagedTensorVersioned* m) {
  Tensor t;
  CHECK_OK(porta_from_dlpack_versioned(m, t.out()));
  return t;
}

Tensor import_legacy(DLManagedTensor* m) {
  Tensor t;
  CHECK_OK(porta_from_dlpack(m, t.out()));
  return t;
}

}  // namespace dlpack_test
