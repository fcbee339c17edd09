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
 * below; inputs: the largest number of input tensors (SGD_STEP gets one
 * fewer without momentum). Every op has one output except MAX_POOL2D
 * and SORT (values and indices). PORTA_OP_DESCRIPTORS adds the dtypes the kernels
 * take, the result's dtype rule, whether autograd records it, and a doc.
 *
 * Versions: each declaration says since which plugin ABI version
 * (PORTA_PLUGIN_ABI_MAJOR.MINOR, porta/plugin.h) it exists; an enum's or
 * struct's covers its values and fields, except those that say their own.
 * The user ABI takes op ids only in porta_unary_inplace,
 * porta_binary_inplace and porta_binary_scalar_inplace (user ABI 1.2).
 */
#ifndef PORTA_OPS_H_
#define PORTA_OPS_H_

#include "porta/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The op table: one row per op, everything other code would otherwise
 * restate. R(X, NAME, name, id, kind, inputs, dtypes, result, grad, since,
 * domain, autocast, vector, doc):
 *   dtypes    the dtype class its kernels take (porta_op_dtypes, PORTA_DTYPES_*
 *             without the prefix): every plugin offers exactly these kernels,
 *             and the core converts or refuses other dtypes before dispatch;
 *   result    how the core types the result from the promoted operands
 *             (porta_op_result, PORTA_RESULT_* without the prefix);
 *   grad      1 when autograd records the op (it has a backward formula);
 *   since     the plugin ABI minor (1.since) that appended the row: a plugin
 *             declaring an older minor is never asked for its kernels;
 *   domain    where the op's inputs are meant to come from, for the tests
 *             that sample them (porta_op_domain, PORTA_DOMAIN_* without the
 *             prefix; REAL for every row it does not restrict);
 *   autocast  what an autocast region does to its floating operands
 *             (porta_op_autocast, PORTA_AUTOCAST_* without the prefix);
 *   vector    SLEEF(stem, ulp): the host plugins run float and double arrays
 *             through SLEEF's vector function of that stem and accuracy
 *             (SIGMOID: 1 / (1 + exp(-x)) with it); SCALAR: one element at a
 *             time. A reader spells the two by defining PORTA_OP_VECTOR_SLEEF(stem,
 *             ulp) and PORTA_OP_VECTOR_SCALAR and pasting PORTA_OP_VECTOR_##vector;
 *   doc       one line.
 * Read it through PORTA_OP_LIST (the first five columns),
 * PORTA_OP_DESCRIPTORS (through grad, enums spelled out) or PORTA_OP_TRAITS
 * (since, domain, autocast, vector). The columns after `inputs` since plugin
 * ABI 1.2; since, domain, autocast and vector since plugin ABI 1.12 (which
 * changed no binary layout: a plugin of 1.11 and one of 1.12 are served
 * alike). docs/ops.md lists the rows, with the ids each minor appended.
 */
