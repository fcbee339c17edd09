// Fault injection for the mock device, so tests can prove that a failure
// underneath the core (an allocation, a kernel launch, a copy) surfaces as a
// status from the operation that hit it and loses or corrupts nothing.
//
// Configured per process, either by the environment when the plugin is
// initialized:
//   PORTA_MOCK_FAULT="alloc:3,kernel:10"   fail the 3rd allocation and the 10th kernel launch from now
//   PORTA_MOCK_MEMORY=<bytes>              cap each mock device's memory
// or at run time through the plugin's exported test hooks below (a test finds
// them with dlopen(RTLD_NOLOAD) + dlsym on the loaded plugin).
#pragma once

#include <porta/plugin.h>

#include <cstdint>

namespace porta::mock {

enum class Fault { Alloc, Kernel, Copy };

// True when this call of kind `f` is the one chosen to fail (each injected
// fault fires once, then the countdown is off again). Thread-safe.
bool should_fail(Fault f);

// Reads PORTA_MOCK_FAULT; returns false (with a message in *why) on a malformed value.
bool configure_from_env(const char** why);

}  // namespace porta::mock

extern "C" {
/** Makes the `nth` next call of `kind` ("alloc", "kernel" or "copy") fail
 *  (1 = the very next one); 0 disarms. Returns 0, or -1 for an unknown kind. */
PORTA_EXPORT int porta_mock_inject_fault(const char* kind, int64_t nth);
/** Caps each mock device's memory at `bytes` (0 restores the default 4 GiB). */
PORTA_EXPORT void porta_mock_set_memory_cap(uint64_t bytes);
}
