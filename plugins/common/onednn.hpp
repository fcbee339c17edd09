// oneDNN (Debian's libdnnl2), loaded at its first use rather than linked:
// it is 40 MB and maps the OpenCL ICD loader, which a program that never
// multiplies matrices or convolves should not pay for (no OpenCL platform is
// started by it), and the package still runs where it is missing. float32
// GEMM (matmul_kernels.cpp), bfloat16 GEMM (matmul_bf16_kernels.cpp) and
// convolution (conv_direct_kernels.cpp) use it.
#pragma once

namespace porta::host::onednn {

// The library's handle for dlsym, loaded at the first call; nullptr when it
// cannot be loaded (a warning through the host table says so, once).
void* library();

// oneDNN's OpenMP thread count is the calling thread's OpenMP setting, read
// when a primitive is made (a convolution fixes its split of the work then,
// for every later run) and when one runs. Porta runs each oneDNN call on one
// thread of its own pool, so its kernels make and run them inside this
// scope: the setting is 1 there, and the thread's own setting comes back
// after (a part may run on the caller's thread, whose setting is the
// program's). Without it, a primitive first made on a thread at OpenMP's
// default ran every time on a team of that many threads, whatever
// PORTA_NUM_THREADS said. Does nothing where oneDNN is not loaded.
class OneOmpThread {
 public:
  OneOmpThread();
  ~OneOmpThread();
  // Whether the setting can be made: oneDNN is loaded and its OpenMP's
  // functions were found (dlsym on its handle searches what it loaded).
  static bool available();
  OneOmpThread(const OneOmpThread&) = delete;
  OneOmpThread& operator=(const OneOmpThread&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace porta::host::onednn

#ifdef PORTA_HAVE_DNNL  // the primitives' C API, where its header was found at build time
#include <oneapi/dnnl/dnnl.h>

#include <initializer_list>

namespace porta::host::onednn {

// The oneDNN C functions the kernels call, from library().
struct Functions {
#define PORTA_DNNL_FUNCTIONS(X)                                                                                     \
  X(dnnl_engine_create)                                                                                             \
  X(dnnl_stream_create)                                                                                             \
  X(dnnl_stream_destroy) X(dnnl_memory_desc_init_by_tag) X(dnnl_memory_desc_init_by_strides)                        \
      X(dnnl_memory_desc_get_size) X(dnnl_memory_desc_equal) X(dnnl_memory_create) X(dnnl_memory_destroy)           \
          X(dnnl_dilated_convolution_forward_desc_init) X(dnnl_dilated_convolution_backward_data_desc_init)         \
              X(dnnl_dilated_convolution_backward_weights_desc_init) X(dnnl_matmul_desc_init)                       \
                  X(dnnl_primitive_attr_create) X(dnnl_primitive_attr_destroy)                                      \
                      X(dnnl_primitive_attr_set_scratchpad_mode) X(dnnl_primitive_attr_set_output_scales)           \
                          X(dnnl_primitive_attr_set_post_ops) X(dnnl_post_ops_create) X(dnnl_post_ops_append_sum)   \
                              X(dnnl_post_ops_destroy) X(dnnl_primitive_desc_create) X(dnnl_primitive_desc_destroy) \
                                  X(dnnl_primitive_desc_query) X(dnnl_primitive_desc_query_md)                      \
                                      X(dnnl_primitive_create) X(dnnl_primitive_destroy) X(dnnl_primitive_execute)  \
                                          X(dnnl_reorder_primitive_desc_create)
#define PORTA_DNNL_MEMBER(f) decltype(&::f) f = nullptr;
  PORTA_DNNL_FUNCTIONS(PORTA_DNNL_MEMBER)
#undef PORTA_DNNL_MEMBER
  dnnl_engine_t engine = nullptr;
};

// The functions and the cpu engine; nullptr when oneDNN is missing.
const Functions* functions();

// Whether the CPU multiplies bfloat16 natively (AVX-512 BF16), where the
// bfloat16 kernels run on oneDNN; elsewhere they decline (float32 is faster
// than oneDNN's emulation of it).
bool native_bf16();

// Whether a primitive descriptor's implementation is oneDNN's reference
// one (plain loops: slower than what the kernels fall back to).
bool is_reference(const Functions& d, const_dnnl_primitive_desc_t pd);

// Runs `prim` (when there is one) on the arguments, with a stream of this thread's.
bool execute(const Functions& d, dnnl_primitive_t prim, std::initializer_list<dnnl_exec_arg_t> args);

// A dnnl memory over `data` laid out as `md`, destroyed with it.
struct Memory {
  const Functions* d;
  dnnl_memory_t m = nullptr;
  Memory(const Functions& dn, const dnnl_memory_desc_t& md, void* data) : d(&dn) {
    d->dnnl_memory_create(&m, &md, d->engine, data);
  }
  ~Memory() {
    if (m) d->dnnl_memory_destroy(m);
  }
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;
};

}  // namespace porta::host::onednn
#endif
