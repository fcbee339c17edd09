// C API: tensor life cycle, host I/O, transfers, metadata, views, factories.
#include "ops/ag.hpp"
#include "autograd/node.hpp"
#include "c_api/c_api.hpp"
#include "ops/composite/composite.hpp"
#include "ops/format.hpp"
#include "runtime/log.hpp"

using namespace porta;

// The void entry points cannot return a status: a handle they refuse leaves
// the message in porta_last_error() and a warning on stderr.
static bool live_or_reported(const porta_tensor* t, const char* entry) {
  if (t == nullptr || t->magic == kPortaTensorMagic) return true;
  guard([&] { check_handle(t, entry); });
  log_line(PORTA_LOG_WARN, cat("ignored a call with a dead handle: ", last_error()));
  return false;
}

PORTA_API void porta_tensor_retain(porta_tensor* t) {
  if (t != nullptr && live_or_reported(t, "porta_tensor_retain: t"))
    t->refcount.fetch_add(1, std::memory_order_relaxed);
}

PORTA_API void porta_tensor_release(porta_tensor* t) {
  if (live_or_reported(t, "porta_tensor_release: t")) release_handle(t);
}

PORTA_API porta_status porta_tensor_empty(DLDataType dtype, const int64_t* shape, int32_t ndim, DLDevice device,
                                          porta_tensor** out) {
  return produce(out, [&] { return empty(device_of(device), checked_dtype(dtype), Dims::from(shape, ndim, "shape")); });
}

PORTA_API porta_status porta_tensor_from_host(const void* data, DLDataType dtype, const int64_t* shape, int32_t ndim,
                                              DLDevice device, porta_tensor** out) {
  return produce(out, [&] {
    return ops::from_host(data, checked_dtype(dtype), Dims::from(shape, ndim, "shape"), device_of(device));
  });
}

PORTA_API porta_status porta_tensor_to_host(const porta_tensor* t, void* dst, size_t dst_bytes) {
  return guard([&] { ops::to_host(check_handle(t, "t"), dst, dst_bytes); });
}

// In-place writes from the host are recorded by autograd as a copy from a
// tensor that needs no gradient (what PyTorch's x.copy_(from_numpy(a)) does).
PORTA_API porta_status porta_tensor_from_host_into(porta_tensor* t, const void* src, size_t src_bytes) {
  return guard([&] {
    TensorPtr x = arg(t, "t");
    require_writable(*x, "from_host_into");
    if (!autograd::records_write(*x)) return ops::from_host_into(x, src, src_bytes);
    TensorPtr staged = empty(*x->device, x->dtype, x->shape);
    ops::from_host_into(staged, src, src_bytes);
    autograd::assign(x, staged, "from_host_into", false);
  });
}

PORTA_API porta_status porta_tensor_to(porta_tensor* t, DLDevice device, porta_tensor** out) {
  return produce(out, [&] { return ag::to(arg(t, "t"), device_of(device)); });
}

PORTA_API porta_status porta_tensor_to_non_blocking(porta_tensor* t, DLDevice device, porta_tensor** out) {
  return produce(out, [&] { return ag::to(arg(t, "t"), device_of(device), /*non_blocking=*/true); });
}

PORTA_API porta_status porta_copy_into(porta_tensor* dst, porta_tensor* src) {
  return guard([&] {
    TensorPtr d = arg(dst, "dst");
    ag::copy_(d, arg(src, "src"), "copy_into");
  });
}

// ---- metadata

template <typename Fill>
static porta_status read_meta(const porta_tensor* t, void* out, Fill&& fill) {
  return guard([&] {
    const porta_tensor& x = check_handle(t, "t");
    require(out, "out");
    fill(x);
  });
}

