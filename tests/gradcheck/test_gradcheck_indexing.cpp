// The backward passes of indexing, joins and scans (porta.h's section of
// that name) against finite differences, on every loaded device; then what
// finite differences cannot show: embedding's padding row, the dtypes of
// cat's gradients, and the gradients that are refused.
#include <cstdint>
#include <string>
#include <vector>

#include "../conformance/host_tensor.hpp"
#include "gradcheck_suite.hpp"

using gradcheck::call;
using gradcheck::Case;
using gradcheck::GradCheck;
using gradcheck::ok;
using gradcheck::Temps;
using gradcheck::Tensors;

namespace {

// A constant int64 (or bool, from 0/1 values) tensor on `like`'s device, held by `temp`.
porta_tensor* constant_of(DLDataType dtype, const std::vector<int64_t>& values, std::vector<int64_t> shape,
                          const porta_tensor* like, Temps& temp) {
  std::vector<unsigned char> bytes;
  for (int64_t v : values) {
    if (dtype.code == kDLBool) {
      bytes.push_back(static_cast<unsigned char>(v != 0));
    } else {
      const auto* p = reinterpret_cast<const unsigned char*>(&v);
      bytes.insert(bytes.end(), p, p + sizeof v);
    }
  }
  bytes.push_back(0);  // never an empty buffer
  porta_tensor* t = nullptr;
  return temp(ok(porta_tensor_from_host(bytes.data(), dtype, shape.data(), static_cast<int32_t>(shape.size()),
                                        gradcheck::device_of(like), &t),
                 t));
}
porta_tensor* index_of(const std::vector<int64_t>& v, std::vector<int64_t> shape, const porta_tensor* like, Temps& t) {
  return constant_of(porta_int64, v, std::move(shape), like, t);
}
porta_tensor* mask_of(const std::vector<int64_t>& v, std::vector<int64_t> shape, const porta_tensor* like, Temps& t) {
  return constant_of(porta_bool, v, std::move(shape), like, t);
}

Case gather(const char* name, std::vector<int64_t> src, int32_t dim, std::vector<int64_t> index,
            std::vector<int64_t> index_shape) {
  return Case{name, {{src}}, [=](const Tensors& x) {
                Temps temp;
                porta_tensor* i = index_of(index, index_shape, x[0], temp);
                return i ? call(porta_gather, x[0], dim, i) : nullptr;
              }};
}

// self [3, 4] and src [3, 5] (larger than the index) along dim 0.
Case scatter(const char* name, std::vector<int64_t> index, std::vector<int64_t> index_shape, int32_t reduce,
             int include_self) {
  return Case{name, {{{3, 4}}, {{3, 5}}}, [=](const Tensors& x) {
                Temps temp;
                porta_tensor* i = index_of(index, index_shape, x[0], temp);
                return i ? call(porta_scatter, x[0], int32_t{0}, i, x[1], reduce, include_self) : nullptr;
              }};
}

Case scan(const char* name, porta_status (*op)(porta_tensor*, int32_t, porta_tensor**), std::vector<int64_t> shape,
          int32_t dim, double lo = -1, double hi = 1) {
  return Case{name, {{shape, lo, hi}}, [=](const Tensors& x) { return call(op, x[0], dim); }};
}

std::vector<Case> gather_and_scatter_cases() {
  // Each column unique (ASSIGN's gradient is only defined then), and with repeats (SUM, MEAN add up).
  const std::vector<int64_t> unique = {0, 2, 1, 0, 2, 0, 0, 1}, repeats = {0, 0, 1, 2, 0, 2, 1, 2, 1, 0, 1, 2};
  return {
      gather("gather_dim0_repeats", {3, 4}, 0, {0, 2, 2, 1, 2, 2, 0, 0}, {2, 4}),
      gather("gather_dim1_longer_index", {3, 4}, 1, {3, 3, 0, 1, 2, 0, 0, 0, 0, 0, 3, 2, 1, 0, 3}, {3, 5}),
      gather("gather_3d_smaller_index", {2, 3, 4}, -1, {3, 0, 1, 1, 1, 1, 2, 3, 0, 0, 2, 2}, {2, 2, 3}),
      scatter("scatter_assign", unique, {2, 4}, PORTA_SCATTER_ASSIGN, 1),
      scatter("scatter_sum", repeats, {3, 4}, PORTA_SCATTER_SUM, 1),
      scatter("scatter_sum_exclude_self", repeats, {3, 4}, PORTA_SCATTER_SUM, 0),
      scatter("scatter_mean", repeats, {3, 4}, PORTA_SCATTER_MEAN, 1),
      scatter("scatter_mean_exclude_self", repeats, {3, 4}, PORTA_SCATTER_MEAN, 0),
      Case{"scatter_sum_dim1",
           {{{2, 5}}, {{2, 3}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* i = index_of({4, 4, 0, 1, 3, 1}, {2, 3}, x[0], temp);
             return i ? call(porta_scatter, x[0], int32_t{-1}, i, x[1], int32_t{PORTA_SCATTER_SUM}, 1) : nullptr;
           }},
  };
}

std::vector<Case> composite_cases() {
  return {
      Case{"index_select_dim0",
           {{{4, 3}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* i = index_of({3, 0, 3, 1}, {4}, x[0], temp);
             return i ? call(porta_index_select, x[0], int32_t{0}, i) : nullptr;
           }},
      Case{"index_select_dim1",
           {{{2, 5}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* i = index_of({4, 4, 0}, {3}, x[0], temp);
             return i ? call(porta_index_select, x[0], int32_t{1}, i) : nullptr;
           }},
      Case{"index_add_alpha",
           {{{4, 3}}, {{3, 3}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* i = index_of({1, 1, 3}, {3}, x[0], temp);
             return i ? call(porta_index_add, x[0], int32_t{0}, i, x[1], 2.5) : nullptr;
           }},
      Case{"index_copy",
           {{{4, 3}}, {{2, 3}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* i = index_of({3, 0}, {2}, x[0], temp);
             return i ? call(porta_index_copy, x[0], int32_t{0}, i, x[1]) : nullptr;
           }},
      Case{"index_fill",
           {{{4, 3}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* i = index_of({0, 2}, {2}, x[0], temp);
             return i ? call(porta_index_fill, x[0], int32_t{1}, i, 0.5) : nullptr;
           }},
      Case{"masked_fill_broadcast_mask",
           {{{3, 4}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* m = mask_of({1, 0, 0, 1}, {4}, x[0], temp);
             return m ? call(porta_masked_fill, x[0], m, -2.0) : nullptr;
           }},
      Case{"masked_select_broadcast_mask",
           {{{3, 4}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* m = mask_of({1, 0, 1}, {3, 1}, x[0], temp);
             return m ? call(porta_masked_select, x[0], m) : nullptr;
           }},
      Case{"masked_select_broadcast_self",
           {{{4}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* m = mask_of({1, 0, 1, 1, 0, 0, 1, 1}, {2, 4}, x[0], temp);
             return m ? call(porta_masked_select, x[0], m) : nullptr;  // x's gradient sums both rows
           }},
      Case{"take_negative_positions",
           {{{3, 4}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* i = index_of({0, -1, 5, 5, -12, 7}, {2, 3}, x[0], temp);
             return i ? call(porta_take, x[0], i) : nullptr;
           }},
      Case{"embedding_repeats",
           {{{5, 3}}},
           [](const Tensors& x) {
             Temps temp;
             porta_tensor* i = index_of({0, 4, 4, 1, 2, 0}, {2, 3}, x[0], temp);
             return i ? call(porta_embedding, x[0], i, INT64_MIN) : nullptr;
           }},
  };
}

std::vector<Case> join_and_scan_cases() {
  return {
      Case{"cat_dim0_with_empty",
           {{{2, 3}}, {{1, 3}}},
           [](const Tensors& x) {
             Temps temp;
             const int64_t none = 0;
             porta_tensor* empty = nullptr;  // 1-D empty: skipped
             temp(ok(porta_zeros(&none, 1, porta_float64, gradcheck::device_of(x[0]), &empty), empty));
             porta_tensor* parts[] = {x[0], empty, x[1]};
             return call(porta_cat, parts, int32_t{3}, int32_t{0});
           }},
      Case{"cat_last_dim",
           {{{2, 3}}, {{2, 1}}, {{2, 2}}},
           [](const Tensors& x) { return call(porta_cat, x.data(), int32_t{3}, int32_t{-1}); }},
      Case{"stack_dim1",
           {{{2, 3}}, {{2, 3}}, {{2, 3}}},
           [](const Tensors& x) { return call(porta_stack, x.data(), int32_t{3}, int32_t{1}); }},
      Case{"split_parts_multiplied",
           {{{5, 3}}},
           [](const Tensors& x) {
             const int64_t sizes[] = {2, 2, 1};
             porta_tensor* parts[3] = {nullptr, nullptr, nullptr};
             const porta_status st = porta_split(x[0], sizes, 3, 0, parts);
             Temps temp;
             for (porta_tensor* p : parts) temp(p);
             return ok(st, parts[0]) ? call(porta_mul, parts[0], parts[1]) : nullptr;  // part 2 unused
           }},
      Case{"unbind_dim1",
           {{{3, 4}}},
           [](const Tensors& x) {
             porta_tensor* cols[4] = {nullptr, nullptr, nullptr, nullptr};
             const porta_status st = porta_unbind(x[0], 1, cols);
             Temps temp;
             for (porta_tensor* c : cols) temp(c);
             if (!ok(st, cols[0])) return static_cast<porta_tensor*>(nullptr);
             porta_tensor* product = temp(call(porta_mul, cols[0], cols[2]));
             return product ? call(porta_add, product, cols[3]) : nullptr;  // column 1 unused
           }},
      scan("cumsum_last_dim", porta_cumsum, {3, 4}, -1),
      scan("cumsum_dim0", porta_cumsum, {3, 4}, 0),
      scan("cumsum_3d_middle_dim", porta_cumsum, {2, 3, 4}, 1),
      scan("cumprod_last_dim", porta_cumprod, {3, 4}, 1, 0.5, 1.5),
      scan("cumprod_dim0_negative", porta_cumprod, {3, 4}, 0, -1.5, -0.5),
      scan("cumprod_3d_middle_dim", porta_cumprod, {2, 3, 4}, 1, 0.5, 1.5),
  };
}

TEST_P(GradCheck, GatherAndScatter) { check_all(gather_and_scatter_cases()); }
TEST_P(GradCheck, IndexingComposites) { check_all(composite_cases()); }
TEST_P(GradCheck, JoinsSplitsAndScans) { check_all(join_and_scan_cases()); }

// ---- what finite differences cannot show

using conformance::download;
using conformance::dtype_name;
using conformance::expect_close;
using conformance::HostTensor;
using conformance::make_host;
using conformance::shape_str;
using conformance::Tensor;
using conformance::upload;

// A float64 (or `dtype`) leaf on `dev` that requires grad.
Tensor leaf(const HostTensor& h, DLDevice dev) {
  Tensor t = upload(h, dev);
  CHECK_OK(porta_tensor_set_requires_grad(t, 1));
  return t;
}

HostTensor grad_of(const Tensor& t) {
  Tensor g;
  CHECK_OK(porta_tensor_grad(t, g.out()));
  EXPECT_NE(g.get(), nullptr) << "no gradient";
  return g.get() ? download(g) : HostTensor{};
}

// Backward of sum(out).
void backward_of_sum(const Tensor& out) {
  Tensor total;
  CHECK_OK(porta_sum(out, nullptr, 0, 0, total.out()));
  CHECK_OK(porta_backward(total, nullptr));
}

// Forward reads row padding_idx like any other; its gradient is zero (PyTorch's nn.Embedding).
TEST_P(GradCheck, EmbeddingPaddingRowGetsNoGradient) {
  for (int64_t padding_idx : {int64_t{2}, int64_t{-3}})
    op_case("embedding", porta_float64, [&] {
      SCOPED_TRACE("padding_idx " + std::to_string(padding_idx));
      std::vector<double> w(15);
      for (size_t k = 0; k < w.size(); ++k) w[k] = 0.5 * static_cast<double>(k);
      Tensor weight = leaf(make_host(porta_float64, {5, 3}, w), dev());
      Tensor indices = upload(make_host(porta_int64, {2, 3}, {2, 0, 2, 4, 1, 0}), dev()), out;
      CHECK_OK(porta_embedding(weight, indices, padding_idx, out.out()));
      HostTensor rows = download(out);
      EXPECT_EQ(rows.v[0], w[6]) << "the padding row reads as any other";
      backward_of_sum(out);
      // Rows 0 and 2 appear twice, 1 and 4 once, 3 never; row 2 is padding.
      const HostTensor want = make_host(porta_float64, {5, 3}, {2, 2, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1});
      expect_close(grad_of(weight), want, conformance::kExact, "embedding's gradient");
    });
}

TEST_P(GradCheck, CatGradientsKeepEachInputsDtype) {
  op_case("cat", porta_float64, [&] {
    Tensor a = leaf(make_host(porta_float32, {2, 3}, {1, 2, 3, 4, 5, 6}), dev());
    Tensor b = leaf(make_host(porta_float64, {1, 3}, {7, 8, 9}), dev());
    Tensor empty = leaf(make_host(porta_float32, {0}, {}), dev());  // skipped, still promoted over
    porta_tensor* parts[] = {a, empty, b};
    Tensor out, weighted;
    CHECK_OK(porta_cat(parts, 3, 0, out.out()));
    EXPECT_EQ(dtype_name(conformance::dtype_of(out)), "float64");
    Tensor w = upload(make_host(porta_float64, {3, 3}, {0.5, 1, 1.5, 2, 2.5, 3, -1, -2, -3}), dev());
    CHECK_OK(porta_mul(out, w, weighted.out()));
    backward_of_sum(weighted);
    expect_close(grad_of(a), make_host(porta_float32, {2, 3}, {0.5, 1, 1.5, 2, 2.5, 3}), conformance::kExact,
                 "float32 input's gradient");
    expect_close(grad_of(b), make_host(porta_float64, {1, 3}, {-1, -2, -3}), conformance::kExact,
                 "float64 input's gradient");
    expect_close(grad_of(empty), make_host(porta_float32, {0}, {}), conformance::kExact, "the empty input's gradient");
  });
}

// PROD, AMAX and AMIN have no backward yet: refused up front (not at backward).
TEST_P(GradCheck, ScatterReductionsWithoutABackwardAreRefused) {
  op_case("scatter", porta_float64, [&] {
    const HostTensor self = conformance::sample_host(porta_float64, {3, 4}, 1);
    const HostTensor src = conformance::sample_host(porta_float64, {2, 4}, 2);
    Tensor index = upload(make_host(porta_int64, {2, 4}, {0, 1, 2, 0, 2, 2, 1, 0}), dev());
    Tensor self_leaf = leaf(self, dev()), src_leaf = leaf(src, dev());
    Tensor plain_self = upload(self, dev()), plain_src = upload(src, dev());
    for (int32_t reduce : {PORTA_SCATTER_PROD, PORTA_SCATTER_AMAX, PORTA_SCATTER_AMIN})
      for (int include_self : {1, 0}) {
        SCOPED_TRACE("reduce " + std::to_string(reduce) + " include_self " + std::to_string(include_self));
        for (const auto& [s, r] : {std::pair<porta_tensor*, porta_tensor*>{self_leaf, plain_src},
                                   {plain_self, src_leaf},
                                   {self_leaf, src_leaf}}) {
          const std::string m = conformance::expect_failure(PORTA_ERROR_NOT_IMPLEMENTED, [&](porta_tensor** o) {
            return porta_scatter(s, 0, index, r, reduce, include_self, o);
          });
          EXPECT_NE(m.find("gradient"), std::string::npos) << m;
        }
        Tensor out;  // without a gradient to record they compute
        CHECK_OK(porta_scatter(plain_self, 0, index, plain_src, reduce, include_self, out.out()));
      }
  });
}

TEST_P(GradCheck, CumprodBackwardRefusesZeros) {
  op_case("cumprod", porta_float64, [&] {
    Tensor x = leaf(make_host(porta_float64, {2, 3}, {1, 0, 2, 3, 4, 5}), dev()), out, total;
    CHECK_OK(porta_cumprod(x, 1, out.out()));  // the forward is fine
    expect_close(download(out), make_host(porta_float64, {2, 3}, {1, 0, 0, 3, 12, 60}), conformance::kExact, "cumprod");
    CHECK_OK(porta_sum(out, nullptr, 0, 0, total.out()));
    const porta_status st = porta_backward(total, nullptr);
    conformance::throw_if_missing_kernel(st, __FILE__, __LINE__);
    const std::string m = porta_last_error();
    EXPECT_STREQ(porta_status_name(st), porta_status_name(PORTA_ERROR_INVALID_ARGUMENT)) << m;
    EXPECT_NE(m.find("cumprod"), std::string::npos) << m;
    EXPECT_NE(m.find("zeros"), std::string::npos) << m;
  });
}

}  // namespace
