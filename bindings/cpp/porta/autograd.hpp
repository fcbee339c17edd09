// porta/autograd.hpp — libtorch's autograd beyond loss.backward(), over porta_backward_ex, the tensor
// hooks and porta_function_attach: Tensor::backward's retain_graph/create_graph/inputs,
// porta::autograd::backward and grad, Tensor::register_hook, porta::autograd::Function<Derived>
// with an AutogradContext (a custom backward), and DetectAnomalyGuard. porta/porta.hpp includes it at its end.
//
// The core calls C++ code back (a hook, a Function's backward) in the middle of backward(). An exception
// that code throws is kept for this thread, the core is told to stop (no gradient changes), and the
// call that ran backward rethrows the exception as it was.
#pragma once

#include <any>
#include <exception>
#include <string>
#include <typeinfo>
#include <unordered_map>
#if __has_include(<cxxabi.h>)
#include <cxxabi.h>
#endif

#include "porta/porta.hpp"

namespace porta::detail {

/// The exception a callback threw during this thread's current backward, for rethrow_callback_failure.
inline std::exception_ptr& callback_failure() {
  thread_local std::exception_ptr failure;
  return failure;
}

/// Runs `body` for a C callback: PORTA_OK, or (the exception kept) a status that stops the backward pass.
template <class Body>
porta_status run_callback(Body&& body) noexcept {
  try {
    body();
    return PORTA_OK;
  } catch (...) {
    if (!callback_failure()) callback_failure() = std::current_exception();
    return PORTA_ERROR_INVALID_ARGUMENT;  // only passed on: the exception is what the caller sees
  }
}

/// Rethrows what a callback threw during the call that returned `status`, else checks `status`.
inline void check_after_callbacks(porta_status status) {
  if (std::exception_ptr failure = std::exchange(callback_failure(), nullptr)) std::rethrow_exception(failure);
  check(status);
}

/// A Tensor holding a new reference to `t`, which the core lends a callback.
inline Tensor borrowed(porta_tensor* t) {
  porta_tensor_retain(t);
  return Tensor::adopt(t);
}

/// The C handles of `tensors` (each must hold one).
inline std::vector<porta_tensor*> handles(const std::vector<Tensor>& tensors) {
  std::vector<porta_tensor*> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors) out.push_back(t.checked_handle());
  return out;
}

/// porta_backward_ex over `roots` with dL/droots = `grads` (empty, or one per root, undefined entries: 1).
inline void run_backward(const std::vector<Tensor>& roots, const std::vector<Tensor>& grads, bool retain_graph,
                         bool create_graph, const std::vector<Tensor>& inputs, bool allow_unused,
                         std::vector<Tensor>* grads_out, const char* op) {
  if (!grads.empty() && grads.size() != roots.size())
    throw Error(PORTA_ERROR_INVALID_ARGUMENT, cat("[", op, "] got ", grads.size(), " gradients for ", roots.size(),
                                                  " tensors; pass one per tensor (or none)"));
  const std::vector<porta_tensor*> root_handles = handles(roots), input_handles = handles(inputs);
  std::vector<porta_tensor*> grad_handles;
  for (const Tensor& g : grads) grad_handles.push_back(g.defined() ? g.handle() : nullptr);
  std::vector<porta_tensor*> captured(grads_out ? inputs.size() : 0, nullptr);
  porta_backward_options options{};
  options.struct_size = sizeof options;
  options.retain_graph = int32_t{retain_graph};
  options.create_graph = int32_t{create_graph};
  options.inputs = input_handles.empty() ? nullptr : input_handles.data();
  options.num_inputs = count(input_handles);
  options.allow_unused = int32_t{allow_unused};
  options.grads_out = grads_out ? captured.data() : nullptr;
  check_after_callbacks(porta_backward_ex(root_handles.data(), grad_handles.empty() ? nullptr : grad_handles.data(),
                                          count(root_handles), &options));
  if (grads_out)
    for (porta_tensor* g : captured) grads_out->push_back(Tensor::adopt(g));
}

