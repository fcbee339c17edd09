// What the case files (test_gradcheck*.cpp) share: the GradCheck suite, run
// on every loaded device (instantiated once, in test_gradcheck.cpp), and the
// helpers their cases are written with.
#pragma once

#include <vector>

#include "../conformance/device_params.hpp"
#include "gradcheck.hpp"

namespace gradcheck {

using Tensors = std::vector<porta_tensor*>;

// Intermediate results of a case, released when it ends, also when a
// missing kernel ends it early (expect_ok throws then).
class Temps {
 public:
  Temps() = default;
  Temps(const Temps&) = delete;
  Temps& operator=(const Temps&) = delete;
  ~Temps() {
    for (porta_tensor* t : held_) porta_tensor_release(t);
  }
  porta_tensor* operator()(porta_tensor* t) {
    held_.push_back(t);
    return t;
  }

 private:
  std::vector<porta_tensor*> held_;
};

// Calls a C op of the form op(a, out) / op(a, b, out) and checks its status.
template <typename F, typename... Args>
porta_tensor* call(F op, Args... args) {
  porta_tensor* out = nullptr;
  return ok(op(args..., &out), out);
}

class GradCheck : public conformance::DeviceTest {
 protected:
  // Each case is one row of porta-gradcheck's summary (all float64).
  void check_all(const std::vector<Case>& cases) {
    for (const Case& c : cases) op_case(c.name, porta_float64, [&] { check(c, dev()); });
  }
  void check_all_second_order(const std::vector<Case>& cases) {
    for (const Case& c : cases) op_case(c.name, porta_float64, [&] { check_second_order(c, dev()); });
  }
};

}  // namespace gradcheck
