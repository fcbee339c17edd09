/*
 * A plugin that misbehaves in one way, for the loader's tests: the minimal
 * plugin with one slot replaced, chosen by a compile definition:
 *   HOSTILE_DEVICE_COUNT=n    device_count reports n devices with PORTA_OK
 *   HOSTILE_GET_API_CRASHES   porta_plugin_get_api aborts
 *   HOSTILE_INIT_CRASHES      initialize crashes (SIGSEGV)
 *   HOSTILE_INIT_SLEEPS=s     initialize takes s seconds
 *   HOSTILE_ALLOC_NULL        alloc returns PORTA_OK without a handle
 */
#define porta_plugin_get_api minimal_plugin_get_api
#include "minimal_plugin.c"
#undef porta_plugin_get_api

#include <signal.h>
#include <unistd.h>

PORTA_EXPORT const porta_plugin_api* porta_plugin_get_api(void);

static porta_plugin_api g_hostile;

static porta_status hostile_initialize(const porta_host_api* host) {
#ifdef HOSTILE_INIT_CRASHES
  raise(SIGSEGV);
#endif
#ifdef HOSTILE_INIT_SLEEPS
  sleep(HOSTILE_INIT_SLEEPS);
#endif
  return initialize(host);
}

static porta_status hostile_device_count(int32_t* out) {
#ifdef HOSTILE_DEVICE_COUNT
  *out = HOSTILE_DEVICE_COUNT;
  return PORTA_OK;
#else
  return device_count(out);
#endif
}

static porta_status hostile_alloc(int32_t device, size_t bytes, void** out) {
#ifdef HOSTILE_ALLOC_NULL
  (void)device, (void)bytes;
  *out = NULL;
  return PORTA_OK;
#else
  return alloc(device, bytes, out);
#endif
}

const porta_plugin_api* porta_plugin_get_api(void) {
#ifdef HOSTILE_GET_API_CRASHES
  abort();
#endif
  g_hostile = *minimal_plugin_get_api();
  g_hostile.initialize = hostile_initialize;
  g_hostile.device_count = hostile_device_count;
  g_hostile.alloc = hostile_alloc;
  return &g_hostile;
}
