// The "For other languages (FFI)" section of porta/porta.h restates every
// number a binding without a header parser needs. Each `NAME = value` there
// is compared here with the headers' own enums, macros and layouts, and
// every value a binding must know has to be listed, so the section cannot
// drift. The values libporta.so exports as data (porta_dtype_float32, ...)
// are checked against the header constants they stand for. And every
// declaration of porta.h and ops.h says since which ABI version it exists.
#include <dlfcn.h>
#include <porta/plugin.h>

#include <cstddef>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "unit_util.hpp"

namespace {

std::string dtype_text(DLDataType t) {
  std::ostringstream os;
  os << '{' << int(t.code) << ", " << int(t.bits) << ", " << t.lanes << '}';
  return os.str();
}

struct Known {
  std::string value;
  bool required;  // a binding needs it: the section must list it
};

// What the headers say, by the spelling the section uses.
std::map<std::string, Known> header_values() {
  std::map<std::string, Known> v;
  auto number = [&](const char* name, long long value, bool required = true) {
    v[name] = {std::to_string(value), required};
  };
#define PORTA_FFI_NUMBER(name) number(#name, static_cast<long long>(name))
  PORTA_FFI_NUMBER(PORTA_ABI_MAJOR);
  PORTA_FFI_NUMBER(PORTA_ABI_MINOR);
  PORTA_FFI_NUMBER(PORTA_MAX_DIMS);
  PORTA_FFI_NUMBER(PORTA_DLPACK_MAX_NDIM);
  PORTA_FFI_NUMBER(PORTA_ALL_DIMS);
  PORTA_FFI_NUMBER(DLPACK_MAJOR_VERSION);
  PORTA_FFI_NUMBER(DLPACK_FLAG_BITMASK_READ_ONLY);
  PORTA_FFI_NUMBER(DLPACK_FLAG_BITMASK_IS_COPIED);
  // porta_status
  PORTA_FFI_NUMBER(PORTA_OK);
  PORTA_FFI_NUMBER(PORTA_ERROR_INVALID_ARGUMENT);
  PORTA_FFI_NUMBER(PORTA_ERROR_DEVICE_MISMATCH);
  PORTA_FFI_NUMBER(PORTA_ERROR_SHAPE_MISMATCH);
  PORTA_FFI_NUMBER(PORTA_ERROR_UNSUPPORTED_DTYPE);
  PORTA_FFI_NUMBER(PORTA_ERROR_NO_SUCH_DEVICE);
  PORTA_FFI_NUMBER(PORTA_ERROR_NOT_IMPLEMENTED);
  PORTA_FFI_NUMBER(PORTA_ERROR_OUT_OF_MEMORY);
  PORTA_FFI_NUMBER(PORTA_ERROR_BACKEND);
  PORTA_FFI_NUMBER(PORTA_ERROR_INVALID_HANDLE);
  PORTA_FFI_NUMBER(PORTA_ERROR_IO);
  PORTA_FFI_NUMBER(PORTA_ERROR_INTERNAL);
  PORTA_FFI_NUMBER(PORTA_ERROR_TIMEOUT);
  // porta_error_detail
  PORTA_FFI_NUMBER(PORTA_ERROR_DETAIL_NONE);
  PORTA_FFI_NUMBER(PORTA_ERROR_DETAIL_DIMENSION_OUT_OF_RANGE);
  // porta_device_kind, porta_log_level, porta_plugin_state, porta_reduction
  PORTA_FFI_NUMBER(PORTA_DEVICE_KIND_CPU);
  PORTA_FFI_NUMBER(PORTA_DEVICE_KIND_GPU);
  PORTA_FFI_NUMBER(PORTA_DEVICE_KIND_ACCELERATOR);
  PORTA_FFI_NUMBER(PORTA_DEVICE_KIND_VIRTUAL);
  PORTA_FFI_NUMBER(PORTA_LOG_DEBUG);
  PORTA_FFI_NUMBER(PORTA_LOG_INFO);
  PORTA_FFI_NUMBER(PORTA_LOG_WARN);
  PORTA_FFI_NUMBER(PORTA_LOG_ERROR);
  PORTA_FFI_NUMBER(PORTA_LOG_OFF);
  PORTA_FFI_NUMBER(PORTA_PLUGIN_LOADED);
  PORTA_FFI_NUMBER(PORTA_PLUGIN_NO_DEVICES);
  PORTA_FFI_NUMBER(PORTA_PLUGIN_FAILED);
  PORTA_FFI_NUMBER(PORTA_PLUGIN_REJECTED);
  PORTA_FFI_NUMBER(PORTA_PLUGIN_EXCLUDED);
  PORTA_FFI_NUMBER(PORTA_REDUCTION_NONE);
  PORTA_FFI_NUMBER(PORTA_REDUCTION_MEAN);
  PORTA_FFI_NUMBER(PORTA_REDUCTION_SUM);
  PORTA_FFI_NUMBER(PORTA_REDUCTION_BATCHMEAN);
  PORTA_FFI_NUMBER(PORTA_RNN_TANH);
  PORTA_FFI_NUMBER(PORTA_RNN_RELU);
  PORTA_FFI_NUMBER(PORTA_RNN_LSTM);
  PORTA_FFI_NUMBER(PORTA_RNN_GRU);
  PORTA_FFI_NUMBER(PORTA_PAD_CONSTANT);
  PORTA_FFI_NUMBER(PORTA_PAD_REFLECT);
  PORTA_FFI_NUMBER(PORTA_PAD_REPLICATE);
  PORTA_FFI_NUMBER(PORTA_PAD_CIRCULAR);
  PORTA_FFI_NUMBER(PORTA_INTERPOLATE_NEAREST);
  PORTA_FFI_NUMBER(PORTA_INTERPOLATE_NEAREST_EXACT);
  PORTA_FFI_NUMBER(PORTA_INTERPOLATE_BILINEAR);
  PORTA_FFI_NUMBER(PORTA_MESHGRID_IJ);
  PORTA_FFI_NUMBER(PORTA_MESHGRID_XY);
  PORTA_FFI_NUMBER(PORTA_REDUCE_SUM);
  PORTA_FFI_NUMBER(PORTA_REDUCE_AVG);
  PORTA_FFI_NUMBER(PORTA_REDUCE_MAX);
  PORTA_FFI_NUMBER(PORTA_REDUCE_MIN);
  PORTA_FFI_NUMBER(PORTA_REDUCE_PROD);
  PORTA_FFI_NUMBER(PORTA_SCALAR_BOOL);
  PORTA_FFI_NUMBER(PORTA_SCALAR_INT);
  PORTA_FFI_NUMBER(PORTA_SCALAR_FLOAT);
  PORTA_FFI_NUMBER(PORTA_DTYPES_ANY);
  PORTA_FFI_NUMBER(PORTA_DTYPES_NUMERIC);
  PORTA_FFI_NUMBER(PORTA_DTYPES_FLOAT);
  PORTA_FFI_NUMBER(PORTA_DTYPES_WIDE);
  PORTA_FFI_NUMBER(PORTA_DTYPES_INTEGRAL);
  PORTA_FFI_NUMBER(PORTA_DTYPES_INTEGER);
  PORTA_FFI_NUMBER(PORTA_RESULT_SAME);
  PORTA_FFI_NUMBER(PORTA_RESULT_FLOAT);
  PORTA_FFI_NUMBER(PORTA_RESULT_BOOL);
  PORTA_FFI_NUMBER(PORTA_RESULT_INDEX);
  PORTA_FFI_NUMBER(PORTA_RESULT_WIDE);
  // DLPack's device types and type codes that Porta uses
  PORTA_FFI_NUMBER(kDLCPU);
  PORTA_FFI_NUMBER(kDLCUDA);
  PORTA_FFI_NUMBER(kDLOpenCL);
  PORTA_FFI_NUMBER(kDLExtDev);
  PORTA_FFI_NUMBER(kDLInt);
  PORTA_FFI_NUMBER(kDLUInt);
  PORTA_FFI_NUMBER(kDLFloat);
  PORTA_FFI_NUMBER(kDLBool);
  PORTA_FFI_NUMBER(kDLBfloat);
#undef PORTA_FFI_NUMBER
  // The op ids the in-place entry points take are required; any other id
  // the section mentions must be right too.
#define PORTA_FFI_OP(NAME, name, id, kind, inputs) \
  number("PORTA_OP_" #NAME, PORTA_OP_##NAME,       \
         (kind) == PORTA_OP_KIND_UNARY || (kind) == PORTA_OP_KIND_BINARY || (kind) == PORTA_OP_KIND_COMPARE);
  PORTA_OP_LIST(PORTA_FFI_OP)
#undef PORTA_FFI_OP
  // Layouts.
#define PORTA_FFI_SIZE(T) number("sizeof(" #T ")", static_cast<long long>(sizeof(T)));
#define PORTA_FFI_ALIGN(T) number("alignof(" #T ")", static_cast<long long>(alignof(T)));
#define PORTA_FFI_OFFSET(T, field) number("offsetof(" #T ", " #field ")", static_cast<long long>(offsetof(T, field)));
  PORTA_FFI_SIZE(DLDevice)
  PORTA_FFI_ALIGN(DLDevice)
  PORTA_FFI_OFFSET(DLDevice, device_type)
  PORTA_FFI_OFFSET(DLDevice, device_id)
  PORTA_FFI_SIZE(DLDataType)
  PORTA_FFI_ALIGN(DLDataType)
  PORTA_FFI_OFFSET(DLDataType, code)
  PORTA_FFI_OFFSET(DLDataType, bits)
  PORTA_FFI_OFFSET(DLDataType, lanes)
  PORTA_FFI_SIZE(porta_plugin_info)
  PORTA_FFI_SIZE(porta_device_info)
  PORTA_FFI_SIZE(porta_memory_stats)
  PORTA_FFI_SIZE(porta_conv2d_options)
  PORTA_FFI_SIZE(porta_pool2d_options)
  PORTA_FFI_SIZE(porta_sgd_options)
  PORTA_FFI_SIZE(porta_adam_options)
  PORTA_FFI_SIZE(porta_rmsprop_options)
  PORTA_FFI_SIZE(porta_adagrad_options)
  PORTA_FFI_SIZE(porta_rnn_options)
  PORTA_FFI_SIZE(porta_backward_options)
  PORTA_FFI_SIZE(porta_init_options)
  PORTA_FFI_SIZE(porta_op_info)
#undef PORTA_FFI_SIZE
#undef PORTA_FFI_ALIGN
#undef PORTA_FFI_OFFSET
  // The dtypes, by the names of their data symbols, as the header's constants.
  v["porta_dtype_float32"] = {dtype_text(porta_float32), true};
  v["porta_dtype_float64"] = {dtype_text(porta_float64), true};
  v["porta_dtype_int32"] = {dtype_text(porta_int32), true};
  v["porta_dtype_int64"] = {dtype_text(porta_int64), true};
  v["porta_dtype_uint8"] = {dtype_text(porta_uint8), true};
  v["porta_dtype_bool"] = {dtype_text(porta_bool), true};
  v["porta_dtype_int8"] = {dtype_text(porta_int8), true};
  v["porta_dtype_int16"] = {dtype_text(porta_int16), true};
  v["porta_dtype_float16"] = {dtype_text(porta_float16), true};
  v["porta_dtype_bfloat16"] = {dtype_text(porta_bfloat16), true};
  return v;
}

// The FFI section of porta.h: from its title to the end of its comment.
std::string ffi_section() {
  std::ifstream in(PORTA_PUBLIC_HEADER);
  EXPECT_TRUE(in) << "cannot read " << PORTA_PUBLIC_HEADER;
  std::stringstream text;
  text << in.rdbuf();
  const std::string header = text.str();
  const size_t begin = header.find(" * For other languages (FFI)\n");
  if (begin == std::string::npos) return "";
  const size_t end = header.find("*/", begin);
  return header.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// The already-loaded libporta, found through one of its own symbols.
void* open_core() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&porta_last_error), &info) == 0) return nullptr;
  return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
}