PORTA_API porta_status porta_tensor_dtype(const porta_tensor* t, DLDataType* out) {
  return read_meta(t, out, [&](const porta_tensor& x) { *out = to_dl(x.dtype); });
}
PORTA_API porta_status porta_tensor_ndim(const porta_tensor* t, int32_t* out) {
  return read_meta(t, out, [&](const porta_tensor& x) { *out = x.ndim(); });
}
PORTA_API porta_status porta_tensor_shape(const porta_tensor* t, int64_t* out) {
  return read_meta(t, out, [&](const porta_tensor& x) { std::copy(x.shape.begin(), x.shape.end(), out); });
}
PORTA_API porta_status porta_tensor_strides(const porta_tensor* t, int64_t* out) {
  return read_meta(t, out, [&](const porta_tensor& x) { std::copy(x.strides.begin(), x.strides.end(), out); });
}
PORTA_API porta_status porta_tensor_byte_offset(const porta_tensor* t, uint64_t* out) {
  return read_meta(t, out, [&](const porta_tensor& x) { *out = x.byte_offset; });
}
PORTA_API porta_status porta_tensor_device(const porta_tensor* t, DLDevice* out) {
  return read_meta(t, out, [&](const porta_tensor& x) { *out = x.device->dl; });
}
PORTA_API porta_status porta_tensor_numel(const porta_tensor* t, int64_t* out) {
  return read_meta(t, out, [&](const porta_tensor& x) { *out = x.numel(); });
}
PORTA_API porta_status porta_tensor_is_contiguous(const porta_tensor* t, int* out) {
  return read_meta(t, out, [&](const porta_tensor& x) { *out = x.is_contiguous() ? 1 : 0; });
}

// ---- views

PORTA_API porta_status porta_view(porta_tensor* t, const int64_t* shape, int32_t ndim, porta_tensor** out) {
  return produce(out, [&] { return ag::view(arg(t, "t"), Dims::from(shape, ndim, "shape")); });
}
PORTA_API porta_status porta_reshape(porta_tensor* t, const int64_t* shape, int32_t ndim, porta_tensor** out) {
  return produce(out, [&] { return ag::reshape(arg(t, "t"), Dims::from(shape, ndim, "shape")); });
}
PORTA_API porta_status porta_slice(porta_tensor* t, int32_t dim, int64_t start, int64_t stop, int64_t step,
                                   porta_tensor** out) {
  return produce(out, [&] { return ag::slice(arg(t, "t"), dim, start, stop, step); });
}
PORTA_API porta_status porta_select(porta_tensor* t, int32_t dim, int64_t index, porta_tensor** out) {
  return produce(out, [&] { return ag::select(arg(t, "t"), dim, index); });
}
PORTA_API porta_status porta_transpose(porta_tensor* t, int32_t dim0, int32_t dim1, porta_tensor** out) {
  return produce(out, [&] { return ag::transpose(arg(t, "t"), dim0, dim1); });
}
PORTA_API porta_status porta_permute(porta_tensor* t, const int32_t* dims, int32_t ndim, porta_tensor** out) {
  return produce(out, [&] { return ag::permute(arg(t, "t"), dims, ndim); });
}
PORTA_API porta_status porta_expand(porta_tensor* t, const int64_t* shape, int32_t ndim, porta_tensor** out) {
  return produce(out, [&] { return ag::expand(arg(t, "t"), Dims::from(shape, ndim, "shape")); });
}
PORTA_API porta_status porta_unsqueeze(porta_tensor* t, int32_t dim, porta_tensor** out) {
  return produce(out, [&] { return ag::unsqueeze(arg(t, "t"), dim); });
}
PORTA_API porta_status porta_squeeze(porta_tensor* t, int32_t dim, porta_tensor** out) {
  return produce(out, [&] { return ag::squeeze(arg(t, "t"), dim); });
}
PORTA_API porta_status porta_contiguous(porta_tensor* t, porta_tensor** out) {
  return produce(out, [&] { return ag::contiguous(arg(t, "t")); });
}
PORTA_API porta_status porta_clone(porta_tensor* t, porta_tensor** out) {
  return produce(out, [&] { return ag::clone(arg(t, "t")); });
}

// ---- factories

