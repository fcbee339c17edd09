#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace conformance {

static std::logic_error no_reference(porta_op op) {
  return std::logic_error("conformance: no reference for op id " + std::to_string(static_cast<int>(op)));
}

static porta_op_result result_rule(porta_op op);

bool produces_float(porta_op op) { return result_rule(op) == PORTA_RESULT_FLOAT; }

bool is_transcendental(porta_op op) {
  return produces_float(op) && op != PORTA_OP_DIV && op != PORTA_OP_SQRT;
}

// erfinv as the root of erf(x) = y, bracketed in [-6, 6] (erf(6) rounds to 1).
static double erfinv_by_bisection(double y) {
  if (std::isnan(y) || y < -1 || y > 1) return NAN;
  if (y == 1 || y == -1) return y * INFINITY;
  double lo = -6, hi = 6;
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    (std::erf(mid) < y ? lo : hi) = mid;
  }
  return y == 0 ? y : 0.5 * (lo + hi);
}

// Python's float % : the result has b's sign (or is zero).
static double python_mod(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0 && (r < 0) != (b < 0)) r += b;
  return r;
}

// Python's float // : (a - a % b) / b, the exact floor of the real quotient
// (2.0 // 0.1 is 19: 0.1 is a little more than a tenth; floor(2.0 / 0.1)
// would round first and give 20), computed in long double; with Python's
// special values (inf // x is NaN, x // 0 as IEEE division, a signed zero
// where the floor is 0).
static double python_floor_div(double a, double b) {
  if (b == 0 || std::isnan(a) || std::isnan(b)) return a / b;
  if (std::isinf(a)) return NAN;
  if (std::isinf(b)) return a == 0 || (a > 0) == (b > 0) ? std::copysign(0.0, a / b) : -1.0;
  const long double q = std::nearbyint((static_cast<long double>(a) - python_mod(a, b)) / b);
  return q == 0 ? std::copysign(0.0, a / b) : static_cast<double>(q);
}

double unary_ref(porta_op op, double x) {
  switch (op) {
    case PORTA_OP_NEG:
      return -x;
    case PORTA_OP_EXP:
      return std::exp(x);
    case PORTA_OP_LOG:
      return std::log(x);
    case PORTA_OP_SQRT:
      return std::sqrt(x);
    case PORTA_OP_RELU:
      return std::isnan(x) || x > 0 ? x : 0.0;  // NaN propagates, as in PyTorch
    case PORTA_OP_SIGMOID:
      return 1.0 / (1.0 + std::exp(-x));
    case PORTA_OP_TANH:
      return std::tanh(x);
    case PORTA_OP_ABS:
      return std::fabs(x);
    case PORTA_OP_SIN:
      return std::sin(x);
    case PORTA_OP_COS:
      return std::cos(x);
    case PORTA_OP_TAN:
      return std::tan(x);
    case PORTA_OP_ASIN:
      return std::asin(x);
    case PORTA_OP_ACOS:
      return std::acos(x);
    case PORTA_OP_ATAN:
      return std::atan(x);
    case PORTA_OP_SINH:
      return std::sinh(x);
    case PORTA_OP_COSH:
      return std::cosh(x);
    case PORTA_OP_FLOOR:
      return std::floor(x);
    case PORTA_OP_CEIL:
      return std::ceil(x);
    case PORTA_OP_ROUND:
      return std::nearbyint(x);  // the default rounding mode: halves to even
    case PORTA_OP_TRUNC:
      return std::trunc(x);
    case PORTA_OP_SIGN:
      return std::isnan(x) ? 0.0 : (x > 0) - (x < 0);  // PyTorch: sign(NaN) is 0
    case PORTA_OP_ERF:
      return std::erf(x);
    case PORTA_OP_ERFINV:
      return erfinv_by_bisection(x);
    case PORTA_OP_LOG1P:
      return std::log1p(x);
    case PORTA_OP_EXPM1:
      return std::expm1(x);
    case PORTA_OP_LOG2:
      return std::log2(x);
    case PORTA_OP_LOG10:
      return std::log10(x);
    case PORTA_OP_EXP2:
      return std::exp2(x);
    case PORTA_OP_ASINH:
      return std::copysign(std::log(std::fabs(x) + std::sqrt(x * x + 1)), x);
    case PORTA_OP_BITWISE_NOT:
      return -std::trunc(x) - 1;  // two's complement ~ of an integer value (ref_unary: bool's is logical not)
    default:
      throw no_reference(op);
  }
}

