// C API: sampling from the global generator or a caller's porta_generator_state
// (ops/factories.cpp, ops/composite/sampling.cpp). A caller's state advances
// only when the call succeeds.
#include "c_api/c_api.hpp"
#include "ops/composite/composite.hpp"

using namespace porta;

namespace {

// Runs draw(counters) on a copy of *generator (the global generator when
// NULL) and hands its tensor to *out, committing the advanced state only then.
template <typename Draw>
porta_status sample(porta_generator_state* generator, porta_tensor** out, Draw&& draw) {
  return produce(out, [&] {
    if (!generator) return draw(ops::Counters{});
    if (generator->struct_size < sizeof(porta_generator_state))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "generator->struct_size must be set to sizeof(porta_generator_state) (",
           sizeof(porta_generator_state), "), got ", generator->struct_size);
    porta_generator_state local = *generator;
    TensorPtr t = draw(ops::Counters{&local});
    generator->offset = local.offset;
    return t;
  });
}

}  // namespace

PORTA_API porta_status porta_uniform(const int64_t* shape, int32_t ndim, DLDataType dtype, DLDevice device, double low,
                                     double high, porta_generator_state* generator, porta_tensor** out) {
  return sample(generator, out, [&](ops::Counters c) {
    if (!(low <= high)) fail(PORTA_ERROR_INVALID_ARGUMENT, "uniform: expects low <= high, got low=", low, ", high=", high);
    return ops::random(PORTA_OP_RAND_UNIFORM, device_of(device), Dims::from(shape, ndim, "shape"), checked_dtype(dtype),
                       low, high, c);
  });
}

PORTA_API porta_status porta_normal(const int64_t* shape, int32_t ndim, DLDataType dtype, DLDevice device, double mean,
                                    double std, porta_generator_state* generator, porta_tensor** out) {
  return sample(generator, out, [&](ops::Counters c) {
    if (!(std >= 0)) fail(PORTA_ERROR_INVALID_ARGUMENT, "normal: expects std >= 0.0, got ", std);
    return ops::random(PORTA_OP_RAND_NORMAL, device_of(device), Dims::from(shape, ndim, "shape"), checked_dtype(dtype),
                       mean, std, c);
  });
}

PORTA_API porta_status porta_normal_tensor(porta_tensor* mean, porta_tensor* std, porta_generator_state* generator,
                                           porta_tensor** out) {
  return sample(generator, out, [&](ops::Counters c) {
    return composite::normal_tensor(optional_arg(mean, "mean"), optional_arg(std, "std"), c);
  });
}

PORTA_API porta_status porta_randint(int64_t low, int64_t high, const int64_t* shape, int32_t ndim, DLDataType dtype,
                                     DLDevice device, porta_generator_state* generator, porta_tensor** out) {
  return sample(generator, out, [&](ops::Counters c) {
    return composite::randint(device_of(device), low, high, Dims::from(shape, ndim, "shape"), checked_dtype(dtype), c);
  });
}

PORTA_API porta_status porta_bernoulli(porta_tensor* p, porta_generator_state* generator, porta_tensor** out) {
  return sample(generator, out, [&](ops::Counters c) { return composite::bernoulli(arg(p, "p"), c); });
}

PORTA_API porta_status porta_multinomial(porta_tensor* probs, int64_t num_samples, int replacement,
                                         porta_generator_state* generator, porta_tensor** out) {
  return sample(generator, out, [&](ops::Counters c) {
    return composite::multinomial(arg(probs, "probs"), num_samples, replacement != 0, c);
  });
}
