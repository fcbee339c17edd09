// Bad-argument cases, part 1: errors, values for FFIs, plugins, devices,
// tensors, views and factories (porta.h's first sections, in its order).
#include <cmath>
#include <cstdlib>

#include "c_api_bad_args.hpp"

namespace porta_bad_args {
namespace {

const DLDevice kNoSuchCpu{kDLCPU, 7};
const DLDevice kUnknownType{static_cast<DLDeviceType>(99), 0};
const DLDevice kNegativeIndex{kDLCPU, -1};
const DLDataType kFloat8{kDLFloat, 8, 1};  // not a Porta dtype
const DLDataType kFloat32x4{kDLFloat, 32, 4};
const DLDataType kUnknownCode{99, 32, 1};

// Devices no plugin serves: each refused with NO_SUCH_DEVICE.
template <typename Call>
void expect_bad_devices_refused(Call call) {
  REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "cpu:7", call(kNoSuchCpu));
  REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "", call(kUnknownType));
  REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "", call(kNegativeIndex));
}

// Shapes that cannot be: NULL with ndim > 0, ndim out of range, negative
// dims, an element count past int64 and a byte count past size_t.
template <typename Call>
void expect_bad_shapes_refused(Call call) {
  const int64_t negative[2] = {2, -3}, overflow[2] = {int64_t{1} << 40, int64_t{1} << 40};
  const int64_t too_many_bytes[1] = {int64_t{1} << 62};  // 2^62 floats: 2^64 bytes
  int64_t dims17[17];
  for (int64_t& d : dims17) d = 1;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "shape must not be NULL", call(nullptr, 2));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "ndim -1 is out of range", call(negative, -1));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "ndim 17 is out of range", call(dims17, 17));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "negative dimension", call(negative, 2));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "more elements than int64", call(overflow, 2));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "more bytes than size_t", call(too_many_bytes, 1));
}

template <typename Call>
void expect_bad_dtypes_refused(Call call) {
  REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "unsupported dtype", call(kFloat8));
  REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "lanes 4", call(kFloat32x4));
  REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "code 99", call(kUnknownCode));
}

// The factories' common arguments: out, dtype, device, shape, and huge sizes.
template <typename Make>
void expect_factory_checked(Fixture& x, Make make) {
  const int64_t shape[2] = {2, 3};
  Untouched<porta_tensor*> out;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", make(shape, 2, porta_float32, x.cpu, nullptr));
  expect_bad_dtypes_refused([&](DLDataType dt) { return make(shape, 2, dt, x.cpu, out.p()); });
  expect_bad_devices_refused([&](DLDevice d) { return make(shape, 2, porta_float32, d, out.p()); });
  expect_bad_shapes_refused([&](const int64_t* s, int32_t n) { return make(s, n, porta_float32, x.cpu, out.p()); });
  // 2^36 floats (256 GiB) on a mock device (4 GiB unless PORTA_MOCK_MEMORY says otherwise).
  const int64_t huge[1] = {int64_t{1} << 36};
  REFUSED(PORTA_ERROR_OUT_OF_MEMORY, "out of memory on mock:1: tried to allocate 274877906944 bytes",
          make(huge, 1, porta_float32, x.mock, out.p()));
}

// View-like ops: the handle and out checks plus bad shapes.
template <typename Call>
void expect_view_shape_checked(Fixture& x, Call call) {
  Untouched<porta_tensor*> out;
  const int64_t shape[2] = {3, 2};
  expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return call(t, shape, 2, o); });
  const int64_t negative[2] = {-2, -3}, two_inferred[2] = {-1, -1}, wrong_count[2] = {4, 2};
  const int64_t overflow[3] = {-1, int64_t{1} << 40, int64_t{1} << 40};
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "shape must not be NULL", call(x.f.get(), nullptr, 2, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "ndim 17 is out of range", call(x.f.get(), shape, 17, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "invalid dimension -2", call(x.f.get(), negative, 2, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "only one dimension can be -1", call(x.f.get(), two_inferred, 2, out.p()));
  REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "has 8 elements", call(x.f.get(), wrong_count, 2, out.p()));
  REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "int64", call(x.f.get(), overflow, 3, out.p()));
}