/* clang-format off */
#define PORTA_OP_TABLE(R, X) \
  R(X, FULL,                    full,                    0,   PORTA_OP_KIND_FACTORY,           0, ANY,      SAME,  0, 0,  REAL,         PROMOTE,                 SCALAR,             "every element := a value (porta_fill_params)") \
  R(X, ARANGE,                  arange,                  1,   PORTA_OP_KIND_FACTORY,           0, NUMERIC,  SAME,  0, 0,  REAL,         PROMOTE,                 SCALAR,             "element i := start + i * step") \
  R(X, RAND_UNIFORM,            rand_uniform,            2,   PORTA_OP_KIND_FACTORY,           0, FLOAT,    SAME,  0, 0,  REAL,         PROMOTE,                 SCALAR,             "Philox uniform samples in [a, b)") \
  R(X, RAND_NORMAL,             rand_normal,             3,   PORTA_OP_KIND_FACTORY,           0, FLOAT,    SAME,  0, 0,  REAL,         PROMOTE,                 SCALAR,             "Philox normal samples, mean a, std b") \
  R(X, COPY,                    copy,                    4,   PORTA_OP_KIND_COPY,              1, ANY,      SAME,  1, 0,  REAL,         PROMOTE,                 SCALAR,             "strided copy") \
  R(X, CAST,                    cast,                    5,   PORTA_OP_KIND_COPY,              1, ANY,      SAME,  1, 0,  REAL,         PROMOTE,                 SCALAR,             "conversion to the output's dtype") \
  R(X, NEG,                     neg,                     6,   PORTA_OP_KIND_UNARY,             1, NUMERIC,  SAME,  1, 0,  REAL,         PROMOTE,                 SCALAR,             "-x") \
  R(X, EXP,                     exp,                     7,   PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 0,  REAL,         FLOAT32_ON_ACCELERATORS, SLEEF(exp, u10),    "e^x") \
  R(X, LOG,                     log,                     8,   PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 0,  POSITIVE,     FLOAT32_ON_ACCELERATORS, SLEEF(log, u10),    "natural logarithm") \
  R(X, SQRT,                    sqrt,                    9,   PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 0,  POSITIVE,     PROMOTE,                 SCALAR,             "square root") \
  R(X, RELU,                    relu,                    10,  PORTA_OP_KIND_UNARY,             1, NUMERIC,  SAME,  1, 0,  KINK_AT_ZERO, PROMOTE,                 SCALAR,             "max(x, 0)") \
  R(X, SIGMOID,                 sigmoid,                 11,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 0,  REAL,         PROMOTE,                 SLEEF(exp, u10),    "1 / (1 + e^-x)") \
  R(X, TANH,                    tanh,                    12,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 0,  REAL,         PROMOTE,                 SLEEF(tanh, u35),   "hyperbolic tangent") \
  R(X, ABS,                     abs,                     13,  PORTA_OP_KIND_UNARY,             1, NUMERIC,  SAME,  1, 0,  KINK_AT_ZERO, PROMOTE,                 SCALAR,             "|x|") \
  R(X, ADD,                     add,                     14,  PORTA_OP_KIND_BINARY,            2, NUMERIC,  SAME,  1, 0,  REAL,         PROMOTE,                 SCALAR,             "a + b") \
  R(X, SUB,                     sub,                     15,  PORTA_OP_KIND_BINARY,            2, NUMERIC,  SAME,  1, 0,  REAL,         PROMOTE,                 SCALAR,             "a - b") \
  R(X, MUL,                     mul,                     16,  PORTA_OP_KIND_BINARY,            2, NUMERIC,  SAME,  1, 0,  REAL,         PROMOTE,                 SCALAR,             "a * b") \
  R(X, DIV,                     div,                     17,  PORTA_OP_KIND_BINARY,            2, FLOAT,    FLOAT, 1, 0,  POSITIVE,     PROMOTE,                 SCALAR,             "a / b, true division") \
  R(X, POW,                     pow,                     18,  PORTA_OP_KIND_BINARY,            2, FLOAT,    SAME,  1, 0,  POSITIVE,     FLOAT32_ON_ACCELERATORS, SCALAR,             "a ^ b (integers: by the core)") \
  R(X, MAXIMUM,                 maximum,                 19,  PORTA_OP_KIND_BINARY,            2, NUMERIC,  SAME,  1, 0,  REAL,         PROMOTE,                 SCALAR,             "elementwise max(a, b)") \
  R(X, MINIMUM,                 minimum,                 20,  PORTA_OP_KIND_BINARY,            2, NUMERIC,  SAME,  1, 0,  REAL,         PROMOTE,                 SCALAR,             "elementwise min(a, b)") \
  R(X, EQ,                      eq,                      21,  PORTA_OP_KIND_COMPARE,           2, ANY,      BOOL,  0, 0,  REAL,         PROMOTE,                 SCALAR,             "a == b") \
  R(X, NE,                      ne,                      22,  PORTA_OP_KIND_COMPARE,           2, ANY,      BOOL,  0, 0,  REAL,         PROMOTE,                 SCALAR,             "a != b") \
  R(X, LT,                      lt,                      23,  PORTA_OP_KIND_COMPARE,           2, ANY,      BOOL,  0, 0,  REAL,         PROMOTE,                 SCALAR,             "a < b") \
  R(X, LE,                      le,                      24,  PORTA_OP_KIND_COMPARE,           2, ANY,      BOOL,  0, 0,  REAL,         PROMOTE,                 SCALAR,             "a <= b") \
  R(X, GT,                      gt,                      25,  PORTA_OP_KIND_COMPARE,           2, ANY,      BOOL,  0, 0,  REAL,         PROMOTE,                 SCALAR,             "a > b") \
  R(X, GE,                      ge,                      26,  PORTA_OP_KIND_COMPARE,           2, ANY,      BOOL,  0, 0,  REAL,         PROMOTE,                 SCALAR,             "a >= b") \
  R(X, WHERE,                   where,                   27,  PORTA_OP_KIND_WHERE,             3, ANY,      SAME,  1, 0,  REAL,         PROMOTE,                 SCALAR,             "cond ? a : b") \
  R(X, SUM,                     sum,                     28,  PORTA_OP_KIND_REDUCE,            1, WIDE,     WIDE,  1, 0,  REAL,         FLOAT32_ON_ACCELERATORS, SCALAR,             "sum over dims (integers in int64)") \
  R(X, MEAN,                    mean,                    29,  PORTA_OP_KIND_REDUCE,            1, FLOAT,    SAME,  1, 0,  REAL,         PROMOTE,                 SCALAR,             "mean over dims") \
  R(X, MAX,                     max,                     30,  PORTA_OP_KIND_REDUCE,            1, ANY,      SAME,  1, 0,  REAL,         PROMOTE,                 SCALAR,             "maximum over dims") \
  R(X, MIN,                     min,                     31,  PORTA_OP_KIND_REDUCE,            1, ANY,      SAME,  1, 0,  REAL,         PROMOTE,                 SCALAR,             "minimum over dims") \
  R(X, ARGMAX,                  argmax,                  32,  PORTA_OP_KIND_ARGREDUCE,         1, ANY,      INDEX, 0, 0,  REAL,         PROMOTE,                 SCALAR,             "index of the first maximum") \
  R(X, ARGMIN,                  argmin,                  33,  PORTA_OP_KIND_ARGREDUCE,         1, ANY,      INDEX, 0, 0,  REAL,         PROMOTE,                 SCALAR,             "index of the first minimum") \
  R(X, MATMUL,                  matmul,                  34,  PORTA_OP_KIND_MATMUL,            2, FLOAT,    SAME,  1, 0,  REAL,         LOWER,                   SCALAR,             "batched C = alpha A @ B + beta C") \
  R(X, IM2COL,                  im2col,                  35,  PORTA_OP_KIND_CONV,              1, FLOAT,    SAME,  0, 1,  REAL,         PROMOTE,                 SCALAR,             "convolution lowering: windows to columns") \
  R(X, COL2IM,                  col2im,                  36,  PORTA_OP_KIND_CONV,              1, FLOAT,    SAME,  0, 1,  REAL,         PROMOTE,                 SCALAR,             "the adjoint of im2col") \
  R(X, MAX_POOL2D,              max_pool2d,              37,  PORTA_OP_KIND_POOL,              1, FLOAT,    SAME,  1, 1,  REAL,         PROMOTE,                 SCALAR,             "2-D max pooling, with indices") \
  R(X, MAX_POOL2D_BACKWARD,     max_pool2d_backward,     38,  PORTA_OP_KIND_POOL,              2, FLOAT,    SAME,  0, 1,  REAL,         PROMOTE,                 SCALAR,             "gradient of max_pool2d") \
  R(X, AVG_POOL2D,              avg_pool2d,              39,  PORTA_OP_KIND_POOL,              1, FLOAT,    SAME,  1, 1,  REAL,         PROMOTE,                 SCALAR,             "2-D average pooling") \
  R(X, AVG_POOL2D_BACKWARD,     avg_pool2d_backward,     40,  PORTA_OP_KIND_POOL,              1, FLOAT,    SAME,  0, 1,  REAL,         PROMOTE,                 SCALAR,             "gradient of avg_pool2d") \
  R(X, SOFTMAX,                 softmax,                 41,  PORTA_OP_KIND_SOFTMAX,           1, FLOAT,    SAME,  1, 1,  REAL,         PROMOTE,                 SCALAR,             "softmax along a dim") \
  R(X, LOG_SOFTMAX,             log_softmax,             42,  PORTA_OP_KIND_SOFTMAX,           1, FLOAT,    SAME,  1, 1,  REAL,         PROMOTE,                 SCALAR,             "log of softmax along a dim") \
  R(X, SOFTMAX_BACKWARD,        softmax_backward,        43,  PORTA_OP_KIND_SOFTMAX,           2, FLOAT,    SAME,  0, 1,  REAL,         PROMOTE,                 SCALAR,             "gradient of softmax") \
  R(X, LOG_SOFTMAX_BACKWARD,    log_softmax_backward,    44,  PORTA_OP_KIND_SOFTMAX,           2, FLOAT,    SAME,  0, 1,  REAL,         PROMOTE,                 SCALAR,             "gradient of log_softmax") \
  R(X, CROSS_ENTROPY,           cross_entropy,           45,  PORTA_OP_KIND_LOSS,              2, FLOAT,    SAME,  1, 1,  REAL,         PROMOTE,                 SCALAR,             "per-sample cross entropy on logits") \
  R(X, CROSS_ENTROPY_BACKWARD,  cross_entropy_backward,  46,  PORTA_OP_KIND_LOSS,              3, FLOAT,    SAME,  0, 1,  REAL,         PROMOTE,                 SCALAR,             "gradient of cross_entropy") \
  R(X, SGD_STEP,                sgd_step,                47,  PORTA_OP_KIND_OPTIMIZER,         3, FLOAT,    SAME,  0, 1,  REAL,         PROMOTE,                 SCALAR,             "fused SGD update, in place") \
  R(X, ADAM_STEP,               adam_step,               48,  PORTA_OP_KIND_OPTIMIZER,         4, FLOAT,    SAME,  0, 1,  REAL,         PROMOTE,                 SCALAR,             "fused Adam/AdamW update, in place") \
  R(X, SIN,                     sin,                     49,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  REAL,         PROMOTE,                 SLEEF(sin, u10),    "sine") \
  R(X, COS,                     cos,                     50,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  REAL,         PROMOTE,                 SLEEF(cos, u10),    "cosine") \
  R(X, TAN,                     tan,                     51,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  REAL,         FLOAT32_ON_ACCELERATORS, SLEEF(tan, u10),    "tangent") \
  R(X, ASIN,                    asin,                    52,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  UNIT,         FLOAT32_ON_ACCELERATORS, SLEEF(asin, u10),   "arcsine") \
  R(X, ACOS,                    acos,                    53,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  UNIT,         FLOAT32_ON_ACCELERATORS, SLEEF(acos, u10),   "arccosine") \
  R(X, ATAN,                    atan,                    54,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  REAL,         PROMOTE,                 SLEEF(atan, u10),   "arctangent") \
  R(X, SINH,                    sinh,                    55,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  REAL,         FLOAT32_ON_ACCELERATORS, SLEEF(sinh, u10),   "hyperbolic sine") \
  R(X, COSH,                    cosh,                    56,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  REAL,         FLOAT32_ON_ACCELERATORS, SLEEF(cosh, u10),   "hyperbolic cosine") \
  R(X, FLOOR,                   floor,                   57,  PORTA_OP_KIND_UNARY,             1, NUMERIC,  SAME,  1, 3,  STEPS,        PROMOTE,                 SCALAR,             "largest integer <= x (integers unchanged)") \
  R(X, CEIL,                    ceil,                    58,  PORTA_OP_KIND_UNARY,             1, NUMERIC,  SAME,  1, 3,  STEPS,        PROMOTE,                 SCALAR,             "smallest integer >= x (integers unchanged)") \
  R(X, ROUND,                   round,                   59,  PORTA_OP_KIND_UNARY,             1, NUMERIC,  SAME,  1, 3,  STEPS,        PROMOTE,                 SCALAR,             "nearest integer, halves to even") \
  R(X, TRUNC,                   trunc,                   60,  PORTA_OP_KIND_UNARY,             1, NUMERIC,  SAME,  1, 3,  STEPS,        PROMOTE,                 SCALAR,             "x rounded toward zero") \
  R(X, SIGN,                    sign,                    61,  PORTA_OP_KIND_UNARY,             1, NUMERIC,  SAME,  1, 3,  STEPS,        PROMOTE,                 SCALAR,             "-1, 0 or 1 (NaN gives 0, as in PyTorch)") \
  R(X, ERF,                     erf,                     62,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  REAL,         PROMOTE,                 SLEEF(erf, u10),    "error function") \
  R(X, ERFINV,                  erfinv,                  63,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  UNIT,         FLOAT32_ON_ACCELERATORS, SCALAR,             "inverse error function") \
  R(X, LOG1P,                   log1p,                   64,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  REAL,         FLOAT32_ON_ACCELERATORS, SLEEF(log1p, u10),  "ln(1 + x), exact near 0") \
  R(X, EXPM1,                   expm1,                   65,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  REAL,         FLOAT32_ON_ACCELERATORS, SLEEF(expm1, u10),  "e^x - 1, exact near 0") \
  R(X, LOG2,                    log2,                    66,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  POSITIVE,     FLOAT32_ON_ACCELERATORS, SLEEF(log2, u10),   "base-2 logarithm") \
  R(X, LOG10,                   log10,                   67,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  POSITIVE,     FLOAT32_ON_ACCELERATORS, SLEEF(log10, u10),  "base-10 logarithm") \
  R(X, EXP2,                    exp2,                    68,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  REAL,         PROMOTE,                 SLEEF(exp2, u10),   "2^x") \
  R(X, ATAN2,                   atan2,                   69,  PORTA_OP_KIND_BINARY,            2, FLOAT,    FLOAT, 1, 3,  REAL,         PROMOTE,                 SCALAR,             "angle of the point (b, a)") \
  R(X, REMAINDER,               remainder,               70,  PORTA_OP_KIND_BINARY,            2, NUMERIC,  SAME,  1, 3,  QUOTIENT,     PROMOTE,                 SCALAR,             "a - floor(a / b) * b, Python's %") \
  R(X, FMOD,                    fmod,                    71,  PORTA_OP_KIND_BINARY,            2, NUMERIC,  SAME,  1, 3,  QUOTIENT,     PROMOTE,                 SCALAR,             "a - trunc(a / b) * b, C's fmod") \
  R(X, FLOOR_DIVIDE,            floor_divide,            72,  PORTA_OP_KIND_BINARY,            2, NUMERIC,  SAME,  1, 3,  QUOTIENT,     PROMOTE,                 SCALAR,             "floor(a / b), Python's //") \
  R(X, ASINH,                   asinh,                   73,  PORTA_OP_KIND_UNARY,             1, FLOAT,    FLOAT, 1, 3,  REAL,         PROMOTE,                 SLEEF(asinh, u10),  "inverse hyperbolic sine") \
  R(X, GATHER,                  gather,                  74,  PORTA_OP_KIND_INDEX,             2, ANY,      SAME,  1, 4,  REAL,         PROMOTE,                 SCALAR,             "out[p] = src[p, p[dim] := index[p]]") \
  R(X, SCATTER,                 scatter,                 75,  PORTA_OP_KIND_INDEX,             2, ANY,      SAME,  1, 4,  REAL,         PROMOTE,                 SCALAR,             "out[p, p[dim] := index[p]] (op)= src[p]") \
  R(X, CUMSUM,                  cumsum,                  76,  PORTA_OP_KIND_SCAN,              1, WIDE,     WIDE,  1, 4,  REAL,         FLOAT32_ON_ACCELERATORS, SCALAR,             "inclusive prefix sums along a dim") \
  R(X, CUMPROD,                 cumprod,                 77,  PORTA_OP_KIND_SCAN,              1, WIDE,     WIDE,  1, 4,  REAL,         FLOAT32_ON_ACCELERATORS, SCALAR,             "inclusive prefix products along a dim") \
  R(X, SORT,                    sort,                    78,  PORTA_OP_KIND_SORT,              1, ANY,      SAME,  0, 5,  REAL,         PROMOTE,                 SCALAR,             "stable sort along a dim, with indices") \
  R(X, LAYER_NORM,              layer_norm,              79,  PORTA_OP_KIND_NORM,              3, FLOAT,    SAME,  1, 7,  REAL,         PROMOTE,                 SCALAR,             "rows normalized, scaled and shifted") \
  R(X, LAYER_NORM_BACKWARD,     layer_norm_backward,     80,  PORTA_OP_KIND_NORM,              4, FLOAT,    SAME,  0, 7,  REAL,         PROMOTE,                 SCALAR,             "gradient of layer_norm for its input") \
  R(X, BATCH_NORM,              batch_norm,              81,  PORTA_OP_KIND_NORM,              3, FLOAT,    SAME,  1, 7,  REAL,         PROMOTE,                 SCALAR,             "channels normalized by the batch's statistics") \
  R(X, BATCH_NORM_BACKWARD,     batch_norm_backward,     82,  PORTA_OP_KIND_NORM,              4, FLOAT,    SAME,  0, 7,  REAL,         PROMOTE,                 SCALAR,             "gradient of batch_norm, and its parameters' sums") \
  R(X, CONV2D,                  conv2d,                  83,  PORTA_OP_KIND_CONV,              2, FLOAT,    SAME,  1, 7,  REAL,         PROMOTE,                 SCALAR,             "direct 2-D convolution (optional)") \
  R(X, CONV2D_BACKWARD_INPUT,   conv2d_backward_input,   84,  PORTA_OP_KIND_CONV,              2, FLOAT,    SAME,  0, 7,  REAL,         PROMOTE,                 SCALAR,             "gradient of conv2d for its input") \
  R(X, CONV2D_BACKWARD_WEIGHT,  conv2d_backward_weight,  85,  PORTA_OP_KIND_CONV,              2, FLOAT,    SAME,  0, 7,  REAL,         PROMOTE,                 SCALAR,             "gradient of conv2d for its weight") \
  R(X, LSTM_CELL,               lstm_cell,               86,  PORTA_OP_KIND_RNN,               3, FLOAT,    SAME,  1, 7,  REAL,         PROMOTE,                 SCALAR,             "an LSTM step's gates, cell and hidden state") \
  R(X, LSTM_CELL_BACKWARD,      lstm_cell_backward,      87,  PORTA_OP_KIND_RNN,               6, FLOAT,    SAME,  0, 7,  REAL,         PROMOTE,                 SCALAR,             "gradient of an LSTM step's gates and cell") \
  R(X, CUMMAX,                  cummax,                  88,  PORTA_OP_KIND_RUNNING_EXTREME,   1, ANY,      SAME,  0, 8,  REAL,         PROMOTE,                 SCALAR,             "running max along a dim, with where it came from") \
  R(X, CUMMIN,                  cummin,                  89,  PORTA_OP_KIND_RUNNING_EXTREME,   1, ANY,      SAME,  0, 8,  REAL,         PROMOTE,                 SCALAR,             "running min along a dim, with where it came from") \
  R(X, BITWISE_AND,             bitwise_and,             90,  PORTA_OP_KIND_BINARY,            2, INTEGRAL, SAME,  0, 11, REAL,         PROMOTE,                 SCALAR,             "a & b (bool: logical and)") \
  R(X, BITWISE_OR,              bitwise_or,              91,  PORTA_OP_KIND_BINARY,            2, INTEGRAL, SAME,  0, 11, REAL,         PROMOTE,                 SCALAR,             "a | b (bool: logical or)") \
  R(X, BITWISE_XOR,             bitwise_xor,             92,  PORTA_OP_KIND_BINARY,            2, INTEGRAL, SAME,  0, 11, REAL,         PROMOTE,                 SCALAR,             "a ^ b (bool: logical xor)") \
  R(X, BITWISE_NOT,             bitwise_not,             93,  PORTA_OP_KIND_UNARY,             1, INTEGER,  SAME,  0, 11, REAL,         PROMOTE,                 SCALAR,             "~a (bool: the core's logical not)") \
  R(X, BITWISE_LEFT_SHIFT,      bitwise_left_shift,      94,  PORTA_OP_KIND_BINARY,            2, INTEGER,  SAME,  0, 11, REAL,         PROMOTE,                 SCALAR,             "a << b; 0 for b < 0 or b >= the width") \
  R(X, BITWISE_RIGHT_SHIFT,     bitwise_right_shift,     95,  PORTA_OP_KIND_BINARY,            2, INTEGER,  SAME,  0, 11, REAL,         PROMOTE,                 SCALAR,             "a >> b, arithmetic; the sign past the width")

