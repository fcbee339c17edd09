// oneDNN (Debian's libdnnl2), loaded at its first use rather than linked:
// it is 40 MB and maps the OpenCL ICD loader, which a program that never
// multiplies matrices or convolves should not pay for (no OpenCL platform is
// started by it), and the package still runs where it is missing. float32
// GEMM (matmul_kernels.cpp) and convolution (conv_direct_kernels.cpp) use it.
#pragma once

namespace porta::host::onednn {

// The library's handle for dlsym, loaded at the first call; nullptr when it
// cannot be loaded (a warning through the host table says so, once).
void* library();

}  // namespace porta::host::onednn