// PyTorch's shifts in dt's width: an amount below 0 or from the width on gives 0 for <<, the sign for >>.
static double shift_ref(porta_op op, double a, double b, DLDataType dt) {
  const auto x = static_cast<int64_t>(a);
  const bool beyond = b < 0 || b >= dt.bits;
  if (op == PORTA_OP_BITWISE_LEFT_SHIFT)
    return beyond ? 0.0 : store_as(dt, static_cast<double>(static_cast<int64_t>(static_cast<uint64_t>(x) << static_cast<int>(b))));
  return beyond ? (x < 0 ? -1.0 : 0.0) : static_cast<double>(x >> static_cast<int>(b));
}

double binary_ref(porta_op op, double a, double b) {
  switch (op) {
    case PORTA_OP_ADD:
      return a + b;
    case PORTA_OP_SUB:
      return a - b;
    case PORTA_OP_MUL:
      return a * b;
    case PORTA_OP_DIV:
      return a / b;
    case PORTA_OP_POW:
      return std::pow(a, b);
    // NaN propagates through maximum and minimum, as in PyTorch.
    case PORTA_OP_MAXIMUM:
      return std::isnan(a) || std::isnan(b) ? NAN : a > b ? a : b;
    case PORTA_OP_MINIMUM:
      return std::isnan(a) || std::isnan(b) ? NAN : a < b ? a : b;
    case PORTA_OP_EQ:
      return a == b;
    case PORTA_OP_NE:
      return a != b;
    case PORTA_OP_LT:
      return a < b;
    case PORTA_OP_LE:
      return a <= b;
    case PORTA_OP_GT:
      return a > b;
    case PORTA_OP_GE:
      return a >= b;
    case PORTA_OP_ATAN2:
      return std::atan2(a, b);
    case PORTA_OP_FMOD:
      return std::fmod(a, b);
    case PORTA_OP_REMAINDER:
      return python_mod(a, b);
    case PORTA_OP_FLOOR_DIVIDE:
      return python_floor_div(a, b);
    // Two's complement on the integer values (store_as then wraps to the dtype).
    case PORTA_OP_BITWISE_AND:
      return static_cast<double>(static_cast<int64_t>(a) & static_cast<int64_t>(b));
    case PORTA_OP_BITWISE_OR:
      return static_cast<double>(static_cast<int64_t>(a) | static_cast<int64_t>(b));
    case PORTA_OP_BITWISE_XOR:
      return static_cast<double>(static_cast<int64_t>(a) ^ static_cast<int64_t>(b));
    case PORTA_OP_BITWISE_LEFT_SHIFT:
    case PORTA_OP_BITWISE_RIGHT_SHIFT:
      return shift_ref(op, a, b, porta_int64);  // ref_binary passes the operands' dtype
    default:
      throw no_reference(op);
  }
}

static porta_op_result result_rule(porta_op op) {
  switch (op) {
#define PORTA_X_RESULT(NAME, name, id, kind, inputs, dtypes, result, grad, doc) \
  case PORTA_OP_##NAME:                                                         \
    return result;
    PORTA_OP_DESCRIPTORS(PORTA_X_RESULT)
#undef PORTA_X_RESULT
    default:
      throw no_reference(op);
  }
}

static bool is_compare(porta_op op) { return result_rule(op) == PORTA_RESULT_BOOL; }