/** X(NAME, name, id, kind, inputs) for every op, in id order. */
#define PORTA_OP_LIST(X) PORTA_OP_TABLE(PORTA_OP_ROW_LIST_, X)
/** X(NAME, name, id, kind, inputs, dtypes, result, grad, doc) for every op,
 *  dtypes and result as porta_op_dtypes / porta_op_result values. */
#define PORTA_OP_DESCRIPTORS(X) PORTA_OP_TABLE(PORTA_OP_ROW_DESCRIPTOR_, X)
/** X(NAME, id, since, domain, autocast, vector) for every op, domain and
 *  autocast as porta_op_domain / porta_op_autocast values; vector as written
 *  in the table (SLEEF(stem, ulp) or SCALAR). Since plugin ABI 1.12. */
#define PORTA_OP_TRAITS(X) PORTA_OP_TABLE(PORTA_OP_ROW_TRAITS_, X)
#define PORTA_OP_ROW_LIST_(X, NAME, name, id, kind, inputs, dtypes, result, grad, since, domain, autocast, vector, doc) \
  X(NAME, name, id, kind, inputs)
#define PORTA_OP_ROW_DESCRIPTOR_(X, NAME, name, id, kind, inputs, dtypes, result, grad, since, domain, autocast, vector, \
                                 doc)                                                                                 \
  X(NAME, name, id, kind, inputs, PORTA_DTYPES_##dtypes, PORTA_RESULT_##result, grad, doc)
#define PORTA_OP_ROW_TRAITS_(X, NAME, name, id, kind, inputs, dtypes, result, grad, since, domain, autocast, vector, doc) \
  X(NAME, id, since, PORTA_DOMAIN_##domain, PORTA_AUTOCAST_##autocast, vector)
/* clang-format on */

/** The dtypes an op's kernels take (the kernel dtype, as each kind defines
 *  it), among the six compute dtypes (bool, uint8, int32, int64, float32,
 *  float64). Since plugin ABI 1.2.
 *
 *  The storage dtypes (int8, int16, float16, bfloat16; since plugin ABI
 *  1.10) are kept in memory and computed in a compute dtype: float32 for
 *  float16 and bfloat16, int32 for int8 and int16. A plugin offers FULL,
 *  COPY and CAST kernels for each of them (CAST from and to every dtype);
 *  any other kernel for a storage dtype is optional, for an op whose class
 *  holds its compute dtype (ANY and NUMERIC: all four; FLOAT: float16 and
 *  bfloat16; WIDE: none, the core widens first). Where a plugin has none,
 *  the core converts the operands of the storage dtype to the compute
 *  dtype, runs the compute dtype's kernel, and converts its outputs back:
 *  one rounding per result, as PyTorch computes float16 and bfloat16 in
 *  float32 (at::opmath_type) and int8 in wrapping integers. A native kernel
 *  must give the same values (integer ops wrap in the storage width;
 *  float results are the float32 result rounded once), and may decline a
 *  call it cannot take natively (a CPU without the instructions, a layout
 *  its library refuses) by returning PORTA_ERROR_NOT_IMPLEMENTED before
 *  writing anything: the core then runs that call through the compute
 *  dtype as above. A plugin built against plugin ABI 1.9 or older is never
 *  asked for a kernel of a storage dtype and never handed a tensor of one. */
typedef enum porta_op_dtypes {
  PORTA_DTYPES_ANY = 0,     /**< bool, uint8, int32, int64, float32, float64 */
  PORTA_DTYPES_NUMERIC = 1, /**< all but bool */
  PORTA_DTYPES_FLOAT = 2,   /**< float32, float64 */
  PORTA_DTYPES_WIDE = 3,    /**< int64, float32, float64 (where integer sums accumulate) */
  PORTA_DTYPES_INTEGRAL = 4, /**< bool and the integers (int8, int16 as storage dtypes). Since plugin ABI 1.11. */
  PORTA_DTYPES_INTEGER = 5   /**< the integers, not bool (bool's storage is uint8's). Since plugin ABI 1.11. */
} porta_op_dtypes;

/** How the core types an op's result from its promoted operand dtype.
 *  Since plugin ABI 1.2. */
typedef enum porta_op_result {
  PORTA_RESULT_SAME = 0,  /**< the operand dtype */
  PORTA_RESULT_FLOAT = 1, /**< integer and bool operands become float32 first (exp, div, ...) */
  PORTA_RESULT_BOOL = 2,  /**< bool (comparisons) */
  PORTA_RESULT_INDEX = 3, /**< int64 indices (argmax, argmin) */
  PORTA_RESULT_WIDE = 4   /**< integer and bool operands accumulate in int64 (sum) */
} porta_op_result;

/** Where an op's inputs are meant to come from: the conformance and
 *  gradient suites sample there (and away from kinks and jumps for finite
 *  differences). Since plugin ABI 1.12. */
typedef enum porta_op_domain {
  PORTA_DOMAIN_REAL = 0,         /**< every real number (the op restricts nothing) */
  PORTA_DOMAIN_POSITIVE = 1,     /**< x > 0 (log, sqrt; both operands of div, pow) */
  PORTA_DOMAIN_UNIT = 2,         /**< -1 < x < 1 (asin, acos, erfinv) */
  PORTA_DOMAIN_KINK_AT_ZERO = 3, /**< every real number, with a kink at 0 (relu, abs) */
  PORTA_DOMAIN_STEPS = 4,        /**< every real number, with jumps at integers or halves (floor, sign) */
  PORTA_DOMAIN_QUOTIENT = 5      /**< a, b > 0 with jumps where a / b is an integer (remainder, fmod) */
} porta_op_domain;

/** What an autocast region (porta_autocast_enter) does to an op's floating
 *  operands, by PyTorch's lists. Since plugin ABI 1.12. */
typedef enum porta_op_autocast {
  PORTA_AUTOCAST_PROMOTE = 0,                /**< nothing: the operands promote as outside a region */
  PORTA_AUTOCAST_LOWER = 1,                  /**< float32 operands go to the region's low dtype (matmul) */
  PORTA_AUTOCAST_FLOAT32_ON_ACCELERATORS = 2 /**< float16/bfloat16 operands go to float32, except on the CPU */
} porta_op_autocast;

/**
 * What a kernel of each kind receives. Shapes and strides are in elements;
 * `byte_offset` is honoured on every tensor (for OpenCL `data` is the
 * cl_mem). The core has already checked devices, shapes and dtypes, and
 * never calls a kernel whose output has zero elements. Since plugin ABI 1.0.
 */
typedef enum porta_op_kind {
  /** No inputs; fills the output (any strides). Kernel dtype: output's. */
  PORTA_OP_KIND_FACTORY = 0,
  /** in -> out, same shape, both with arbitrary strides. COPY: same dtype.
   *  CAST: kernel looked up by the OUTPUT dtype, input of any Porta dtype.
   *  Every device converts alike: to bool, "nonzero" (NaN is true); between
   *  integers, two's complement truncation (int64 300 -> uint8 44); float to
   *  int32/int64, toward zero, with NaN giving 0 and values beyond the range
   *  (infinities included) its minimum or maximum; float to uint8, as float
   *  to int64 and then truncated (300.7 -> 44, -1.5 -> 255, as PyTorch on
   *  the CPU for in-range values) -- the float to integer rules since plugin
   *  ABI 1.3: for a plugin that declares an older minor the core converts
   *  on the host itself; float to float, rounded to nearest.
   *  The storage dtypes (since plugin ABI 1.10), exactly as the functions
   *  of porta/float16.h: float16 and bfloat16 widen to float32 exactly
   *  (a NaN keeps its sign and payload); every conversion to float16 or
   *  bfloat16 goes through float32 (float64 and int64 round to float32
   *  first, as c10::Half(float) and c10::BFloat16(float) do), then rounds
   *  to nearest, ties to even: subnormals are kept, a value beyond the
   *  largest finite one becomes an infinity of its sign (float16: from
   *  65520 up), a NaN stays a NaN of its sign (float16: 0x7c00 plus the
   *  payload's top ten bits, 0x7c01 where those are 0, as NumPy's float16;
   *  bfloat16: 0x7fc0 or 0xffc0, as ml_dtypes.bfloat16); float16, bfloat16 and float32 to int8 and
   *  int16, as float to int64 and then truncated (as for uint8); between
   *  integers (int8, int16 among them), two's complement truncation. */
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
  PORTA_OP_KIND_MATMUL = 8,
  /** Convolution lowering, porta_conv2d_params; all tensors contiguous.
   *  The whole batch shares one GEMM, so cols is 2-D with the batch in its
   *  columns: L = OH*OW, cols [C*KH*KW, N*L].
   *  IM2COL: in x [N, C, H, W] -> out cols with
   *    cols[(c*KH + i)*KW + j, n*L + oh*OW + ow] =
   *      x[n, c, oh*SH - PH + i*DH, ow*SW - PW + j*DW]  (0 outside x).
   *  COL2IM: the adjoint: in cols [C*KH*KW, N*L] -> out [N, C, H, W],
   *    every element of out overwritten with the sum of the cols entries
   *    that IM2COL would have read from it.
   *  Since plugin ABI 1.1. Direct convolution (since plugin ABI 1.7), of
   *  x [N, C, H, W] by w [F, C / G, KH, KW] in G = porta_conv2d_params.groups
   *  groups (group g: channels [g C/G, (g+1) C/G) with filters [g F/G,
   *  (g+1) F/G)) into y [N, F, OH, OW], no bias, zero padding:
   *  CONV2D: in x, w -> out y[n, f, oh, ow] = sum over c, i, j of
   *    x[n, c, oh*SH - PH + i*DH, ow*SW - PW + j*DW] * w[f, c, i, j].
   *  CONV2D_BACKWARD_INPUT: in grad_y, w -> out grad_x (x's shape).
   *  CONV2D_BACKWARD_WEIGHT: in grad_y, x -> out grad_w (w's shape).
   *  Optional, as the NORM kind: where a plugin has none of the three, the
   *  core lowers the convolution to IM2COL and MATMUL (per group), and a
   *  kernel may return PORTA_ERROR_NOT_IMPLEMENTED for a call it does not
   *  take (a library it needs is missing), which the core then lowers. */
  PORTA_OP_KIND_CONV = 9,
  /** 2-D pooling, porta_pool2d_params; all tensors contiguous.
   *  The core guarantees padding <= kernel / 2, so no window lies wholly
   *  in the padding.
   *  MAX_POOL2D: in x [N, C, H, W] -> outputs[0] values [N, C, OH, OW] and
   *    outputs[1] int64 indices [N, C, OH, OW] (ih*W + iw of the first
   *    maximum in the window; padding never wins; a NaN is a maximum and
   *    the first NaN wins, as for ARGMAX).
   *  MAX_POOL2D_BACKWARD: inputs grad_out [N, C, OH, OW], indices (int64)
   *    -> out grad_in [N, C, H, W], overwritten: zeros plus grad_out summed
   *    into the indexed positions. Kernel dtype: grad_out's.
   *  AVG_POOL2D: in x -> out [N, C, OH, OW], the window mean; the divisor is
   *    KH*KW when count_include_pad, else the number of in-bounds elements.
   *  AVG_POOL2D_BACKWARD: in grad_out -> out grad_in [N, C, H, W], overwritten.
   *  Since plugin ABI 1.1. */
  PORTA_OP_KIND_POOL = 10,
  /** Softmax over the middle axis of contiguous [outer, dim, inner] tensors.
   *  SOFTMAX / LOG_SOFTMAX: in x -> out y (numerically stable: subtract the max).
   *  SOFTMAX_BACKWARD: inputs y, grad_y -> out y * (grad_y - sum_dim(grad_y * y)).
   *  LOG_SOFTMAX_BACKWARD: inputs y, grad_y -> out grad_y - exp(y) * sum_dim(grad_y).
   *  Since plugin ABI 1.1. */
  PORTA_OP_KIND_SOFTMAX = 11,
  /** Cross entropy with class indices; logits contiguous [N, C], target
   *  int64 [N] (kernel dtype: the logits').
   *  CROSS_ENTROPY: inputs logits, target -> out loss [N] =
   *    logsumexp(logits[n, :]) - logits[n, target[n]]. A target outside
   *    [0, C) is an error (INVALID_ARGUMENT naming the value) where the
   *    backend can detect it, else the loss is NaN.
   *  CROSS_ENTROPY_BACKWARD: inputs logits, target, grad_loss [N] -> out
   *    [N, C] = (softmax(logits[n]) - onehot(target[n])) * grad_loss[n];
   *    out-of-range targets are rejected as in CROSS_ENTROPY.
   *  Since plugin ABI 1.1. */
  PORTA_OP_KIND_LOSS = 12,
  /** Fused, in-place optimizer updates of one parameter. Inputs are
   *  contiguous tensors of one shape and dtype; the kernel writes
   *  inputs[0] (the parameter) and the state tensors in place;
   *  outputs[0] describes the same memory as inputs[0].
   *  SGD_STEP: inputs param, grad[, momentum_buffer] (absent when
   *    momentum == 0), porta_sgd_params; PyTorch's torch.optim.SGD step.
   *  ADAM_STEP: inputs param, grad, exp_avg, exp_avg_sq, porta_adam_params;
   *    PyTorch's torch.optim.Adam (decoupled == 0) or AdamW (decoupled != 0).
   *  Since plugin ABI 1.1. */
  PORTA_OP_KIND_OPTIMIZER = 13,
  /** Indexing along one dim, porta_index_params; index is int64. Let p be a
   *  position of the index tensor's shape S and p' be p with p[dim] replaced
   *  by index[p]. The core guarantees: every tensor has the same ndim
   *  (>= 1); S[d] <= the data tensor's shape[d] for every d != dim; every
   *  index value lies in [0, the data tensor's shape[dim]); inputs have any
   *  strides (0 where the core broadcast an index); outputs are contiguous.
   *  GATHER: inputs src, index -> out of shape S: out[p] = src[p'].
   *    Kernel dtype: src's (= out's).
   *  SCATTER: inputs index, src (shape S, or larger: only S is read) ->
   *    outputs[0] self, which the kernel reads and writes in place (the
   *    core has already written self's values into it): for every p,
   *    self[p'] = reduce(self[p'], src[p]) (ASSIGN: src[p]). The positions
   *    of one line (those that differ only in p[dim]) are applied in
   *    increasing p[dim], so a repeated index is deterministic on every
   *    device: ASSIGN keeps the last, SUM adds in that order; lines never
   *    write the same element, so they may run in parallel. AMAX/AMIN give
   *    NaN when either operand is NaN. Kernel dtype: src's (= self's); the
   *    core never asks for SUM or PROD on bool.
   *  An index value out of range (the core checks first, so only a caller
   *  bypassing it sends one) is never followed: host kernels return
   *  INVALID_ARGUMENT naming it; device kernels, which cannot report, write
   *  0 (GATHER) or skip the position (SCATTER). Params missing or with a
   *  too small struct_size: INVALID_ARGUMENT.
   *  Since plugin ABI 1.4. */
  PORTA_OP_KIND_INDEX = 14,
  /** Inclusive scans along the middle axis: in contiguous [outer, n, inner]
   *  -> out contiguous [outer, n, inner], same dtype (int64, float32,
   *  float64), porta_scan_params (NULL: forward).
   *  CUMSUM: out[o, j, i] = sum of in[o, k, i] for k <= j (k >= j reversed).
   *  CUMPROD: the same with products.
   *  Each line accumulates in order along n (so every device gives the
   *  same bits); float scans accumulate in double (in float on an OpenCL
   *  device without cl_khr_fp64, which has no float64 kernels either) and
   *  round each result; int64 scans wrap. A porta_scan_params with a too
   *  small struct_size: INVALID_ARGUMENT. Since plugin ABI 1.4. */
  PORTA_OP_KIND_SCAN = 15,
  /** Stable sorts along the middle axis, porta_sort_params (NULL:
   *  ascending). SORT: in contiguous [outer, n, inner] -> outputs[0] values
   *  and outputs[1] int64 indices, both contiguous [outer, n, inner]:
   *  each (outer, inner) line of `in` in order, and where each value came
   *  from along n. Equal elements keep their input order (so every device
   *  gives the same indices); NaN sorts after every number when ascending
   *  and before when descending, NaNs equal among themselves; -0.0 equals
   *  0.0; bool sorts false before true. outputs[2] (values' dtype) and
   *  outputs[3] (int64), of the same shape, are scratch the kernel may
   *  use as working memory (a device merge sort ping-pongs through them);
   *  their contents afterwards are unspecified. porta_sort_params.k (since
   *  1.6) may ask for only each line's first k positions (topk). Kernel
   *  dtype: in's (= values'). A porta_sort_params with a too small
   *  struct_size: INVALID_ARGUMENT. Since plugin ABI 1.5. */
  PORTA_OP_KIND_SORT = 16,
  /** Normalization by statistics the kernel computes, porta_norm_params
   *  (required); every tensor contiguous; kernel dtype: x's (every
   *  tensor's). Layer normalization of the rows of [rows, n] tensors
   *  (n >= 1), weight and bias [n]:
   *  LAYER_NORM: inputs x, weight, bias -> outputs[0] y [rows, n],
   *    outputs[1] stats [rows, 2]: per row r, mean = sum(x[r]) / n,
   *    var = sum((x[r] - mean)^2) / n (the population variance, from the
   *    deviations: never E[x^2] - mean^2), rstd = 1 / sqrt(var + eps),
   *    y[r, j] = (x[r, j] - mean) * rstd * weight[j] + bias[j];
   *    stats[r] = (mean, rstd).
   *  LAYER_NORM_BACKWARD: inputs grad_y [rows, n], x, stats, weight ->
   *    out grad_x [rows, n]: with xhat = (x - mean) * rstd and
   *    g = grad_y * weight, grad_x = rstd * (g - mean_j(g) - xhat *
   *    mean_j(g * xhat)). (The core sums the weight's and the bias's
   *    gradients over rows itself.)
   *  Batch normalization of each channel c of [N, C, S] tensors over its
   *  M = N * S values (M >= 1), weight and bias [C]:
   *  BATCH_NORM: inputs x, weight, bias -> outputs[0] y [N, C, S],
   *    outputs[1] stats [C, 3]: per channel, mean and var (the population
   *    variance, from the deviations) over x[:, c, :], rstd = 1 / sqrt(var +
   *    eps), y[n, c, s] = (x[n, c, s] - mean) * rstd * weight[c] + bias[c];
   *    stats[c] = (mean, rstd, var).
   *  BATCH_NORM_BACKWARD: inputs grad_y [N, C, S], x, stats (as
   *    BATCH_NORM wrote them), weight -> outputs[0] grad_x [N, C, S],
   *    outputs[1] sums [C, 2]: per channel, with xhat = (x - mean) * rstd,
   *    sums[c] = (sum(grad_y), sum(grad_y * xhat)) over x[:, c, :] (the
   *    bias's and the weight's gradients) and grad_x = rstd * weight[c] *
   *    (grad_y - sums[c][0] / M - xhat * sums[c][1] / M).
   *  Sums accumulate in double (in float on an OpenCL device without
   *  cl_khr_fp64, which has no float64 kernels either); NaN propagates. A
   *  missing porta_norm_params or one with a too small struct_size:
   *  INVALID_ARGUMENT. Since plugin ABI 1.7. */
  PORTA_OP_KIND_NORM = 17,
  /** One step of a recurrent layer's pointwise part, every operand a
   *  contiguous [N, k H] matrix (H the hidden size), no params; kernel
   *  dtype: every operand's. With PyTorch's gate order (i, f, g, o) and
   *  s(v) = 1 / (1 + exp(-v)), rounding as these steps (no fused a b + c):
   *  LSTM_CELL: inputs gi [N, 4H] (the input's projection), gh [N, 4H]
   *    (the hidden state's), c_prev [N, H] -> outputs h [N, H], c [N, H],
   *    act [N, 5H]: p = gi + gh; i = s(p_i), f = s(p_f), g = tanh(p_g),
   *    o = s(p_o); c = f c_prev + i g; t = tanh(c); h = o t;
   *    act = (i, f, g, o, t).
   *  LSTM_CELL_BACKWARD: inputs dh, dh_next, dc, dc_next [N, H] (the
   *    gradients of h and of c from the outputs, and from the step after),
   *    act [N, 5H], c_prev [N, H] -> outputs dgates [N, 4H], dc_prev
   *    [N, H]: u = dh + dh_next; e = (dc + dc_next) + (u o) (1 - t t);
   *    dgates = ((e g) (i (1 - i)), (e c_prev) (f (1 - f)), (e i) (1 - g g),
   *    (u t) (o (1 - o))); dc_prev = e f.
   *  Optional (PORTA_OP_IS_OPTIONAL): the core composes them. Since plugin
   *  ABI 1.7. */
  PORTA_OP_KIND_RNN = 18,
  /** Scans that keep where their value came from, along the middle axis:
   *  in contiguous [outer, n, inner] (any dtype) -> outputs[0] of in's dtype
   *  and outputs[1] int64, both contiguous [outer, n, inner]; params NULL
   *  or a porta_scan_params with reverse 0 (else INVALID_ARGUMENT).
   *  CUMMAX: outputs[0][o, j, i] the running max of in[o, 0..j, i] and
   *  outputs[1] the k along n it came from: walking k = 0, 1, ..., x =
   *  in[o, k, i] takes over when it is NaN, or when the running value is
   *  not NaN and x >= it, so a later equal element wins, NaN beats every
   *  number and a later NaN an earlier one (PyTorch's cummax); bool
   *  compares false < true. CUMMIN: the same with x <= it.
   *  Optional (PORTA_OP_IS_OPTIONAL): the core composes them. Since plugin
   *  ABI 1.8. */
  PORTA_OP_KIND_RUNNING_EXTREME = 19
} porta_op_kind;

/** Stable op ids, generated from PORTA_OP_LIST: PORTA_OP_ADD, ...
 *  Since plugin ABI 1.0; each id since the version PORTA_OP_LIST gives it. */
typedef enum porta_op {
#define PORTA_X_ENUM(NAME, name, id, kind, inputs) PORTA_OP_##NAME = id,
  PORTA_OP_LIST(PORTA_X_ENUM)
#undef PORTA_X_ENUM
  /** One past the largest id of this header's version. */
  PORTA_OP_COUNT
} porta_op;

/** Whether the core composes op from other kernels where a plugin has no
 *  kernel for it, so that a plugin may leave it out: the NORM and RNN kinds
 *  and the direct convolution ops (ids 79-87, since plugin ABI 1.7), CUMMAX
 *  and CUMMIN (ids 88-89, since plugin ABI 1.8). */
#define PORTA_OP_IS_OPTIONAL(op) ((op) >= PORTA_OP_LAYER_NORM && (op) <= PORTA_OP_CUMMIN)

/** The conversion ops, FULL, COPY and CAST: the kernels a plugin offers for
 *  the storage dtypes too, which the core converts with (porta_op_dtypes).
 *  Since plugin ABI 1.10. */
#define PORTA_OP_IS_CONVERSION(op) ((op) == PORTA_OP_FULL || (op) == PORTA_OP_COPY || (op) == PORTA_OP_CAST)

/* ---- op parameter structs (each begins with struct_size) ---- */
/* Layout: every struct below is followed by PORTA_<NAME>_SIZE, its LP64
 * size (<NAME>: the struct's name without `porta_`, in capitals:
 * porta_fill_params -> PORTA_FILL_PARAMS_SIZE), and by PORTA_LAYOUT_ lines fixing
 * each field's offset and width at compile time; porta/types.h explains them. */

/** FULL: every element := value (int_value for integer and bool dtypes).
 *  Since plugin ABI 1.0. */
typedef struct porta_fill_params {
  size_t struct_size; /**< sizeof(porta_fill_params) as known to the core */
  double value;       /**< value for float dtypes */
  int64_t int_value;  /**< value for integer and bool dtypes */
} porta_fill_params;
/** sizeof(porta_fill_params) on LP64. */
#define PORTA_FILL_PARAMS_SIZE 24
PORTA_LAYOUT_FIELD(porta_fill_params, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_fill_params, value, 8, 8)
PORTA_LAYOUT_FIELD(porta_fill_params, int_value, 16, 8)
PORTA_LAYOUT_SIZE(porta_fill_params, PORTA_FILL_PARAMS_SIZE)

/** ARANGE: element i := start + i * step, computed in double, then cast.
 *  Since plugin ABI 1.0. */
typedef struct porta_arange_params {
  size_t struct_size; /**< sizeof(porta_arange_params) */
  double start;       /**< first value */
  double step;        /**< increment */
} porta_arange_params;
/** sizeof(porta_arange_params) on LP64. */
#define PORTA_ARANGE_PARAMS_SIZE 24
PORTA_LAYOUT_FIELD(porta_arange_params, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_arange_params, start, 8, 8)
PORTA_LAYOUT_FIELD(porta_arange_params, step, 16, 8)
PORTA_LAYOUT_SIZE(porta_arange_params, PORTA_ARANGE_PARAMS_SIZE)

/**
 * RAND_UNIFORM / RAND_NORMAL, counter-based so every device produces the
 * same numbers for the same (seed, offset): element i (in row-major order)
 * takes r = Philox4x32-10(key = {seed & 0xffffffff, seed >> 32},
 * counter = {n & 0xffffffff, n >> 32, 0, 0}) with n = offset + i.
 * Uniform: u = (r[0] >> 8) * 2^-24 for float32, ((r[0] << 21) ^ (r[1] >> 11))
 * * 2^-53 for float64 (as 64-bit), result a + u * (b - a).
 * Normal (computed in double, then rounded): u1 = (r[0] + 1) * 2^-32,
 * u2 = r[1] * 2^-32, z = sqrt(-2 ln u1) cos(2 pi u2), result a + b * z.
 * Since plugin ABI 1.0.
 */
typedef struct porta_random_params {
  size_t struct_size; /**< sizeof(porta_random_params) */
  uint64_t seed;      /**< generator seed */
  uint64_t offset;    /**< counter of the first element */
  double a;           /**< uniform: low; normal: mean */
  double b;           /**< uniform: high; normal: standard deviation */
} porta_random_params;
/** sizeof(porta_random_params) on LP64. */
#define PORTA_RANDOM_PARAMS_SIZE 40
PORTA_LAYOUT_FIELD(porta_random_params, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_random_params, seed, 8, 8)
PORTA_LAYOUT_FIELD(porta_random_params, offset, 16, 8)
PORTA_LAYOUT_FIELD(porta_random_params, a, 24, 8)
PORTA_LAYOUT_FIELD(porta_random_params, b, 32, 8)
PORTA_LAYOUT_SIZE(porta_random_params, PORTA_RANDOM_PARAMS_SIZE)

/** MATMUL: C = alpha * A @ B + beta * C (beta == 0: C is not read).
 *  Since plugin ABI 1.0. */
typedef struct porta_matmul_params {
  size_t struct_size; /**< sizeof(porta_matmul_params) */
  double alpha;       /**< scale of the product */
  double beta;        /**< scale of the existing C */
} porta_matmul_params;
/** sizeof(porta_matmul_params) on LP64. */
#define PORTA_MATMUL_PARAMS_SIZE 24
PORTA_LAYOUT_FIELD(porta_matmul_params, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_matmul_params, alpha, 8, 8)
PORTA_LAYOUT_FIELD(porta_matmul_params, beta, 16, 8)
PORTA_LAYOUT_SIZE(porta_matmul_params, PORTA_MATMUL_PARAMS_SIZE)

/** IM2COL / COL2IM geometry (all values >= 0; kernel, stride, dilation >= 1).
 *  Output size: OH = (H + 2*PH - DH*(KH-1) - 1) / SH + 1, likewise OW.
 *  Since plugin ABI 1.1. */
typedef struct porta_conv2d_params {
  size_t struct_size; /**< sizeof(porta_conv2d_params) */
  int32_t kernel_h, kernel_w;     /**< KH, KW */
  int32_t stride_h, stride_w;     /**< SH, SW */
  int32_t padding_h, padding_w;   /**< PH, PW (zeros) */
  int32_t dilation_h, dilation_w; /**< DH, DW */
  int32_t groups;                 /**< since plugin ABI 1.7, the CONV2D ops' G; a shorter struct (or 0): 1 */
} porta_conv2d_params;
/** sizeof(porta_conv2d_params) on LP64. */
#define PORTA_CONV2D_PARAMS_SIZE 48
PORTA_LAYOUT_FIELD(porta_conv2d_params, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_conv2d_params, kernel_h, 8, 4)
PORTA_LAYOUT_FIELD(porta_conv2d_params, kernel_w, 12, 4)
PORTA_LAYOUT_FIELD(porta_conv2d_params, stride_h, 16, 4)
PORTA_LAYOUT_FIELD(porta_conv2d_params, stride_w, 20, 4)
PORTA_LAYOUT_FIELD(porta_conv2d_params, padding_h, 24, 4)
PORTA_LAYOUT_FIELD(porta_conv2d_params, padding_w, 28, 4)
PORTA_LAYOUT_FIELD(porta_conv2d_params, dilation_h, 32, 4)
PORTA_LAYOUT_FIELD(porta_conv2d_params, dilation_w, 36, 4)
PORTA_LAYOUT_FIELD(porta_conv2d_params, groups, 40, 4)
PORTA_LAYOUT_SIZE(porta_conv2d_params, PORTA_CONV2D_PARAMS_SIZE)

/** Pooling geometry; output size as for porta_conv2d_params (floor mode).
 *  Since plugin ABI 1.1. */
typedef struct porta_pool2d_params {
  size_t struct_size; /**< sizeof(porta_pool2d_params) */
  int32_t kernel_h, kernel_w;     /**< window */
  int32_t stride_h, stride_w;     /**< step */
  int32_t padding_h, padding_w;   /**< implicit padding (max: -inf; avg: zeros) */
  int32_t dilation_h, dilation_w; /**< window dilation (1 for avg pooling) */
  int32_t count_include_pad;      /**< avg: divide by KH*KW (1) or by in-bounds count (0) */
} porta_pool2d_params;
/** sizeof(porta_pool2d_params) on LP64. */
#define PORTA_POOL2D_PARAMS_SIZE 48
PORTA_LAYOUT_FIELD(porta_pool2d_params, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_pool2d_params, kernel_h, 8, 4)
PORTA_LAYOUT_FIELD(porta_pool2d_params, kernel_w, 12, 4)
PORTA_LAYOUT_FIELD(porta_pool2d_params, stride_h, 16, 4)
PORTA_LAYOUT_FIELD(porta_pool2d_params, stride_w, 20, 4)
PORTA_LAYOUT_FIELD(porta_pool2d_params, padding_h, 24, 4)
PORTA_LAYOUT_FIELD(porta_pool2d_params, padding_w, 28, 4)
PORTA_LAYOUT_FIELD(porta_pool2d_params, dilation_h, 32, 4)
PORTA_LAYOUT_FIELD(porta_pool2d_params, dilation_w, 36, 4)
PORTA_LAYOUT_FIELD(porta_pool2d_params, count_include_pad, 40, 4)
PORTA_LAYOUT_SIZE(porta_pool2d_params, PORTA_POOL2D_PARAMS_SIZE)

/** SGD_STEP, as torch.optim.SGD: d = grad + weight_decay * param; with
 *  momentum: buf = first_step ? d : momentum * buf + (1 - dampening) * d,
 *  d = nesterov ? d + momentum * buf : buf; then param -= lr * d.
 *  Since plugin ABI 1.1. */
typedef struct porta_sgd_params {
  size_t struct_size;  /**< sizeof(porta_sgd_params) */
  double lr;           /**< learning rate */
  double momentum;     /**< momentum factor (0: no buffer) */
  double dampening;    /**< dampening for momentum */
  double weight_decay; /**< L2 penalty */
  int32_t nesterov;    /**< nonzero: Nesterov momentum */
  int32_t first_step;  /**< nonzero: the buffer is initialized to d */
} porta_sgd_params;
/** sizeof(porta_sgd_params) on LP64. */
#define PORTA_SGD_PARAMS_SIZE 48
PORTA_LAYOUT_FIELD(porta_sgd_params, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_sgd_params, lr, 8, 8)
PORTA_LAYOUT_FIELD(porta_sgd_params, momentum, 16, 8)
PORTA_LAYOUT_FIELD(porta_sgd_params, dampening, 24, 8)
PORTA_LAYOUT_FIELD(porta_sgd_params, weight_decay, 32, 8)
PORTA_LAYOUT_FIELD(porta_sgd_params, nesterov, 40, 4)
PORTA_LAYOUT_FIELD(porta_sgd_params, first_step, 44, 4)
PORTA_LAYOUT_SIZE(porta_sgd_params, PORTA_SGD_PARAMS_SIZE)

/** ADAM_STEP, as torch.optim.Adam / AdamW with bias correction:
 *  Adam adds weight_decay * param to grad; AdamW (decoupled) first scales
 *  param by (1 - lr * weight_decay). m = b1 m + (1-b1) g; v = b2 v + (1-b2) g^2;
 *  param -= lr / (1 - b1^step) * m / (sqrt(v) / sqrt(1 - b2^step) + eps).
 *  Since plugin ABI 1.1. */
typedef struct porta_adam_params {
  size_t struct_size;  /**< sizeof(porta_adam_params) */
  double lr;           /**< learning rate */
  double beta1;        /**< first moment decay */
  double beta2;        /**< second moment decay */
  double eps;          /**< denominator term */
  double weight_decay; /**< L2 (Adam) or decoupled (AdamW) decay */
  int64_t step;        /**< 1 on the first step */
  int32_t decoupled;   /**< nonzero: AdamW */
} porta_adam_params;
/** sizeof(porta_adam_params) on LP64. */
#define PORTA_ADAM_PARAMS_SIZE 64
PORTA_LAYOUT_FIELD(porta_adam_params, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_adam_params, lr, 8, 8)
PORTA_LAYOUT_FIELD(porta_adam_params, beta1, 16, 8)
PORTA_LAYOUT_FIELD(porta_adam_params, beta2, 24, 8)
PORTA_LAYOUT_FIELD(porta_adam_params, eps, 32, 8)
PORTA_LAYOUT_FIELD(porta_adam_params, weight_decay, 40, 8)
PORTA_LAYOUT_FIELD(porta_adam_params, step, 48, 8)
PORTA_LAYOUT_FIELD(porta_adam_params, decoupled, 56, 4)
PORTA_LAYOUT_SIZE(porta_adam_params, PORTA_ADAM_PARAMS_SIZE)

/** SCATTER's combination of self[p'] with src[p]. Since plugin ABI 1.4. */
typedef enum porta_scatter_reduce {
  PORTA_SCATTER_ASSIGN = 0, /**< self[p'] = src[p] */
  PORTA_SCATTER_SUM = 1,    /**< self[p'] += src[p] */
  PORTA_SCATTER_PROD = 2,   /**< self[p'] *= src[p] */
  PORTA_SCATTER_AMAX = 3,   /**< self[p'] = max(self[p'], src[p]) */
  PORTA_SCATTER_AMIN = 4    /**< self[p'] = min(self[p'], src[p]) */
} porta_scatter_reduce;

/** GATHER / SCATTER: the indexed dim and SCATTER's reduction.
 *  Since plugin ABI 1.4. */
typedef struct porta_index_params {
  size_t struct_size; /**< sizeof(porta_index_params) */
  int32_t dim;        /**< the indexed dim, in [0, ndim) */
  int32_t reduce;     /**< SCATTER: a porta_scatter_reduce; GATHER: 0 */
} porta_index_params;
/** sizeof(porta_index_params) on LP64. */
#define PORTA_INDEX_PARAMS_SIZE 16
PORTA_LAYOUT_FIELD(porta_index_params, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_index_params, dim, 8, 4)
PORTA_LAYOUT_FIELD(porta_index_params, reduce, 12, 4)
PORTA_LAYOUT_SIZE(porta_index_params, PORTA_INDEX_PARAMS_SIZE)

/** CUMSUM / CUMPROD: the scan's direction. Since plugin ABI 1.4. */
typedef struct porta_scan_params {
  size_t struct_size; /**< sizeof(porta_scan_params) */
  int32_t reverse;    /**< nonzero: from the end (k >= j) */
} porta_scan_params;
/** sizeof(porta_scan_params) on LP64. */
#define PORTA_SCAN_PARAMS_SIZE 16
PORTA_LAYOUT_FIELD(porta_scan_params, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_scan_params, reverse, 8, 4)
PORTA_LAYOUT_SIZE(porta_scan_params, PORTA_SCAN_PARAMS_SIZE)

/** SORT's direction, and how much of each line must be in order.
 *  Since plugin ABI 1.5. */
typedef struct porta_sort_params {
  size_t struct_size; /**< sizeof(porta_sort_params) */
  int32_t descending; /**< nonzero: largest first */
  int32_t reserved;   /**< 0 (the 1.5 struct's tail padding; ignored) */
  /** Since plugin ABI 1.6 (struct_size >= 24): 0 < k < n asks only that
   *  positions 0..k-1 of each line hold what the stable sort puts there
   *  (values and indices); the rest of each line's outputs are then
   *  unspecified. 0 (or a struct without it): every position. A kernel
   *  may always sort whole lines. Outside [0, n]: INVALID_ARGUMENT. */
  int64_t k;
} porta_sort_params;
/** sizeof(porta_sort_params) on LP64. */
#define PORTA_SORT_PARAMS_SIZE 24
PORTA_LAYOUT_FIELD(porta_sort_params, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_sort_params, descending, 8, 4)
PORTA_LAYOUT_FIELD(porta_sort_params, reserved, 12, 4)
PORTA_LAYOUT_FIELD(porta_sort_params, k, 16, 8)
PORTA_LAYOUT_SIZE(porta_sort_params, PORTA_SORT_PARAMS_SIZE)

/** NORM's epsilon. Since plugin ABI 1.7. */
typedef struct porta_norm_params {
  size_t struct_size; /**< sizeof(porta_norm_params) */
  double eps;         /**< added to the variance before the square root */
} porta_norm_params;
/** sizeof(porta_norm_params) on LP64. */
#define PORTA_NORM_PARAMS_SIZE 16
PORTA_LAYOUT_FIELD(porta_norm_params, struct_size, 0, 8)
PORTA_LAYOUT_FIELD(porta_norm_params, eps, 8, 8)
PORTA_LAYOUT_SIZE(porta_norm_params, PORTA_NORM_PARAMS_SIZE)

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PORTA_OPS_H_ */
