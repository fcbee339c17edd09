// DLPack export: one heap block holds the DLManagedTensor(Versioned) handed
// to the consumer, the shape and strides it points at, and a view that keeps
// the tensor's storage alive until the consumer calls the deleter.
//
// Consumers do not all keep the contract: PyTorch, refusing a device it does
// not know, calls the deleter and leaves the capsule unrenamed, so the
// capsule's destructor then deletes again (pytorch#56789). So the deleter
// frees the view at once but not the block: it clears manager_ctx and
// deleter, and the block waits in a quarantine of the last 4096 exports. A
// second call, or a capsule destructor that reads the deleter field, finds
// NULL in memory that is still valid and does nothing.
#include <array>
#include <memory>

#include "dlpack/data_pointer.hpp"
#include "dlpack/exchange.hpp"
#include "runtime/error.hpp"
#include "runtime/handle_quarantine.hpp"

namespace porta::dlpack {
namespace {

template <typename Managed>
struct Export {
  Managed managed{};  // what the consumer sees; its manager_ctx is this Export
  // A view, not the exported handle: porta_tensor_move_to may later swap the
  // handle's storage, and the consumer must keep reading the old one.
  TensorPtr view;
  std::array<int64_t, PORTA_MAX_DIMS> shape{}, strides{};
};

template <typename Managed>
HandleQuarantine<Export<Managed>>& deleted_exports() {
  static auto* q = new HandleQuarantine<Export<Managed>>();  // never destroyed: consumers delete at exit too
  return *q;
}

// The deleter the consumer should call once; calling it again (or after the
// capsule's own destructor did) does nothing while the block is quarantined.
template <typename Managed>
void delete_export(Managed* self) {
  if (self == nullptr || self->manager_ctx == nullptr) return;
  auto* ctx = static_cast<Export<Managed>*>(self->manager_ctx);
  self->manager_ctx = nullptr;
  self->deleter = nullptr;
  ctx->view = TensorPtr();  // the storage goes now
  deleted_exports<Managed>().retire(ctx);
}

template <typename Managed>
Managed* export_tensor(const TensorPtr& x) {
  auto ctx = std::make_unique<Export<Managed>>();
  ctx->view = make_view(*x, x->shape, x->strides, x->byte_offset);
  std::copy(x->shape.begin(), x->shape.end(), ctx->shape.begin());
  std::copy(x->strides.begin(), x->strides.end(), ctx->strides.begin());

  DLTensor& dl = ctx->managed.dl_tensor;
  dl.device = x->device->dl;
  dl.ndim = x->ndim();
  dl.dtype = to_dl(x->dtype);
  dl.shape = ctx->shape.data();
  dl.strides = ctx->strides.data();
  void* handle = x->storage->block.handle;
  if (x->numel() == 0 || handle == nullptr) {  // DLPack: data is NULL for a size-0 tensor
    dl.data = nullptr;
    dl.byte_offset = 0;
  } else if (handle_is_address(dl.device.device_type)) {
    dl.data = static_cast<char*>(handle) + x->byte_offset;
    dl.byte_offset = 0;
  } else {
    dl.data = handle;
    dl.byte_offset = x->byte_offset;
  }
  ctx->managed.manager_ctx = ctx.get();
  ctx->managed.deleter = delete_export<Managed>;
  return &ctx.release()->managed;
}

}  // namespace

DLManagedTensorVersioned* export_versioned(const TensorPtr& t, uint64_t flags) {
  DLManagedTensorVersioned* managed = export_tensor<DLManagedTensorVersioned>(t);
  managed->version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  managed->flags = flags | (t->storage->read_only ? DLPACK_FLAG_BITMASK_READ_ONLY : 0);
  return managed;
}

DLManagedTensor* export_legacy(const TensorPtr& t) {
  if (t->storage->read_only)
    fail(PORTA_ERROR_INVALID_ARGUMENT,
         "to_dlpack: the tensor is read-only (imported through DLPack with the read-only flag) and a legacy "
         "DLManagedTensor cannot say so; use porta_to_dlpack_versioned, or export a clone (porta_clone)");
  return export_tensor<DLManagedTensor>(t);
}

}  // namespace porta::dlpack
