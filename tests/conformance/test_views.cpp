// Views share storage: view / reshape / slice / select / transpose / permute
// / expand / unsqueeze / squeeze give the expected geometry, read the base's
// elements, and writes through them (porta_copy_into, from_host_into) land in
// the base.
#include <functional>

#include "device_params.hpp"
#include "host_tensor.hpp"

namespace conformance {
namespace {

// Where a view's elements live in its base, in elements.
struct Geometry {
  Shape shape, strides;
  int64_t offset = 0;
};

int64_t storage_index(const Geometry& g, int64_t i) {
  const Shape cs = contiguous_strides(g.shape);
  int64_t at = g.offset;
  for (size_t d = 0; d < g.shape.size(); ++d) at += ((i / cs[d]) % g.shape[d]) * g.strides[d];
  return at;
}

struct ViewCase {
  const char* name;
  Shape base;
  std::function<Tensor(porta_tensor*)> make;
  Geometry geometry;
  bool writable = true;  // false for expanded views, whose elements alias
};

Tensor call(porta_status (*fn)(porta_tensor*, const int64_t*, int32_t, porta_tensor**), porta_tensor* t, Shape s) {
  Tensor out;
  CHECK_OK(fn(t, s.data(), static_cast<int32_t>(s.size()), out.out()));
  return out;
}

std::vector<ViewCase> view_cases() {
  auto slice = [](int32_t d, int64_t a, int64_t b, int64_t s) {
    return [=](porta_tensor* t) {
      Tensor o;
      CHECK_OK(porta_slice(t, d, a, b, s, o.out()));
      return o;
    };
  };
  auto select = [](int32_t d, int64_t i) {
    return [=](porta_tensor* t) {
      Tensor o;
      CHECK_OK(porta_select(t, d, i, o.out()));
      return o;
    };
  };
  auto transpose = [](int32_t a, int32_t b) {
    return [=](porta_tensor* t) {
      Tensor o;
      CHECK_OK(porta_transpose(t, a, b, o.out()));
      return o;
    };
  };
  auto unsqueeze = [](int32_t d) {
    return [=](porta_tensor* t) {
      Tensor o;
      CHECK_OK(porta_unsqueeze(t, d, o.out()));
      return o;
    };
  };
  auto squeeze = [](int32_t d) {
    return [=](porta_tensor* t) {
      Tensor o;
      CHECK_OK(porta_squeeze(t, d, o.out()));
      return o;
    };
  };
  auto view = [](Shape s) { return [=](porta_tensor* t) { return call(porta_view, t, s); }; };
  auto reshape = [](Shape s) { return [=](porta_tensor* t) { return call(porta_reshape, t, s); }; };
  auto expand = [](Shape s) { return [=](porta_tensor* t) { return call(porta_expand, t, s); }; };
  const Shape b{3, 5, 4};  // strides [20, 4, 1]
  return {
      {"view [15, 4]", b, view({15, 4}), {{15, 4}, {4, 1}, 0}},
      {"view [-1]", b, view({-1}), {{60}, {1}, 0}},
      {"view [3, -1, 2]", b, view({3, -1, 2}), {{3, 10, 2}, {20, 2, 1}, 0}},
      {"reshape [5, 12] of contiguous", b, reshape({5, 12}), {{5, 12}, {12, 1}, 0}},
      {"slice(1, 1, 4, 2)", b, slice(1, 1, 4, 2), {{3, 2, 4}, {20, 8, 1}, 4}},
      {"slice(0, -2, 100, 1)", b, slice(0, -2, 100, 1), {{2, 5, 4}, {20, 4, 1}, 20}},
      {"slice(-1, 0, 4, 3)", b, slice(-1, 0, 4, 3), {{3, 5, 2}, {20, 4, 3}, 0}},
      {"slice(1, -100, -3, 1)", b, slice(1, -100, -3, 1), {{3, 2, 4}, {20, 4, 1}, 0}},
      {"slice(2, 3, 1, 1) (empty)", b, slice(2, 3, 1, 1), {{3, 5, 0}, {20, 4, 1}, 0}},
      {"select(1, -1)", b, select(1, -1), {{3, 4}, {20, 1}, 16}},
      {"select(0, 2)", b, select(0, 2), {{5, 4}, {4, 1}, 40}},
      {"transpose(0, 2)", b, transpose(0, 2), {{4, 5, 3}, {1, 4, 20}, 0}},
      {"transpose(-1, -2)", b, transpose(-1, -2), {{3, 4, 5}, {20, 1, 4}, 0}},
      {"permute(2, 0, 1)",
       b,
       [](porta_tensor* t) {
         const int32_t p[] = {2, 0, 1};
         Tensor o;
         CHECK_OK(porta_permute(t, p, 3, o.out()));
         return o;
       },
       {{4, 3, 5}, {1, 20, 4}, 0}},
      {"unsqueeze(1)", b, unsqueeze(1), {{3, 1, 5, 4}, {20, 0, 4, 1}, 0}},
      {"unsqueeze(-1)", b, unsqueeze(-1), {{3, 5, 4, 1}, {20, 4, 1, 0}, 0}},
      {"squeeze(1) of [3, 1, 4]", {3, 1, 4}, squeeze(1), {{3, 4}, {4, 1}, 0}},
      {"expand [3, 1, 4] -> [2, 3, 5, 4]", {3, 1, 4}, expand({2, 3, 5, 4}), {{2, 3, 5, 4}, {0, 4, 0, 1}, 0}, false},
      {"expand [3, 1, 4] -> [-1, 2, -1]", {3, 1, 4}, expand({-1, 2, -1}), {{3, 2, 4}, {4, 0, 1}, 0}, false},
      {"transpose(0, 1), slice(0, 1, 5, 2), select(-1, 2)",
       b,
       [=](porta_tensor* t) {
         Tensor a = transpose(0, 1)(t), c = slice(0, 1, 5, 2)(a);
         return select(-1, 2)(c);
       },
       {{2, 3}, {8, 20}, 6}},
      {"view [5, 3, 2, 2] of transpose(0, 1)",
       b,
       [=](porta_tensor* t) {
         Tensor a = transpose(0, 1)(t);
         return view({5, 3, 2, 2})(a);
       },
       {{5, 3, 2, 2}, {4, 20, 2, 1}, 0}},
      {"unsqueeze(0) of 0-d", {}, unsqueeze(0), {{1}, {0}, 0}},
      {"view [1, 1] of 0-d", {}, view({1, 1}), {{1, 1}, {0, 0}, 0}},
      {"squeeze(0) of [1]", {1}, squeeze(0), {{}, {}, 0}},
  };
}

class Views : public DeviceTest {};
PORTA_INSTANTIATE_FOR_EVERY_DEVICE(Views);

TEST_P(Views, GeometryValuesAndSharedWrites) {
  uint32_t seed = 1;
  for (const ViewCase& c : view_cases())
    for (DLDataType dt : {porta_float32, porta_int64, porta_uint8}) {
      op_case("views", dt, [&] {
        SCOPED_TRACE(std::string(c.name) + " " + dtype_name(dt));
        HostTensor base_ref = sample_host(dt, c.base, seed++);
        for (int64_t i = 0; i < base_ref.numel(); ++i)
          base_ref.v[i] = store_as(dt, static_cast<double>(i));  // distinct
        Tensor base = upload(base_ref, dev());
        Tensor v = c.make(base);
        const Geometry& g = c.geometry;
        EXPECT_EQ(shape_of(v), g.shape);
        EXPECT_TRUE(same_dtype(dtype_of(v), dt));
        EXPECT_EQ(device_string(device_of(v)), GetParam().name);
        const int64_t n = numel(g.shape);
        if (n > 0) {
          const Shape strides = strides_of(v);
          for (size_t d = 0; d < g.shape.size(); ++d)
            if (g.shape[d] != 1) {
              EXPECT_EQ(strides[d], g.strides[d]) << "stride of dim " << d;
            }
          EXPECT_EQ(byte_offset_of(v), static_cast<uint64_t>(g.offset) * elem_size(dt));
        }
        HostTensor expected{dt, g.shape, {}};
        for (int64_t i = 0; i < n; ++i) expected.v.push_back(base_ref.v[storage_index(g, i)]);
        expect_close(download(v), expected, kExact, "view contents");
        if (!c.writable) return;

        // Write through porta_copy_into; the base sees it.
        HostTensor fill{dt, g.shape, {}};
        for (int64_t i = 0; i < n; ++i) fill.v.push_back(store_as(dt, 100 + i));
        Tensor src = upload(fill, dev());
        CHECK_OK(porta_copy_into(v, src));
        for (int64_t i = 0; i < n; ++i) base_ref.v[storage_index(g, i)] = fill.v[i];
        expect_close(download(base), base_ref, kExact, "base after copy_into the view");

        // And through porta_tensor_from_host_into (row-major order of the view).
        HostTensor fill2 = fill;
        for (double& x : fill2.v) x = store_as(dt, x + 50);
        const std::vector<unsigned char> bytes = to_bytes(fill2);
        CHECK_OK(porta_tensor_from_host_into(v, bytes.data(), bytes.size() - 1));
        for (int64_t i = 0; i < n; ++i) base_ref.v[storage_index(g, i)] = fill2.v[i];
        expect_close(download(base), base_ref, kExact, "base after from_host_into the view");
        expect_close(download(v), fill2, kExact, "view after from_host_into");
      });
    }
}

TEST_P(Views, ReshapeCopiesWhenAViewIsImpossible) {
  HostTensor host = make_host(porta_float32, {3, 5, 4}, std::vector<double>(60));
  for (int64_t i = 0; i < 60; ++i) host.v[i] = static_cast<double>(i);
  Tensor base = upload(host, dev()), t;
  CHECK_OK(porta_transpose(base, 0, 1, t.out()));  // [5, 3, 4], strides [4, 20, 1]
  const Shape s{5, 12};
  const std::string msg =
      expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_view(t, s.data(), 2, o); });
  EXPECT_NE(msg.find("view"), std::string::npos) << msg;
  Tensor r;
  CHECK_OK(porta_reshape(t, s.data(), 2, r.out()));
  HostTensor expected{porta_float32, s, {}};
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t k = 0; k < 4; ++k) expected.v.push_back(host.v[j * 20 + i * 4 + k]);
  expect_close(download(r), expected, kExact, "reshape of a transposed tensor");
  Tensor zero;
  CHECK_OK(porta_zeros(nullptr, 0, porta_float32, dev(), zero.out()));
  CHECK_OK(porta_copy_into(r, zero));
  expect_close(download(base), host, kExact, "the base after writing into the reshaped copy");
}