bool zero_division(porta_op op, const HostTensor& a, const HostTensor& b) {
  const bool divides = op == PORTA_OP_FLOOR_DIVIDE || op == PORTA_OP_REMAINDER || op == PORTA_OP_FMOD;
  Shape shape;
  return divides && !is_float(result_type(a, b)) && broadcast_shape(a.shape, b.shape, &shape) && numel(shape) > 0 &&
         std::find(b.v.begin(), b.v.end(), 0.0) != b.v.end();
}

DLDataType unary_result_dtype(porta_op op, DLDataType a) { return produces_float(op) ? floating_or_float32(a) : a; }

static bool is_shift(porta_op op) { return op == PORTA_OP_BITWISE_LEFT_SHIFT || op == PORTA_OP_BITWISE_RIGHT_SHIFT; }
static bool is_bitwise(porta_op op) {
  return is_shift(op) || op == PORTA_OP_BITWISE_AND || op == PORTA_OP_BITWISE_OR || op == PORTA_OP_BITWISE_XOR;
}

bool unary_supported(porta_op op, DLDataType a) {
  if (op == PORTA_OP_BITWISE_NOT) return !is_float(a);  // integers, and bool as logical not
  return produces_float(op) || !is_bool(a);
}

bool binary_supported(porta_op op, DLDataType a, DLDataType b) {
  if (op == PORTA_OP_SUB && (is_bool(a) || is_bool(b))) return false;  // PyTorch refuses subtraction with bool
  // PyTorch's ops on bool: add and maximum are logical or, mul and minimum logical and
  const bool defined_on_bool =
      op == PORTA_OP_ADD || op == PORTA_OP_MUL || op == PORTA_OP_MAXIMUM || op == PORTA_OP_MINIMUM;
  if (is_bitwise(op)) return !is_float(promote(a, b)) && !(is_shift(op) && is_bool(promote(a, b)));
  return is_compare(op) || produces_float(op) || defined_on_bool || !is_bool(promote(a, b));
}


// PyTorch's integer pow in dtype dt: exact, wrapping as its products wrap (square and multiply in 64
// bits, truncated to dt's width before it becomes a double); a negative exponent truncates 1 / a^|b|.
static double integer_pow_ref(double a, double b, DLDataType dt) {
  if (b < 0) return a == 1 ? 1 : a == -1 ? (std::fmod(b, 2) != 0 ? -1 : 1) : 0;
  uint64_t base = static_cast<uint64_t>(static_cast<int64_t>(a)), result = 1;
  for (auto e = static_cast<uint64_t>(b); e; e >>= 1, base *= base)
    if (e & 1) result *= base;
  if (dt.bits < 64) result &= (uint64_t{1} << dt.bits) - 1;
  return store_as(dt, dt.bits == 64 ? static_cast<double>(static_cast<int64_t>(result)) : static_cast<double>(result));
}

DLDataType scalar_dtype(DLDataType a, double s) {
  if (is_float(a)) return a;
  if (std::floor(s) != s || !std::isfinite(s)) return porta_float32;
  return is_bool(a) ? porta_int64 : a;
}

HostTensor ref_unary(porta_op op, const HostTensor& a) {
  const DLDataType dt = unary_result_dtype(op, a.dtype);
  HostTensor r{dt, a.shape, {}};
  for (double x : a.v) {
    const double v = store_as(dt, x);
    r.v.push_back(store_as(dt, op == PORTA_OP_BITWISE_NOT && is_bool(dt) ? v == 0 : unary_ref(op, v)));
  }
  return r;
}

HostTensor ref_binary(porta_op op, const HostTensor& a, const HostTensor& b) {
  Shape shape;
  if (!broadcast_shape(a.shape, b.shape, &shape)) throw std::logic_error("ref_binary: shapes do not broadcast");
  const DLDataType p = result_type(a, b);
  const DLDataType kt = produces_float(op) ? floating_or_float32(p) : p;
  const DLDataType rt = is_compare(op) ? porta_bool : kt;
  HostTensor r{rt, shape, std::vector<double>(static_cast<size_t>(numel(shape)))};
  const std::vector<int64_t> ia = broadcast_sources(a.shape, shape), ib = broadcast_sources(b.shape, shape);
  for (int64_t i = 0; i < r.numel(); ++i) {
    const double x = store_as(kt, a.v[ia[i]]);
    const double y = store_as(kt, b.v[ib[i]]);
    r.v[i] = store_as(rt, op == PORTA_OP_POW && !is_float(kt) ? integer_pow_ref(x, y, kt)
                          : is_shift(op)                      ? shift_ref(op, x, y, kt)
                                                              : binary_ref(op, x, y));
  }
  return r;
}

