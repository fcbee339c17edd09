#include "fiber_context.hpp"

#include <cstdint>

namespace cuda_emulator {

#ifdef PORTA_EMULATOR_FAST_SWITCH

extern "C" void porta_emulator_switch(void** save_sp, void* load_sp);

// Pushes what the System V ABI says a callee must preserve (rbp, rbx,
// r12-r15, MXCSR, the x87 control word), saves rsp, loads the other stack
// and pops the same from it.
asm(R"(
    .text
    .globl porta_emulator_switch
    .hidden porta_emulator_switch
    .type porta_emulator_switch, @function
porta_emulator_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size porta_emulator_switch, .-porta_emulator_switch
)");

void prepare_fiber(FiberContext& c, char* stack, size_t bytes, void (*entry)()) {
  auto* sp = reinterpret_cast<uint64_t*>(reinterpret_cast<uintptr_t>(stack + bytes) & ~uintptr_t{15});
  *--sp = 0;  // entry's return address: it never returns; entry starts with rsp = 8 (mod 16), as after a call
  *--sp = reinterpret_cast<uint64_t>(entry);  // where the switch's `ret` goes
  for (int r = 0; r < 6; ++r) *--sp = 0;       // rbp, rbx, r12-r15
  uint32_t mxcsr = 0;
  uint16_t fpu_cw = 0;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpu_cw));
  *--sp = uint64_t{mxcsr} | (uint64_t{fpu_cw} << 32);  // the current modes, as a new thread inherits them
  c.sp = sp;
}

void switch_fiber(FiberContext& from, FiberContext& to) { porta_emulator_switch(&from.sp, to.sp); }

#else

void prepare_fiber(FiberContext& c, char* stack, size_t bytes, void (*entry)()) {
  getcontext(&c.uc);
  c.uc.uc_stack.ss_sp = stack;
  c.uc.uc_stack.ss_size = bytes;
  c.uc.uc_link = nullptr;
  makecontext(&c.uc, entry, 0);
}

void switch_fiber(FiberContext& from, FiberContext& to) { swapcontext(&from.uc, &to.uc); }

#endif

}  // namespace cuda_emulator