/// The C trampoline of Tensor::register_hook; user_data is a heap std::function the core frees.
using HookFunction = std::function<Tensor(const Tensor&)>;
inline porta_status call_hook(void* user_data, porta_tensor* grad, porta_tensor** replacement) {
  return run_callback([&] {
    Tensor result = (*static_cast<HookFunction*>(user_data))(borrowed(grad));
    if (result.defined()) *replacement = result.release();
  });
}
inline void release_hook(void* user_data) { delete static_cast<HookFunction*>(user_data); }

/// "Square" for struct Square (the type's readable name, for its node "SquareBackward").
template <class T>
std::string type_name() {
  const char* mangled = typeid(T).name();
#if __has_include(<cxxabi.h>)
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(mangled, nullptr, nullptr, &status),
                                                    std::free);
  if (status == 0 && demangled) return demangled.get();
#endif
  return mangled;
}

}  // namespace porta::detail

namespace porta {

inline void Tensor::backward(const Tensor& grad, std::optional<bool> retain_graph, bool create_graph,
                             const std::vector<Tensor>& inputs) const {
  detail::run_backward({*this}, {grad}, retain_graph.value_or(create_graph), create_graph, inputs, false, nullptr,
                       "backward");
}

inline void Tensor::backward() const { backward(Tensor()); }

template <class Hook>
uint64_t Tensor::register_hook(Hook&& hook) const {
  detail::HookFunction fn;
  if constexpr (std::is_invocable_r_v<Tensor, Hook, const Tensor&> &&
                !std::is_void_v<std::invoke_result_t<Hook, const Tensor&>>) {
    fn = std::forward<Hook>(hook);
  } else {
    static_assert(std::is_invocable_v<Hook, const Tensor&>,
                  "register_hook takes a callable Tensor(const Tensor&) or void(const Tensor&)");
    fn = [h = std::forward<Hook>(hook)](const Tensor& g) {
      h(g);
      return Tensor();
    };
  }
  auto owned = std::make_unique<detail::HookFunction>(std::move(fn));
  uint64_t handle = 0;
  detail::check(porta_tensor_register_hook(live(), detail::call_hook, owned.get(), detail::release_hook, &handle));
  owned.release();  // the core frees it (release_hook) when the hook goes
  return handle;
}

}  // namespace porta

namespace porta::autograd {

/// torch::autograd::backward: back-propagates from every tensor of `tensors` at once into the leaves'
/// grad() (only `inputs`' when given); grad_tensors one per tensor, or none (ones).
inline void backward(const std::vector<Tensor>& tensors, const std::vector<Tensor>& grad_tensors = {},
                     std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                     const std::vector<Tensor>& inputs = {}) {
  detail::run_backward(tensors, grad_tensors, retain_graph.value_or(create_graph), create_graph, inputs, false,
                       nullptr, "autograd::backward");
}

/// torch::autograd::grad: the gradients of `outputs` (with dL/doutputs = grad_outputs, or ones) with respect
/// to each of `inputs`, returned instead of accumulated. An input the outputs do not reach is an error, or
/// with allow_unused an undefined Tensor. With create_graph the gradients carry a graph of their own.
inline std::vector<Tensor> grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                                const std::vector<Tensor>& grad_outputs = {},
                                std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                                bool allow_unused = false) {
  if (inputs.empty())
    throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[autograd::grad] inputs is empty: name the tensors whose gradients "
                                              "you want");
  std::vector<Tensor> grads;
  detail::run_backward(outputs, grad_outputs, retain_graph.value_or(create_graph), create_graph, inputs, allow_unused,
                       &grads, "autograd::grad");
  return grads;
}

/// Whether anomaly detection is on (for the whole process).
inline bool is_anomaly_enabled() { return detail::get<int>(porta_is_anomaly_enabled) != 0; }

