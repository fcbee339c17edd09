// porta-smi: what Porta sees on this machine. Plugins (loaded or not, and
// why) and devices (name, kind, memory, and what Porta's allocator holds), as
// tables or as one JSON object. Uses only the user C ABI, as any client would.
#include <porta/porta.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace {

const char* const kUsage =
    "usage: porta-smi [--json] [--help]\n"
    "\n"
    "Lists the plugins Porta tried to load and the devices they serve.\n"
    "  --json   print one JSON object {\"version\", \"abi_version\", \"plugins\", \"devices\"}\n"
    "  --help   print this help\n"
    "Plugins are searched in PORTA_PLUGIN_PATH, then beside libporta.so.\n";

// A failed C call ends the report: what follows would be built on it.
struct Failure {
  std::string message;
};

void check(porta_status status, const std::string& call) {
  if (status != PORTA_OK) throw Failure{"porta-smi: " + call + " failed: " + porta_last_error()};
}

// ------------------------------ what we report ------------------------------

struct PluginRow {
  std::string name, path, version, abi, state, reason;
  int32_t device_count;
};

struct DeviceRow {
  std::string device, name, kind, capability;  // capability "" when not applicable
  int32_t compute_units;
  uint64_t memory_total, memory_free, memory_held;  // total/free 0: unknown
};

struct Report {
  std::string version, abi_version;
  std::vector<PluginRow> plugins;
  std::vector<DeviceRow> devices;
};

const char* state_name(int32_t state) {
  switch (state) {
    case PORTA_PLUGIN_LOADED: return "loaded";
    case PORTA_PLUGIN_NO_DEVICES: return "no devices";
    case PORTA_PLUGIN_FAILED: return "failed";
    case PORTA_PLUGIN_REJECTED: return "rejected";
    default: return "unknown";
  }
}

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

Report collect() {
  Report r;
  int32_t major = 0, minor = 0, patch = 0, abi_major = 0, abi_minor = 0;
  check(porta_version(&major, &minor, &patch, &abi_major, &abi_minor), "porta_version");
  r.version = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  r.abi_version = dotted(abi_major, abi_minor);
  for (const porta_plugin_info& p : plugin_infos()) {
    r.plugins.push_back({p.name, p.path, p.version, dotted(p.abi_major, p.abi_minor), state_name(p.state), p.reason,
                         p.device_count});
    if (p.state != PORTA_PLUGIN_LOADED) continue;
    int count = 0;
    check(porta_device_count(p.name, &count), std::string("porta_device_count(") + p.name + ")");
    for (int i = 0; i < count; ++i) r.devices.push_back(device_row({static_cast<DLDeviceType>(p.device_type), i}));
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
  os << "Porta " << r.version << " (ABI " << r.abi_version << ")\n\n";
  std::vector<Row> plugins;
  for (const PluginRow& p : r.plugins)
    plugins.push_back({or_dash(p.name), p.state, or_dash(p.version), or_dash(p.abi), std::to_string(p.device_count),
                       p.path, p.reason});
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
  os << "{\n  \"version\": " << json_string(r.version) << ",\n  \"abi_version\": " << json_string(r.abi_version)
     << ",\n  \"plugins\": " << json_array(plugins) << ",\n  \"devices\": " << json_array(devices) << "\n}\n";
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::cout << kUsage;
      return 0;
    } else {
      std::cerr << "porta-smi: unknown option '" << argv[i] << "'\n" << kUsage;
      return 2;
    }
  }
  try {
    const Report report = collect();
    json ? print_json(std::cout, report) : print_text(std::cout, report);
    return 0;
  } catch (const Failure& f) {
    std::cerr << f.message << "\n";
    return 1;
  }
}
