// The bad-argument suite: one case per entry point of porta/porta.h, each
// calling it with NULL, released and foreign handles, NULL out-pointers,
// impossible shapes, dtypes, dims and sizes, and checking that every call is
// refused with a status, a fresh message that names the problem, and its
// out-parameters untouched.
#pragma once

#include <array>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "unit_util.hpp"

namespace porta_bad_args {

using porta_test::Tensor;

// Valid handles for the cases to misuse; made fresh for every case.
struct Fixture {
  DLDevice cpu{}, mock{};
  Tensor f;       // float32 [2, 3] on cpu: 1..6
  Tensor other;   // float32 [2, 3] on mock:1 (another device)
  Tensor f4;      // float32 [4] on cpu (a shape [2, 3] does not broadcast with)
  Tensor labels;  // int64 [2] on cpu: {0, 1}
  Tensor mask;    // bool [2, 3] on cpu
  Tensor image;   // float32 [1, 1, 4, 4] on cpu
  Tensor kernel;  // float32 [1, 1, 2, 2] on cpu

  Fixture();
  // A handle whose last reference was just released.
  static porta_tensor* released();
  // A pointer to memory that is not a porta_tensor (zeroed, so its tag is wrong).
  static porta_tensor* foreign();
  // A float32 leaf [2, 3] (a copy of f) that requires grad.
  Tensor leaf();
};

// Memory that is not a handle of type Handle (optimizer, list): its tag is zero.
template <typename Handle>
Handle* foreign_handle() {
  return reinterpret_cast<Handle*>(Fixture::foreign());
}

// One entry point and the bad calls that exercise it.
struct Case {
  std::string entry;
  std::function<void(Fixture&)> run;
};

// The cases, in porta.h's order, split by the header's sections.
std::vector<Case> tensor_cases();    // errors, FFI values, plugins, devices, tensors, views, factories
std::vector<Case> op_cases();        // elementwise, reductions, linear algebra, composites, indexing, autograd
std::vector<Case> sampling_cases();    // factories: sampling from a porta_generator_state (tensor_cases places them)
std::vector<Case> indexing_cases();    // indexing, joins and scans (op_cases places them)
std::vector<Case> sorting_cases();     // sorting (op_cases places them)
std::vector<Case> statistics_cases();  // statistics, shapes and products (op_cases places them)
std::vector<Case> nn_loss_cases();     // nn losses, normalization and attention (nn_cases places them)
std::vector<Case> nn_cases();        // nn ops, initializers, optimizers
std::vector<Case> io_cases();        // files and datasets, pinned memory, DLPack
std::vector<Case> distributed_cases();  // process groups and collectives (without a group)
std::vector<Case> amp_cases();          // mixed precision: autocast regions, GradScaler

// Any status but PORTA_OK (for calls whose exact code is not the point).
inline constexpr int kAnyError = -1;

// Makes the thread's last error a known marker, so a refused call must set its own.
void mark_last_error();
// Checks that `got` (from `call`) is `want` with a fresh message that contains `hint`.
// `want` is a porta_status or kAnyError.
void expect_refused(porta_status got, int want, const char* hint, const char* call);

#define REFUSED(want, hint, call) \
  (::porta_bad_args::mark_last_error(), ::porta_bad_args::expect_refused((call), (want), (hint), #call))

// An out-parameter pre-filled with a byte pattern; on scope exit it checks
// that no refused call wrote it.
template <typename T>
class Untouched {
 public:
  Untouched() { std::memset(static_cast<void*>(&value_), 0xA5, sizeof value_); }
  Untouched(const Untouched&) = delete;
  Untouched& operator=(const Untouched&) = delete;
  ~Untouched() {
    unsigned char pattern[sizeof(T)];
    std::memset(pattern, 0xA5, sizeof pattern);
    EXPECT_EQ(std::memcmp(pattern, &value_, sizeof(T)), 0) << "a refused call wrote an out-parameter";
  }
  T* p() { return &value_; }

 private:
  T value_;
};

// The same NULL / released / foreign handle and NULL out checks for every
// entry point of the shape `status f(porta_tensor* t, porta_tensor** out)`
// (other arguments bound by the lambda).
template <typename Call>
void expect_handle_and_out_checked(Fixture& x, Call call) {
  Untouched<porta_tensor*> out;
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "is NULL", call(nullptr, out.p()));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", call(Fixture::released(), out.p()));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live porta_tensor", call(Fixture::foreign(), out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", call(x.f.get(), nullptr));
}

// Every tensor argument of a call refused when NULL, released or foreign, and
// out when NULL: call(a, b, c, out) with the others valid (`valid`, in order).
// The arguments from `required` on are optional: NULL is valid for them.
template <size_t N, typename Call>
void expect_each_handle_checked(const std::array<porta_tensor*, N>& valid, const std::array<const char*, N>& names,
                                Call call, size_t required = N) {
  for (size_t k = 0; k < N; ++k) {
    std::array<porta_tensor*, N> args = valid;
    args[k] = nullptr;
    Untouched<porta_tensor*> out;
    if (k < required)
      REFUSED(PORTA_ERROR_INVALID_HANDLE, (std::string(names[k]) + " is NULL").c_str(), call(args, out.p()));
    args[k] = Fixture::released();
    REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", call(args, out.p()));
    args[k] = Fixture::foreign();
    REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live porta_tensor", call(args, out.p()));
  }
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", call(valid, nullptr));
}

// A function of (t, first, second) with its other arguments bound (sort's
// values and indices, var_mean's var and mean): the handle refused when NULL,
// released or foreign, each output when NULL, and neither output written by
// a refused call.
template <typename Call>
void check_pair(Fixture& x, Call call, const char* first = "values", const char* second = "indices") {
  Untouched<porta_tensor*> v, i;
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", call(nullptr, v.p(), i.p()));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", call(Fixture::released(), v.p(), i.p()));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live porta_tensor", call(Fixture::foreign(), v.p(), i.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, (std::string(first) + " must not be NULL").c_str(),
          call(x.f.get(), nullptr, i.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, (std::string(second) + " must not be NULL").c_str(),
          call(x.f.get(), v.p(), nullptr));
}

// A float32 tensor of `shape` on `device`, or a failed expectation.
Tensor make(std::vector<int64_t> shape, DLDevice device, DLDataType dtype = porta_float32);

}  // namespace porta_bad_args
