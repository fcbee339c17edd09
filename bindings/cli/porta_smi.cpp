// porta-smi: what Porta sees on this machine. Plugins (loaded or not, and
// why) and devices (name, kind, memory, and what Porta's allocator holds), as
// tables or as one JSON object. Uses only the user C ABI, as any client would.
#include <porta/plugin.h>
#include <porta/porta.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

const char* const kUsageText =
    "usage: porta-smi [--json] [--device DEVICE]... [--version] [--help]\n"
    "\n"
    "Lists every plugin Porta finds (loading each, as introspection does) and the devices they serve.\n"
    "  --json             print one JSON object {\"schema_version\", \"version\", \"abi_version\",\n"
    "                     \"plugin_abi_version\", \"plugins\", \"devices\"}; each plugin's \"status\" is one of\n"
    "                     loaded, no_devices, failed, rejected, excluded\n"
    "  --device, -d DEV   show only this device (\"cuda:1\"); may be repeated\n"
    "  --version          print porta-smi's and libporta's versions\n"
    "  --help             print this help\n"
    "Plugins are searched in PORTA_PLUGIN_PATH, then beside libporta.so; PORTA_DEVICES restricts them.\n"
    "Exit status: 0 ok; 1 a Porta call failed; 2 bad usage; 3 no plugin loaded;\n"
    "4 a requested device does not exist.\n";

// The JSON layout's version: bumped when a field changes meaning or goes away.
constexpr int kJsonSchemaVersion = 1;

enum ExitCode { kOk = 0, kCallFailed = 1, kBadUsage = 2, kNoPlugin = 3, kNoSuchDevice = 4 };

// A failed C call ends the report: what follows would be built on it.
struct Failure {
  std::string message;
  int exit_code = kCallFailed;
};

void check(porta_status status, const std::string& call) {
  if (status != PORTA_OK) throw Failure{"porta-smi: " + call + " failed: " + porta_last_error()};
}

// Machine-readable names of porta_plugin_state (JSON) and their table forms.
const char* state_id(int32_t state) {
  switch (state) {
    case PORTA_PLUGIN_LOADED: return "loaded";
    case PORTA_PLUGIN_NO_DEVICES: return "no_devices";
    case PORTA_PLUGIN_FAILED: return "failed";
    case PORTA_PLUGIN_REJECTED: return "rejected";
    case PORTA_PLUGIN_EXCLUDED: return "excluded";
    default: return "unknown";
  }
}

// ------------------------------ what we report ------------------------------

struct PluginRow {
  std::string name, path, version, abi, state, reason;  // state: a state_id
  int32_t device_count;
};

struct DeviceRow {
  std::string device, name, kind, capability;  // capability "" when not applicable
  int32_t compute_units;
  uint64_t memory_total, memory_free, memory_held;  // total/free 0: unknown
};

struct Report {
  std::string problem;  // printed to stderr after the report; "" when all is well
  int exit_code = kOk;
  std::string version, abi_version, plugin_abi_version;
  std::vector<PluginRow> plugins;
  std::vector<DeviceRow> devices;
};

const char* kind_name(int32_t kind) {
  switch (kind) {
    case PORTA_DEVICE_KIND_CPU: return "cpu";
    case PORTA_DEVICE_KIND_GPU: return "gpu";
    case PORTA_DEVICE_KIND_ACCELERATOR: return "accelerator";
    case PORTA_DEVICE_KIND_VIRTUAL: return "virtual";
    default: return "unknown";
  }
}

// "major.minor", or "" when major is 0 (unknown or not applicable).
std::string dotted(int64_t major, int64_t minor) {
  return major == 0 ? "" : std::to_string(major) + "." + std::to_string(minor);
}

// Every recorded plugin load attempt (reading the count triggers discovery).
std::vector<porta_plugin_info> plugin_infos() {
  int32_t n = 0;
  check(porta_plugin_count(&n), "porta_plugin_count");
  std::vector<porta_plugin_info> infos;
  for (int32_t i = 0; i < n; ++i) {
    porta_plugin_info info{};
    info.struct_size = sizeof info;
    check(porta_plugin_get_info(i, &info), "porta_plugin_get_info(" + std::to_string(i) + ")");
    infos.push_back(info);
  }
  return infos;
}

