#include "tool_options.hpp"

#include <string_view>

namespace conformance {

ToolOptions take_tool_options(int& argc, char** argv) {
  ToolOptions options;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg == "--strict") {
      options.strict = true;
    } else if (arg == "--device") {
      if (i + 1 == argc) throw UsageError{"--device needs a device, e.g. --device cpu or --device mydev:0"};
      options.devices.emplace_back(argv[++i]);
    } else if (arg.substr(0, 9) == "--device=") {
      options.devices.emplace_back(arg.substr(9));
    } else {
      argv[kept++] = argv[i];  // GoogleTest's, or unknown: decided once GoogleTest has taken its own
    }
  }
  argc = kept;
  argv[argc] = nullptr;
  return options;
}

std::vector<DLDevice> resolve_devices(const std::vector<std::string>& specs) {
  std::vector<DLDevice> out;
  for (const std::string& spec : specs) {
    DLDevice d{};
    if (porta_device_parse(spec.c_str(), &d) != PORTA_OK)
      throw UsageError{"--device '" + spec + "': " + porta_last_error() +
                       " (porta-smi lists the plugins Porta found and why any did not load; plugins are searched in "
                       "PORTA_PLUGIN_PATH, then beside libporta.so)"};
    out.push_back(d);
  }
  return out;
}

std::string usage(const ToolInfo& tool) {
  const std::string name = tool.name;
  return "usage: " + name + " [--device TYPE[:INDEX]]... [--strict] [--gtest_filter=...] [other GoogleTest flags]\n" +
         "\n" + "Checks " + tool.checks +
         ", on the devices of the plugins Porta loads\n"
         "(from PORTA_PLUGIN_PATH, then <libdir>/porta/plugins beside libporta.so).\n"
         "\n"
         "  --device D   test only device D, e.g. --device mydev:0 or --device cpu; repeat it for more.\n"
         "               Default: every loaded device. Tests that move data between devices still\n"
         "               use every loaded device as the other end.\n"
         "  --strict     count an op the plugin has no kernel for as failed, not as not implemented\n"
         "  --help       print this help (GoogleTest's flags: --gtest_help)\n"
         "\n"
         "Each op x dtype case ends passed, failed, or not implemented: the plugin's find_kernel\n"
         "returned NULL for a kernel the case needs. A table of them ends the run. Exit status: 1 if\n"
         "anything failed, else 0 (not implemented is no failure unless --strict); 2 for a bad\n"
         "command line or a --device that does not exist.\n";
}

}  // namespace conformance
