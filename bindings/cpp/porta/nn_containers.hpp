// porta/nn_containers.hpp — libtorch's module containers over porta::nn::Module:
// ModuleList, ModuleDict, ParameterList and ParameterDict. What they hold is
// registered (parameters(), state_dict() names "0", "name", to(), clone());
// they have no forward() (it throws: call what they hold).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "porta/nn.hpp"

namespace porta::nn {

namespace detail_containers {
[[noreturn]] inline void no_forward(const std::string& what) {
  throw Error(PORTA_ERROR_NOT_IMPLEMENTED, "[" + what + "::forward] a container has no forward(): call the modules "
                                           "or use the parameters it holds");
}
[[noreturn]] inline void missing(const std::string& what, const std::string& key) {
  throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[" + what + "] no entry named '" + key + "'");
}
[[noreturn]] inline void out_of_range(const std::string& what, size_t index, size_t size) {
  throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[" + what + "] index " + std::to_string(index) +
                                                " is out of range for " + std::to_string(size) + " entries");
}
}  // namespace detail_containers

/// Modules in a list, registered as "0", "1", ... (torch::nn::ModuleList).
class ModuleList : public Module {
 public:
  ModuleList() = default;
  ModuleList(std::initializer_list<std::shared_ptr<Module>> modules) {
    for (auto& m : modules) push_back(m);
  }
  /// Appends a module.
  void push_back(std::shared_ptr<Module> m) { modules_.push_back(register_module(std::to_string(modules_.size()), m)); }
  size_t size() const { return modules_.size(); }
  bool empty() const { return modules_.empty(); }
  /// The module at `index`.
  const std::shared_ptr<Module>& operator[](size_t index) const {
    if (index >= modules_.size()) detail_containers::out_of_range("ModuleList", index, modules_.size());
    return modules_[index];
  }
  /// The module at `index` as an M (throws when it is not one).
  template <class M>
  std::shared_ptr<M> at(size_t index) const {
    auto m = std::dynamic_pointer_cast<M>((*this)[index]);
    if (!m) throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[ModuleList::at] module " + std::to_string(index) +
                                                          " (" + (*this)[index]->describe() + ") is not of that type");
    return m;
  }
  auto begin() const { return modules_.begin(); }
  auto end() const { return modules_.end(); }
  Tensor forward(const Tensor&) override { detail_containers::no_forward("ModuleList"); }
  std::string describe() const override { return "ModuleList(" + std::to_string(modules_.size()) + " modules)"; }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    auto copy = copy_of(*this, memo);
    for (auto& m : copy->modules_) m = clone_module(memo, m);
    return copy;
  }

 private:
  std::vector<std::shared_ptr<Module>> modules_;
};

/// Modules by name, in insertion order (torch::nn::ModuleDict).
class ModuleDict : public Module {
 public:
  ModuleDict() = default;
  ModuleDict(std::initializer_list<std::pair<std::string, std::shared_ptr<Module>>> modules) {
    for (auto& [k, m] : modules) insert(k, m);
  }
  /// Adds a module under a new key (a key already there throws: a registered name cannot be re-pointed).
  void insert(const std::string& key, std::shared_ptr<Module> m) {
    if (contains(key)) throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[ModuleDict::insert] '" + key + "' is already there");
    entries_.emplace_back(key, register_module(key, std::move(m)));
  }
  bool contains(const std::string& key) const {
    for (auto& [k, m] : entries_)
      if (k == key) return true;
    return false;
  }
  /// The module under `key`.
  const std::shared_ptr<Module>& operator[](const std::string& key) const {
    for (auto& [k, m] : entries_)
      if (k == key) return m;
    detail_containers::missing("ModuleDict", key);
  }
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (auto& [k, m] : entries_) out.push_back(k);
    return out;
  }
  size_t size() const { return entries_.size(); }
  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  Tensor forward(const Tensor&) override { detail_containers::no_forward("ModuleDict"); }
  std::string describe() const override { return "ModuleDict(" + std::to_string(entries_.size()) + " modules)"; }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override {
    auto copy = copy_of(*this, memo);
    for (auto& [k, m] : copy->entries_) m = clone_module(memo, m);
    return copy;
  }

 private:
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> entries_;
};

/// Parameters in a list, registered as "0", "1", ... (torch::nn::ParameterList).
class ParameterList : public Module {
 public:
  ParameterList() = default;
  ParameterList(std::initializer_list<Tensor> tensors) {
    for (const Tensor& t : tensors) append(t);
  }
  /// Registers `t` (it becomes a leaf that requires grad) at the end; returns it.
  Tensor append(Tensor t) {
    names_.push_back(std::to_string(names_.size()));
    return register_parameter(names_.back(), std::move(t));
  }
  size_t size() const { return names_.size(); }
  Tensor operator[](size_t index) const {
    if (index >= names_.size()) detail_containers::out_of_range("ParameterList", index, names_.size());
    return parameter(names_[index]);
  }
  Tensor forward(const Tensor&) override { detail_containers::no_forward("ParameterList"); }
  std::string describe() const override { return "ParameterList(" + std::to_string(names_.size()) + " parameters)"; }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }

 private:
  std::vector<std::string> names_;
};

/// Parameters by name, in insertion order (torch::nn::ParameterDict).
class ParameterDict : public Module {
 public:
  ParameterDict() = default;
  ParameterDict(std::initializer_list<std::pair<std::string, Tensor>> tensors) {
    for (auto& [k, t] : tensors) insert(k, t);
  }
  /// Registers `t` under a new key; returns it.
  Tensor insert(const std::string& key, Tensor t) {
    if (contains(key))
      throw Error(PORTA_ERROR_INVALID_ARGUMENT, "[ParameterDict::insert] '" + key + "' is already there");
    names_.push_back(key);
    return register_parameter(key, std::move(t));
  }
  bool contains(const std::string& key) const {
    for (auto& k : names_)
      if (k == key) return true;
    return false;
  }
  Tensor operator[](const std::string& key) const {
    if (!contains(key)) detail_containers::missing("ParameterDict", key);
    return parameter(key);
  }
  const std::vector<std::string>& keys() const { return names_; }
  size_t size() const { return names_.size(); }
  Tensor forward(const Tensor&) override { detail_containers::no_forward("ParameterDict"); }
  std::string describe() const override { return "ParameterDict(" + std::to_string(names_.size()) + " parameters)"; }
  std::shared_ptr<Module> clone_with(CloneMemo& memo) const override { return copy_of(*this, memo); }

 private:
  std::vector<std::string> names_;
};

}  // namespace porta::nn
