// Sanitizer defaults for the libFuzzer builds (PORTA_FUZZ). The sanitizer
// runtime is a shared library there (libporta.so links with --no-undefined),
// and clang's driver lists libstdc++ before it, which ASan would refuse at
// start-up; the order is harmless here (malloc still resolves to ASan's).
extern "C" __attribute__((visibility("default"), used)) const char* __asan_default_options() {
  return "verify_asan_link_order=0:detect_leaks=1";
}
