// The C entry points of PORTA_OP_LIST, grouped by kind. Generated from the
// X-macro, so an op appended to porta/ops.h joins the tests of its kind (and
// must get a reference in reference.cpp) without edits here.
#pragma once

#include <porta/ops.h>
#include <porta/porta.h>

namespace conformance {

using UnaryFn = porta_status (*)(porta_tensor*, porta_tensor**);
using BinaryFn = porta_status (*)(porta_tensor*, porta_tensor*, porta_tensor**);
using ScalarFn = porta_status (*)(porta_tensor*, double, porta_tensor**);
using ReduceFn = porta_status (*)(porta_tensor*, const int32_t*, int32_t, int, porta_tensor**);
using ArgReduceFn = porta_status (*)(porta_tensor*, int32_t, int, porta_tensor**);
using ScanFn = porta_status (*)(porta_tensor*, int32_t, porta_tensor**);

struct OpInfo {
  porta_op op;
  const char* name;
  porta_op_kind kind;
  int inputs;
};
struct UnaryOp {
  porta_op op;
  const char* name;
  UnaryFn fn;
};
// Arithmetic (BINARY) and comparison (COMPARE) ops, each with its _scalar form.
struct BinaryOp {
  porta_op op;
  const char* name;
  BinaryFn fn;
  ScalarFn scalar;
  bool compare;
};
struct ReduceOp {
  porta_op op;
  const char* name;
  ReduceFn fn;
};
struct ArgReduceOp {
  porta_op op;
  const char* name;
  ArgReduceFn fn;
};
struct ScanOp {
  porta_op op;
  const char* name;
  ScanFn fn;
};

// CONF_WHEN_KIND(K, kind)(...) keeps its arguments only when `kind` is
// PORTA_OP_KIND_K (the "probe" idiom: it tolerates kinds it does not know).
#define CONF_CAT(a, b) CONF_CAT_I(a, b)
#define CONF_CAT_I(a, b) a##b
#define CONF_SECOND(...) CONF_SECOND_I(__VA_ARGS__, 0, )
#define CONF_SECOND_I(a, b, ...) b
#define CONF_KEEP_0(...)
#define CONF_KEEP_1(...) __VA_ARGS__
#define CONF_WHEN_KIND(K, kind) CONF_CAT(CONF_KEEP_, CONF_SECOND(CONF_PROBE_##K##_##kind))
#define CONF_PROBE_UNARY_PORTA_OP_KIND_UNARY ~, 1
#define CONF_PROBE_BINARY_PORTA_OP_KIND_BINARY ~, 1
#define CONF_PROBE_COMPARE_PORTA_OP_KIND_COMPARE ~, 1
#define CONF_PROBE_REDUCE_PORTA_OP_KIND_REDUCE ~, 1
#define CONF_PROBE_ARGREDUCE_PORTA_OP_KIND_ARGREDUCE ~, 1
#define CONF_PROBE_WHERE_PORTA_OP_KIND_WHERE ~, 1
#define CONF_PROBE_MATMUL_PORTA_OP_KIND_MATMUL ~, 1
#define CONF_PROBE_INDEX_PORTA_OP_KIND_INDEX ~, 1
#define CONF_PROBE_SCAN_PORTA_OP_KIND_SCAN ~, 1

// clang-format off
#define CONF_OP_INFO(NAME, name, id, kind, inputs) OpInfo{PORTA_OP_##NAME, #name, kind, inputs},
inline const OpInfo kAllOps[] = {PORTA_OP_LIST(CONF_OP_INFO)};

#define CONF_X_UNARY(NAME, name, id, kind, inputs) \
  CONF_WHEN_KIND(UNARY, kind)(UnaryOp{PORTA_OP_##NAME, #name, porta_##name},)
inline const UnaryOp kUnaryOps[] = {PORTA_OP_LIST(CONF_X_UNARY)};

#define CONF_X_BINARY(NAME, name, id, kind, inputs)                                                 \
  CONF_WHEN_KIND(BINARY, kind)(BinaryOp{PORTA_OP_##NAME, #name, porta_##name, porta_##name##_scalar, false},) \
  CONF_WHEN_KIND(COMPARE, kind)(BinaryOp{PORTA_OP_##NAME, #name, porta_##name, porta_##name##_scalar, true},)
inline const BinaryOp kBinaryOps[] = {PORTA_OP_LIST(CONF_X_BINARY)};

#define CONF_X_REDUCE(NAME, name, id, kind, inputs) \
  CONF_WHEN_KIND(REDUCE, kind)(ReduceOp{PORTA_OP_##NAME, #name, porta_##name},)
inline const ReduceOp kReduceOps[] = {PORTA_OP_LIST(CONF_X_REDUCE)};

#define CONF_X_ARGREDUCE(NAME, name, id, kind, inputs) \
  CONF_WHEN_KIND(ARGREDUCE, kind)(ArgReduceOp{PORTA_OP_##NAME, #name, porta_##name},)
inline const ArgReduceOp kArgReduceOps[] = {PORTA_OP_LIST(CONF_X_ARGREDUCE)};

#define CONF_X_SCAN(NAME, name, id, kind, inputs) \
  CONF_WHEN_KIND(SCAN, kind)(ScanOp{PORTA_OP_##NAME, #name, porta_##name},)
inline const ScanOp kScanOps[] = {PORTA_OP_LIST(CONF_X_SCAN)};

// The WHERE and MATMUL kinds have one op each and a dedicated test file, and
// the INDEX kind's two ops (gather, scatter) differ in signature, so
// test_index.cpp names them; another op of these kinds stops the build here
// until it has tests.
#define CONF_X_SINGLE(NAME, name, id, kind, inputs)                                                          \
  CONF_WHEN_KIND(WHERE, kind)(static_assert(PORTA_OP_##NAME == PORTA_OP_WHERE, "new WHERE op: add tests");)    \
  CONF_WHEN_KIND(MATMUL, kind)(static_assert(PORTA_OP_##NAME == PORTA_OP_MATMUL, "new MATMUL op: add tests");) \
  CONF_WHEN_KIND(INDEX, kind)(static_assert(PORTA_OP_##NAME == PORTA_OP_GATHER || PORTA_OP_##NAME == PORTA_OP_SCATTER, \
                                            "new INDEX op: add tests to test_index.cpp");)
PORTA_OP_LIST(CONF_X_SINGLE)

// Each op's domain column (where the suites sample its inputs), by id.
#define CONF_X_DOMAIN(NAME, id, since, domain, autocast, vector) domain,
inline constexpr porta_op_domain kDomains[] = {PORTA_OP_TRAITS(CONF_X_DOMAIN)};
// clang-format on
inline porta_op_domain domain_of(porta_op op) { return kDomains[op]; }

}  // namespace conformance