HostTensor ref_binary_scalar(porta_op op, const HostTensor& a, double s) {
  const DLDataType st = scalar_dtype(a.dtype, s);
  return ref_binary(op, a, make_host(st, {}, {s}));
}

HostTensor ref_where(const HostTensor& cond, const HostTensor& a, const HostTensor& b) {
  Shape s1, shape;
  if (!broadcast_shape(cond.shape, a.shape, &s1) || !broadcast_shape(s1, b.shape, &shape))
    throw std::logic_error("ref_where: shapes do not broadcast");
  const DLDataType dt = result_type(a, b);
  HostTensor r{dt, shape, std::vector<double>(static_cast<size_t>(numel(shape)))};
  const std::vector<int64_t> ic = broadcast_sources(cond.shape, shape), ia = broadcast_sources(a.shape, shape),
                             ib = broadcast_sources(b.shape, shape);
  for (int64_t i = 0; i < r.numel(); ++i) r.v[i] = store_as(dt, cond.v[ic[i]] != 0 ? a.v[ia[i]] : b.v[ib[i]]);
  return r;
}

static int32_t wrap(int32_t d, size_t nd) {
  const int32_t n = static_cast<int32_t>(nd > 0 ? nd : 1);
  return d < 0 ? d + n : d;
}

Reduction ref_reduce(porta_op op, const HostTensor& t, const std::vector<int32_t>& dims, bool keepdim) {
  const size_t nd = t.shape.size();
  std::vector<bool> mask(nd, dims.empty());
  for (int32_t d : dims)
    if (nd > 0) mask[wrap(d, nd)] = true;
  Shape out_shape, kept_shape;  // kept_shape: reduced dims as 1
  for (size_t i = 0; i < nd; ++i) {
    kept_shape.push_back(mask[i] ? 1 : t.shape[i]);
    if (!mask[i] || keepdim) out_shape.push_back(mask[i] ? 1 : t.shape[i]);
  }
  DLDataType dt = t.dtype;
  if (op == PORTA_OP_SUM && !is_float(dt)) dt = porta_int64;
  const int64_t n_out = numel(kept_shape);
  std::vector<double> acc(static_cast<size_t>(n_out), 0.0), mag(static_cast<size_t>(n_out), 0.0);
  std::vector<int64_t> count(static_cast<size_t>(n_out), 0);
  const Shape in_strides = contiguous_strides(t.shape), out_strides = contiguous_strides(kept_shape);
  for (int64_t i = 0; i < t.numel(); ++i) {
    int64_t o = 0;
    for (size_t k = 0; k < nd; ++k)
      if (!mask[k]) o += ((i / in_strides[k]) % t.shape[k]) * out_strides[k];
    const double x = t.v[i];
    if (count[o] == 0 && (op == PORTA_OP_MAX || op == PORTA_OP_MIN)) acc[o] = x;
    if (op == PORTA_OP_SUM || op == PORTA_OP_MEAN)
      acc[o] += x;
    else if (op == PORTA_OP_MAX)
      acc[o] = std::isnan(acc[o]) || std::isnan(x) ? NAN : std::max(acc[o], x);
    else if (op == PORTA_OP_MIN)
      acc[o] = std::isnan(acc[o]) || std::isnan(x) ? NAN : std::min(acc[o], x);
    else
      throw no_reference(op);
    mag[o] += std::fabs(x);
    ++count[o];
  }
  Reduction r{HostTensor{dt, out_shape, {}}, {}};
  for (int64_t o = 0; o < n_out; ++o) {
    double v = acc[o], s = mag[o];
    if (op == PORTA_OP_MEAN) v = count[o] ? v / count[o] : std::nan(""), s = count[o] ? s / count[o] : 0.0;
    if (op == PORTA_OP_MAX || op == PORTA_OP_MIN) s = 0;
    r.value.v.push_back(is_float(dt) ? v : store_as(dt, v));
    r.scale.push_back(s);
  }
  return r;
}

