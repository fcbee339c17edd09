#include "host_tensor.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iomanip>
#include <random>
#include <sstream>

namespace conformance {

// ---- dtypes

bool same_dtype(DLDataType a, DLDataType b) { return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes; }

// Position in the promotion order bool < uint8 < int32 < int64 < float32 < float64.
static int rank(DLDataType d) {
  static const DLDataType order[] = {porta_bool, porta_uint8, porta_int32, porta_int64, porta_float32, porta_float64};
  for (int i = 0; i < 6; ++i)
    if (same_dtype(d, order[i])) return i;
  return -1;
}

std::string dtype_name(DLDataType d) {
  switch (rank(d)) {
    case 0:
      return "bool";
    case 1:
      return "uint8";
    case 2:
      return "int32";
    case 3:
      return "int64";
    case 4:
      return "float32";
    case 5:
      return "float64";
  }
  const std::pair<DLDataType, const char*> storage[] = {
      {porta_int8, "int8"}, {porta_int16, "int16"}, {porta_float16, "float16"}, {porta_bfloat16, "bfloat16"}};
  for (const auto& [dt, name] : storage)
    if (same_dtype(d, dt)) return name;
  return "dtype(" + std::to_string(d.code) + "," + std::to_string(d.bits) + "," + std::to_string(d.lanes) + ")";
}

bool is_float(DLDataType d) { return d.code == kDLFloat; }
bool is_bool(DLDataType d) { return d.code == kDLBool; }
size_t elem_size(DLDataType d) { return d.bits / 8; }

double store_as(DLDataType d, double x) {
  if (is_float(d)) return d.bits == 32 ? static_cast<double>(static_cast<float>(x)) : x;
  if (is_bool(d)) return x != 0 ? 1.0 : 0.0;
  if (!std::isfinite(x)) return x;  // tests never store these into integers
  const double t = std::trunc(x);
  if (d.bits == 64) return t;
  const double m = std::ldexp(1.0, d.bits);
  double w = std::fmod(t, m);
  if (w < 0) w += m;
  if (d.code == kDLInt && w >= m / 2) w -= m;
  return w;
}

DLDataType promote(DLDataType a, DLDataType b) { return rank(a) >= rank(b) ? a : b; }
DLDataType result_type(const HostTensor& a, const HostTensor& b) {
  // PyTorch: the dimensioned operand decides, unless the 0-d one is of a
  // higher category (bool < integer < floating); two of a kind promote.
  const auto category = [](DLDataType d) { return is_bool(d) ? 0 : is_float(d) ? 2 : 1; };
  const bool za = a.shape.empty(), zb = b.shape.empty();
  if (za == zb) return promote(a.dtype, b.dtype);
  const DLDataType dim = za ? b.dtype : a.dtype, zero = za ? a.dtype : b.dtype;
  return category(zero) > category(dim) ? promote(dim, zero) : dim;
}
DLDataType floating_or_float32(DLDataType d) { return is_float(d) ? d : porta_float32; }

// ---- shapes

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t x : s) n *= x;
  return n;
}

std::string shape_str(const Shape& s) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  os << ']';
  return os.str();
}

Shape contiguous_strides(const Shape& s) {
  Shape st(s.size());
  int64_t acc = 1;
  for (size_t i = s.size(); i-- > 0;) {
    st[i] = acc;
    acc *= s[i];
  }
  return st;
}

bool broadcast_shape(const Shape& a, const Shape& b, Shape* out) {
  const size_t n = std::max(a.size(), b.size());
  Shape r(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i + a.size() >= n ? a[i + a.size() - n] : 1;
    const int64_t db = i + b.size() >= n ? b[i + b.size() - n] : 1;
    if (da != db && da != 1 && db != 1) return false;
    r[i] = da == 1 ? db : da;
  }
  *out = r;
  return true;
}

std::vector<int64_t> broadcast_sources(const Shape& from, const Shape& to) {
  const size_t nd = to.size(), off = nd - from.size();
  const Shape from_strides = contiguous_strides(from);
  Shape step(nd, 0), coord(nd, 0);  // step: source stride of each output dim (0 if broadcast)
  for (size_t i = off; i < nd; ++i) step[i] = from[i - off] == 1 ? 0 : from_strides[i - off];
  std::vector<int64_t> out(static_cast<size_t>(numel(to)));
  int64_t src = 0;
  for (size_t k = 0; k < out.size(); ++k) {
    out[k] = src;
    for (size_t d = nd; d-- > 0;) {  // odometer increment
      src += step[d];
      if (++coord[d] < to[d]) break;
      src -= step[d] * to[d];
      coord[d] = 0;
    }
  }
  return out;
}