/// torch::autograd::DetectAnomalyGuard: while it lives, backward fails naming the first node whose
/// gradient has a NaN ("Function 'SqrtBackward' returned nan values in its 0th output"). Process-wide,
/// as libtorch's; each check reads the gradient back from its device.
class DetectAnomalyGuard {
 public:
  DetectAnomalyGuard() : was_enabled_(is_anomaly_enabled()) { detail::check(porta_set_anomaly_enabled(1)); }
  ~DetectAnomalyGuard() { porta_set_anomaly_enabled(int{was_enabled_}); }
  DetectAnomalyGuard(const DetectAnomalyGuard&) = delete;
  DetectAnomalyGuard& operator=(const DetectAnomalyGuard&) = delete;

 private:
  bool was_enabled_;
};

/// libtorch's variable_list.
using variable_list = std::vector<Tensor>;

/// The `ctx` of a Function's forward and backward: tensors saved for backward (checked against in-place
/// writes, as PyTorch checks them), anything else in saved_data, and which inputs need a gradient.
class AutogradContext {
 public:
  /// Keeps `tensors` for backward, with their versions.
  void save_for_backward(variable_list tensors) {
    versions_.clear();
    for (const Tensor& t : tensors) versions_.push_back(t.defined() ? t._version() : 0);
    saved_ = std::move(tensors);
  }
  /// The saved tensors; porta::Error when one was written in place since it was saved.
  variable_list get_saved_variables() const {
    for (size_t i = 0; i < saved_.size(); ++i)
      if (saved_[i].defined() && saved_[i]._version() != versions_[i])
        throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                    detail::cat("one of the variables needed for gradient computation has been modified by an "
                                "inplace operation: saved tensor ", i, " is at version ", saved_[i]._version(),
                                "; expected version ", versions_[i], " instead"));
    return saved_;
  }
  /// Whether forward's argument `index` is a tensor that requires grad (with grad mode on).
  bool needs_input_grad(size_t index) const { return index < needs_input_grad_.size() && needs_input_grad_[index]; }
  /// Whatever else backward needs (libtorch's saved_data, of IValues there).
  std::unordered_map<std::string, std::any> saved_data;

 private:
  template <class Derived>
  friend struct Function;
  variable_list saved_;
  std::vector<uint64_t> versions_;
  std::vector<bool> needs_input_grad_;
};

/// torch::autograd::Function: derive `struct Square : Function<Square>` with
///   static Tensor forward(AutogradContext* ctx, <arguments>);   // or variable_list, several outputs
///   static variable_list backward(AutogradContext* ctx, variable_list grad_outputs);
/// and call Square::apply(<arguments>). forward runs with autograd off; backward gets one gradient per
/// output (with a variable_list forward: a tensor for each defined float output, zeros where it got none,
/// undefined for the others; porta_function_attach_outputs) and returns one per argument (undefined for a
/// non-tensor argument or none). Backward with create_graph refuses a custom node (porta::Error,
/// NOT_IMPLEMENTED).
template <class Derived>
struct Function {
  template <class... Args>
  static auto apply(Args&&... args) {
    auto state = std::make_unique<State>();
    state->ctx.needs_input_grad_ = {needs_grad(args)...};
    decltype(Derived::forward(&state->ctx, args...)) output;
    {
      NoGradGuard no_grad;
      output = Derived::forward(&state->ctx, args...);
    }
    std::vector<porta_tensor*> inputs;
    (collect(args, inputs, state->positions, state->num_args), ...);
    bool any_needed = false;
    for (bool b : state->ctx.needs_input_grad_) any_needed = any_needed || b;
    state->name = detail::type_name<Derived>() + "Backward";
    if constexpr (std::is_same_v<decltype(output), variable_list>) {
      std::vector<porta_tensor*> handles;
      for (size_t i = 0; i < output.size(); ++i)
        if (output[i].defined() && output[i].dtype().code == kDLFloat) {
          state->differentiable.push_back(i);
          handles.push_back(output[i].handle());
        }
      if (!any_needed || handles.empty()) return output;  // nothing to differentiate
      state->num_outputs = output.size();
      std::vector<porta_tensor*> attached(handles.size(), nullptr);
      const std::string name = state->name;
      const porta_status status = porta_function_attach_outputs(
          handles.data(), detail::count(handles), inputs.data(), detail::count(inputs), call_backward_outputs,
          state.get(), release_state, name.c_str(), attached.data());
      const std::vector<size_t> differentiable = state->differentiable;
      state.release();  // porta_function_attach_outputs owns it now, and frees it even when it fails
      detail::check_after_callbacks(status);
      for (size_t j = 0; j < differentiable.size(); ++j) output[differentiable[j]] = Tensor::adopt(attached[j]);
      return output;
    } else {
      if (!any_needed || output.dtype().code != kDLFloat) return output;  // nothing to differentiate
      porta_tensor* attached = nullptr;
      const std::string name = state->name;
      const porta_status status =
          porta_function_attach(output.checked_handle(), inputs.data(), detail::count(inputs), call_backward,
                                state.get(), release_state, name.c_str(), &attached);
      state.release();  // porta_function_attach owns it now, and frees it (release_state) even when it fails
      detail::check_after_callbacks(status);
      return Tensor::adopt(attached);
    }
  }