HostTensor ref_argreduce(porta_op op, const HostTensor& t, int32_t dim, bool keepdim) {
  const bool is_max = op == PORTA_OP_ARGMAX;
  if (!is_max && op != PORTA_OP_ARGMIN) throw no_reference(op);
  const size_t nd = t.shape.size();
  Shape out_shape;
  int64_t outer = 1, len = 1, inner = 1;
  if (dim == PORTA_ALL_DIMS) {
    len = t.numel();
    if (keepdim) out_shape.assign(nd, 1);
  } else {
    const size_t d = static_cast<size_t>(wrap(dim, nd));
    for (size_t i = 0; i < nd; ++i) {
      if (i < d) outer *= t.shape[i];
      if (i == d) len = t.shape[i];
      if (i > d) inner *= t.shape[i];
      if (i != d || keepdim) out_shape.push_back(i == d ? 1 : t.shape[i]);
    }
  }
  HostTensor r{porta_int64, out_shape, {}};
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      int64_t best = 0;
      for (int64_t k = 1; k < len; ++k) {
        const double x = t.v[(o * len + k) * inner + in], b = t.v[(o * len + best) * inner + in];
        if (std::isnan(b)) break;  // the first NaN is the extreme, as in PyTorch
        if (std::isnan(x) || (is_max ? x > b : x < b)) best = k;
      }
      r.v.push_back(static_cast<double>(best));
    }
  return r;
}

Reduction ref_matmul(const HostTensor& a_in, const HostTensor& b_in) {
  const bool a_vec = a_in.shape.size() == 1, b_vec = b_in.shape.size() == 1;
  Shape as = a_in.shape, bs = b_in.shape;
  if (a_vec) as.insert(as.begin(), 1);
  if (b_vec) bs.push_back(1);
  const int64_t M = as[as.size() - 2], K = as.back(), N = bs.back();
  if (bs[bs.size() - 2] != K) throw std::logic_error("ref_matmul: inner dimensions differ");
  Shape a_batch(as.begin(), as.end() - 2), b_batch(bs.begin(), bs.end() - 2), batch;
  if (!broadcast_shape(a_batch, b_batch, &batch)) throw std::logic_error("ref_matmul: batch dims do not broadcast");
  Shape out_shape = batch;
  if (!a_vec) out_shape.push_back(M);
  if (!b_vec) out_shape.push_back(N);
  const DLDataType dt = promote(a_in.dtype, b_in.dtype);
  Reduction r{HostTensor{dt, out_shape, {}}, {}};
  const std::vector<int64_t> a_src = broadcast_sources(a_batch, batch), b_src = broadcast_sources(b_batch, batch);
  for (int64_t bi = 0; bi < numel(batch); ++bi) {
    const int64_t ab = a_src[bi], bb = b_src[bi];
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double s = 0, m = 0;
        for (int64_t k = 0; k < K; ++k) {
          const double x = store_as(dt, a_in.v[(ab * M + i) * K + k]), y = store_as(dt, b_in.v[(bb * K + k) * N + j]);
          s += x * y;
          m += std::fabs(x * y);
        }
        r.value.v.push_back(s);
        r.scale.push_back(m);
      }
  }
  return r;
}