DeviceRow device_row(DLDevice device) {
  char str[64];
  check(porta_device_to_string(device, str, sizeof str), "porta_device_to_string");
  porta_device_info info{};
  info.struct_size = sizeof info;
  check(porta_device_get_info(device, &info), std::string("porta_device_get_info(") + str + ")");
  porta_memory_stats stats{};
  stats.struct_size = sizeof stats;
  check(porta_device_memory_stats(device, &stats), std::string("porta_device_memory_stats(") + str + ")");
  return {str, info.name, kind_name(info.kind), dotted(info.capability_major, info.capability_minor),
          info.compute_units, info.memory_total, info.memory_free, stats.reserved_bytes};
}

// libporta's version ("0.1.0") and user ABI ("1.1").
std::pair<std::string, std::string> library_versions() {
  int32_t major = 0, minor = 0, patch = 0, abi_major = 0, abi_minor = 0;
  check(porta_version(&major, &minor, &patch, &abi_major, &abi_minor), "porta_version");
  return {std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch),
          dotted(abi_major, abi_minor)};
}

// Every plugin, and the devices of the loaded ones (only `wanted` when given).
// The report says kNoPlugin when none loaded, kNoSuchDevice when a wanted
// device does not exist.
Report collect(const std::vector<std::string>& wanted) {
  Report r;
  std::tie(r.version, r.abi_version) = library_versions();
  r.plugin_abi_version = dotted(PORTA_PLUGIN_ABI_MAJOR, PORTA_PLUGIN_ABI_MINOR);
  bool any_loaded = false;
  for (const porta_plugin_info& p : plugin_infos()) {
    r.plugins.push_back({p.name, p.path, p.version, dotted(p.abi_major, p.abi_minor), state_id(p.state), p.reason,
                         p.device_count});
    if (p.state != PORTA_PLUGIN_LOADED && p.state != PORTA_PLUGIN_NO_DEVICES) continue;
    any_loaded = true;
    if (!wanted.empty() || p.state != PORTA_PLUGIN_LOADED) continue;
    int count = 0;
    check(porta_device_count(p.name, &count), std::string("porta_device_count(") + p.name + ")");
    for (int i = 0; i < count; ++i) r.devices.push_back(device_row({static_cast<DLDeviceType>(p.device_type), i}));
  }
  if (!any_loaded) {
    r.problem = "porta-smi: no plugin loaded (the reasons are in the plugin table above)";
    r.exit_code = kNoPlugin;
  }
  for (const std::string& name : wanted) {
    DLDevice d{};
    if (porta_device_parse(name.c_str(), &d) == PORTA_OK) {
      r.devices.push_back(device_row(d));
    } else if (r.exit_code == kOk) {
      r.problem = "porta-smi: " + std::string(porta_last_error());
      r.exit_code = kNoSuchDevice;
    }
  }
  return r;
}

// --------------------------------- tables ---------------------------------

// "23.4 GiB"; bytes below 1 KiB stay exact.
std::string human_bytes(uint64_t bytes) {
  const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) value /= 1024, ++unit;
  char buf[32];
  std::snprintf(buf, sizeof buf, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return buf;
}

std::string known_bytes(uint64_t bytes) { return bytes == 0 ? "-" : human_bytes(bytes); }
std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

using Row = std::vector<std::string>;

// Left-aligned columns two spaces apart; the last column is not padded.
void print_table(std::ostream& os, const char* title, const Row& header, const std::vector<Row>& rows) {
  std::vector<size_t> width;
  for (const std::string& h : header) width.push_back(h.size());
  for (const Row& row : rows)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  auto print_row = [&](const Row& row) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c)
      line += c + 1 < row.size() ? row[c] + std::string(width[c] - row[c].size() + 2, ' ') : row[c];
    line.erase(line.find_last_not_of(' ') + 1);  // an empty last column leaves padding behind
    os << line << "\n";
  };
  os << title << "\n";
  print_row(header);
  for (const Row& row : rows) print_row(row);
  if (rows.empty()) os << "(none)\n";
}

void print_text(std::ostream& os, const Report& r) {
  os << "Porta " << r.version << " (ABI " << r.abi_version << ", plugin ABI " << r.plugin_abi_version << ")\n\n";
  std::vector<Row> plugins;
  for (const PluginRow& p : r.plugins) {
    std::string state = p.state;
    std::replace(state.begin(), state.end(), '_', ' ');
    plugins.push_back({or_dash(p.name), state, or_dash(p.version), or_dash(p.abi), std::to_string(p.device_count),
                       p.path, p.reason});
  }
  print_table(os, "Plugins", {"NAME", "STATUS", "VERSION", "ABI", "DEVICES", "PATH", "REASON"}, plugins);
  os << "\n";
  std::vector<Row> devices;
  for (const DeviceRow& d : r.devices)
    devices.push_back({d.device, d.kind, std::to_string(d.compute_units), known_bytes(d.memory_total),
                       known_bytes(d.memory_free), human_bytes(d.memory_held), or_dash(d.capability), d.name});
  print_table(os, "Devices",
              {"DEVICE", "KIND", "UNITS", "MEM TOTAL", "MEM FREE", "PORTA HOLDS", "CAPABILITY", "NAME"}, devices);
}

