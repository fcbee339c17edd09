// Header-only helpers every plugin needs, whatever it links: the dense dtype
// index (the core's dispatch order) and its names, a kernel call's parameter
// struct, element counts and data pointers of DLTensors, op names, and the
// struct_size-respecting copy of device properties. No dependencies beyond
// plugin.h, so the CUDA and OpenCL plugins use it without linking the host
// kernels (and OpenBLAS).
#pragma once

#include <porta/plugin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kind_lookup.hpp"

namespace porta::plugin {

// Porta's dtypes by their dense index (the core's dispatch order): plugins
// compare and dispatch with these names, never with the numbers.
// The six compute dtypes come first, then the storage dtypes of plugin ABI
// 1.10 (porta/ops.h, porta_op_dtypes).
enum DtypeIndex : int {
  kDtBool = 0,
  kDtUInt8 = 1,
  kDtInt32 = 2,
  kDtInt64 = 3,
  kDtFloat32 = 4,
  kDtFloat64 = 5,
  kDtCount = 6,  // how many compute dtypes there are: the op classes range over these
  kDtInt8 = 6,
  kDtInt16 = 7,
  kDtFloat16 = 8,
  kDtBFloat16 = 9,
  kDtAllCount = 10,  // how many dtypes there are
};

// The index of a Porta dtype, or -1 for a dtype Porta does not support.
inline int dtype_index(DLDataType t) {
  if (t.lanes != 1) return -1;
  if (t.code == kDLBool && t.bits == 8) return kDtBool;
  if (t.code == kDLUInt && t.bits == 8) return kDtUInt8;
  if (t.code == kDLInt && t.bits == 32) return kDtInt32;
  if (t.code == kDLInt && t.bits == 64) return kDtInt64;
  if (t.code == kDLFloat && t.bits == 32) return kDtFloat32;
  if (t.code == kDLFloat && t.bits == 64) return kDtFloat64;
  if (t.code == kDLInt && t.bits == 8) return kDtInt8;
  if (t.code == kDLInt && t.bits == 16) return kDtInt16;
  if (t.code == kDLFloat && t.bits == 16) return kDtFloat16;
  if (t.code == kDLBfloat && t.bits == 16) return kDtBFloat16;
  return -1;
}

// Whether dtype index `dt` is a floating compute dtype.
inline constexpr bool is_float_dt(int dt) { return dt == kDtFloat32 || dt == kDtFloat64; }
// Whether dtype index `dt` is an integer (the storage dtypes int8 and int16 too), not bool.
inline constexpr bool is_integer_dt(int dt) {
  return dt == kDtUInt8 || dt == kDtInt32 || dt == kDtInt64 || dt == kDtInt8 || dt == kDtInt16;
}
// Whether dtype index `dt` is a storage dtype (int8, int16, float16, bfloat16).
inline constexpr bool is_storage_dt(int dt) { return dt >= kDtCount && dt < kDtAllCount; }
// FULL, COPY and CAST: the kernels a plugin offers for the storage dtypes too.
inline constexpr bool is_conversion_op(uint32_t op) { return PORTA_OP_IS_CONVERSION(op); }

// Whether dtype index `dt` is in the dtype class `dtypes` (porta_op_dtypes).
inline constexpr bool dtype_in_class(int dtypes, int dt) {
  switch (dtypes) {
    case PORTA_DTYPES_ANY:
      return dt >= 0 && dt < kDtCount;
    case PORTA_DTYPES_NUMERIC:
      return dt > kDtBool && dt < kDtCount;
    case PORTA_DTYPES_FLOAT:
      return is_float_dt(dt);
    case PORTA_DTYPES_WIDE:
      return dt == kDtInt64 || is_float_dt(dt);
    case PORTA_DTYPES_INTEGRAL:
      return dt == kDtBool || is_integer_dt(dt);
    case PORTA_DTYPES_INTEGER:
      return is_integer_dt(dt);
    default:
      return false;
  }
}

// Whether a plugin offers a kernel for (op, dtype index dt): exactly the
// dtypes the op's row of PORTA_OP_DESCRIPTORS takes, and the conversion ops
// for every storage dtype (false for an op id this header does not know).
inline constexpr bool op_takes_dtype(uint32_t op, int dt) {
  if (is_storage_dt(dt)) return is_conversion_op(op);
  return op < PORTA_OP_COUNT && dtype_in_class(kOpDtypesById[op], dt);
}

// The dtype class (porta_op_dtypes) of `op` from its row of the table, or
// -1 for an op id this header does not know.
inline constexpr int op_dtype_class(uint32_t op) { return op < PORTA_OP_COUNT ? kOpDtypesById[op] : -1; }

// Whether a plugin may offer a kernel of its own for (op, storage dtype
// index dt) beside the conversions: the op's class holds dt's compute dtype
// (porta/ops.h, porta_op_dtypes: ANY and NUMERIC all four, FLOAT float16
// and bfloat16, WIDE none). Every call it has no kernel for, or declines,
// the core runs through the compute dtype.
inline constexpr bool op_may_take_storage_dtype(uint32_t op, int dt) {
  if (!is_storage_dt(dt) || is_conversion_op(op)) return false;
  const int cls = op_dtype_class(op);
  if (cls == PORTA_DTYPES_WIDE || cls < 0) return false;
  return dtype_in_class(cls, dt == kDtFloat16 || dt == kDtBFloat16 ? kDtFloat32 : kDtInt32);
}

// The porta_op_kind of `op` from its row of the table, or -1 for an op id
// this header does not know: plugins switch on it to find a kernel family.
inline constexpr int op_kind(uint32_t op) { return op < PORTA_OP_COUNT ? kOpKindById[op] : -1; }

// A plugin's kernel families by kind: each a function (op, args...) that
// finds or runs the kernel of one family. `binary` serves BINARY, COMPARE
// and WHERE, `reduce` REDUCE and ARGREDUCE, `scan` SCAN and RUNNING_EXTREME;
// `unknown` an op id this header does not know.
template <class Fn>
struct KindFamilies {
  Fn factory, copy, unary, binary, reduce, matmul, conv, pool, softmax, loss, optimizer, index, scan, sort, norm, rnn,
      unknown;
};

// Calls op's family in `f` by the op's kind: the one kind switch of every plugin.
template <class Fn, class... A>
auto by_kind(const KindFamilies<Fn>& f, uint32_t op, A... args) {
  switch (op_kind(op)) {
    case PORTA_OP_KIND_FACTORY:
      return f.factory(op, args...);
    case PORTA_OP_KIND_COPY:
      return f.copy(op, args...);
    case PORTA_OP_KIND_UNARY:
      return f.unary(op, args...);
    case PORTA_OP_KIND_BINARY:
    case PORTA_OP_KIND_COMPARE:
    case PORTA_OP_KIND_WHERE:
      return f.binary(op, args...);
    case PORTA_OP_KIND_REDUCE:
    case PORTA_OP_KIND_ARGREDUCE:
      return f.reduce(op, args...);
    case PORTA_OP_KIND_MATMUL:
      return f.matmul(op, args...);
    case PORTA_OP_KIND_CONV:
      return f.conv(op, args...);
    case PORTA_OP_KIND_POOL:
      return f.pool(op, args...);
    case PORTA_OP_KIND_SOFTMAX:
      return f.softmax(op, args...);
    case PORTA_OP_KIND_LOSS:
      return f.loss(op, args...);
    case PORTA_OP_KIND_OPTIMIZER:
      return f.optimizer(op, args...);
    case PORTA_OP_KIND_INDEX:
      return f.index(op, args...);
    case PORTA_OP_KIND_SCAN:
    case PORTA_OP_KIND_RUNNING_EXTREME:  // the scans' walk, with a second output
      return f.scan(op, args...);
    case PORTA_OP_KIND_SORT:
      return f.sort(op, args...);
    case PORTA_OP_KIND_NORM:
      return f.norm(op, args...);
    case PORTA_OP_KIND_RNN:
      return f.rnn(op, args...);
    default:
      return f.unknown(op, args...);
  }
}

// The finder of an op no family has: no kernel.
inline porta_kernel_fn no_kernel(uint32_t, int) { return nullptr; }

// The call's parameter struct, or nullptr when missing or older than P (its
// struct_size smaller than P's).
template <class P>
const P* op_params(const porta_kernel_call* c) {
  const P* p = static_cast<const P*>(c->params);
  return (p && p->struct_size >= sizeof(P)) ? p : nullptr;
}

// porta_conv2d_params as far as plugin ABI 1.6 had it (a 1.6 core passes
// no groups), or nullptr when missing or shorter.
inline const porta_conv2d_params* conv_params(const porta_kernel_call* c) {
  const auto* p = static_cast<const porta_conv2d_params*>(c->params);
  return (p && p->struct_size >= offsetof(porta_conv2d_params, groups)) ? p : nullptr;
}
// Its groups (plugin ABI 1.7): 1 for an older struct, or for 0.
inline int32_t conv_groups(const porta_conv2d_params& p) {
  return p.struct_size >= offsetof(porta_conv2d_params, groups) + sizeof(int32_t) && p.groups > 0 ? p.groups : 1;
}

// MATMUL's scales: alpha 1 and beta 0 without params; false (the caller
// reports it) for a porta_matmul_params whose struct_size is too small.
inline bool matmul_scales(const porta_kernel_call* c, double* alpha, double* beta) {
  *alpha = 1.0, *beta = 0.0;
  if (!c->params) return true;
  const auto* p = op_params<porta_matmul_params>(c);
  if (!p) return false;
  *alpha = p->alpha, *beta = p->beta;
  return true;
}

// Elements of `t` (the product of its shape; 1 for 0-d).
inline int64_t numel(const DLTensor& t) {
  int64_t n = 1;
  for (int32_t i = 0; i < t.ndim; ++i) n *= t.shape[i];
  return n;
}

// The first element of `t` (data + byte_offset) as T*.
template <class T>
T* data_of(const DLTensor& t) {
  return reinterpret_cast<T*>(static_cast<char*>(t.data) + t.byte_offset);
}

// The op's name in PORTA_OP_LIST ("add", "relu", ...), or "unknown op".
constexpr const char* op_name(uint32_t op) { return op < PORTA_OP_COUNT ? kOpNameById[op] : "unknown op"; }

// Copies `props` into the core's struct, writing only the fields its
// struct_size covers (the core may be older than the plugin).
inline void copy_device_props(const porta_device_props& props, porta_device_props* out) {
  const size_t keep = out->struct_size;
  std::memcpy(static_cast<void*>(out), &props, keep < sizeof(props) ? keep : sizeof(props));
  out->struct_size = keep;
}

}  // namespace porta::plugin