bool same(DLDataType a, DLDataType b) { return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes; }

const char* const kDtypeNames[] = {"float32", "float64", "int32", "int64", "uint8",
                                   "bool",    "int8",    "int16", "float16", "bfloat16"};

struct Declaration {
  std::string name;
  std::string doc;  // the doc comment (/** ... */) ending on the line above, or ""
  int line;
};

// The declarations of a header that a binding or plugin sees: each line that
// begins with PORTA_EXPORT (a function or data symbol) or typedef (a struct,
// enum, opaque handle or callback).
std::vector<Declaration> declarations(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  static const std::regex exported(R"(^PORTA_EXPORT\b.*?\b(porta_\w+)\s*[(;])");
  static const std::regex type(R"(^typedef\s+(?:(?:struct|enum)\s+(\w+)|.*\(\*\s*(\w+)\s*\)))");
  std::vector<Declaration> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    std::string name;
    if (std::regex_search(lines[i], m, exported))
      name = m[1];
    else if (std::regex_search(lines[i], m, type))
      name = m[1].matched ? m[1] : m[2];
    else
      continue;
    std::string doc;
    if (i > 0 && lines[i - 1].size() >= 2 && lines[i - 1].compare(lines[i - 1].size() - 2, 2, "*/") == 0) {
      size_t first = i - 1;
      while (first > 0 && lines[first].find("/*") == std::string::npos) --first;
      if (lines[first].find("/**") != std::string::npos)
        for (size_t k = first; k < i; ++k) doc += lines[k] + "\n";
    }
    out.push_back({name, doc, static_cast<int>(i + 1)});
  }
  return out;
}

