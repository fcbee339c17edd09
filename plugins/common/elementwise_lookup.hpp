// The elementwise kernels a plugin offers, derived from porta/ops.h's op
// table: for every row of the COPY, UNARY, BINARY, COMPARE or WHERE kind
// whose dtype class holds DT, the plugin's kernel shape for that kind
// instantiated with the row's functor (Math<op>, elementwise_math.hpp) and
// DT's storage type. A plugin supplies only its kernel shapes, those of the
// kinds `has` names (a compilation unit may hold some kinds only):
//
//   struct Shapes {
//     static constexpr bool has(porta_op_kind k);   // the kinds this unit compiles
//     template <int DT> static porta_status copy(const porta_kernel_call*);      // COPY, CAST
//     template <class F, class T> static porta_status unary(const porta_kernel_call*);
//     template <class F, class T> static porta_status binary(const porta_kernel_call*);
//     template <class F, class T> static porta_status compare(const porta_kernel_call*);  // bool out
//     template <class T> static porta_status where(const porta_kernel_call*);
//   };
//
// and never lists an op: a new row needs its Math<> and nothing here (the
// lookup walks the rows of those kinds: kind_lookup.hpp).
#pragma once

#include <porta/ops.h>

#include "dtype_dispatch.hpp"
#include "elementwise_math.hpp"
#include "kind_lookup.hpp"

namespace porta::plugin {

template <class Shapes, uint32_t Op, int Kind, int Dtypes, int DT>
constexpr porta_kernel_fn elementwise_kernel_of() {
  using T = host::storage_t<DT>;
  if constexpr (!dtype_in_class(Dtypes, DT) || !Shapes::has(static_cast<porta_op_kind>(Kind))) {
    return nullptr;
  } else if constexpr (Kind == PORTA_OP_KIND_COPY) {
    return &Shapes::template copy<DT>;
  } else if constexpr (Kind == PORTA_OP_KIND_UNARY) {
    return &Shapes::template unary<math::Math<Op>, T>;
  } else if constexpr (Kind == PORTA_OP_KIND_BINARY) {
    return &Shapes::template binary<math::Math<Op>, T>;
  } else if constexpr (Kind == PORTA_OP_KIND_COMPARE) {
    return &Shapes::template compare<math::Math<Op>, T>;
  } else if constexpr (Kind == PORTA_OP_KIND_WHERE) {
    return &Shapes::template where<T>;
  } else {
    return nullptr;
  }
}

template <class Shapes, int DT>
porta_kernel_fn elementwise_kernel_for_dtype(uint32_t op) {
  return lookup_kind<PORTA_OP_KIND_COPY, PORTA_OP_KIND_UNARY, PORTA_OP_KIND_BINARY, PORTA_OP_KIND_COMPARE,
                     PORTA_OP_KIND_WHERE>(op, []<uint32_t Op>(op_id<Op>) {
    return elementwise_kernel_of<Shapes, Op, kind_of_op<Op>, kOpDtypesById[Op], DT>();
  });
}

// The kernel of elementwise op `op` for dtype index `dt`, or nullptr.
template <class Shapes>
porta_kernel_fn find_elementwise(uint32_t op, int dt) {
  return host::visit_dtype(dt, [&]<int DT>() { return elementwise_kernel_for_dtype<Shapes, DT>(op); });
}

}  // namespace porta::plugin
