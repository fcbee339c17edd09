/*
 * A minimal plugin in plain C11, built several times with different
 * compile definitions into the plugins the ABI tests need (and installed as
 * <prefix>/share/porta/minimal_plugin.c, the starting point of
 * docs/plugin-authoring.md):
 *   PLUGIN_NAME, PLUGIN_DEVICE_TYPE   what it serves (default "minimal", kDLExtDev)
 *   PLUGIN_ABI_MAJOR                  (default PORTA_PLUGIN_ABI_MAJOR)
 *   PLUGIN_DEVICES                    device count (default 1)
 *   PLUGIN_INIT_FAILS                 initialize() reports an error
 *   PLUGIN_ABI_1_0                    exports a table with the 1.0 layout only
 *   PLUGIN_ABI_MINOR                  the plugin ABI minor it declares (default PORTA_PLUGIN_ABI_MINOR)
 *   PLUGIN_C_CASTS                    a float32 -> int32 CAST kernel that is a plain C cast, as a plugin
 *                                     written before ops.h's saturation rule (plugin ABI 1.3) has
 * Its device is host memory with a float32 `full` kernel: enough to create a
 * tensor, fill it and read it back.
 */
#include <porta/plugin.h>
#include <stdlib.h>
#include <string.h>

#ifndef PLUGIN_NAME
#define PLUGIN_NAME "minimal"
#endif
#ifndef PLUGIN_DEVICE_TYPE
#define PLUGIN_DEVICE_TYPE kDLExtDev
#endif
#ifndef PLUGIN_ABI_MAJOR
#define PLUGIN_ABI_MAJOR PORTA_PLUGIN_ABI_MAJOR
#endif
#ifndef PLUGIN_DEVICES
#define PLUGIN_DEVICES 1
#endif
#ifndef PLUGIN_ABI_MINOR
#define PLUGIN_ABI_MINOR PORTA_PLUGIN_ABI_MINOR
#endif

static const porta_host_api* g_host;

static porta_status initialize(const porta_host_api* host) {
  g_host = host;
#ifdef PLUGIN_INIT_FAILS
  host->set_error("simulated driver failure (test plugin)");
  return PORTA_ERROR_BACKEND;
#else
  return PORTA_OK;
#endif
}

static porta_status device_count(int32_t* out) {
  *out = PLUGIN_DEVICES;
  return PORTA_OK;
}

static const char* unavailable_reason(void) {
  return PLUGIN_DEVICES == 0 ? "no hardware present (test plugin)" : NULL;
}

static porta_status device_props(int32_t device, porta_device_props* out) {
  (void)device;
  size_t keep = out->struct_size;
  porta_device_props p;
  memset(&p, 0, sizeof p);
  strcpy(p.name, "minimal test device");
  p.compute_units = 1;
  p.kind = PORTA_DEVICE_KIND_VIRTUAL;
  memcpy(out, &p, keep < sizeof p ? keep : sizeof p);
  out->struct_size = keep;
  return PORTA_OK;
}

static porta_status alloc(int32_t device, size_t bytes, void** out) {
  (void)device;
  void* p = malloc(bytes);
  if (!p) {
    g_host->set_error("out of host memory");
    return PORTA_ERROR_OUT_OF_MEMORY;
  }
  *out = p;
  return PORTA_OK;
}

static void release(int32_t device, void* handle) {
  (void)device;
  free(handle);
}

static porta_status copy_to_device(int32_t d, void* dst, size_t off, const void* src, size_t n, uint32_t f) {
  (void)d, (void)f;
  memcpy((char*)dst + off, src, n);
  return PORTA_OK;
}

static porta_status copy_to_host(int32_t d, void* dst, const void* src, size_t off, size_t n, uint32_t f) {
  (void)d, (void)f;
  memcpy(dst, (const char*)src + off, n);
  return PORTA_OK;
}

static porta_status copy_on_device(int32_t d, void* dst, size_t doff, const void* src, size_t soff, size_t n,
                                   uint32_t f) {
  (void)d, (void)f;
  memmove((char*)dst + doff, (const char*)src + soff, n);
  return PORTA_OK;
}

static porta_status synchronize(int32_t device) {
  (void)device;
  return PORTA_OK;
}