// Every declaration's doc comment says `since` followed by 1.N, N at most the
// header's minor version.
void expect_every_declaration_versioned(const std::string& path, const std::string& since, int minor, size_t at_least) {
  const std::vector<Declaration> found = declarations(path);
  EXPECT_GE(found.size(), at_least) << "the parser found too few declarations in " << path;
  const std::regex version(since + R"( 1\.(\d+))");
  for (const Declaration& d : found) {
    std::smatch m;
    if (d.doc.empty()) {
      ADD_FAILURE() << path << ":" << d.line << ": " << d.name << " has no doc comment (/** ... */) right above it";
    } else if (!std::regex_search(d.doc, m, version)) {
      ADD_FAILURE() << path << ":" << d.line << ": " << d.name << "'s doc comment does not say \"" << since
                    << " 1.N.\" (the ABI version it was added in; a new declaration takes the current one, 1." << minor
                    << ")";
    } else {
      EXPECT_LE(std::stoi(m[1]), minor) << path << ":" << d.line << ": " << d.name << " says " << m[0]
                                        << ", beyond the header's version 1." << minor;
    }
  }
  std::printf("%s: %zu declarations checked for their version\n", path.c_str(), found.size());
}

std::string sibling_header(const char* name) {
  const std::string porta_h = PORTA_PUBLIC_HEADER;
  return porta_h.substr(0, porta_h.rfind('/') + 1) + name;
}

}  // namespace

