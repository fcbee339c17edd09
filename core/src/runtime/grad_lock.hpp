// The lock over every tensor's .grad slot (porta_tensor::grad). It lives in
// runtime/, beside the tensor, so that both autograd (which reads and
// replaces .grad under it) and fork_safety.cpp (which holds it across
// fork()) can reach it without runtime/ depending on autograd/.
#pragma once

#include <mutex>

namespace porta {

// Every tensor's .grad slot is read and replaced under this one lock, so
// backward calls on several threads may share leaves: their accumulations
// are serialized (in an unspecified order).
std::mutex& grad_mutex();

}  // namespace porta
