// DLPack import: validates every field before taking ownership, then wraps
// the producer's memory in a Storage whose release calls the DLPack deleter
// (once, when the last Porta view of it dies).
#include <memory>
#include <string>

#include "dlpack/data_pointer.hpp"
#include "dlpack/exchange.hpp"
#include "runtime/error.hpp"

namespace porta::dlpack {
namespace {

// "float16", "bfloat16", "float32x4", "code 9 with 8 bits": how a dtype reads in messages.
std::string describe(DLDataType t) {
  const char* names[] = {"int", "uint", "float", nullptr, "bfloat", "complex", "bool"};
  const char* name = t.code < sizeof(names) / sizeof(names[0]) ? names[t.code] : nullptr;
  std::string s = name ? cat(name, int(t.bits)) : cat("code ", int(t.code), " with ", int(t.bits), " bits");
  return t.lanes == 1 ? s : cat(s, " x ", t.lanes, " lanes");
}

struct Layout {
  Dtype dtype;
  Dims shape, strides;
  uint64_t extent = 0;  // bytes from data to one past the last reachable element (0 when empty)
};

// Everything Porta needs from `dl`, or a failure naming the offending field.
Layout read_layout(const DLTensor& dl, const char* op) {
  Layout l;
  if (dtype_index(dl.dtype) < 0)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": dl_tensor.dtype ", describe(dl.dtype),
         " is not supported (Porta has ", dtype_names(), ", with lanes 1); "
         "convert it to one of those first");
  l.dtype = checked_dtype(dl.dtype);
  if (dl.ndim < 0 || dl.ndim > PORTA_DLPACK_MAX_NDIM)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": dl_tensor.ndim ", dl.ndim, " is outside [0, ", PORTA_DLPACK_MAX_NDIM,
         "]");
  if (dl.ndim > 0 && dl.shape == nullptr) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": dl_tensor.shape is NULL");
  int64_t numel = 1;
  for (int32_t i = 0; i < dl.ndim; ++i) {
    if (dl.shape[i] < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": dl_tensor.shape[", i, "] is ", dl.shape[i]);
    if (__builtin_mul_overflow(numel, dl.shape[i], &numel))
      fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": dl_tensor.shape has more elements than int64 can count");
    l.shape.push_back(dl.shape[i]);
  }
  if (dl.strides == nullptr) {  // pre-1.2 producers: row-major
    l.strides = contiguous_strides(l.shape);
  } else {
    for (int32_t i = 0; i < dl.ndim; ++i) {
      if (dl.strides[i] < 0)
        fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": dl_tensor.strides[", i, "] is ", dl.strides[i],
             ": negative strides are not supported; make a contiguous copy first");
      l.strides.push_back(dl.strides[i]);
    }
  }
  if (numel == 0) return l;
  // Checked arithmetic throughout: a hostile shape or stride must not wrap around.
  uint64_t last = 0;  // element offset of the last reachable element
  bool overflow = false;
  for (int32_t i = 0; i < dl.ndim; ++i) {
    const auto span = static_cast<uint64_t>(l.shape[i] - 1), stride = static_cast<uint64_t>(l.strides[i]);
    uint64_t step = 0;
    overflow |= __builtin_mul_overflow(span, stride, &step) || __builtin_add_overflow(last, step, &last);
  }
  const uint64_t limit = INT64_MAX;
  overflow |= __builtin_add_overflow(last, uint64_t{1}, &last) ||
              __builtin_mul_overflow(last, uint64_t{dtype_size(l.dtype)}, &l.extent) || l.extent > limit ||
              dl.byte_offset > limit - l.extent;
  if (overflow)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": dl_tensor.shape ", l.shape.str(), " with strides ", l.strides.str(),
         " and byte_offset ", dl.byte_offset, " reaches beyond 2^63 bytes");
  if (dl.data == nullptr)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": dl_tensor.data is NULL but the tensor has ", numel, " elements");
  // Kernels address whole elements; a misaligned first element would be undefined behaviour there.
  const uint64_t first = handle_is_address(dl.device.device_type)
                             ? reinterpret_cast<uintptr_t>(dl.data) + dl.byte_offset
                             : dl.byte_offset;
  if (first % dtype_size(l.dtype) != 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": the first element (dl_tensor.data + byte_offset ", dl.byte_offset,
         ") is not aligned to the ", dtype_size(l.dtype), "-byte ", dtype_name(l.dtype),
         " elements; make an aligned copy first");
  return l;
}

DeviceState& served_device(DLDevice d, const char* op) {
  try {
    return Registry::get().device(d);
  } catch (const Error& e) {
    fail(e.status(), op, ": dl_tensor.device: ", e.what());
  }
}

void call_versioned_deleter(void* managed, void*) {
  auto* m = static_cast<DLManagedTensorVersioned*>(managed);
  if (m->deleter) m->deleter(m);
}

void call_legacy_deleter(void* managed, void*) {
  auto* m = static_cast<DLManagedTensor*>(managed);
  if (m->deleter) m->deleter(m);
}

// A tensor over `managed`'s memory; ownership passes to it only on success.
template <typename Managed>
TensorPtr import_tensor(Managed* managed, bool read_only, void (*release)(void*, void*), const char* op) {
  const DLTensor& dl = managed->dl_tensor;
  const Layout layout = read_layout(dl, op);
  DeviceState& dev = served_device(dl.device, op);

  // Allocate everything first: once `release` is set, a failure would call the producer's deleter.
  auto t = std::make_unique<porta_tensor>();
  auto storage = std::make_shared<Storage>();
  storage->device = &dev;
  storage->block = Block{dl.data, static_cast<size_t>(layout.extent == 0 ? 0 : dl.byte_offset + layout.extent)};
  storage->read_only = read_only;
  storage->release_context = managed;
  storage->release = release;
  t->dtype = layout.dtype;
  t->shape = layout.shape;
  t->strides = layout.strides;
  t->byte_offset = dl.byte_offset;
  t->device = &dev;
  t->storage = std::move(storage);
  return TensorPtr::adopt(t.release());
}

}  // namespace

TensorPtr import_versioned(DLManagedTensorVersioned* managed) {
  constexpr const char* op = "from_dlpack_versioned";
  if (managed->version.major != DLPACK_MAJOR_VERSION) {
    const uint32_t major = managed->version.major, minor = managed->version.minor;
    if (managed->deleter) managed->deleter(managed);  // the only field a foreign major still promises
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": DLPack version ", major, ".", minor, " has major ", major,
         " but Porta reads major ", DLPACK_MAJOR_VERSION, " (", DLPACK_MAJOR_VERSION, ".", DLPACK_MINOR_VERSION,
         "); the tensor was released through its deleter");
  }
  return import_tensor(managed, (managed->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0, call_versioned_deleter, op);
}

TensorPtr import_legacy(DLManagedTensor* managed) {
  return import_tensor(managed, false, call_legacy_deleter, "from_dlpack");
}

}  // namespace porta::dlpack
