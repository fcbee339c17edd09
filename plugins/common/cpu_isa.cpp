#include "cpu_isa.hpp"

namespace porta::host {

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::Baseline:
      return "baseline";
    case Isa::Avx2:
      return "avx2";
    case Isa::Avx512:
      return "avx512f";
  }
  return "?";
}

bool cpu_runs(Isa isa) {
#if defined(__x86_64__)
  // __builtin_cpu_supports checks the OS's register saving (XGETBV) as well.
  switch (isa) {
    case Isa::Baseline:
      return true;
    case Isa::Avx2:
      return __builtin_cpu_supports("avx2");
    case Isa::Avx512:
      return __builtin_cpu_supports("avx512f");
  }
  return false;
#else
  return isa == Isa::Baseline;
#endif
}

Isa widest_isa() {
  static const Isa widest = cpu_runs(Isa::Avx512) ? Isa::Avx512 : cpu_runs(Isa::Avx2) ? Isa::Avx2 : Isa::Baseline;
  return widest;
}

std::vector<Isa> runnable_isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::Baseline, Isa::Avx2, Isa::Avx512})
    if (cpu_runs(isa)) out.push_back(isa);
  return out;
}

}  // namespace porta::host