TEST_P(Views, BadArgumentsLeaveTheOutputUntouched) {
  Tensor t = upload(sample_host(porta_float32, {3, 4}, 1), dev()), s;
  CHECK_OK(porta_zeros(nullptr, 0, porta_float32, dev(), s.out()));
  const Shape bad_view{5, 3}, two_infer{-1, -1}, to_wide{3, 5}, to_few{4};
  const int32_t dup[] = {0, 0}, short_perm[] = {1};
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_view(t, bad_view.data(), 2, o); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_view(t, two_infer.data(), 2, o); });
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_reshape(t, bad_view.data(), 2, o); });
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_expand(t, to_wide.data(), 2, o); });
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_expand(t, to_few.data(), 1, o); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_slice(t, 2, 0, 1, 1, o); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_slice(t, 0, 0, 1, 0, o); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_slice(s, 0, 0, 1, 1, o); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_select(t, 0, 3, o); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_select(t, 1, -5, o); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_transpose(t, 0, 2, o); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_permute(t, dup, 2, o); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_permute(t, short_perm, 1, o); });
  expect_failure(PORTA_ERROR_INVALID_ARGUMENT, [&](porta_tensor** o) { return porta_unsqueeze(t, 3, o); });
  expect_failure(PORTA_ERROR_SHAPE_MISMATCH, [&](porta_tensor** o) { return porta_squeeze(t, 0, o); });
}

}  // namespace
}  // namespace conformance
