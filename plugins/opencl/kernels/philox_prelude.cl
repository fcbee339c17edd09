// Lets plugins/common/philox.h (plain C, shared with the host kernels)
// compile as OpenCL C: its integer types, and its double math in float on
// devices without cl_khr_fp64 (normal samples then only approximate the
// host's). The plugin appends philox.h itself, without its #include lines.
typedef ulong uint64_t;
typedef uint uint32_t;
#define PORTA_PHILOX_QUALIFIER static inline
#ifndef PORTA_FP64
#define double float
#endif
