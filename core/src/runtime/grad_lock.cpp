#include "runtime/grad_lock.hpp"

namespace porta {

std::mutex& grad_mutex() {
  static std::mutex mu;
  return mu;
}

}  // namespace porta
