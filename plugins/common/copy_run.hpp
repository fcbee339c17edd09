// One contiguous run of bytes copied, for the kernels that move rows (a
// gather's index_select rows, a same-dtype cast's runs, where's broadcast
// condition): std::memcpy, except for runs of 512 B to 2112 B.
//
// There glibc's memcpy (2.36; the AVX-512 variant these cores get) copies
// backwards when (dst - src) mod 4096 is small, its check against 4K
// aliasing. Rows of a tensor whose row is a power of two bytes meet that for
// a quarter to a half of them (perf: the backward loop is hot in
// index_select), and on the AMD EPYC cores CI runs on the backward loop is
// 1.3-1.5x slower than a forward one (16 MB of random 1 KiB or 2 KiB rows:
// copy_run.cpp's comment has the numbers). Above 2112 B (its
// rep_movsb_threshold on these cores) glibc switches to `rep movsb`, which
// is as fast as a forward loop or faster.
#pragma once

#include <cstddef>

namespace porta::host {

void copy_run_forward(void* dst, const void* src, size_t bytes);  // 64 <= bytes, no overlap

inline void copy_run(void* dst, const void* src, size_t bytes) {
  if (bytes >= 512 && bytes <= 2112) return copy_run_forward(dst, src, bytes);
  __builtin_memcpy(dst, src, bytes);
}

}  // namespace porta::host
