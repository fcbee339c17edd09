// porta.hpp adds nothing to the global namespace that another library could
// also define: its operator== for DLPack's dtype struct lives in porta (a
// global one collides with e.g. tvm-ffi's dtype.h). Compile-time checks.
#include <porta/porta.hpp>

template <class T>
concept GloballyComparable = requires(T a, T b) { a == b; };

static_assert(!GloballyComparable<DLDataType>,
              "porta.hpp must not define operator== for DLDataType in the global namespace");
static_assert(porta::same_dtype(porta::kFloat32, porta::kFloat32) && !porta::same_dtype(porta::kFloat32, porta::kInt32));

namespace porta {
static_assert(kFloat64 == kFloat64, "inside porta the operator is found");
}  // namespace porta
