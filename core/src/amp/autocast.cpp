#include "amp/autocast.hpp"

#include <vector>

#include "autograd/node.hpp"
#include "ops/ag.hpp"
#include "runtime/error.hpp"
#include "runtime/op_descriptors.hpp"
#include "runtime/registry.hpp"

namespace porta::amp {
namespace {

struct TypeState {
  int32_t device_type;
  bool enabled;
  Dtype dtype;
};

// A parameter's conversion, reused within the region while its storage's
// version (in-place writes) and the grad mode it was made under are unchanged.
struct CachedCast {
  TensorPtr source, cast;
  uint64_t version;
  bool grad_mode;
};

struct ThreadState {
  std::vector<TypeState> current;  // one per device type that has been entered
  std::vector<TypeState> saved;    // what each enter() replaced, for its exit()
  std::vector<CachedCast> cache;
};

thread_local ThreadState t_state;
thread_local int t_open_regions = 0;

int32_t device_type_named(const char* type) {
  require(type, "device_type");
  Registry& r = Registry::get();
  Backend* b = r.backend_named(type);
  if (b == nullptr) r.fail_unknown_type(type);
  return b->device_type;
}

TypeState* find(int32_t device_type) {
  for (TypeState& s : t_state.current)
    if (s.device_type == device_type) return &s;
  return nullptr;
}

// The region's dtype for t's device type, when autocast is on there.
const TypeState* active_for(const porta_tensor& t) {
  if (t_open_regions == 0) return nullptr;
  const TypeState* s = find(t.device->dl.device_type);
  return s && s->enabled ? s : nullptr;
}

// PyTorch's dtype outside every region: bfloat16 on the CPU, float16 on an accelerator.
Dtype default_dtype(int32_t device_type) { return device_type == kDLCPU ? Dtype::BFloat16 : Dtype::Float16; }

}  // namespace

void enter(const char* type, Dtype dtype, bool enabled) {
  const int32_t device_type = device_type_named(type);
  if (enabled && dtype != Dtype::Float16 && dtype != Dtype::BFloat16)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, "autocast: dtype ", dtype_name(dtype),
         " is not a lower-precision dtype; autocast runs in float16 or bfloat16");
  TypeState* s = find(device_type);
  if (s == nullptr) {
    t_state.current.push_back(TypeState{device_type, false, default_dtype(device_type)});
    s = &t_state.current.back();
  }
  t_state.saved.push_back(*s);
  s->enabled = enabled;
  s->dtype = dtype;  // a disabled region's too, as PyTorch's (get_autocast_dtype reports it)
  ++t_open_regions;
}

void exit(const char* type) {
  const int32_t device_type = device_type_named(type);
  for (size_t i = t_state.saved.size(); i-- > 0;) {
    if (t_state.saved[i].device_type != device_type) continue;
    *find(device_type) = t_state.saved[i];
    t_state.saved.erase(t_state.saved.begin() + static_cast<std::ptrdiff_t>(i));
    if (--t_open_regions == 0) t_state.cache.clear();
    return;
  }
  fail(PORTA_ERROR_INVALID_ARGUMENT, "autocast: no autocast region is open on '", type,
       "' in this thread (every exit needs the enter it closes, on the same thread and device type)");
}

bool enabled(const char* type, Dtype* dtype) {
  const int32_t device_type = device_type_named(type);
  const TypeState* s = find(device_type);
  if (dtype) *dtype = s ? s->dtype : default_dtype(device_type);
  return s && s->enabled;
}

TensorPtr lower(const TensorPtr& t) {
  const TypeState* s = t ? active_for(*t) : nullptr;
  if (s == nullptr || t->dtype != Dtype::Float32) return t;
  const bool cacheable = t->requires_grad && !t->grad_fn;  // a leaf that requires grad: a parameter
  if (!cacheable) return ag::cast(t, s->dtype);
  const uint64_t version = t->storage->version.load(std::memory_order_relaxed);
  const bool grad_mode = autograd::grad_enabled();
  for (const CachedCast& c : t_state.cache)
    if (c.source.get() == t.get() && c.cast->dtype == s->dtype && c.version == version && c.grad_mode == grad_mode)
      return c.cast;
  TensorPtr cast = ag::cast(t, s->dtype);
  std::erase_if(t_state.cache, [&](const CachedCast& c) { return c.source.get() == t.get(); });  // stale
  t_state.cache.push_back(CachedCast{t, cast, version, grad_mode});
  return cast;
}

TensorPtr to_float32(const TensorPtr& t, Float32List list) {
  if (!t || active_for(*t) == nullptr) return t;
  if (list == Float32List::AcceleratorsOnly && t->device->dl.device_type == kDLCPU) return t;
  if (t->dtype != Dtype::Float16 && t->dtype != Dtype::BFloat16) return t;
  return ag::cast(t, Dtype::Float32);
}

void refuse_unsafe_binary_cross_entropy(const TensorPtr& input) {
  if (!input || active_for(*input) == nullptr || input->device->dl.device_type == kDLCPU) return;
  fail(PORTA_ERROR_INVALID_ARGUMENT,
       "binary_cross_entropy and BCELoss are unsafe to autocast (as in PyTorch): "
       "combine the sigmoid and the loss with binary_cross_entropy_with_logits (BCEWithLogitsLoss), which is "
       "safe, or leave the autocast region (autocast(enabled=False)) and cast the input to float32");
}

TensorPtr operand(porta_op op, const TensorPtr& t) {
  const OpDescriptor* row = t_open_regions == 0 ? nullptr : find_op(op);
  if (!row) return t;
  // The row's autocast column: CUDA's float32 lists (autocast_mode.cpp: fp32, fp32_set_opt_dtype) and its
  // lower-precision list, as far as they name ops of the table.
  switch (row->autocast) {
    case PORTA_AUTOCAST_LOWER: return lower(t);
    case PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS: return to_float32(t, Float32List::AcceleratorsOnly);
    case PORTA_AUTOCAST_PROMOTE: break;
  }
  return t;
}

}  // namespace porta::amp