TEST(FfiValues, PortaHDocumentsEveryNumberAsTheHeadersDefineIt) {
  const std::string section = ffi_section();
  ASSERT_FALSE(section.empty()) << PORTA_PUBLIC_HEADER << " has no \"For other languages (FFI)\" section";
  const std::map<std::string, Known> known = header_values();
  static const std::regex entry(R"(([A-Za-z_]\w*(?:\([^()]*\))?) = (-?\d+|\{[^{}]*\}))");
  std::map<std::string, std::string> documented;
  for (std::sregex_iterator it(section.begin(), section.end(), entry), end; it != end; ++it) {
    const std::string name = (*it)[1], value = std::regex_replace(std::string((*it)[2]), std::regex(R"(\s+)"), " ");
    EXPECT_FALSE(documented.count(name)) << name << " is documented twice";
    documented[name] = value;
    const auto k = known.find(name);
    if (k == known.end()) {
      ADD_FAILURE() << "porta.h documents " << name << " = " << value
                    << ", which this test does not check: add it to header_values()";
      continue;
    }
    EXPECT_EQ(value, k->second.value) << "porta.h documents " << name << " = " << value << ", the headers say "
                                      << k->second.value;
  }
  for (const auto& [name, k] : known) {
    if (k.required) {
      EXPECT_TRUE(documented.count(name)) << name << " (= " << k.value << ") is missing from porta.h's FFI section";
    }
  }
  std::printf("porta.h's FFI section: %zu values, all as the headers define them\n", documented.size());
}