// Ops of the shape f(t, dim, out): handles, out, and dims out of range.
template <typename Call>
void expect_dim_checked(Fixture& x, Call call) {
  Untouched<porta_tensor*> out;
  expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return call(t, 0, o); });
  for (int32_t dim : {5, -7, INT32_MAX, INT32_MIN + 1})
    REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", call(x.f.get(), dim, out.p()));
}

const Case kCases[] = {
    // ---- errors and versions
    {"porta_last_error",
     [](Fixture&) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_ndim(nullptr, nullptr));
       ASSERT_NE(porta_last_error(), nullptr);
       EXPECT_STRNE(porta_last_error(), "");
     }},
    {"porta_status_name",
     [](Fixture&) {
       // Values the enum does not name get a name too, never NULL.
       EXPECT_STREQ(porta_status_name(static_cast<porta_status>(13)), "PORTA_ERROR_UNKNOWN_STATUS");
       EXPECT_STREQ(porta_status_name(PORTA_ERROR_INVALID_HANDLE), "PORTA_ERROR_INVALID_HANDLE");
     }},
    {"porta_last_error_detail",
     [](Fixture& x) {
       // Takes nothing to refuse: it reports the detail of the last error, and a new error resets it
       // (read right after the failing call: REFUSED's own checks make calls of their own).
       Untouched<porta_tensor*> out;
       EXPECT_EQ(porta_squeeze(x.f.get(), 5, out.p()), PORTA_ERROR_INVALID_ARGUMENT);
       EXPECT_EQ(porta_last_error_detail(), PORTA_ERROR_DETAIL_DIMENSION_OUT_OF_RANGE) << porta_last_error();
       EXPECT_EQ(porta_tensor_ndim(nullptr, nullptr), PORTA_ERROR_INVALID_HANDLE);
       EXPECT_EQ(porta_last_error_detail(), PORTA_ERROR_DETAIL_NONE) << porta_last_error();
     }},
    {"porta_version",
     [](Fixture&) {
       // Every pointer may be NULL (documented): nothing to refuse.
       EXPECT_EQ(porta_version(nullptr, nullptr, nullptr, nullptr, nullptr), PORTA_OK);
     }},

    // ---- values for FFIs
    {"porta_dtype_by_name",
     [](Fixture&) {
       Untouched<DLDataType> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "name must not be NULL", porta_dtype_by_name(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_dtype_by_name("float32", nullptr));
       // Unknown names, names of dtypes Porta lacks, other spellings and "":
       // refused, naming the name and the ten that exist.
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT,
               "unknown dtype name 'float8' (Porta's dtypes: bool, uint8, int32, int64, float32, float64, int8, "
               "int16, float16, bfloat16)",
               porta_dtype_by_name("float8", out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unknown dtype name 'half'", porta_dtype_by_name("half", out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unknown dtype name 'banana'", porta_dtype_by_name("banana", out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unknown dtype name 'Float32'", porta_dtype_by_name("Float32", out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unknown dtype name 'float32 '", porta_dtype_by_name("float32 ", out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "unknown dtype name ''", porta_dtype_by_name("", out.p()));
     }},

    {"porta_promote_types",
     [](Fixture&) {
       Untouched<DLDataType> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_promote_types(porta_int8, porta_uint8, nullptr));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "unsupported dtype (code 2, bits 8, lanes 1) (supported: bool, uint8",
               porta_promote_types(DLDataType{kDLFloat, 8, 1}, porta_float32, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "unsupported dtype (code 0, bits 32, lanes 4)",
               porta_promote_types(porta_float32, DLDataType{kDLInt, 32, 4}, out.p()));
     }},
    {"porta_result_type",
     [](Fixture& x) {
       Untouched<DLDataType> out;
       porta_tensor* operands[2] = {x.f.get(), x.labels.get()};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_result_type(operands, 2, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "at least one operand", porta_result_type(operands, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "at least one operand", porta_result_type(nullptr, 2, out.p()));
       porta_tensor* dead[2] = {x.f.get(), Fixture::released()};
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_result_type(dead, 2, out.p()));
     }},
    {"porta_op_count",
     [](Fixture&) { REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_op_count(nullptr)); }},
    {"porta_op_get_info",
     [](Fixture&) {
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_op_get_info(0, nullptr));
       Untouched<porta_op_info> info;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "op id -1 is not one of this library's 0 .. ",
               porta_op_get_info(-1, info.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "op id 1000 is not one of", porta_op_get_info(1000, info.p()));
       porta_op_info small{};
       small.struct_size = sizeof(size_t) + sizeof(const char*);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "set it to sizeof(porta_op_info)", porta_op_get_info(0, &small));
       EXPECT_EQ(small.name, nullptr) << "a refused call writes nothing";
     }},

    // ---- plugins
    {"porta_load_plugin",
     [](Fixture&) {
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "path must not be NULL", porta_load_plugin(nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "path must not be empty", porta_load_plugin(""));
       REFUSED(kAnyError, "/nonexistent/libporta_plugin_nothing.so",
               porta_load_plugin("/nonexistent/libporta_plugin_nothing.so"));
     }},
    {"porta_add_plugin_path",
     [](Fixture&) {
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "path must not be NULL", porta_add_plugin_path(nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "plugin path 'relative/dir' must be absolute",
               porta_add_plugin_path("relative/dir"));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "must be absolute", porta_add_plugin_path(""));
     }},
    {"porta_plugin_count",
     [](Fixture&) { REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_plugin_count(nullptr)); }},
    {"porta_plugin_get_info",
     [](Fixture&) {
       Untouched<porta_plugin_info> info;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_plugin_get_info(0, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "plugin index -1 is out of range", porta_plugin_get_info(-1, info.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_plugin_get_info(INT32_MAX, info.p()));
       porta_plugin_info unsized{};
       unsized.path = "untouched";
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size must be set", porta_plugin_get_info(0, &unsized));
       EXPECT_STREQ(unsized.path, "untouched");
     }},

    // ---- devices
    // ---- logging and threads
    {"porta_set_log_callback",
     [](Fixture&) {
       // NULL is valid (back to stderr): nothing to refuse.
       EXPECT_EQ(porta_set_log_callback(nullptr, nullptr), PORTA_OK);
     }},
    {"porta_set_log_level",
     [](Fixture&) {
       int32_t before = -1;
       ASSERT_EQ(porta_get_log_level(&before), PORTA_OK);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "log level 5 is out of range", porta_set_log_level(5));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "log level -1 is out of range", porta_set_log_level(-1));
       int32_t after = -1;
       ASSERT_EQ(porta_get_log_level(&after), PORTA_OK);
       EXPECT_EQ(after, before);
     }},
    {"porta_get_log_level",
     [](Fixture&) { REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_get_log_level(nullptr)); }},
    {"porta_set_num_threads",
     [](Fixture&) {
       int32_t before = 0;
       ASSERT_EQ(porta_get_num_threads(&before), PORTA_OK);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "number of threads must be at least 1, got 0", porta_set_num_threads(0));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "at least 1, got -2", porta_set_num_threads(-2));
       int32_t after = 0;
       ASSERT_EQ(porta_get_num_threads(&after), PORTA_OK);
       EXPECT_EQ(after, before);
     }},
    {"porta_get_num_threads",
     [](Fixture&) { REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_get_num_threads(nullptr)); }},
    {"porta_device_parse",
     [](Fixture&) {
       Untouched<DLDevice> out;
       DLDevice d{};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_device_parse("cpu", nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "device string must not be NULL", porta_device_parse(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "it is empty", porta_device_parse("", out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "index is too large",
               porta_device_parse("cpu:99999999999999999999", out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "non-negative decimal", porta_device_parse("cpu:-1", out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "non-negative decimal", porta_device_parse("mock:1:2", out.p()));
       REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "unknown device type 'xpu'", porta_device_parse("xpu", out.p()));
       REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "mock:9", porta_device_parse("mock:9", out.p()));
       (void)d;
     }},
    {"porta_device_count",
     [](Fixture&) {
       Untouched<int> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "type must not be NULL", porta_device_count(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_device_count("cpu", nullptr));
       REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "unknown device type 'xpu'", porta_device_count("xpu", out.p()));
     }},
    {"porta_device_to_string",
     [](Fixture& x) {
       char buf[4] = {'z', 'z', 'z', 'z'};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "buf must not be NULL", porta_device_to_string(x.cpu, nullptr, 32));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "buf_size 0 is too small", porta_device_to_string(x.cpu, buf, 0));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "need 7", porta_device_to_string(x.mock, buf, sizeof buf));
       EXPECT_EQ(std::string(buf, 4), "zzzz");
       expect_bad_devices_refused([&](DLDevice d) { return porta_device_to_string(d, buf, sizeof buf); });
     }},
    {"porta_device_get_info",
     [](Fixture& x) {
       Untouched<porta_device_info> info;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_device_get_info(x.cpu, nullptr));
       expect_bad_devices_refused([&](DLDevice d) { return porta_device_get_info(d, info.p()); });
       porta_device_info unsized{};
       unsized.compute_units = -5;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size must be set", porta_device_get_info(x.cpu, &unsized));
       EXPECT_EQ(unsized.compute_units, -5);
     }},
    {"porta_accelerator_count",
     [](Fixture&) { REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_accelerator_count(nullptr)); }},
    {"porta_accelerator_get",
     [](Fixture&) {
       Untouched<DLDevice> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_accelerator_get(0, nullptr));
       REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "accelerator -1 does not exist", porta_accelerator_get(-1, out.p()));
       REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "does not exist", porta_accelerator_get(INT32_MAX, out.p()));
     }},
    {"porta_synchronize",
     [](Fixture&) { expect_bad_devices_refused([](DLDevice d) { return porta_synchronize(d); }); }},
    {"porta_device_memory_stats",
     [](Fixture& x) {
       Untouched<porta_memory_stats> stats;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_device_memory_stats(x.cpu, nullptr));
       expect_bad_devices_refused([&](DLDevice d) { return porta_device_memory_stats(d, stats.p()); });
       porta_memory_stats unsized{};
       unsized.allocations = 77;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "struct_size must be set", porta_device_memory_stats(x.cpu, &unsized));
       EXPECT_EQ(unsized.allocations, 77u);
     }},
    {"porta_device_empty_cache",
     [](Fixture&) { expect_bad_devices_refused([](DLDevice d) { return porta_device_empty_cache(d); }); }},

    // ---- tensors: life and data
    {"porta_tensor_retain",
     [](Fixture&) {
       porta_tensor_retain(nullptr);  // documented no-op
       mark_last_error();
       porta_tensor_retain(Fixture::released());
       EXPECT_NE(std::string(porta_last_error()).find("already released"), std::string::npos) << porta_last_error();
       mark_last_error();
       porta_tensor_retain(Fixture::foreign());
       EXPECT_NE(std::string(porta_last_error()).find("not a tensor at all"), std::string::npos) << porta_last_error();
     }},
    {"porta_tensor_release",
     [](Fixture&) {
       porta_tensor_release(nullptr);  // documented no-op
       mark_last_error();
       porta_tensor_release(Fixture::released());  // a double release
       EXPECT_NE(std::string(porta_last_error()).find("already released"), std::string::npos) << porta_last_error();
       mark_last_error();
       porta_tensor_release(Fixture::foreign());
       EXPECT_NE(std::string(porta_last_error()).find("not a tensor at all"), std::string::npos) << porta_last_error();
     }},
    {"porta_tensor_empty",
     [](Fixture& x) {
       expect_factory_checked(x, [](const int64_t* s, int32_t n, DLDataType dt, DLDevice d, porta_tensor** o) {
         return porta_tensor_empty(dt, s, n, d, o);
       });
       // 2^40 floats (4 TiB) on the cpu: the host allocation fails cleanly.
       const char* asan = std::getenv("ASAN_OPTIONS");
#ifdef __SANITIZE_ADDRESS__
       const bool may_allocate_huge =
           asan && std::string(asan).find("allocator_may_return_null=1") != std::string::npos;
#else
       const bool may_allocate_huge = true;
       (void)asan;
#endif
       if (may_allocate_huge) {
         Untouched<porta_tensor*> out;
         const int64_t huge[1] = {int64_t{1} << 40};
         REFUSED(PORTA_ERROR_OUT_OF_MEMORY, "out of memory on cpu: tried to allocate 4398046511104 bytes",
                 porta_tensor_empty(porta_float32, huge, 1, x.cpu, out.p()));
       }
     }},
    {"porta_tensor_from_host",
     [](Fixture& x) {
       const float data[6] = {1, 2, 3, 4, 5, 6};
       expect_factory_checked(x, [&](const int64_t* s, int32_t n, DLDataType dt, DLDevice d, porta_tensor** o) {
         return porta_tensor_from_host(data, dt, s, n, d, o);
       });
       Untouched<porta_tensor*> out;
       const int64_t shape[2] = {2, 3};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "data must not be NULL",
               porta_tensor_from_host(nullptr, porta_float32, shape, 2, x.cpu, out.p()));
     }},
    {"porta_tensor_to_host",
     [](Fixture& x) {
       float dst[6] = {-1, -1, -1, -1, -1, -1};
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_to_host(nullptr, dst, sizeof dst));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_to_host(Fixture::released(), dst, 4));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dst must not be NULL", porta_tensor_to_host(x.f.get(), nullptr, 24));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "destination has 20 bytes", porta_tensor_to_host(x.f.get(), dst, 20));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "destination has 0 bytes", porta_tensor_to_host(x.f.get(), nullptr, 0));
       EXPECT_EQ(dst[0], -1);
     }},
    {"porta_tensor_from_host_into",
     [](Fixture& x) {
       const float src[6] = {9, 9, 9, 9, 9, 9};
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_from_host_into(nullptr, src, sizeof src));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_tensor_from_host_into(Fixture::released(), src, 4));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "src must not be NULL",
               porta_tensor_from_host_into(x.f.get(), nullptr, sizeof src));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "source has 20 bytes", porta_tensor_from_host_into(x.f.get(), src, 20));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "source has 28 bytes", porta_tensor_from_host_into(x.f.get(), src, 28));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "source has 18446744073709551615 bytes",
               porta_tensor_from_host_into(x.f.get(), src, SIZE_MAX));
     }},
    {"porta_tensor_to",
     [](Fixture& x) {
       expect_handle_and_out_checked(x,
                                     [&](porta_tensor* t, porta_tensor** o) { return porta_tensor_to(t, x.mock, o); });
       Untouched<porta_tensor*> out;
       expect_bad_devices_refused([&](DLDevice d) { return porta_tensor_to(x.f.get(), d, out.p()); });
     }},
    {"porta_tensor_to_non_blocking",
     [](Fixture& x) {
       expect_handle_and_out_checked(
           x, [&](porta_tensor* t, porta_tensor** o) { return porta_tensor_to_non_blocking(t, x.mock, o); });
       Untouched<porta_tensor*> out;
       expect_bad_devices_refused([&](DLDevice d) { return porta_tensor_to_non_blocking(x.f.get(), d, out.p()); });
     }},
    {"porta_copy_into",
     [](Fixture& x) {
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "dst is NULL", porta_copy_into(nullptr, x.f.get()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "src is NULL", porta_copy_into(x.f.get(), nullptr));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_copy_into(x.f.get(), Fixture::released()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live", porta_copy_into(Fixture::foreign(), x.f.get()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast", porta_copy_into(x.f.get(), x.f4.get()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot be broadcast", porta_copy_into(x.labels.get(), x.f.get()));
     }},
    {"porta_tensor_dtype",
     [](Fixture& x) {
       Untouched<DLDataType> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_dtype(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_dtype(Fixture::released(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a tensor at all", porta_tensor_dtype(Fixture::foreign(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_dtype(x.f.get(), nullptr));
     }},
    {"porta_tensor_ndim",
     [](Fixture& x) {
       Untouched<int32_t> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_ndim(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_ndim(Fixture::released(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_ndim(x.f.get(), nullptr));
     }},
    {"porta_tensor_shape",
     [](Fixture& x) {
       Untouched<std::array<int64_t, PORTA_MAX_DIMS>> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_shape(nullptr, out.p()->data()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_tensor_shape(Fixture::released(), out.p()->data()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_shape(x.f.get(), nullptr));
     }},
    {"porta_tensor_strides",
     [](Fixture& x) {
       Untouched<std::array<int64_t, PORTA_MAX_DIMS>> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_strides(nullptr, out.p()->data()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a tensor at all",
               porta_tensor_strides(Fixture::foreign(), out.p()->data()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_strides(x.f.get(), nullptr));
     }},
    {"porta_tensor_byte_offset",
     [](Fixture& x) {
       Untouched<uint64_t> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_byte_offset(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_byte_offset(Fixture::released(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_byte_offset(x.f.get(), nullptr));
     }},
    {"porta_tensor_device",
     [](Fixture& x) {
       Untouched<DLDevice> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_device(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_device(Fixture::released(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_device(x.f.get(), nullptr));
     }},
    {"porta_tensor_numel",
     [](Fixture& x) {
       Untouched<int64_t> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_numel(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_numel(Fixture::released(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_numel(x.f.get(), nullptr));
     }},
    {"porta_tensor_is_contiguous",
     [](Fixture& x) {
       Untouched<int> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_is_contiguous(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_tensor_is_contiguous(Fixture::released(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_is_contiguous(x.f.get(), nullptr));
     }},
    {"porta_tensor_format",
     [](Fixture& x) {
       char buf[8] = "keep";
       Untouched<size_t> needed;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_format(nullptr, buf, sizeof buf, needed.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_tensor_format(Fixture::released(), buf, sizeof buf, needed.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "needed must not be NULL", porta_tensor_format(x.f.get(), buf, 8, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "buf must not be NULL", porta_tensor_format(x.f.get(), nullptr, 8, needed.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "is too small (need ", porta_tensor_format(x.f.get(), buf, 8, needed.p()));
       EXPECT_STREQ(buf, "keep") << "a refused call wrote into buf";
       size_t size = 0;
       PORTA_ASSERT_OK(porta_tensor_format(x.f.get(), nullptr, 0, &size));
       std::string text(size, '\0');
       PORTA_ASSERT_OK(porta_tensor_format(x.f.get(), text.data(), text.size(), &size));
       EXPECT_STREQ(text.c_str(), "tensor([[1., 2., 3.],\n        [4., 5., 6.]])");
     }},

    // ---- views
    {"porta_view", [](Fixture& x) { expect_view_shape_checked(x, porta_view); }},
    {"porta_reshape", [](Fixture& x) { expect_view_shape_checked(x, porta_reshape); }},
    {"porta_slice",
     [](Fixture& x) {
       expect_handle_and_out_checked(x,
                                     [](porta_tensor* t, porta_tensor** o) { return porta_slice(t, 0, 0, 1, 1, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dimension 2 is out of range",
               porta_slice(x.f.get(), 2, 0, 1, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_slice(x.f.get(), INT32_MIN, 0, 1, 1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "step must be positive, got 0",
               porta_slice(x.f.get(), 0, 0, 1, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "step must be positive",
               porta_slice(x.f.get(), 0, 0, 1, INT64_MIN, out.p()));
       // Extreme but valid bounds and steps clamp without overflow.
       porta_tensor* s = nullptr;
       PORTA_EXPECT_OK(porta_slice(x.f.get(), 1, INT64_MIN, INT64_MAX, INT64_MAX, &s));
       porta_test::Tensor owned(s);
       EXPECT_EQ(porta_test::values(s), (std::vector<float>{1, 4}));
     }},
    {"porta_select",
     [](Fixture& x) {
       expect_dim_checked(x, [](porta_tensor* t, int32_t dim, porta_tensor** o) { return porta_select(t, dim, 0, o); });
       Untouched<porta_tensor*> out;
       for (int64_t index : {int64_t{2}, int64_t{-3}, INT64_MAX, INT64_MIN})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "is out of range for dimension 0",
                 porta_select(x.f.get(), 0, index, out.p()));
     }},
    {"porta_transpose",
     [](Fixture& x) {
       expect_dim_checked(x,
                          [](porta_tensor* t, int32_t dim, porta_tensor** o) { return porta_transpose(t, dim, 0, o); });
       expect_dim_checked(x,
                          [](porta_tensor* t, int32_t dim, porta_tensor** o) { return porta_transpose(t, 0, dim, o); });
     }},
    {"porta_permute",
     [](Fixture& x) {
       const int32_t swap[2] = {1, 0}, twice[2] = {1, 1}, outside[2] = {0, 2};
       expect_handle_and_out_checked(x,
                                     [&](porta_tensor* t, porta_tensor** o) { return porta_permute(t, swap, 2, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dims must not be NULL", porta_permute(x.f.get(), nullptr, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "got 3 dims", porta_permute(x.f.get(), swap, 3, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "got -1 dims", porta_permute(x.f.get(), swap, -1, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "appears twice", porta_permute(x.f.get(), twice, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out of range", porta_permute(x.f.get(), outside, 2, out.p()));
     }},
    {"porta_expand",
     [](Fixture& x) {
       const int64_t fine[3] = {4, 2, 3}, fewer[1] = {3}, mismatch[2] = {4, 3}, new_inferred[3] = {-1, 2, 3};
       const int64_t overflow[4] = {int64_t{1} << 40, int64_t{1} << 40, 2, 3};
       expect_handle_and_out_checked(x, [&](porta_tensor* t, porta_tensor** o) { return porta_expand(t, fine, 3, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "shape must not be NULL", porta_expand(x.f.get(), nullptr, 3, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "ndim 17", porta_expand(x.f.get(), fine, 17, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "fewer dimensions", porta_expand(x.f.get(), fewer, 1, out.p()));
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "cannot expand shape [2, 3]", porta_expand(x.f.get(), mismatch, 2, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "-1 is not allowed", porta_expand(x.f.get(), new_inferred, 3, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "more elements than int64", porta_expand(x.f.get(), overflow, 4, out.p()));
     }},
    {"porta_unsqueeze",
     [](Fixture& x) {
       expect_dim_checked(x, [](porta_tensor* t, int32_t dim, porta_tensor** o) { return porta_unsqueeze(t, dim, o); });
       // A 16-D tensor has no room for another dimension.
       std::vector<int64_t> ones(PORTA_MAX_DIMS, 1);
       Tensor full16 = make(ones, x.cpu);
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "more than 16 dimensions", porta_unsqueeze(full16.get(), 0, out.p()));
     }},
    {"porta_squeeze",
     [](Fixture& x) {
       expect_dim_checked(x, [](porta_tensor* t, int32_t dim, porta_tensor** o) { return porta_squeeze(t, dim, o); });
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_SHAPE_MISMATCH, "has size 3, not 1", porta_squeeze(x.f.get(), 1, out.p()));
     }},
    {"porta_contiguous", [](Fixture& x) { expect_handle_and_out_checked(x, porta_contiguous); }},
    {"porta_clone", [](Fixture& x) { expect_handle_and_out_checked(x, porta_clone); }},

    // ---- factories
    {"porta_full",
     [](Fixture& x) {
       expect_factory_checked(x, [](const int64_t* s, int32_t n, DLDataType dt, DLDevice d, porta_tensor** o) {
         return porta_full(s, n, 1.5, dt, d, o);
       });
       Untouched<porta_tensor*> out;
       const int64_t shape[1] = {2};
       for (double v : {double(NAN), double(INFINITY), 1e300, -1e19, 3e9, -2147483649.0})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "cannot be converted to type int32 without overflow",
                 porta_full(shape, 1, v, porta_int32, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "value 300 cannot be converted to type uint8",
               porta_full(shape, 1, 300, porta_uint8, x.cpu, out.p()));
       // -255..-1 wrap into uint8, as PyTorch's (torch.full((2,), -1, dtype=torch.uint8) is 255); -256 does not
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "value -256 cannot be converted to type uint8",
               porta_full(shape, 1, -256, porta_uint8, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "cannot be converted to type float32",
               porta_full(shape, 1, 1e39, porta_float32, x.cpu, out.p()));
     }},
    {"porta_full_int64",
     [](Fixture& x) {
       expect_factory_checked(x, [](const int64_t* s, int32_t n, DLDataType dt, DLDevice d, porta_tensor** o) {
         return porta_full_int64(s, n, 3, dt, d, o);
       });
       Untouched<porta_tensor*> out;
       const int64_t shape[1] = {2};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "value 2147483648 cannot be converted to type int32",
               porta_full_int64(shape, 1, INT64_C(2147483648), porta_int32, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "value 256 cannot be converted to type uint8",
               porta_full_int64(shape, 1, 256, porta_uint8, x.cpu, out.p()));
     }},
    {"porta_zeros", [](Fixture& x) { expect_factory_checked(x, porta_zeros); }},
    {"porta_ones", [](Fixture& x) { expect_factory_checked(x, porta_ones); }},
    {"porta_arange",
     [](Fixture& x) {
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL",
               porta_arange(0, 4, 1, porta_float32, x.cpu, nullptr));
       expect_bad_dtypes_refused([&](DLDataType dt) { return porta_arange(0, 4, 1, dt, x.cpu, out.p()); });
       expect_bad_devices_refused([&](DLDevice d) { return porta_arange(0, 4, 1, porta_float32, d, out.p()); });
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "step nonzero", porta_arange(0, 4, 0, porta_float32, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "finite", porta_arange(0, INFINITY, 1, porta_float32, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "finite", porta_arange(NAN, 4, 1, porta_float32, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "moves away from end",
               porta_arange(0, 4, -1, porta_float32, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "too many", porta_arange(-1e308, 1e308, 1, porta_float32, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool", porta_arange(0, 4, 1, porta_bool, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_OUT_OF_MEMORY, "out of memory on mock:1",
               porta_arange(0, 1e15, 1, porta_float32, x.mock, out.p()));
     }},
    {"porta_logspace",
     [](Fixture& x) {
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL",
               porta_logspace(0, 2, 3, 10, porta_float32, x.cpu, nullptr));
       expect_bad_dtypes_refused([&](DLDataType dt) { return porta_logspace(0, 2, 3, 10, dt, x.cpu, out.p()); });
       expect_bad_devices_refused([&](DLDevice d) { return porta_logspace(0, 2, 3, 10, porta_float32, d, out.p()); });
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "number of steps must be non-negative, got -1",
               porta_logspace(0, 2, -1, 10, porta_float32, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool", porta_logspace(0, 2, 3, 10, porta_bool, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_OUT_OF_MEMORY, "out of memory on mock:1",
               porta_logspace(0, 2, int64_t{1} << 50, 10, porta_float32, x.mock, out.p()));
     }},
    {"porta_arange_int64",
     [](Fixture& x) {
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL",
               porta_arange_int64(0, 4, 1, porta_int64, x.cpu, nullptr));
       expect_bad_dtypes_refused([&](DLDataType dt) { return porta_arange_int64(0, 4, 1, dt, x.cpu, out.p()); });
       expect_bad_devices_refused([&](DLDevice d) { return porta_arange_int64(0, 4, 1, porta_int64, d, out.p()); });
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "step must be nonzero", porta_arange_int64(0, 4, 0, porta_int64, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "moves away from end",
               porta_arange_int64(0, 4, -1, porta_int64, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "beyond int64",
               porta_arange_int64(INT64_MIN, INT64_MAX, INT64_MAX, porta_int64, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "too many", porta_arange_int64(0, INT64_MAX, 1, porta_int64, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "cannot be converted to type uint8",
               porta_arange_int64(250, 260, 1, porta_uint8, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "bool", porta_arange_int64(0, 4, 1, porta_bool, x.cpu, out.p()));
     }},
    {"porta_manual_seed",
     [](Fixture&) {
       // Any seed is valid: nothing to refuse.
       EXPECT_EQ(porta_manual_seed(UINT64_MAX), PORTA_OK);
     }},
    {"porta_generator_get_state",
     [](Fixture&) {
       Untouched<uint64_t> seed, offset;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "seed must not be NULL", porta_generator_get_state(nullptr, offset.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "offset must not be NULL", porta_generator_get_state(seed.p(), nullptr));
     }},
    {"porta_generator_set_state",
     [](Fixture& x) {
       // Any (seed, offset) is valid, even one whose counter is about to wrap.
       EXPECT_EQ(porta_generator_set_state(UINT64_MAX, UINT64_MAX), PORTA_OK);
       porta_tensor* r = nullptr;
       const int64_t shape[1] = {8};
       PORTA_EXPECT_OK(porta_rand(shape, 1, porta_float32, x.cpu, &r));
       porta_tensor_release(r);
       EXPECT_EQ(porta_manual_seed(0), PORTA_OK);
     }},
    {"porta_rand",
     [](Fixture& x) {
       expect_factory_checked(x, porta_rand);
       Untouched<porta_tensor*> out;
       const int64_t shape[1] = {2};
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "float32 or float64", porta_rand(shape, 1, porta_int64, x.cpu, out.p()));
     }},
    {"porta_randn",
     [](Fixture& x) {
       expect_factory_checked(x, porta_randn);
       Untouched<porta_tensor*> out;
       const int64_t shape[1] = {2};
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "float32 or float64", porta_randn(shape, 1, porta_bool, x.cpu, out.p()));
     }},
    {"porta_randperm",
     [](Fixture& x) {
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_randperm(3, x.cpu, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "n must be >= 0, got -1", porta_randperm(-1, x.cpu, out.p()));
       expect_bad_devices_refused([&](DLDevice d) { return porta_randperm(3, d, out.p()); });
     }},
    {"porta_randperm_at",
     [](Fixture& x) {
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_randperm_at(3, 1, 0, x.cpu, nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "n must be >= 0", porta_randperm_at(-5, 1, 0, x.cpu, out.p()));
       expect_bad_devices_refused([&](DLDevice d) { return porta_randperm_at(3, 1, 0, d, out.p()); });
     }},
};

}  // namespace

std::vector<Case> tensor_cases() {
  std::vector<Case> cases(std::begin(kCases), std::end(kCases));
  for (const Case& c : sampling_cases()) cases.push_back(c);  // the factories' sampling part, last
  return cases;
}

}  // namespace porta_bad_args