/* float32 FULL over a contiguous output (the core allocates it contiguous). */
static porta_status fill_f32(const porta_kernel_call* call) {
  const DLTensor* t = &call->outputs[0];
  const porta_fill_params* p = (const porta_fill_params*)call->params;
  int64_t n = 1;
  for (int32_t i = 0; i < t->ndim; ++i) n *= t->shape[i];
  float* out = (float*)((char*)t->data + t->byte_offset);
  for (int64_t i = 0; i < n; ++i) out[i] = (float)p->value;
  return PORTA_OK;
}

#ifdef PLUGIN_C_CASTS
/* float32 -> int32 over contiguous tensors by a C cast: undefined for NaN and
 * values beyond int32 (the core never hands it those: it declares a minor
 * older than the rule, so the core converts on the host). */
static porta_status cast_f32_to_i32(const porta_kernel_call* call) {
  const DLTensor* in = &call->inputs[0];
  const DLTensor* t = &call->outputs[0];
  if (in->dtype.code != kDLFloat || in->dtype.bits != 32) {
    g_host->set_error("cast to int32: only from float32 (test plugin)");
    return PORTA_ERROR_UNSUPPORTED_DTYPE;
  }
  int64_t n = 1;
  for (int32_t i = 0; i < t->ndim; ++i) n *= t->shape[i];
  const float* x = (const float*)((const char*)in->data + in->byte_offset);
  int32_t* out = (int32_t*)((char*)t->data + t->byte_offset);
  for (int64_t i = 0; i < n; ++i) out[i] = (int32_t)x[i];
  return PORTA_OK;
}
#endif

static porta_kernel_fn find_kernel(uint32_t op, DLDataType dtype) {
  if (op == PORTA_OP_FULL && dtype.code == kDLFloat && dtype.bits == 32 && dtype.lanes == 1) return fill_f32;
#ifdef PLUGIN_C_CASTS
  if (op == PORTA_OP_CAST && dtype.code == kDLInt && dtype.bits == 32 && dtype.lanes == 1) return cast_f32_to_i32;
#endif
  return NULL;
}

#ifdef PLUGIN_ABI_1_0
/* The table exactly as a plugin compiled against plugin.h 1.0 lays it out:
 * nothing after find_kernel exists in memory. */
typedef struct {
  size_t struct_size;
  uint32_t abi_major, abi_minor;
  const char* name;
  int32_t device_type;
  const char* version;
  porta_status (*initialize)(const porta_host_api*);
  porta_status (*device_count)(int32_t*);
  const char* (*unavailable_reason)(void);
  porta_status (*device_props)(int32_t, porta_device_props*);
  porta_status (*alloc)(int32_t, size_t, void**);
  void (*free)(int32_t, void*);
  porta_status (*copy_to_device)(int32_t, void*, size_t, const void*, size_t, uint32_t);
  porta_status (*copy_to_host)(int32_t, void*, const void*, size_t, size_t, uint32_t);
  porta_status (*copy_on_device)(int32_t, void*, size_t, const void*, size_t, size_t, uint32_t);
  porta_status (*synchronize)(int32_t);
  porta_kernel_fn (*find_kernel)(uint32_t, DLDataType);
} plugin_api_1_0;
_Static_assert(sizeof(plugin_api_1_0) == PORTA_PLUGIN_API_SIZE_1_0, "1.0 layout must be a prefix of the current one");
static const plugin_api_1_0 kApi = {
    .struct_size = sizeof(plugin_api_1_0),
    .abi_minor = 0,
#else
static const porta_plugin_api kApi = {
    .struct_size = sizeof(porta_plugin_api),
    .abi_minor = PLUGIN_ABI_MINOR,
#endif
    .abi_major = PLUGIN_ABI_MAJOR,
    .name = PLUGIN_NAME,
    .device_type = PLUGIN_DEVICE_TYPE,
    .version = "test",
    .initialize = initialize,
    .device_count = device_count,
    .unavailable_reason = unavailable_reason,
    .device_props = device_props,
    .alloc = alloc,
    .free = release,
    .copy_to_device = copy_to_device,
    .copy_to_host = copy_to_host,
    .copy_on_device = copy_on_device,
    .synchronize = synchronize,
    .find_kernel = find_kernel,
};

PORTA_EXPORT const porta_plugin_api* porta_plugin_get_api(void) { return (const porta_plugin_api*)&kApi; }
