/*
 * porta/ops.h — the op set: the single table every other list derives from.
 *
 * PORTA_OP_LIST is an X-macro. The core builds its dispatcher, its op
 * metadata and its C API entry points from it; plugins index their kernel
 * tables with the `porta_op` ids it generates; tests iterate it to check
 * every op on every device. Ids are part of the plugin ABI: they never
 * change, and new ops are only appended (with a minor version bump).
 *
 * X(NAME, name, id, kind, inputs) — NAME/name: upper/lower-case spelling;
 * id: stable number; kind: a porta_op_kind that fixes the kernel contract
 * below; inputs: number of input tensors (every op has one output).
 */
#ifndef PORTA_OPS_H_
#define PORTA_OPS_H_

#include "porta/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* clang-format off */
#define PORTA_OP_LIST(X)                                   \
  X(FULL,         full,          0, PORTA_OP_KIND_FACTORY,  0) \
  X(ARANGE,       arange,        1, PORTA_OP_KIND_FACTORY,  0) \
  X(RAND_UNIFORM, rand_uniform,  2, PORTA_OP_KIND_FACTORY,  0) \
  X(RAND_NORMAL,  rand_normal,   3, PORTA_OP_KIND_FACTORY,  0) \
  X(COPY,         copy,          4, PORTA_OP_KIND_COPY,     1) \
  X(CAST,         cast,          5, PORTA_OP_KIND_COPY,     1) \
  X(NEG,          neg,           6, PORTA_OP_KIND_UNARY,    1) \
  X(EXP,          exp,           7, PORTA_OP_KIND_UNARY,    1) \
  X(LOG,          log,           8, PORTA_OP_KIND_UNARY,    1) \
  X(SQRT,         sqrt,          9, PORTA_OP_KIND_UNARY,    1) \
  X(RELU,         relu,         10, PORTA_OP_KIND_UNARY,    1) \
  X(SIGMOID,      sigmoid,      11, PORTA_OP_KIND_UNARY,    1) \
  X(TANH,         tanh,         12, PORTA_OP_KIND_UNARY,    1) \
  X(ABS,          abs,          13, PORTA_OP_KIND_UNARY,    1) \
  X(ADD,          add,          14, PORTA_OP_KIND_BINARY,   2) \
  X(SUB,          sub,          15, PORTA_OP_KIND_BINARY,   2) \
  X(MUL,          mul,          16, PORTA_OP_KIND_BINARY,   2) \
  X(DIV,          div,          17, PORTA_OP_KIND_BINARY,   2) \
  X(POW,          pow,          18, PORTA_OP_KIND_BINARY,   2) \
  X(MAXIMUM,      maximum,      19, PORTA_OP_KIND_BINARY,   2) \
  X(MINIMUM,      minimum,      20, PORTA_OP_KIND_BINARY,   2) \
  X(EQ,           eq,           21, PORTA_OP_KIND_COMPARE,  2) \
  X(NE,           ne,           22, PORTA_OP_KIND_COMPARE,  2) \
  X(LT,           lt,           23, PORTA_OP_KIND_COMPARE,  2) \
  X(LE,           le,           24, PORTA_OP_KIND_COMPARE,  2) \
  X(GT,           gt,           25, PORTA_OP_KIND_COMPARE,  2) \
  X(GE,           ge,           26, PORTA_OP_KIND_COMPARE,  2) \
  X(WHERE,        where,        27, PORTA_OP_KIND_WHERE,    3) \
  X(SUM,          sum,          28, PORTA_OP_KIND_REDUCE,   1) \
  X(MEAN,         mean,         29, PORTA_OP_KIND_REDUCE,   1) \
  X(MAX,          max,          30, PORTA_OP_KIND_REDUCE,   1) \
  X(MIN,          min,          31, PORTA_OP_KIND_REDUCE,   1) \
  X(ARGMAX,       argmax,       32, PORTA_OP_KIND_ARGREDUCE,1) \
  X(ARGMIN,       argmin,       33, PORTA_OP_KIND_ARGREDUCE,1) \
  X(MATMUL,       matmul,       34, PORTA_OP_KIND_MATMUL,   2)
/* clang-format on */

/**
 * What a kernel of each kind receives. Shapes and strides are in elements;
 * `byte_offset` is honoured on every tensor (for OpenCL `data` is the
 * cl_mem). The core has already checked devices, shapes and dtypes, and
 * never calls a kernel whose output has zero elements.
 */