std::vector<DLDataType> table_dtypes(porta_op op) {
  porta_op_dtypes cls = PORTA_DTYPES_ANY;
  switch (op) {
#define PORTA_X_DTYPES(NAME, name, id, kind, inputs, dtypes, result, grad, doc) \
  case PORTA_OP_##NAME:                                                         \
    cls = dtypes;                                                               \
    break;
    PORTA_OP_DESCRIPTORS(PORTA_X_DTYPES)
#undef PORTA_X_DTYPES
    default:
      throw no_reference(op);
  }
  std::vector<DLDataType> out;
  for (DLDataType d : kAllDtypes) {
    const bool take = cls == PORTA_DTYPES_ANY || (cls == PORTA_DTYPES_NUMERIC && !is_bool(d)) ||
                      (cls == PORTA_DTYPES_FLOAT && is_float(d)) ||
                      (cls == PORTA_DTYPES_WIDE && (is_float(d) || same_dtype(d, porta_int64))) ||
                      (cls == PORTA_DTYPES_INTEGRAL && !is_float(d)) ||
                      (cls == PORTA_DTYPES_INTEGER && !is_float(d) && !is_bool(d));
    if (take) out.push_back(d);
  }
  return out;
}

// 0-d tensors take part in gather and scatter as [1] (PyTorch's rule).
static Shape at_least_1d(const Shape& s) { return s.empty() ? Shape{1} : s; }

// The row-major position in a tensor of `shape` of the index tensor's
// position `i` (of `ishape`), with coordinate `dim` replaced by `at`.
static int64_t redirected(const Shape& ishape, int64_t i, size_t dim, int64_t at, const Shape& shape) {
  int64_t pos = 0, stride = 1;
  for (size_t k = ishape.size(); k-- > 0;) {
    const int64_t c = k == dim ? at : i % ishape[k];
    i /= ishape[k];
    pos += c * stride;
    stride *= shape[k];
  }
  return pos;
}

// The row-major position in `shape` of position `i` of `ishape` (no larger in any dim).
static int64_t same_place(const Shape& ishape, int64_t i, const Shape& shape) {
  int64_t pos = 0, stride = 1;
  for (size_t k = ishape.size(); k-- > 0;) {
    pos += (i % ishape[k]) * stride;
    i /= ishape[k];
    stride *= shape[k];
  }
  return pos;
}

HostTensor ref_gather(const HostTensor& src, int32_t dim, const HostTensor& index) {
  const Shape ss = at_least_1d(src.shape), is = at_least_1d(index.shape);
  const size_t d = static_cast<size_t>(wrap(dim, ss.size()));
  HostTensor r{src.dtype, index.shape, {}};
  for (int64_t i = 0; i < index.numel(); ++i) {
    const int64_t at = static_cast<int64_t>(index.v[i]);
    if (at < 0 || at >= ss[d]) throw std::logic_error("ref_gather: index out of range");
    r.v.push_back(src.v[redirected(is, i, d, at, ss)]);
  }
  return r;
}

Reduction ref_scatter(const HostTensor& self, int32_t dim, const HostTensor& index, const HostTensor& src,
                      int32_t reduce, bool include_self) {
  if (reduce < PORTA_SCATTER_ASSIGN || reduce > PORTA_SCATTER_MEAN) throw std::logic_error("ref_scatter: bad reduce");
  const Shape ss = at_least_1d(self.shape), is = at_least_1d(index.shape), rs = at_least_1d(src.shape);
  const size_t d = static_cast<size_t>(wrap(dim, ss.size()));
  const DLDataType dt = self.dtype;
  Reduction r{self, std::vector<double>(self.v.size(), 0.0)};
  std::vector<double>& out = r.value.v;
  std::vector<int64_t> count(self.v.size(), include_self ? 1 : 0);
  if (include_self || reduce == PORTA_SCATTER_ASSIGN)
    for (size_t k = 0; k < out.size(); ++k) r.scale[k] = std::fabs(out[k]);
  for (int64_t i = 0; i < index.numel(); ++i) {
    const int64_t at = static_cast<int64_t>(index.v[i]);
    if (at < 0 || at >= ss[d]) throw std::logic_error("ref_scatter: index out of range");
    const size_t q = static_cast<size_t>(redirected(is, i, d, at, ss));
    const double x = src.v[same_place(is, i, rs)], y = out[q];
    const bool first = count[q] == 0;
    ++count[q];
    r.scale[q] += std::fabs(x);
    double v = x;
    if (reduce == PORTA_SCATTER_ASSIGN || first)
      v = x;
    else if (reduce == PORTA_SCATTER_SUM || reduce == PORTA_SCATTER_MEAN)
      v = y + x;
    else if (reduce == PORTA_SCATTER_PROD)
      v = y * x;
    else if (std::isnan(x) || std::isnan(y))
      v = NAN;
    else
      v = reduce == PORTA_SCATTER_AMAX ? std::max(x, y) : std::min(x, y);
    out[q] = store_as(dt, v);
  }
  if (reduce == PORTA_SCATTER_MEAN)
    for (size_t k = 0; k < out.size(); ++k) {
      const double n = count[k] > 0 ? static_cast<double>(count[k]) : 1.0;
      out[k] = store_as(dt, is_float(dt) ? out[k] / n : std::floor(out[k] / n));
      r.scale[k] /= n;
    }
  if (reduce != PORTA_SCATTER_SUM && reduce != PORTA_SCATTER_MEAN) std::fill(r.scale.begin(), r.scale.end(), 0.0);
  return r;
}