// ---------------------------------- JSON ----------------------------------

using Json = std::string;  // one serialized JSON value

Json json_string(const std::string& s) {
  Json out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);  // UTF-8 passes through
        }
    }
  }
  return out + "\"";
}

Json json_string_or_null(const std::string& s) { return s.empty() ? "null" : json_string(s); }
Json json_bytes_or_null(uint64_t bytes) { return bytes == 0 ? "null" : std::to_string(bytes); }

Json json_object(const std::vector<std::pair<const char*, Json>>& fields) {
  Json out = "{";
  for (size_t i = 0; i < fields.size(); ++i)
    out += (i ? ", " : "") + json_string(fields[i].first) + ": " + fields[i].second;
  return out + "}";
}

// One element per line, indented under its key.
Json json_array(const std::vector<Json>& items) {
  if (items.empty()) return "[]";
  Json out = "[\n";
  for (size_t i = 0; i < items.size(); ++i) out += "    " + items[i] + (i + 1 < items.size() ? ",\n" : "\n");
  return out + "  ]";
}

void print_json(std::ostream& os, const Report& r) {
  std::vector<Json> plugins, devices;
  for (const PluginRow& p : r.plugins)
    plugins.push_back(json_object({{"name", json_string(p.name)},
                                   {"path", json_string(p.path)},
                                   {"version", json_string(p.version)},
                                   {"abi_version", json_string_or_null(p.abi)},
                                   {"status", json_string(p.state)},
                                   {"reason", json_string(p.reason)},
                                   {"device_count", std::to_string(p.device_count)}}));
  for (const DeviceRow& d : r.devices)
    devices.push_back(json_object({{"device", json_string(d.device)},
                                   {"name", json_string(d.name)},
                                   {"kind", json_string(d.kind)},
                                   {"compute_units", std::to_string(d.compute_units)},
                                   {"memory_total", json_bytes_or_null(d.memory_total)},
                                   {"memory_free", json_bytes_or_null(d.memory_free)},
                                   {"memory_reserved", std::to_string(d.memory_held)},
                                   {"compute_capability", json_string_or_null(d.capability)}}));
  os << "{\n  \"schema_version\": " << kJsonSchemaVersion << ",\n  \"version\": " << json_string(r.version)
     << ",\n  \"abi_version\": " << json_string(r.abi_version)
     << ",\n  \"plugin_abi_version\": " << json_string(r.plugin_abi_version)
     << ",\n  \"plugins\": " << json_array(plugins) << ",\n  \"devices\": " << json_array(devices) << "\n}\n";
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  std::vector<std::string> wanted;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") {
      json = true;
    } else if (arg == "--device" || arg == "-d") {
      if (i + 1 == argc) {
        std::cerr << "porta-smi: " << arg << " needs a device, e.g. cuda:1\n" << kUsageText;
        return kBadUsage;
      }
      wanted.push_back(argv[++i]);
    } else if (arg.rfind("--device=", 0) == 0) {
      wanted.push_back(arg.substr(9));
    } else if (arg == "--version" || arg == "-V") {
      try {
        const auto [version, abi] = library_versions();
        std::cout << "porta-smi " << PORTA_SMI_VERSION << " (libporta " << version << ", ABI " << abi
                  << ", plugin ABI " << PORTA_PLUGIN_ABI_MAJOR << "." << PORTA_PLUGIN_ABI_MINOR << ")\n";
        return kOk;
      } catch (const Failure& f) {
        std::cerr << f.message << "\n";
        return f.exit_code;
      }
    } else if (arg == "--help" || arg == "-h") {
      std::cout << kUsageText;
      return kOk;
    } else {
      std::cerr << "porta-smi: unknown option '" << arg << "'\n" << kUsageText;
      return kBadUsage;
    }
  }
  try {
    const Report report = collect(wanted);
    json ? print_json(std::cout, report) : print_text(std::cout, report);
    if (!report.problem.empty()) std::cerr << report.problem << "\n";
    return report.exit_code;
  } catch (const Failure& f) {
    std::cerr << f.message << "\n";
    return f.exit_code;
  }
}
