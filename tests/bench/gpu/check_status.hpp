// The GPU benchmarks' error handling: a failed Porta call ends the run with
// the call's name and Porta's message.
#pragma once

#include <porta/porta.h>

#include <cstdio>
#include <cstdlib>

namespace bench {

inline void check(porta_status st, const char* what) {
  if (st != PORTA_OK) {
    std::fprintf(stderr, "%s: %s\n", what, porta_last_error());
    std::exit(1);
  }
}

}  // namespace bench
