// Bad-argument cases, part 4: files and datasets, pinned memory and DLPack
// (porta.h's last sections, in its order).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "c_api_bad_args.hpp"

namespace porta_bad_args {
namespace {

// A directory under $TMPDIR (or /tmp) removed with its files at scope exit.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/porta_bad_args_XXXXXX";
    EXPECT_NE(mkdtemp(pattern.data()), nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    for (const std::string& f : files_) std::remove(f.c_str());
    rmdir(path_.c_str());
  }
  // Writes `bytes` to a new file in the directory and returns its path.
  std::string file(const std::string& name, const std::string& bytes) {
    const std::string p = path(name);
    if (FILE* f = std::fopen(p.c_str(), "wb")) {
      std::fwrite(bytes.data(), 1, bytes.size(), f);
      std::fclose(f);
    }
    return p;
  }
  // A path in the directory, removed at scope exit.
  std::string path(const std::string& name) {
    files_.push_back(path_ + "/" + name);
    return files_.back();
  }

 private:
  std::string path_;
  std::vector<std::string> files_;
};
// A safetensors file holding x.f as "w", and a list loaded from it.
struct Lists {
  TempDir dir;
  porta_tensor_list* live = nullptr;
  porta_tensor_list* released = nullptr;
  explicit Lists(Fixture& x) {
    const std::string p = dir.path("one.safetensors");
    const char* names[1] = {"w"};
    porta_tensor* tensors[1] = {x.f.get()};
    EXPECT_EQ(porta_safetensors_save(p.c_str(), names, tensors, 1), PORTA_OK) << porta_last_error();
    EXPECT_EQ(porta_safetensors_load(p.c_str(), x.cpu, &live), PORTA_OK) << porta_last_error();
    EXPECT_EQ(porta_safetensors_load(p.c_str(), x.cpu, &released), PORTA_OK) << porta_last_error();
    porta_tensor_list_release(released);
  }
  ~Lists() { porta_tensor_list_release(live); }
};
// DLPack producers for the import cases: static memory and a deleter that counts.
int g_deleted = 0;
float g_data[6] = {1, 2, 3, 4, 5, 6};
int64_t g_shape[2] = {2, 3};

template <typename Managed>
Managed managed_over(float* data, int64_t* shape, int32_t ndim) {
  Managed m{};
  m.dl_tensor.data = data;
  m.dl_tensor.device = DLDevice{kDLCPU, 0};
  m.dl_tensor.ndim = ndim;
  m.dl_tensor.dtype = porta_float32;
  m.dl_tensor.shape = shape;
  m.deleter = [](Managed*) { ++g_deleted; };
  return m;
}

// Fields an import must refuse, each leaving ownership with the caller.
template <typename Managed, typename Import>
void expect_import_checked(Import import) {
  Untouched<porta_tensor*> out;
  g_deleted = 0;
  auto m = managed_over<Managed>(g_data, g_shape, 2);
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "managed must not be NULL", import(nullptr, out.p()));
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", import(&m, nullptr));
  auto bad = m;
  bad.dl_tensor.dtype = DLDataType{kDLFloat, 8, 1};
  REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "dl_tensor.dtype float8", import(&bad, out.p()));
  bad = m;
  bad.dl_tensor.dtype.lanes = 2;
  REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "lanes", import(&bad, out.p()));
  bad = m;
  bad.dl_tensor.ndim = -1;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dl_tensor.ndim -1", import(&bad, out.p()));
  bad.dl_tensor.ndim = PORTA_MAX_DIMS + 1;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dl_tensor.ndim 17", import(&bad, out.p()));
  bad = m;
  bad.dl_tensor.shape = nullptr;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dl_tensor.shape is NULL", import(&bad, out.p()));
  int64_t negative[2] = {2, -3}, overflow[2] = {int64_t{1} << 40, int64_t{1} << 40};
  bad = m;
  bad.dl_tensor.shape = negative;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dl_tensor.shape[1] is -3", import(&bad, out.p()));
  bad.dl_tensor.shape = overflow;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "more elements than int64", import(&bad, out.p()));
  int64_t negative_strides[2] = {3, -1}, huge_strides[2] = {INT64_MAX / 2, 1};
  bad = m;
  bad.dl_tensor.strides = negative_strides;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "negative strides", import(&bad, out.p()));
  bad.dl_tensor.strides = huge_strides;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "beyond 2^63 bytes", import(&bad, out.p()));
  bad = m;
  bad.dl_tensor.data = nullptr;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "dl_tensor.data is NULL", import(&bad, out.p()));
  bad = m;
  bad.dl_tensor.byte_offset = 2;
  REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "not aligned", import(&bad, out.p()));
  bad = m;
  bad.dl_tensor.device = DLDevice{kDLCPU, 7};
  REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "dl_tensor.device", import(&bad, out.p()));
  bad.dl_tensor.device = DLDevice{kDLMetal, 0};
  REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "dl_tensor.device", import(&bad, out.p()));
  EXPECT_EQ(g_deleted, 0) << "a refused import called the producer's deleter";
}
const Case kCases[] = {
    // ---- files and datasets
    {"porta_safetensors_save",
     [](Fixture& x) {
       TempDir dir;
       const std::string p = dir.path("out.safetensors");
       const char* names[2] = {"a", "b"};
       const char* same[2] = {"a", "a"};
       const char* with_null[2] = {"a", nullptr};
       const char* with_empty[2] = {"a", ""};
       porta_tensor* tensors[2] = {x.f.get(), x.labels.get()};
       porta_tensor* with_released[2] = {x.f.get(), Fixture::released()};
       porta_tensor* with_null_tensor[2] = {x.f.get(), nullptr};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "path must not be NULL",
               porta_safetensors_save(nullptr, names, tensors, 2));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "path is empty", porta_safetensors_save("", names, tensors, 2));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "n is -1", porta_safetensors_save(p.c_str(), names, tensors, -1));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "names must not be NULL",
               porta_safetensors_save(p.c_str(), nullptr, tensors, 2));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "tensors must not be NULL",
               porta_safetensors_save(p.c_str(), names, nullptr, 2));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "names[1] 'a' repeats names[0]",
               porta_safetensors_save(p.c_str(), same, tensors, 2));
       REFUSED(kAnyError, "names[1]", porta_safetensors_save(p.c_str(), with_null, tensors, 2));
       REFUSED(kAnyError, "names[1]", porta_safetensors_save(p.c_str(), with_empty, tensors, 2));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_safetensors_save(p.c_str(), names, with_released, 2));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "is NULL", porta_safetensors_save(p.c_str(), names, with_null_tensor, 2));
       REFUSED(PORTA_ERROR_IO, "/nonexistent-dir/",
               porta_safetensors_save("/nonexistent-dir/x.safetensors", names, tensors, 2));
       EXPECT_NE(access(p.c_str(), F_OK), 0) << "a refused save left a file behind";
     }},
    {"porta_safetensors_load",
     [](Fixture& x) {
       TempDir dir;
       const std::string garbage = dir.file("garbage.safetensors", "this is not a safetensors file");
       Untouched<porta_tensor_list*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "path must not be NULL", porta_safetensors_load(nullptr, x.cpu, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL",
               porta_safetensors_load(garbage.c_str(), x.cpu, nullptr));
       REFUSED(PORTA_ERROR_IO, "/nonexistent-dir/x.safetensors",
               porta_safetensors_load("/nonexistent-dir/x.safetensors", x.cpu, out.p()));
       REFUSED(PORTA_ERROR_IO, "garbage.safetensors", porta_safetensors_load(garbage.c_str(), x.cpu, out.p()));
       REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "cpu:7",
               porta_safetensors_load(garbage.c_str(), DLDevice{kDLCPU, 7}, out.p()));
     }},
    {"porta_tensor_list_size",
     [](Fixture& x) {
       Lists l(x);
       Untouched<int32_t> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "list must not be NULL", porta_tensor_list_size(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_list_size(l.released, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a live porta_tensor_list",
               porta_tensor_list_size(foreign_handle<porta_tensor_list>(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_list_size(l.live, nullptr));
     }},
    {"porta_tensor_list_get",
     [](Fixture& x) {
       Lists l(x);
       Untouched<const char*> name;
       Untouched<porta_tensor*> t;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "list must not be NULL",
               porta_tensor_list_get(nullptr, 0, name.p(), t.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_list_get(l.released, 0, name.p(), t.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "name must not be NULL", porta_tensor_list_get(l.live, 0, nullptr, t.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "tensor must not be NULL",
               porta_tensor_list_get(l.live, 0, name.p(), nullptr));
       for (int32_t i : {1, -1, INT32_MAX, INT32_MIN})
         REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "is out of range [0, 1)",
                 porta_tensor_list_get(l.live, i, name.p(), t.p()));
     }},
    {"porta_tensor_list_release",
     [](Fixture& x) {
       porta_tensor_list_release(nullptr);  // documented no-op
       Lists l(x);
       mark_last_error();
       porta_tensor_list_release(l.released);  // a double release: no double free
       EXPECT_NE(std::string(porta_last_error()).find("already released"), std::string::npos) << porta_last_error();
       mark_last_error();
       porta_tensor_list_release(foreign_handle<porta_tensor_list>());
       EXPECT_NE(std::string(porta_last_error()).find("not a live porta_tensor_list"), std::string::npos);
     }},
    {"porta_read_idx",
     [](Fixture&) {
       TempDir dir;
       const std::string garbage = dir.file("garbage.idx", "\x01\x02\x08\x01");
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "path must not be NULL", porta_read_idx(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_read_idx(garbage.c_str(), nullptr));
       REFUSED(PORTA_ERROR_IO, "/nonexistent-dir/x.idx", porta_read_idx("/nonexistent-dir/x.idx", out.p()));
       REFUSED(PORTA_ERROR_IO, "bad IDX magic", porta_read_idx(garbage.c_str(), out.p()));
     }},
    {"porta_read_cifar10",
     [](Fixture&) {
       TempDir dir;
       const std::string garbage = dir.file("garbage.bin", "12345");
       Untouched<porta_tensor*> images, labels;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "path must not be NULL",
               porta_read_cifar10(nullptr, images.p(), labels.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "images must not be NULL",
               porta_read_cifar10(garbage.c_str(), nullptr, labels.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "labels must not be NULL",
               porta_read_cifar10(garbage.c_str(), images.p(), nullptr));
       REFUSED(PORTA_ERROR_IO, "/nonexistent-dir/x.bin",
               porta_read_cifar10("/nonexistent-dir/x.bin", images.p(), labels.p()));
       REFUSED(PORTA_ERROR_IO, "garbage.bin", porta_read_cifar10(garbage.c_str(), images.p(), labels.p()));
     }},
    {"porta_tensor_empty_pinned",
     [](Fixture& x) {
       const int64_t shape[2] = {2, 3}, negative[1] = {-1}, overflow[2] = {int64_t{1} << 40, int64_t{1} << 40};
       Untouched<porta_tensor*> out;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL",
               porta_tensor_empty_pinned(porta_float32, shape, 2, x.mock, nullptr));
       REFUSED(PORTA_ERROR_UNSUPPORTED_DTYPE, "unsupported dtype",
               porta_tensor_empty_pinned(DLDataType{kDLFloat, 8, 1}, shape, 2, x.mock, out.p()));
       REFUSED(PORTA_ERROR_NO_SUCH_DEVICE, "cpu:7",
               porta_tensor_empty_pinned(porta_float32, shape, 2, DLDevice{kDLCPU, 7}, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "shape must not be NULL",
               porta_tensor_empty_pinned(porta_float32, nullptr, 2, x.mock, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "negative dimension",
               porta_tensor_empty_pinned(porta_float32, negative, 1, x.mock, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "more elements than int64",
               porta_tensor_empty_pinned(porta_float32, overflow, 2, x.mock, out.p()));
       const int64_t too_many_bytes[1] = {int64_t{1} << 62};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "more bytes than size_t",
               porta_tensor_empty_pinned(porta_float32, too_many_bytes, 1, x.mock, out.p()));
     }},
    {"porta_tensor_is_pinned",
     [](Fixture& x) {
       Untouched<int> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_is_pinned(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_is_pinned(Fixture::released(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_is_pinned(x.f.get(), nullptr));
     }},

    // ---- DLPack
    {"porta_to_dlpack_versioned",
     [](Fixture& x) {
       Untouched<DLManagedTensorVersioned*> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_to_dlpack_versioned(nullptr, 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released",
               porta_to_dlpack_versioned(Fixture::released(), 0, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_to_dlpack_versioned(x.f.get(), 0, nullptr));
     }},
    {"porta_to_dlpack",
     [](Fixture& x) {
       Untouched<DLManagedTensor*> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_to_dlpack(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "not a tensor at all", porta_to_dlpack(Fixture::foreign(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_to_dlpack(x.f.get(), nullptr));
       // A read-only import cannot leave through the legacy struct, nor be written.
       auto m = managed_over<DLManagedTensorVersioned>(g_data, g_shape, 2);
       m.version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
       m.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
       porta_tensor* ro = nullptr;
       ASSERT_EQ(porta_from_dlpack_versioned(&m, &ro), PORTA_OK) << porta_last_error();
       Tensor owned(ro);
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "read-only", porta_to_dlpack(ro, out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "read-only", porta_copy_into(ro, x.f.get()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "read-only", porta_init_uniform_(ro, 0, 1));
       const float zeros[6] = {};
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "read-only", porta_tensor_from_host_into(ro, zeros, sizeof zeros));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "read-only", porta_unary_inplace(PORTA_OP_RELU, ro));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "read-only", porta_binary_scalar_inplace(PORTA_OP_ADD, ro, 1.0));
       EXPECT_EQ(g_data[0], 1.0f) << "a refused write changed read-only memory";
     }},
    {"porta_from_dlpack_versioned",
     [](Fixture&) {
       expect_import_checked<DLManagedTensorVersioned>([](DLManagedTensorVersioned* m, porta_tensor** o) {
         if (m) m->version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
         return porta_from_dlpack_versioned(m, o);
       });
       // A foreign major version: the layout cannot be trusted, so Porta consumes it through its deleter.
       auto m = managed_over<DLManagedTensorVersioned>(g_data, g_shape, 2);
       m.version = DLPackVersion{DLPACK_MAJOR_VERSION + 1, 0};
       Untouched<porta_tensor*> out;
       g_deleted = 0;
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "released through its deleter", porta_from_dlpack_versioned(&m, out.p()));
       EXPECT_EQ(g_deleted, 1);
     }},
    {"porta_from_dlpack",
     [](Fixture&) {
       expect_import_checked<DLManagedTensor>(
           [](DLManagedTensor* m, porta_tensor** o) { return porta_from_dlpack(m, o); });
     }},
    {"porta_tensor_is_read_only",
     [](Fixture& x) {
       Untouched<int> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_is_read_only(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_is_read_only(Fixture::released(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_is_read_only(x.f.get(), nullptr));
     }},
    {"porta_tensor_data_ptr",
     [](Fixture& x) {
       Untouched<void*> out;
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "t is NULL", porta_tensor_data_ptr(nullptr, out.p()));
       REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_data_ptr(Fixture::released(), out.p()));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "out must not be NULL", porta_tensor_data_ptr(x.f.get(), nullptr));
       REFUSED(PORTA_ERROR_INVALID_ARGUMENT, "whose memory is opaque", porta_tensor_data_ptr(x.other.get(), out.p()));
     }},
};

}  // namespace

std::vector<Case> io_cases() { return {std::begin(kCases), std::end(kCases)}; }

}  // namespace porta_bad_args