Reduction ref_scan(porta_op op, const HostTensor& t, int32_t dim) {
  if (op != PORTA_OP_CUMSUM && op != PORTA_OP_CUMPROD) throw no_reference(op);
  const bool sum = op == PORTA_OP_CUMSUM;
  const DLDataType dt = is_float(t.dtype) ? t.dtype : porta_int64;
  const size_t nd = t.shape.size(), d = static_cast<size_t>(wrap(dim, nd));
  int64_t outer = 1, n = 1, inner = 1;
  for (size_t i = 0; i < nd; ++i) (i < d ? outer : i == d ? n : inner) *= t.shape[i];
  Reduction r{HostTensor{dt, t.shape, std::vector<double>(t.v.size())}, std::vector<double>(t.v.size(), 0.0)};
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      double acc = sum ? 0 : 1, mag = 0;
      uint64_t wide = sum ? 0 : 1;  // int64 arithmetic that wraps
      for (int64_t j = 0; j < n; ++j) {
        const size_t k = static_cast<size_t>((o * n + j) * inner + in);
        const double x = t.v[k];
        mag += std::fabs(x);
        if (is_float(dt)) {
          acc = sum ? acc + x : acc * x;
          r.value.v[k] = store_as(dt, acc);
        } else {
          const auto xi = static_cast<uint64_t>(static_cast<int64_t>(x));
          wide = sum ? wide + xi : wide * xi;
          r.value.v[k] = static_cast<double>(static_cast<int64_t>(wide));
        }
        r.scale[k] = sum ? mag : 0.0;
      }
    }
  return r;
}

std::pair<HostTensor, HostTensor> ref_running_extreme(porta_op op, const HostTensor& t, int32_t dim) {
  if (op != PORTA_OP_CUMMAX && op != PORTA_OP_CUMMIN) throw no_reference(op);
  const size_t nd = t.shape.size(), d = static_cast<size_t>(wrap(dim, nd));
  int64_t outer = 1, n = 1, inner = 1;
  for (size_t i = 0; i < nd; ++i) (i < d ? outer : i == d ? n : inner) *= t.shape[i];
  HostTensor values{t.dtype, t.shape, std::vector<double>(t.v.size())};
  HostTensor indices{porta_int64, t.shape, std::vector<double>(t.v.size())};
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      double best = 0;
      int64_t from = 0;
      for (int64_t j = 0; j < n; ++j) {
        const size_t k = static_cast<size_t>((o * n + j) * inner + in);
        const double x = t.v[k];
        const bool wins = op == PORTA_OP_CUMMAX ? x >= best : x <= best;
        if (j == 0 || std::isnan(x) || (!std::isnan(best) && wins)) best = x, from = j;
        values.v[k] = best;
        indices.v[k] = static_cast<double>(from);
      }
    }
  return {values, indices};
}

}  // namespace conformance
