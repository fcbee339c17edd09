// Switching between fibers for executor.cpp: a hand-written switch on x86-64
// (callee-saved registers, the stack pointer and the floating-point control
// words: no system call, unlike swapcontext, which saves the signal mask and
// made small launches cost milliseconds), ucontext elsewhere and under
// AddressSanitizer (which intercepts swapcontext and would not follow a
// switch it cannot see).
#pragma once

#include <cstddef>

#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#if defined(__has_feature)
#if !__has_feature(address_sanitizer)
#define PORTA_EMULATOR_FAST_SWITCH 1
#endif
#else
#define PORTA_EMULATOR_FAST_SWITCH 1
#endif
#endif

#ifndef PORTA_EMULATOR_FAST_SWITCH
#include <ucontext.h>
#endif

namespace cuda_emulator {

// A suspended fiber, or the scheduler while a fiber runs.
struct FiberContext {
#ifdef PORTA_EMULATOR_FAST_SWITCH
  void* sp = nullptr;
#else
  ucontext_t uc;
#endif
};

// Prepares `c` to run entry() on [stack, stack + bytes) at its first switch_to.
// entry must never return: it ends by switching away for good.
void prepare_fiber(FiberContext& c, char* stack, size_t bytes, void (*entry)());

// Saves the running context in `from` and resumes `to`.
void switch_fiber(FiberContext& from, FiberContext& to);

}  // namespace cuda_emulator
