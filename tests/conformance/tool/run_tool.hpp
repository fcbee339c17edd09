// A device suite run as a tool: the devices picked with --device (default:
// every loaded one), a kernel the plugin lacks reported as not implemented,
// GoogleTest's own output, then the summary table.
#pragma once

namespace conformance {

struct ToolInfo {
  const char* name;    // "porta-conformance"
  const char* checks;  // what the tests check, for --help
};

// Exit status: 0 when nothing failed, 1 when something did, 2 for a bad command line.
int run_tool(const ToolInfo& tool, int argc, char** argv);

}  // namespace conformance
