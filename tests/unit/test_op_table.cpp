// The op table in porta/ops.h is the single source of truth: every op of a
// user-facing kind has its C entry point, and every plugin-kind contract
// is known to the core.
#include <dlfcn.h>
#include <porta/ops.h>

#include <set>

#include "unit_util.hpp"

namespace {
struct OpRow {
  const char* name;
  int id;
  porta_op_kind kind;
  int inputs;
};
const OpRow kOps[] = {
#define PORTA_X_ROW(NAME, name, id, kind, inputs) {#name, id, kind, inputs},
    PORTA_OP_LIST(PORTA_X_ROW)
#undef PORTA_X_ROW
};
}  // namespace

TEST(OpTable, IdsAreDenseAndUnique) {
  std::set<int> ids;
  for (const OpRow& op : kOps) ids.insert(op.id);
  EXPECT_EQ(ids.size(), std::size(kOps));
  EXPECT_EQ(*ids.rbegin(), PORTA_OP_COUNT - 1);
}

// The already-loaded libporta, found through one of its own symbols.
void* open_core() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&porta_last_error), &info) == 0) return nullptr;
  return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
}

TEST(OpTable, EveryComputeOpHasItsCEntryPoint) {
  void* self = open_core();
  ASSERT_NE(self, nullptr) << dlerror();
  for (const OpRow& op : kOps) {
    // Factories and copies have hand-written entry points (checked below);
    // kernel-level kinds sit behind porta_conv2d, porta_max_pool2d, ...
    if (op.kind == PORTA_OP_KIND_FACTORY || op.kind == PORTA_OP_KIND_COPY || op.kind >= PORTA_OP_KIND_CONV) continue;
    const std::string symbol = std::string("porta_") + op.name;
    EXPECT_NE(dlsym(self, symbol.c_str()), nullptr) << symbol;
    if (op.kind == PORTA_OP_KIND_BINARY || op.kind == PORTA_OP_KIND_COMPARE) {
      EXPECT_NE(dlsym(self, (symbol + "_scalar").c_str()), nullptr) << symbol << "_scalar";
    }
  }
  for (const char* name : {"porta_full", "porta_arange", "porta_rand", "porta_randn", "porta_clone", "porta_cast",
                           "porta_conv2d", "porta_max_pool2d", "porta_avg_pool2d", "porta_softmax", "porta_log_softmax",
                           "porta_cross_entropy", "porta_optimizer_step"})
    EXPECT_NE(dlsym(self, name), nullptr) << name;
  dlclose(self);
}

TEST(OpTable, TheCoreExportsOnlyPortaSymbols) {
  void* self = open_core();
  ASSERT_NE(self, nullptr);
  // Internal C++ symbols are hidden.
  EXPECT_EQ(dlsym(self, "_ZN5porta8Registry3getEv"), nullptr);
  dlclose(self);
}

TEST(OpTable, DtypeRulesAreCheckedBeforeDispatch) {
  // matmul has no bool kernel anywhere (nor does PyTorch): the core refuses it up front;
  // exp of int promotes to float32 instead of failing.
  porta_test::Tensor a = porta_test::from({1, 2}, {2}, porta_test::device("cpu"));
  porta_tensor *i32 = nullptr, *flags = nullptr;
  PORTA_ASSERT_OK(porta_cast(a.get(), porta_int32, &i32));
  PORTA_ASSERT_OK(porta_cast(a.get(), porta_bool, &flags));
  porta_test::Tensor ai(i32), af(flags);
  porta_tensor* out = nullptr;
  EXPECT_EQ(porta_matmul(flags, flags, &out), PORTA_ERROR_UNSUPPORTED_DTYPE);
  EXPECT_NE(porta_test::error().find("matmul"), std::string::npos);
  PORTA_ASSERT_OK(porta_exp(i32, &out));
  DLDataType dt{};
  PORTA_ASSERT_OK(porta_tensor_dtype(out, &dt));
  EXPECT_EQ(dt.code, kDLFloat);
  porta_tensor_release(out);
}