// ---- host tensors

HostTensor make_host(DLDataType d, Shape shape, const std::vector<double>& values) {
  HostTensor t{d, std::move(shape), {}};
  EXPECT_EQ(numel(t.shape), static_cast<int64_t>(values.size())) << "make_host: wrong value count";
  for (double x : values) t.v.push_back(store_as(d, x));
  return t;
}

HostTensor sample_host(DLDataType d, const Shape& shape, uint32_t seed, Values values) {
  std::mt19937 rng(seed * 2654435761u + 12345u);
  std::vector<double> v(static_cast<size_t>(numel(shape)));
  for (double& x : v) {
    if (is_bool(d)) {
      x = static_cast<double>(rng() & 1u);
    } else if (is_float(d)) {
      if (values == Values::Grid)
        x = 0.25 * (static_cast<int>(rng() % 25u) - 12);
      else if (values == Values::Positive)
        x = 0.05 + 4.95 * std::uniform_real_distribution<double>(0, 1)(rng);
      else if (values == Values::Unit)
        x = std::uniform_real_distribution<double>(-0.999, 0.999)(rng);
      else
        x = std::uniform_real_distribution<double>(-4, 4)(rng);
    } else {
      int lo = -10, hi = 10;
      if (values == Values::Grid) lo = -6, hi = 6;
      if (values == Values::Positive) lo = 1, hi = 12;
      if (values == Values::Unit) lo = -1, hi = 1;
      if (d.code == kDLUInt && lo < 0) lo = 0, hi = values == Values::Grid ? 12 : values == Values::Unit ? 1 : 20;
      x = lo + static_cast<int>(rng() % static_cast<uint32_t>(hi - lo + 1));
    }
  }
  return make_host(d, shape, v);
}

HostTensor cast_host(const HostTensor& t, DLDataType d) { return make_host(d, t.shape, t.v); }

HostTensor broadcast_host(const HostTensor& t, const Shape& shape) {
  HostTensor r{t.dtype, shape, {}};
  for (int64_t src : broadcast_sources(t.shape, shape)) r.v.push_back(t.v[src]);
  return r;
}

// ---- device round trips

const char* layout_name(Layout l) {
  switch (l) {
    case Layout::Contiguous:
      return "contiguous";
    case Layout::Transposed:
      return "transposed";
    case Layout::Strided:
      return "strided";
  }
  return "?";
}

static std::vector<unsigned char> encode(DLDataType d, const std::vector<double>& v) {
  std::vector<unsigned char> bytes(v.size() * elem_size(d) + 1);
  unsigned char* p = bytes.data();
  for (size_t i = 0; i < v.size(); ++i) {
    const double x = v[i];
    if (same_dtype(d, porta_float32)) {
      float f = static_cast<float>(x);
      std::memcpy(p + 4 * i, &f, 4);
    } else if (same_dtype(d, porta_float64))
      std::memcpy(p + 8 * i, &x, 8);
    else if (same_dtype(d, porta_int32)) {
      int32_t k = static_cast<int32_t>(x);
      std::memcpy(p + 4 * i, &k, 4);
    } else if (same_dtype(d, porta_int64)) {
      int64_t k = static_cast<int64_t>(x);
      std::memcpy(p + 8 * i, &k, 8);
    } else
      p[i] = static_cast<unsigned char>(x);  // uint8, bool
  }
  return bytes;
}

static std::vector<double> decode(DLDataType d, const unsigned char* p, int64_t n) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    if (same_dtype(d, porta_float32)) {
      float f;
      std::memcpy(&f, p + 4 * i, 4);
      v[i] = f;
    } else if (same_dtype(d, porta_float64))
      std::memcpy(&v[i], p + 8 * i, 8);
    else if (same_dtype(d, porta_int32)) {
      int32_t k;
      std::memcpy(&k, p + 4 * i, 4);
      v[i] = k;
    } else if (same_dtype(d, porta_int64)) {
      int64_t k;
      std::memcpy(&k, p + 8 * i, 8);
      v[i] = static_cast<double>(k);
    } else
      v[i] = p[i];  // uint8, bool (a bool byte other than 0/1 shows up as itself)
  }
  return v;
}