typedef enum porta_op_kind {
  /** No inputs; fills the output (any strides). Kernel dtype: output's. */
  PORTA_OP_KIND_FACTORY = 0,
  /** in -> out, same shape, both with arbitrary strides. COPY: same dtype.
   *  CAST: kernel looked up by the OUTPUT dtype, input of any Porta dtype. */
  PORTA_OP_KIND_COPY = 1,
  /** out = f(in); same shape and dtype; in strided, out any strides. */
  PORTA_OP_KIND_UNARY = 2,
  /** out = f(a, b); a and b have out's shape (0 strides where broadcast)
   *  and out's dtype. */
  PORTA_OP_KIND_BINARY = 3,
  /** out(bool) = a ? b; a and b broadcast as for BINARY, same dtype (the
   *  kernel's). */
  PORTA_OP_KIND_COMPARE = 4,
  /** out = cond ? a : b; cond is bool; a, b and out share the kernel dtype;
   *  all broadcast to out's shape. */
  PORTA_OP_KIND_WHERE = 5,
  /** in is contiguous with shape [outer, reduce, inner]; out is contiguous
   *  [outer, inner] of the same dtype; reduce >= 1. */
  PORTA_OP_KIND_REDUCE = 6,
  /** As REDUCE, but out is int64: the index along `reduce` of the first
   *  extreme element. */
  PORTA_OP_KIND_ARGREDUCE = 7,
  /** C = alpha * A @ B + beta * C with A [batch, M, K], B [batch, K, N],
   *  C [batch, M, N] contiguous. A and B are row-major (stride[2] == 1) or
   *  transposed (stride[1] == 1) in their last two dims; their batch stride
   *  may be 0 (the same matrix for every batch). */
  PORTA_OP_KIND_MATMUL = 8
} porta_op_kind;

/** Stable op ids, generated from PORTA_OP_LIST: PORTA_OP_ADD, ... */
typedef enum porta_op {
#define PORTA_X_ENUM(NAME, name, id, kind, inputs) PORTA_OP_##NAME = id,
  PORTA_OP_LIST(PORTA_X_ENUM)
#undef PORTA_X_ENUM
  /** One past the largest id of this header's version. */
  PORTA_OP_COUNT
} porta_op;

/* ---- op parameter structs (each begins with struct_size) ---- */

/** FULL: every element := value (int_value for integer and bool dtypes). */
typedef struct porta_fill_params {
  size_t struct_size; /**< sizeof(porta_fill_params) as known to the core */
  double value;       /**< value for float dtypes */
  int64_t int_value;  /**< value for integer and bool dtypes */
} porta_fill_params;

/** ARANGE: element i := start + i * step, computed in double, then cast. */
typedef struct porta_arange_params {
  size_t struct_size; /**< sizeof(porta_arange_params) */
  double start;       /**< first value */
  double step;        /**< increment */
} porta_arange_params;

/**
 * RAND_UNIFORM / RAND_NORMAL, counter-based so every device produces the
 * same numbers for the same (seed, offset): element i (in row-major order)
 * takes r = Philox4x32-10(key = {seed & 0xffffffff, seed >> 32},
 * counter = {n & 0xffffffff, n >> 32, 0, 0}) with n = offset + i.
 * Uniform: u = (r[0] >> 8) * 2^-24 for float32, ((r[0] << 21) ^ (r[1] >> 11))
 * * 2^-53 for float64 (as 64-bit), result a + u * (b - a).
 * Normal (computed in double, then rounded): u1 = (r[0] + 1) * 2^-32,
 * u2 = r[1] * 2^-32, z = sqrt(-2 ln u1) cos(2 pi u2), result a + b * z.
 */
typedef struct porta_random_params {
  size_t struct_size; /**< sizeof(porta_random_params) */
  uint64_t seed;      /**< generator seed */
  uint64_t offset;    /**< counter of the first element */
  double a;           /**< uniform: low; normal: mean */
  double b;           /**< uniform: high; normal: standard deviation */
} porta_random_params;

/** MATMUL: C = alpha * A @ B + beta * C (beta == 0: C is not read). */
typedef struct porta_matmul_params {
  size_t struct_size; /**< sizeof(porta_matmul_params) */
  double alpha;       /**< scale of the product */
  double beta;        /**< scale of the existing C */
} porta_matmul_params;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PORTA_OPS_H_ */