// The `grad` column of the op table is what autograd does: every op of a
// user-facing kind marked differentiable records a node (its result requires
// grad and is not a leaf), and every op marked not differentiable gives a
// result that does not require grad. A row marked `grad` without a backward
// rule fails here, naming the op.
TEST(OpTable, TheGradColumnIsWhatAutogradRecords) {
  struct Row {
    const char* name;
    porta_op_kind kind;
    bool grad;
    bool integers_only;  // nothing to differentiate: checked on float operands below, so skipped
  };
  const Row rows[] = {
#define PORTA_X_GRAD(NAME, name, id, kind, inputs, dtypes, result, grad, doc) \
  {#name, kind, (grad) != 0, (dtypes) == PORTA_DTYPES_INTEGRAL || (dtypes) == PORTA_DTYPES_INTEGER},
      PORTA_OP_DESCRIPTORS(PORTA_X_GRAD)
#undef PORTA_X_GRAD
  };
  void* self = open_core();
  ASSERT_NE(self, nullptr) << dlerror();
  using Unary = porta_status (*)(porta_tensor*, porta_tensor**);
  using Binary = porta_status (*)(porta_tensor*, porta_tensor*, porta_tensor**);
  using Where = porta_status (*)(porta_tensor*, porta_tensor*, porta_tensor*, porta_tensor**);
  using Reduce = porta_status (*)(porta_tensor*, const int32_t*, int32_t, int, porta_tensor**);
  using ArgReduce = porta_status (*)(porta_tensor*, int32_t, int, porta_tensor**);
  porta_test::Tensor x = porta_test::from({0.5f, 1.5f, 2.0f, 3.0f}, {2, 2}, porta_test::device("cpu"));
  porta_test::Tensor y = porta_test::from({1.0f, 2.0f, 0.5f, 4.0f}, {2, 2}, porta_test::device("cpu"));
  PORTA_ASSERT_OK(porta_tensor_set_requires_grad(x.get(), 1));
  PORTA_ASSERT_OK(porta_tensor_set_requires_grad(y.get(), 1));
  porta_tensor* cond_raw = nullptr;
  PORTA_ASSERT_OK(porta_gt(x.get(), y.get(), &cond_raw));
  porta_test::Tensor cond(cond_raw);
  int checked = 0;
  for (const Row& op : rows) {
    if (op.integers_only) {
      EXPECT_FALSE(op.grad) << op.name << " takes integers only but is marked differentiable";
      continue;
    }
    const std::string symbol = std::string("porta_") + op.name;
    void* f = dlsym(self, symbol.c_str());
    porta_tensor* out = nullptr;
    porta_status st = PORTA_ERROR_INTERNAL;
    switch (op.kind) {
      case PORTA_OP_KIND_UNARY: st = reinterpret_cast<Unary>(f)(x.get(), &out); break;
      case PORTA_OP_KIND_BINARY:
      case PORTA_OP_KIND_COMPARE:
      case PORTA_OP_KIND_MATMUL: st = reinterpret_cast<Binary>(f)(x.get(), y.get(), &out); break;
      case PORTA_OP_KIND_WHERE: st = reinterpret_cast<Where>(f)(cond.get(), x.get(), y.get(), &out); break;
      case PORTA_OP_KIND_REDUCE: st = reinterpret_cast<Reduce>(f)(x.get(), nullptr, 0, 0, &out); break;
      case PORTA_OP_KIND_ARGREDUCE: st = reinterpret_cast<ArgReduce>(f)(x.get(), PORTA_ALL_DIMS, 0, &out); break;
      default: continue;  // factories, copies and kernel-level kinds are checked through their own entry points
    }
    ASSERT_NE(f, nullptr) << symbol;
    ASSERT_EQ(st, PORTA_OK) << symbol << ": " << porta_last_error();
    porta_test::Tensor result(out);
    int requires_grad = -1, leaf = -1;
    PORTA_ASSERT_OK(porta_tensor_requires_grad(out, &requires_grad));
    PORTA_ASSERT_OK(porta_tensor_is_leaf(out, &leaf));
    if (op.grad) {
      EXPECT_TRUE(requires_grad == 1 && leaf == 0)
          << op.name << " is marked differentiable (grad 1 in porta/ops.h) but autograd recorded nothing";
    } else {
      EXPECT_EQ(requires_grad, 0) << op.name << " is marked not differentiable (grad 0) but its result requires grad";
    }
    ++checked;
  }
  EXPECT_GE(checked, 28) << "the user-facing kinds' ops";
  dlclose(self);
}
