// porta/float16.h in OpenCL C: the exact conversions between float32 and
// the 16-bit float storage dtypes (float16, bfloat16), kept as bit patterns
// in ushort. Integer operations only, as in the header: no cl_khr_fp16, and
// neither vload_half/vstore_half (whose NaNs are the device's), a rounding
// mode nor denormal flushing can change a bit. Keep it in step with the
// header: tests/opencl/test_storage_dtypes.cpp compares the two on every
// float16 and bfloat16 pattern and on a sweep of float32 ones.

// m without its low `shift` bits (1..31), rounded to nearest, ties to even.
inline uint porta_round_shift(uint m, int shift) {
  const uint q = m >> shift, rest = m & ((1u << shift) - 1u), tie = 1u << (shift - 1);  // `half` is a type here
  return q + ((rest > tie || (rest == tie && (q & 1u))) ? 1u : 0u);
}

// float16 bits -> float32, exactly; a NaN keeps its sign and payload.
inline float porta_float16_to_float32(ushort h) {
  const uint sign = (uint)(h & 0x8000u) << 16;
  const uint exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0x1fu) return as_float(sign | 0x7f800000u | (man << 13));  // inf, NaN
  if (exp != 0) return as_float(sign | ((exp + 112u) << 23) | (man << 13));
  if (man == 0) return as_float(sign);  // +-0
  // A subnormal, man * 2^-24, is a normal float32: shifting man's top bit
  // to the implicit one (bit 10) takes the header's normalizing loop's
  // 10 - (top bit's position) steps, each lowering the exponent from 113.
  const uint shift = (uint)clz(man) - 21u;
  return as_float(sign | ((113u - shift) << 23) | (((man << shift) & 0x3ffu) << 13));
}

// float32 -> float16 bits: to nearest, ties to even; subnormals kept; beyond
// the largest finite value an infinity; a NaN stays one of its sign with the
// payload's top ten bits (0x7c01 where those are 0), as NumPy's float16.
inline ushort porta_float32_to_float16(float f) {
  const uint x = as_uint(f);
  const ushort sign = (ushort)((x >> 16) & 0x8000u);
  const uint ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) {
    if (ax == 0x7f800000u) return sign | (ushort)0x7c00u;
    const uint nan = 0x7c00u + ((ax & 0x7fffffu) >> 13);
    return sign | (ushort)(nan == 0x7c00u ? 0x7c01u : nan);
  }
  if (ax < 0x38800000u) {                // below 2^-14: a subnormal or zero
    if (ax < 0x33000000u) return sign;  // below 2^-25 (2^-25 itself ties to 0)
    const uint e = ax >> 23;            // 102 .. 112
    const uint m = (ax & 0x7fffffu) | 0x800000u;
    return sign | (ushort)porta_round_shift(m, (int)(126u - e));  // in units of 2^-24
  }
  const uint q = porta_round_shift(ax - 0x38000000u, 13);  // exponent rebiased 127 -> 15
  return sign | (ushort)(q >= 0x7c00u ? 0x7c00u : q);
}

// bfloat16 bits -> float32, exactly.
inline float porta_bfloat16_to_float32(ushort b) { return as_float((uint)b << 16); }

// float32 -> bfloat16 bits: to nearest, ties to even; a NaN to 0x7fc0 with its sign.
inline ushort porta_float32_to_bfloat16(float f) {
  const uint x = as_uint(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (ushort)((x >> 16) & 0x8000u) | (ushort)0x7fc0u;
  return (ushort)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
