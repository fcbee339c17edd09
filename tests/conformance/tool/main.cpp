// The main of porta-conformance and porta-gradcheck: CMake names the tool and
// what its tests check (porta_conformance_tool in CMakeLists.txt).
#include "run_tool.hpp"

int main(int argc, char** argv) { return conformance::run_tool({PORTA_TOOL_NAME, PORTA_TOOL_CHECKS}, argc, argv); }
