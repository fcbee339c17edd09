// PORTA_HD marks math shared by host kernels and device kernels: under nvcc
// it is __host__ __device__, in plain C++ it is nothing.
#pragma once

#if defined(__CUDACC__)
#define PORTA_HD __host__ __device__
#else
#define PORTA_HD
#endif
