// The kernel lookup of every plugin family, generated from porta/ops.h's op
// table: a family names its kind(s) and how to make the kernel of one op id,
// and lookup_kind walks the rows of those kinds. The host families (g++) and
// the CUDA ones (nvcc, and the CUDA emulator's g++) call the same helper.
// The header is C++17 and has no device code (the families pass it C++20
// template lambdas, as the plugins' other lookups do).
//
//   template <class T>
//   porta_kernel_fn find_for(uint32_t op) {
//     return lookup_kind<PORTA_OP_KIND_RNN>(op, []<uint32_t Op>(op_id<Op>) {
//       static_assert(op_in<Op, PORTA_OP_LSTM_CELL, PORTA_OP_LSTM_CELL_BACKWARD>, "...");
//       return &rnn_kernel<Op, T>;
//     });
//   }
//
// A row appended to the table with that kind is looked up with no edit to
// a list of cases: `make` is instantiated for the new id. So that the row
// cannot silently get another op's kernel, every family names the ids it
// serves: one kernel template for all of them checks op_in; ops with
// different kernels pick one with `if constexpr` and end the chain with
// `else static_assert(no_kernel_for<Op>, ...)`. A row without its kernel is
// then a compile error in every plugin that has the family, not a nullptr
// (a "missing kernel") found at run time.
#pragma once

#include <porta/ops.h>
#include <porta/plugin.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace porta::plugin {

// Each op's kind, indexed by its id (the rows are in id order, ids dense:
// checked below). plugin_support.hpp's op_kind, op_dtype_class and op_name
// read these.
inline constexpr porta_op_kind kOpKindById[] = {
#define PORTA_X_KIND_BY_ID(NAME, name, id, kind, inputs) kind,
    PORTA_OP_LIST(PORTA_X_KIND_BY_ID)
#undef PORTA_X_KIND_BY_ID
};

// Each op's dtype class (porta_op_dtypes) and name, indexed by its id.
inline constexpr porta_op_dtypes kOpDtypesById[] = {
#define PORTA_X_DTYPES_BY_ID(NAME, name, id, kind, inputs, dtypes, result, grad, doc) dtypes,
    PORTA_OP_DESCRIPTORS(PORTA_X_DTYPES_BY_ID)
#undef PORTA_X_DTYPES_BY_ID
};
inline constexpr const char* kOpNameById[] = {
#define PORTA_X_NAME_BY_ID(NAME, name, id, kind, inputs) #name,
    PORTA_OP_LIST(PORTA_X_NAME_BY_ID)
#undef PORTA_X_NAME_BY_ID
};

namespace kind_lookup_detail {
inline constexpr uint32_t kIdByRow[] = {
#define PORTA_X_ID_BY_ROW(NAME, name, id, kind, inputs) id,
    PORTA_OP_LIST(PORTA_X_ID_BY_ROW)
#undef PORTA_X_ID_BY_ROW
};
constexpr bool ids_are_rows() {
  for (size_t i = 0; i < sizeof(kIdByRow) / sizeof(kIdByRow[0]); ++i)
    if (kIdByRow[i] != i) return false;
  return true;
}
static_assert(ids_are_rows(), "PORTA_OP_LIST: row i must have id i (ids are dense and appended in order)");
static_assert(sizeof(kOpKindById) / sizeof(kOpKindById[0]) == PORTA_OP_COUNT, "a kind for every op id");
static_assert(sizeof(kOpDtypesById) / sizeof(kOpDtypesById[0]) == PORTA_OP_COUNT, "a dtype class for every op id");
static_assert(sizeof(kOpNameById) / sizeof(kOpNameById[0]) == PORTA_OP_COUNT, "a name for every op id");
}  // namespace kind_lookup_detail

// The argument lookup_kind passes `make`: op id Op as a type, so a family's
// lambda reads it as a template parameter, []<uint32_t Op>(op_id<Op>).
template <uint32_t Op>
using op_id = std::integral_constant<uint32_t, Op>;

// The kind of op id Op, at compile time.
template <uint32_t Op>
inline constexpr porta_op_kind kind_of_op = kOpKindById[Op];

// Whether op id Op has one of Kinds.
template <uint32_t Op, porta_op_kind... Kinds>
inline constexpr bool op_has_kind = ((kind_of_op<Op> == Kinds) || ...);

// Whether Op is one of Known: a family whose one kernel template serves its
// kind's ops checks `static_assert(op_in<Op, ...>, ...)`, so a row the
// template would silently take for another op is a compile error.
template <uint32_t Op, uint32_t... Known>
inline constexpr bool op_in = ((Op == Known) || ...);

// False, dependent on Op: `static_assert(no_kernel_for<Op>, "...")` in the
// last `else` of a family's per-id choice fails only for an id it reaches.
template <uint32_t Op>
inline constexpr bool no_kernel_for = false;

namespace kind_lookup_detail {
template <uint32_t Id, porta_op_kind... Kinds, class Make>
bool try_row(uint32_t op, Make& make, porta_kernel_fn* out) {
  if constexpr (op_has_kind<Id, Kinds...>) {
    if (op == Id) {
      *out = make(op_id<Id>{});
      return true;
    }
  }
  return false;
}

template <porta_op_kind... Kinds, class Make, size_t... Ids>
porta_kernel_fn lookup(uint32_t op, Make& make, std::index_sequence<Ids...>) {
  porta_kernel_fn fn = nullptr;
  (void)(try_row<static_cast<uint32_t>(Ids), Kinds...>(op, make, &fn) || ...);
  return fn;
}
}  // namespace kind_lookup_detail

// The kernel `make(op_id<Op>{})` gives for op id `op` when the
// op's row has one of Kinds; nullptr for any other op (or one it maps to
// nullptr). `make` is instantiated for exactly the rows of those kinds.
template <porta_op_kind... Kinds, class Make>
porta_kernel_fn lookup_kind(uint32_t op, Make make) {
  static_assert(sizeof...(Kinds) > 0, "name the family's kinds");
  return kind_lookup_detail::lookup<Kinds...>(op, make, std::make_index_sequence<PORTA_OP_COUNT>{});
}

}  // namespace porta::plugin