PORTA_API porta_status porta_full(const int64_t* shape, int32_t ndim, double value, DLDataType dtype, DLDevice device,
                                  porta_tensor** out) {
  return produce(out, [&] {
    const Dtype dt = checked_dtype(dtype);
    ops::check_fill_value("full", value, dt);
    return ops::full(device_of(device), Dims::from(shape, ndim, "shape"), value, dt);
  });
}
PORTA_API porta_status porta_full_int64(const int64_t* shape, int32_t ndim, int64_t value, DLDataType dtype,
                                        DLDevice device, porta_tensor** out) {
  return produce(out, [&] {
    return ops::full_int(device_of(device), Dims::from(shape, ndim, "shape"), value, checked_dtype(dtype));
  });
}
PORTA_API porta_status porta_scalar_tensor(int32_t kind, int64_t i, double f, DLDevice device, porta_tensor** out) {
  return produce(out, [&] {
    switch (kind) {
      case PORTA_SCALAR_BOOL:
        if (i != 0 && i != 1) fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_scalar_tensor: a bool is 0 or 1, got ", i);
        return ops::wrapped_number(device_of(device), Scalar::of_bool(i != 0));
      case PORTA_SCALAR_INT:
        return ops::wrapped_number(device_of(device), Scalar::of_int(i));
      case PORTA_SCALAR_FLOAT:
        return ops::wrapped_number(device_of(device), Scalar::of_float(f));
      default:
        fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_scalar_tensor: kind ", kind,
             " is not a porta_scalar_kind (PORTA_SCALAR_BOOL 0, PORTA_SCALAR_INT 1, PORTA_SCALAR_FLOAT 2)");
    }
  });
}
PORTA_API porta_status porta_zeros(const int64_t* shape, int32_t ndim, DLDataType dtype, DLDevice device,
                                   porta_tensor** out) {
  return porta_full(shape, ndim, 0.0, dtype, device, out);
}
PORTA_API porta_status porta_ones(const int64_t* shape, int32_t ndim, DLDataType dtype, DLDevice device,
                                  porta_tensor** out) {
  return porta_full(shape, ndim, 1.0, dtype, device, out);
}
PORTA_API porta_status porta_arange(double start, double end, double step, DLDataType dtype, DLDevice device,
                                    porta_tensor** out) {
  return produce(out, [&] { return ops::arange(device_of(device), start, end, step, checked_dtype(dtype)); });
}
PORTA_API porta_status porta_logspace(double start, double end, int64_t steps, double base, DLDataType dtype,
                                      DLDevice device, porta_tensor** out) {
  return produce(out,
                 [&] { return composite::logspace(device_of(device), start, end, steps, base, checked_dtype(dtype)); });
}
PORTA_API porta_status porta_arange_int64(int64_t start, int64_t end, int64_t step, DLDataType dtype, DLDevice device,
                                          porta_tensor** out) {
  return produce(out, [&] { return ops::arange_int(device_of(device), start, end, step, checked_dtype(dtype)); });
}
PORTA_API porta_status porta_randperm(int64_t n, DLDevice device, porta_tensor** out) {
  return produce(out, [&] { return ops::randperm(device_of(device), n); });
}
PORTA_API porta_status porta_randperm_at(int64_t n, uint64_t seed, uint64_t offset, DLDevice device,
                                         porta_tensor** out) {
  return produce(out, [&] { return ops::randperm_at(device_of(device), n, seed, offset); });
}
PORTA_API porta_status porta_manual_seed(uint64_t seed) {
  ops::manual_seed(seed);
  return PORTA_OK;
}
PORTA_API porta_status porta_generator_get_state(uint64_t* seed, uint64_t* offset) {
  return guard([&] {
    require(seed, "seed");
    require(offset, "offset");
    ops::generator_state(seed, offset);
  });
}
PORTA_API porta_status porta_generator_set_state(uint64_t seed, uint64_t offset) {
  ops::set_generator_state(seed, offset);
  return PORTA_OK;
}
PORTA_API porta_status porta_rand(const int64_t* shape, int32_t ndim, DLDataType dtype, DLDevice device,
                                  porta_tensor** out) {
  return produce(out, [&] {
    return ops::random(PORTA_OP_RAND_UNIFORM, device_of(device), Dims::from(shape, ndim, "shape"), checked_dtype(dtype),
                       0.0, 1.0);
  });
}
PORTA_API porta_status porta_randn(const int64_t* shape, int32_t ndim, DLDataType dtype, DLDevice device,
                                   porta_tensor** out) {
  return produce(out, [&] {
    return ops::random(PORTA_OP_RAND_NORMAL, device_of(device), Dims::from(shape, ndim, "shape"), checked_dtype(dtype),
                       0.0, 1.0);
  });
}

PORTA_API porta_status porta_tensor_format(porta_tensor* t, char* buf, size_t buf_size, size_t* needed) {
  return guard([&] {
    TensorPtr x = arg(t, "t");
    require(needed, "needed");
    if (buf_size > 0) require(buf, "buf");
    const std::string text = format_tensor(x);
    if (buf_size > 0 && buf_size < text.size() + 1)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "porta_tensor_format: buf_size ", buf_size, " is too small (need ",
           text.size() + 1, "; call with buf_size 0 to ask)");
    *needed = text.size() + 1;
    if (buf_size > 0) std::memcpy(buf, text.c_str(), text.size() + 1);
  });
}
