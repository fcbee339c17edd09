// Bad-argument cases, part 1b: sampling from a porta_generator_state (the end
// of porta.h's factories, after porta_randperm_at, in its order). Every
// refused call leaves the caller's generator state where it was.
#include <cmath>
#include <string>

#include "c_api_bad_args.hpp"

namespace porta_bad_args {
namespace {

constexpr uint64_t kSeed = 7, kOffset = 100;

// A caller's generator state; on scope exit it checks that no refused call advanced it.
class State {
 public:
  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() {
    EXPECT_EQ(s_.struct_size, sizeof(porta_generator_state));
    EXPECT_EQ(s_.seed, kSeed);
    EXPECT_EQ(s_.offset, kOffset) << "a refused call advanced the caller's generator";
  }
  porta_generator_state* p() { return &s_; }

 private:
  porta_generator_state s_{sizeof(porta_generator_state), kSeed, kOffset};
};

// draw(generator, out): a state whose struct_size was never set is refused
// and left as it was (the global generator too), with out untouched.
template <typename Draw>
void expect_unsized_state_refused(Draw draw) {
  uint64_t seed = 0, offset = 0, seed_after = 0, offset_after = 0;
  ASSERT_EQ(porta_generator_get_state(&seed, &offset), PORTA_OK) << porta_last_error();
  for (size_t size : {size_t{0}, sizeof(porta_generator_state) - 1}) {
    porta_generator_state unsized{size, kSeed, kOffset};
    Untouched<porta_tensor*> out;
    REFUSED(PORTA_ERROR_INVALID_ARGUMENT,
            ("generator->struct_size must be set to sizeof(porta_generator_state) (" +
             std::to_string(sizeof(porta_generator_state)) + "), got " + std::to_string(size))
                .c_str(),
            draw(&unsized, out.p()));
    EXPECT_EQ(unsized.offset, kOffset);
    EXPECT_EQ(unsized.seed, kSeed);
  }
  ASSERT_EQ(porta_generator_get_state(&seed_after, &offset_after), PORTA_OK) << porta_last_error();
  EXPECT_EQ(seed_after, seed);
  EXPECT_EQ(offset_after, offset) << "a refused call advanced the global generator";
}

// Shapes and devices the factory-shaped draws refuse: draw(shape, ndim, dtype, device, generator, out).
template <typename Draw>
void expect_factory_draw_checked(Fixture& x, Draw draw) {
  State state;
  const int64_t shape[2] = {2, 3}, negative[2] = {2, -3};
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL",
          draw(shape, 2, porta_float32, x.cpu, state.p(), nullptr));
  Untouched<porta_tensor*> out;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "shape must not be NULL",
          draw(nullptr, 2, porta_float32, x.cpu, state.p(), out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "ndim -1 is out of range",
          draw(shape, -1, porta_float32, x.cpu, state.p(), out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "negative dimension",
          draw(negative, 2, porta_float32, x.cpu, state.p(), out.p()));
  REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "cpu:7", draw(shape, 2, porta_float32, DLDevice{kDLCPU, 7}, state.p(), out.p()));
  expect_unsized_state_refused(
      [&](porta_generator_state* g, porta_tensor** o) { return draw(shape, 2, porta_float32, x.cpu, g, o); });
}

// A tensor-input draw: NULL / released / foreign input, NULL out and an unsized state refused.
template <typename Draw>
void expect_tensor_draw_checked(Fixture& x, const char* name, porta_tensor* valid, Draw draw) {
  State state;
  Untouched<porta_tensor*> out;
  REFUSED(PORTA_ERROR_INVALID_HANDLE, (std::string(name) + " is NULL").c_str(), draw(nullptr, state.p(), out.p()));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", draw(Fixture::released(), state.p(), out.p()));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live porta_tensor", draw(Fixture::foreign(), state.p(), out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", draw(valid, state.p(), nullptr));
  expect_unsized_state_refused([&](porta_generator_state* g, porta_tensor** o) { return draw(valid, g, o); });
  (void)x;
}

// t * scale as a new float32 tensor.
Tensor scaled(porta_tensor* t, double scale) {
  porta_tensor* r = nullptr;
  EXPECT_EQ(porta_mul_scalar(t, scale, &r), PORTA_OK) << porta_last_error();
  return Tensor(r);
}

const Case kCases[] = {
    {"porta_uniform",
     [](Fixture& x) {
       expect_factory_draw_checked(x, [](const int64_t* s, int32_t n, DLDataType dt, DLDevice d,
                                         porta_generator_state* g, porta_tensor** o) {
         return porta_uniform(s, n, dt, d, 0.0, 1.0, g, o);
       });
       State state;
       Untouched<porta_tensor*> out;
       const int64_t shape[1] = {4};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "uniform: expects low <= high, got low=2, high=1",
               porta_uniform(shape, 1, porta_float32, x.cpu, 2.0, 1.0, state.p(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "uniform: expects low <= high",
               porta_uniform(shape, 1, porta_float32, x.cpu, NAN, 1.0, state.p(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "float32 or float64",
               porta_uniform(shape, 1, porta_int64, x.cpu, 0.0, 1.0, state.p(), out.p()));
       // A success advances a caller's state (and only it), one counter per element.
       porta_generator_state moving{sizeof moving, kSeed, kOffset};
       porta_tensor* drawn = nullptr;
       PORTA_EXPECT_OK(porta_uniform(shape, 1, porta_float32, x.cpu, 0.0, 1.0, &moving, &drawn));
       Tensor owned(drawn);
       EXPECT_EQ(moving.offset, kOffset + 4);
     }},
    {"porta_normal",
     [](Fixture& x) {
       expect_factory_draw_checked(x, [](const int64_t* s, int32_t n, DLDataType dt, DLDevice d,
                                         porta_generator_state* g, porta_tensor** o) {
         return porta_normal(s, n, dt, d, 0.0, 1.0, g, o);
       });
       State state;
       Untouched<porta_tensor*> out;
       const int64_t shape[1] = {4};
       for (double std : {-1.0, double(NAN)})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "normal: expects std >= 0.0",
                 porta_normal(shape, 1, porta_float32, x.cpu, 0.0, std, state.p(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "float32 or float64",
               porta_normal(shape, 1, porta_bool, x.cpu, 0.0, 1.0, state.p(), out.p()));
     }},
    {"porta_normal_tensor",
     [](Fixture& x) {
       porta_tensor* f = x.f.get();
       State state;
       Untouched<porta_tensor*> out;
       // NULL is a valid mean or std (0 or 1); released and foreign handles are not.
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_normal_tensor(Fixture::released(), f, state.p(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_normal_tensor(f, Fixture::released(), state.p(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_normal_tensor(nullptr, Fixture::released(), state.p(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "mean is not a live porta_tensor",
               porta_normal_tensor(Fixture::foreign(), nullptr, state.p(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "std is not a live porta_tensor",
               porta_normal_tensor(f, Fixture::foreign(), state.p(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_normal_tensor(f, f, state.p(), nullptr));
       expect_unsized_state_refused(
           [&](porta_generator_state* g, porta_tensor** o) { return porta_normal_tensor(f, nullptr, g, o); });
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "normal: give mean, std or both as tensors",
               porta_normal_tensor(nullptr, nullptr, state.p(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
               "normal: mean must be floating (float16, bfloat16, float32 or float64), got int64",
               porta_normal_tensor(x.labels.get(), nullptr, state.p(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
               "normal: std must be floating (float16, bfloat16, float32 or float64), got bool",
               porta_normal_tensor(f, x.mask.get(), state.p(), out.p()));
       REFUSED(PORTA_ERROR_DEVICE_MISMATCH, "mock:1", porta_normal_tensor(f, x.other.get(), state.p(), out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "", porta_normal_tensor(f, x.f4.get(), state.p(), out.p()));
       Tensor negative = scaled(f, -1.0);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "normal: expects all elements of std >= 0.0",
               porta_normal_tensor(f, negative.get(), state.p(), out.p()));
     }},
    {"porta_randint",
     [](Fixture& x) {
       expect_factory_draw_checked(x, [](const int64_t* s, int32_t n, DLDataType dt, DLDevice d,
                                         porta_generator_state* g, porta_tensor** o) {
         return porta_randint(0, 10, s, n, dt, d, g, o);
       });
       State state;
       Untouched<porta_tensor*> out;
       const int64_t shape[1] = {4};
       for (int64_t high : {int64_t{3}, int64_t{2}, INT64_MIN})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT,
                 ("randint: expects low to be less than high, but got low=3 >= high=" + std::to_string(high)).c_str(),
                 porta_randint(3, high, shape, 1, porta_int64, x.cpu, state.p(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "randint: bool",
               porta_randint(0, 2, shape, 1, porta_bool, x.cpu, state.p(), out.p()));
       REFUSED(PORTA_ERROR_NOT_IMPLEMENTED, "wider than 2^53",
               porta_randint(INT64_MIN, INT64_MAX, shape, 1, porta_int64, x.cpu, state.p(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "randint",
               porta_randint(0, 300, shape, 1, porta_uint8, x.cpu, state.p(), out.p()));
     }},
    {"porta_bernoulli",
     [](Fixture& x) {
       Tensor half = scaled(x.f.get(), 0.1);
       expect_tensor_draw_checked(x, "p", half.get(), porta_bernoulli);
       State state;
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "bernoulli: expects 0 <= p <= 1, got values in [1, 6]",
               porta_bernoulli(x.f.get(), state.p(), out.p()));
       Tensor negative = scaled(x.f.get(), -0.1);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "bernoulli: expects 0 <= p <= 1",
               porta_bernoulli(negative.get(), state.p(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
               "bernoulli: p must be floating (float16, bfloat16, float32 or float64), got int64",
               porta_bernoulli(x.labels.get(), state.p(), out.p()));
     }},
    {"porta_multinomial",
     [](Fixture& x) {
       porta_tensor* f = x.f.get();
       expect_tensor_draw_checked(x, "probs", f, [](porta_tensor* t, porta_generator_state* g, porta_tensor** o) {
         return porta_multinomial(t, 2, 0, g, o);
       });
       State state;
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT,
               "multinomial: cannot sample n_sample > prob_dist.size(-1) samples without replacement (4 > 3)",
               porta_multinomial(f, 4, 0, state.p(), out.p()));
       for (int64_t n : {int64_t{0}, int64_t{-1}})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "multinomial: cannot sample n_sample <= 0 samples",
                 porta_multinomial(f, n, 1, state.p(), out.p()));
       Tensor negative = scaled(f, -1.0);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "multinomial: probability tensor contains either inf, nan or element < 0",
               porta_multinomial(negative.get(), 2, 1, state.p(), out.p()));
       Tensor zeros = scaled(f, 0.0);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "multinomial: invalid distribution (a row sums to 0)",
               porta_multinomial(zeros.get(), 2, 1, state.p(), out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "multinomial: prob_dist must be 1 or 2 dim, got [1, 1, 4, 4]",
               porta_multinomial(x.image.get(), 1, 1, state.p(), out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE,
               "multinomial: probs must be floating (float16, bfloat16, float32 or float64), got int64",
               porta_multinomial(x.labels.get(), 1, 1, state.p(), out.p()));
       Tensor none = make({0}, x.cpu);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "multinomial: the number of categories cannot be 0",
               porta_multinomial(none.get(), 1, 1, state.p(), out.p()));
     }},
};

}  // namespace

std::vector<Case> sampling_cases() { return {std::begin(kCases), std::end(kCases)}; }

}  // namespace porta_bad_args
