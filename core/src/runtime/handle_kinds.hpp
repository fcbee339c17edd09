// Every opaque handle kind of the C ABI in one table: the tag a live handle
// carries and the tag a released one keeps. Every kind is released the same
// way (retire_handle): the handle is tagged dead, emptied by its owner, and
// its shell waits in the one quarantine of its kind (handle_quarantine.hpp),
// so a use after release, or a second release, reads the dead tag and is
// PORTA_ERROR_INVALID_HANDLE or ignored, instead of reading freed memory.
// A kind added to porta.h is added here; tests/unit/test_handle_release.cpp
// releases every kind twice and calls its functions with the released handle.
#pragma once

#include <cstdint>

#include "runtime/handle_quarantine.hpp"

struct porta_tensor;
struct porta_tensor_list;
struct porta_optimizer;
struct porta_process_group;
struct porta_work;
struct porta_reducer;

// X(type, live tag, dead tag)
#define PORTA_HANDLE_KINDS(X)                                                     \
  X(porta_tensor, 0x54524f50u /* "PORT" */, 0xdeadbeefu)                          \
  X(porta_tensor_list, 0x4c534c50u /* "PLSL" */, 0u)                              \
  X(porta_optimizer, 0x4f505449u /* "OPTI" */, 0u)                                \
  X(porta_process_group, 0x50475250u /* "PGRP" */, 0u)                            \
  X(porta_work, 0x4b524f57u /* "WORK" */, 0u)                                     \
  X(porta_reducer, 0x52445543u /* "RDUC" */, 0u)

namespace porta {

template <class Handle>
struct HandleKind;

#define PORTA_HANDLE_KIND(TYPE, LIVE, DEAD)         \
  template <>                                       \
  struct HandleKind<::TYPE> {                       \
    static constexpr uint32_t live = LIVE;          \
    static constexpr uint32_t dead = DEAD;          \
    static constexpr const char* name = #TYPE;      \
  };
PORTA_HANDLE_KINDS(PORTA_HANDLE_KIND)
#undef PORTA_HANDLE_KIND

// True for a handle of kind Handle that has not been released.
template <class Handle>
bool is_live_handle(const Handle* h) noexcept {
  return h != nullptr && h->magic == HandleKind<Handle>::live;
}

// The quarantine of kind Handle (one per kind; never destroyed).
template <class Handle>
HandleQuarantine<Handle>& handle_quarantine() noexcept {
  static constinit HandleQuarantine<Handle> released;
  return released;
}

// Tags `h` dead and hands its shell to its kind's quarantine. The caller has
// already emptied it (or does so in Handle's destructor, which runs when the
// quarantine deletes the shell).
template <class Handle>
void retire_handle(Handle* h) noexcept {
  h->magic = HandleKind<Handle>::dead;
  handle_quarantine<Handle>().retire(h);
}

}  // namespace porta