 private:
  struct State {
    AutogradContext ctx;
    std::vector<size_t> positions;  // the tensor arguments' indices
    size_t num_args = 0;
    std::string name;
    std::vector<size_t> differentiable;  // a variable_list forward's outputs that get gradients
    size_t num_outputs = 0;
  };

  template <class A>
  static bool needs_grad(const A& a) {
    if constexpr (std::is_same_v<std::remove_cvref_t<A>, Tensor>) return a.defined() && is_grad_enabled() &&
                                                                          a.requires_grad();
    else return false;
  }
  template <class A>
  static void collect(const A& a, std::vector<porta_tensor*>& inputs, std::vector<size_t>& positions, size_t& index) {
    if constexpr (std::is_same_v<std::remove_cvref_t<A>, Tensor>) {
      inputs.push_back(a.defined() ? a.handle() : nullptr);
      positions.push_back(index);
    }
    ++index;
  }

  static porta_status call_backward(void* user_data, porta_tensor* grad_output, porta_tensor** grad_inputs,
                                    int32_t num_inputs) {
    return detail::run_callback([&] {
      State& state = *static_cast<State*>(user_data);
      hand_back(state, Derived::backward(&state.ctx, variable_list{detail::borrowed(grad_output)}), grad_inputs,
                num_inputs);
    });
  }
  static porta_status call_backward_outputs(void* user_data, porta_tensor* const* grad_outputs, int32_t num_outputs,
                                            porta_tensor** grad_inputs, int32_t num_inputs) {
    return detail::run_callback([&] {
      State& state = *static_cast<State*>(user_data);
      variable_list given(state.num_outputs);
      for (int32_t j = 0; j < num_outputs; ++j) given[state.differentiable[j]] = detail::borrowed(grad_outputs[j]);
      hand_back(state, Derived::backward(&state.ctx, std::move(given)), grad_inputs, num_inputs);
    });
  }
  // Checks backward's gradients and hands the tensor arguments' to the core.
  static void hand_back(State& state, variable_list grads, porta_tensor** grad_inputs, int32_t num_inputs) {
    if (grads.size() != state.num_args)
      throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                  detail::cat("function ", state.name, " returned an incorrect number of gradients (expected ",
                              state.num_args, ", got ", grads.size(), ")"));
    std::vector<bool> is_tensor(state.num_args, false);
    for (size_t p : state.positions) is_tensor[p] = true;
    for (size_t i = 0; i < grads.size(); ++i)
      if (!is_tensor[i] && grads[i].defined())
        throw Error(PORTA_ERROR_INVALID_ARGUMENT,
                    detail::cat("function ", state.name, " returned a gradient for argument ", i,
                                ", which is not a tensor; return an undefined Tensor there"));
    for (int32_t slot = 0; slot < num_inputs; ++slot)
      if (grads[state.positions[slot]].defined()) grad_inputs[slot] = grads[state.positions[slot]].release();
  }
  static void release_state(void* user_data) { delete static_cast<State*>(user_data); }
};

}  // namespace porta::autograd
