// Host-side tensors for the references: row-major values held as double
// (every test value is exactly representable in its dtype), with the dtype
// rules of porta.h modelled independently of the core, plus upload/download
// in several memory layouts and the tolerance check.
#pragma once

#include <porta/porta.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tensor_handle.hpp"

namespace conformance {

using Shape = std::vector<int64_t>;

struct HostTensor {
  DLDataType dtype{};
  Shape shape;
  std::vector<double> v;  // row-major
  int64_t numel() const { return static_cast<int64_t>(v.size()); }
};

// ---- dtypes
inline const DLDataType kAllDtypes[] = {porta_float32, porta_float64, porta_int32,
                                        porta_int64,   porta_uint8,   porta_bool};
bool same_dtype(DLDataType a, DLDataType b);
std::string dtype_name(DLDataType d);
bool is_float(DLDataType d);
bool is_bool(DLDataType d);
size_t elem_size(DLDataType d);
// The value `x` reads back as after being stored into `d`: rounded to float32,
// truncated toward zero and wrapped modulo 2^bits for integers, 0/1 for bool.
double store_as(DLDataType d, double x);
// bool < uint8 < int32 < int64 < float32 < float64.
DLDataType promote(DLDataType a, DLDataType b);
// The dtype a binary op computes in: promote(), except that a 0-d operand
// beside a dimensioned one counts only when of a higher category (PyTorch).
DLDataType result_type(const HostTensor& a, const HostTensor& b);
// `d` if floating, else float32 (what "integer inputs give float32" means).
DLDataType floating_or_float32(DLDataType d);

// ---- shapes
int64_t numel(const Shape& s);
std::string shape_str(const Shape& s);
Shape contiguous_strides(const Shape& s);
// NumPy broadcast of two shapes; false if they do not broadcast.
bool broadcast_shape(const Shape& a, const Shape& b, Shape* out);
// For every position (row-major) of a tensor of shape `to`, the row-major
// index of the element of `from` it reads under broadcasting.
std::vector<int64_t> broadcast_sources(const Shape& from, const Shape& to);

// ---- host tensors
HostTensor make_host(DLDataType d, Shape shape, const std::vector<double>& values);
// Which values sample_host draws.
enum class Values {
  General,  // floats uniform in [-4, 4]; int [-10, 10]; uint8 [0, 20]; bool 0/1
  Grid,     // floats multiples of 0.25 in [-3, 3] (so comparisons tie); ints [-6, 6]; uint8 [0, 12]
  Positive,  // floats in [0.05, 5]; ints [1, 12]; bool 0/1
  Unit       // floats in (-1, 1) (asin, acos, erfinv); ints [-1, 1]; uint8 [0, 1]; bool 0/1
};
HostTensor sample_host(DLDataType d, const Shape& shape, uint32_t seed, Values values = Values::General);
// seed++ as a function call, so several in one argument list are not unsequenced.
inline uint32_t next_seed(uint32_t& seed) { return seed++; }
HostTensor cast_host(const HostTensor& t, DLDataType d);
HostTensor broadcast_host(const HostTensor& t, const Shape& shape);

// ---- device round trips
enum class Layout {
  Contiguous,
  Transposed,  // last two dims swapped in memory (1-D: as Strided)
  Strided      // every other element of a wider buffer along the last dim, at an offset
};
const char* layout_name(Layout l);
inline const Layout kAllLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::Strided};
// A tensor on `device` whose elements (in row-major order) are t.v, laid out as asked.
Tensor upload(const HostTensor& t, DLDevice device, Layout layout = Layout::Contiguous);
HostTensor download(const porta_tensor* t);
// t.v as the row-major bytes of t.dtype (one spare byte, so data() is never NULL).
std::vector<unsigned char> to_bytes(const HostTensor& t);

// ---- comparison
struct Tolerance {
  double rtol = 0, atol = 0;
};
inline constexpr Tolerance kExact{0, 0};
// rtol 1e-5 (transcendental: 2e-5) / atol 1e-6 for float32; 1e-12 for float64; exact otherwise.
Tolerance tolerance_for(DLDataType d, bool transcendental = false);
// Expects got's dtype and shape to equal ref's and |got - ref| <= atol + rtol * max(|ref|, scale[i])
// elementwise (NaN matches NaN, infinities match exactly). `scale` (optional, one per element) is
// the magnitude of the terms that were summed, for sums and dot products.
void expect_close(const HostTensor& got, const HostTensor& ref, Tolerance tol, const std::string& context,
                  const std::vector<double>* scale = nullptr);

}  // namespace conformance