TEST(FfiValues, DataSymbolsEqualTheHeaderConstants) {
  EXPECT_TRUE(same(porta_dtype_float32, porta_float32));
  EXPECT_TRUE(same(porta_dtype_float64, porta_float64));
  EXPECT_TRUE(same(porta_dtype_int32, porta_int32));
  EXPECT_TRUE(same(porta_dtype_int64, porta_int64));
  EXPECT_TRUE(same(porta_dtype_uint8, porta_uint8));
  EXPECT_TRUE(same(porta_dtype_bool, porta_bool));
  EXPECT_EQ(porta_max_dims, PORTA_MAX_DIMS);
  EXPECT_EQ(porta_all_dims, PORTA_ALL_DIMS);
  EXPECT_EQ(porta_all_dims, INT32_MIN);
}

TEST(FfiValues, AnFfiFindsTheDataSymbolsByName) {
  void* core = open_core();
  ASSERT_NE(core, nullptr) << dlerror();
  for (const char* name : kDtypeNames) {
    const std::string symbol = std::string("porta_dtype_") + name;
    const auto* by_symbol = static_cast<const DLDataType*>(dlsym(core, symbol.c_str()));
    ASSERT_NE(by_symbol, nullptr) << symbol << " is not exported";
    DLDataType by_name{};
    PORTA_ASSERT_OK(porta_dtype_by_name(name, &by_name));
    EXPECT_TRUE(same(*by_symbol, by_name)) << name;
    // A tensor made with the symbol's value reports that dtype back.
    porta_tensor* t = nullptr;
    const int64_t two = 2;
    PORTA_ASSERT_OK(porta_zeros(&two, 1, *by_symbol, DLDevice{kDLCPU, 0}, &t));
    DLDataType back{};
    PORTA_EXPECT_OK(porta_tensor_dtype(t, &back));
    EXPECT_TRUE(same(back, *by_symbol)) << name;
    porta_tensor_release(t);
  }
  const auto* max_dims = static_cast<const int32_t*>(dlsym(core, "porta_max_dims"));
  const auto* all_dims = static_cast<const int32_t*>(dlsym(core, "porta_all_dims"));
  ASSERT_NE(max_dims, nullptr);
  ASSERT_NE(all_dims, nullptr);
  EXPECT_EQ(*max_dims, 16);
  EXPECT_EQ(*all_dims, -2147483647 - 1);
  dlclose(core);
}

// A new entry point, struct or enum cannot leave out the version it appeared
// in: users of an older libporta need it to know what they may call.
TEST(HeaderVersions, EveryDeclarationOfPortaHSaysSinceWhichUserAbiVersion) {
  expect_every_declaration_versioned(PORTA_PUBLIC_HEADER, "Since", PORTA_ABI_MINOR, 150);
}

// ops.h is part of the plugin ABI: its versions are PORTA_PLUGIN_ABI_MINOR's.
TEST(HeaderVersions, EveryDeclarationOfOpsHSaysSinceWhichPluginAbiVersion) {
  expect_every_declaration_versioned(sibling_header("ops.h"), "Since plugin ABI", PORTA_PLUGIN_ABI_MINOR, 10);
}
