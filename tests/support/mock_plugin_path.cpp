// gtest_discover_tests (CMake < 3.29) lists a binary's tests without the
// ENVIRONMENT its tests later run with, so suites parameterized over the
// loaded devices would be listed for `cpu` only. Before main() and before
// Porta's first use, default PORTA_PLUGIN_PATH to the build's mock plugin
// (a value the caller set wins).
#include <cstdlib>

namespace {
const int kDefaultPluginPath = setenv("PORTA_PLUGIN_PATH", PORTA_TEST_MOCK_PLUGIN_DIR, /*overwrite=*/0);
}  // namespace