static Tensor from_host(const HostTensor& t, DLDevice device) {
  const std::vector<unsigned char> bytes = encode(t.dtype, t.v);
  Tensor out;
  CHECK_OK(porta_tensor_from_host(bytes.data(), t.dtype, t.shape.data(), static_cast<int32_t>(t.shape.size()), device,
                                  out.out()));
  return out;
}

Tensor upload(const HostTensor& t, DLDevice device, Layout layout) {
  const size_t nd = t.shape.size();
  if (layout == Layout::Transposed && nd < 2) layout = Layout::Strided;
  if (nd == 0 || layout == Layout::Contiguous) return from_host(t, device);
  Tensor base, out;
  if (layout == Layout::Transposed) {
    HostTensor b{t.dtype, t.shape, std::vector<double>(t.v.size())};
    std::swap(b.shape[nd - 1], b.shape[nd - 2]);
    const int64_t rows = t.shape[nd - 2], cols = t.shape[nd - 1];
    for (int64_t i = 0; i < t.numel(); ++i) {
      const int64_t mat = i / (rows * cols > 0 ? rows * cols : 1), r = (i / cols) % rows, c = i % cols;
      b.v[mat * rows * cols + c * rows + r] = t.v[i];
    }
    base = from_host(b, device);
    CHECK_OK(porta_transpose(base, -1, -2, out.out()));
    return out;
  }
  // Strided: element k of the last dim sits at 2k + 1 of a row of 2L + 1.
  HostTensor b{t.dtype, t.shape, {}};
  const int64_t len = t.shape[nd - 1];
  b.shape[nd - 1] = 2 * len + 1;
  b.v.assign(static_cast<size_t>(numel(b.shape)), store_as(t.dtype, 7));
  for (int64_t i = 0; i < t.numel(); ++i) b.v[(i / len) * (2 * len + 1) + 2 * (i % len) + 1] = t.v[i];
  base = from_host(b, device);
  CHECK_OK(porta_slice(base, -1, 1, 2 * len + 1, 2, out.out()));
  return out;
}

std::vector<unsigned char> to_bytes(const HostTensor& t) { return encode(t.dtype, t.v); }

HostTensor download(const porta_tensor* t) {
  HostTensor h{dtype_of(t), shape_of(t), {}};
  const int64_t n = numel_of(t);
  std::vector<unsigned char> bytes(static_cast<size_t>(n) * elem_size(h.dtype) + 1);
  CHECK_OK(porta_tensor_to_host(t, bytes.data(), bytes.size() - 1));
  h.v = decode(h.dtype, bytes.data(), n);
  return h;
}

// ---- comparison

Tolerance tolerance_for(DLDataType d, bool transcendental) {
  if (same_dtype(d, porta_float32)) return {transcendental ? 2e-5 : 1e-5, 1e-6};
  if (same_dtype(d, porta_float64)) return {1e-12, 1e-12};
  return kExact;
}

void expect_close(const HostTensor& got, const HostTensor& ref, Tolerance tol, const std::string& context,
                  const std::vector<double>* scale) {
  ASSERT_EQ(dtype_name(got.dtype), dtype_name(ref.dtype)) << context;
  ASSERT_EQ(shape_str(got.shape), shape_str(ref.shape)) << context;
  ASSERT_EQ(got.v.size(), ref.v.size()) << context;
  int reported = 0, bad = 0;
  for (size_t i = 0; i < ref.v.size(); ++i) {
    const double g = got.v[i], r = ref.v[i];
    bool ok;
    if (std::isnan(r))
      ok = std::isnan(g);
    else if (std::isinf(r))
      ok = g == r;
    else {
      const double mag = std::max(std::fabs(r), scale ? (*scale)[i] : 0.0);
      ok = std::fabs(g - r) <= tol.atol + tol.rtol * mag;
    }
    if (!ok) {
      ++bad;
      if (reported++ < 5)
        ADD_FAILURE() << context << ": element " << i << " of " << shape_str(ref.shape) << " " << dtype_name(ref.dtype)
                      << ": got " << std::setprecision(17) << g << ", expected " << r << " (rtol " << tol.rtol
                      << ", atol " << tol.atol << ")";
    }
  }
  if (bad > 5) ADD_FAILURE() << context << ": " << bad << " elements differ in all";
}

}  // namespace conformance
