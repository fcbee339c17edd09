// safetensors: round trips, devices, the reference layout, and saves that
// fail without leaving anything behind.
#include "io_test_util.hpp"

using namespace porta_io_test;

namespace {

// A tensor's dtype, shape and raw bytes, for exact comparisons.
struct Image {
  DLDataType dtype{};
  std::vector<int64_t> shape;
  Bytes bytes;
};

Image image(porta_tensor* t) {
  Image im{dtype_of(t), shape_of(t), {}};
  int64_t n = 0;
  EXPECT_EQ(porta_tensor_numel(t, &n), PORTA_OK);
  im.bytes.resize(static_cast<size_t>(n) * im.dtype.bits / 8);
  EXPECT_EQ(porta_tensor_to_host(t, im.bytes.data(), im.bytes.size()), PORTA_OK) << error();
  return im;
}

void expect_same(porta_tensor* got, porta_tensor* want, const std::string& name) {
  const Image g = image(got), w = image(want);
  EXPECT_TRUE(same(g.dtype, w.dtype)) << name;
  EXPECT_EQ(g.shape, w.shape) << name;
  EXPECT_EQ(g.bytes, w.bytes) << name;
}

Tensor scalar_f64(double v, DLDevice dev) { return from(std::vector<double>{v}, porta_float64, {}, dev); }

}  // namespace

TEST(Safetensors, AllDtypesRoundTripInOrder) {
  ScratchDir dir;
  const DLDevice cpu = device("cpu");
  std::vector<Tensor> ts;
  ts.push_back(from(std::vector<float>{1.5f, -2, 3, 4e30f, -0.0f, 6}, porta_float32, {2, 3}, cpu));
  ts.push_back(scalar_f64(3.141592653589793, cpu));  // 0-d
  ts.push_back(from(std::vector<int32_t>{}, porta_int32, {0, 5}, cpu));  // size 0
  ts.push_back(from(std::vector<int64_t>{INT64_MIN, -1, 0, INT64_MAX}, porta_int64, {4}, cpu));
  ts.push_back(from(std::vector<uint8_t>{0, 1, 2, 127, 128, 200, 254, 255}, porta_uint8, {2, 2, 2}, cpu));
  ts.push_back(from(std::vector<uint8_t>{1, 0, 0, 1, 1}, porta_bool, {5}, cpu));
  ts.push_back(from(std::vector<int32_t>{-7}, porta_int32, {}, cpu));    // 0-d
  ts.push_back(from(std::vector<double>{}, porta_float64, {3, 0}, cpu)); // size 0, between others
  ts.push_back(from(std::vector<uint8_t>{}, porta_bool, {0}, cpu));
  ts.push_back(from(std::vector<int32_t>{1, -2, 3}, porta_int32, {3, 1}, cpu));
  const std::vector<const char*> names = {"f32", "f64.scalar", "i32.empty", "i64", "u8", "bool",
                                          "i32.scalar", "f64.empty", "bool.empty", "layer.0.weight"};
  std::vector<porta_tensor*> raw;
  for (auto& t : ts) raw.push_back(t.get());
  const std::string path = dir.file("all.safetensors");
  PORTA_ASSERT_OK(porta_safetensors_save(path.c_str(), names.data(), raw.data(), static_cast<int32_t>(raw.size())));
  EXPECT_FALSE(exists(path + ".tmp"));
  const Bytes file = read_file(path);
  ASSERT_GE(file.size(), 8u);
  EXPECT_EQ(file[0] % 8, 0) << "the header is padded so the data buffer is 8-byte aligned";

  porta_tensor_list* raw_list = nullptr;
  PORTA_ASSERT_OK(porta_safetensors_load(path.c_str(), cpu, &raw_list));
  List list(raw_list);
  ASSERT_EQ(list_size(list.get()), static_cast<int32_t>(names.size()));
  for (int32_t i = 0; i < list_size(list.get()); ++i) {
    auto [name, t] = entry(list.get(), i);
    EXPECT_EQ(name, names[static_cast<size_t>(i)]) << "load keeps the save order";
    expect_same(t.get(), ts[static_cast<size_t>(i)].get(), name);
    EXPECT_EQ(device_of(t.get()).device_type, kDLCPU);
  }
}

TEST(Safetensors, SavesANonContiguousViewFromMockAndLoadsOnCpuAndMock) {
  ScratchDir dir;
  const DLDevice mock1 = device("mock:1");
  Tensor base = from(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, porta_float32, {3, 4}, mock1);
  porta_tensor* tv = nullptr;
  PORTA_ASSERT_OK(porta_transpose(base.get(), 0, 1, &tv));
  Tensor view(tv);
  porta_tensor* sv = nullptr;
  PORTA_ASSERT_OK(porta_slice(view.get(), 0, 1, 4, 2, &sv));  // rows 1 and 3 of the transpose
  Tensor sliced(sv);
  int contiguous = 1;
  PORTA_ASSERT_OK(porta_tensor_is_contiguous(sliced.get(), &contiguous));
  ASSERT_EQ(contiguous, 0);

  const char* names[] = {"transposed", "sliced"};
  porta_tensor* tensors[] = {view.get(), sliced.get()};
  const std::string path = dir.file("mock.safetensors");
  PORTA_ASSERT_OK(porta_safetensors_save(path.c_str(), names, tensors, 2));

  const std::vector<float> transposed = {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11};
  const std::vector<float> rows13 = {1, 5, 9, 3, 7, 11};
  for (const char* dev : {"cpu", "mock:0"}) {
    porta_tensor_list* raw = nullptr;
    PORTA_ASSERT_OK(porta_safetensors_load(path.c_str(), device(dev), &raw));
    List list(raw);
    ASSERT_EQ(list_size(list.get()), 2);
    auto [n0, t0] = entry(list.get(), 0);
    auto [n1, t1] = entry(list.get(), 1);
    EXPECT_EQ(n0, "transposed");
    EXPECT_EQ(n1, "sliced");
    EXPECT_EQ(shape_of(t0.get()), (std::vector<int64_t>{4, 3}));
    EXPECT_EQ(shape_of(t1.get()), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(values<float>(t0.get()), transposed) << dev;
    EXPECT_EQ(values<float>(t1.get()), rows13) << dev;
    const DLDevice want = device(dev), got = device_of(t0.get());
    EXPECT_EQ(got.device_type, want.device_type) << dev;
    EXPECT_EQ(got.device_id, want.device_id) << dev;
  }
}

TEST(Safetensors, LoadsAFileInTheReferenceLayout) {
  // What safetensors' save_file writes for {"b": int64 [2], "a": float32 [2, 3]}
  // with metadata: data sorted by alignment (b first), header keys in another
  // order, padded with spaces; here also with JSON whitespace and escapes.
  ScratchDir dir;
  Bytes data;
  const int64_t b[2] = {-3, 1LL << 40};
  const float a[6] = {1, 2, 3, 4, 5, 6.5f};
  append(data, b, sizeof b);
  append(data, a, sizeof a);
  std::string header =
      "{\"__metadata__\":{\"format\":\"pt\",\"note\":\"tab\\there \\u00e9\\ud83d\\ude00\"},"
      " \"a\" : {\"dtype\":\"F32\",\"shape\":[2, 3],\"data_offsets\":[16,40]},\n"
      "\"b\":{\"shape\":[2],\"dtype\":\"I64\",\"data_offsets\":[0,16]},"
      "\"caf\\u00e9\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[40,40]}}";
  header.append((8 - header.size() % 8) % 8, ' ');
  const std::string path = dir.file("reference.safetensors");
  write_file(path, safetensors_bytes(header, data));

  porta_tensor_list* raw = nullptr;
  PORTA_ASSERT_OK(porta_safetensors_load(path.c_str(), device("cpu"), &raw));
  List list(raw);
  ASSERT_EQ(list_size(list.get()), 3);
  auto [n0, t0] = entry(list.get(), 0);
  auto [n1, t1] = entry(list.get(), 1);
  auto [n2, t2] = entry(list.get(), 2);
  EXPECT_EQ(n0, "b") << "entries come in data-offset order";
  EXPECT_EQ(n1, "a");
  EXPECT_EQ(n2, "caf\xc3\xa9");
  EXPECT_TRUE(same(dtype_of(t0.get()), porta_int64));
  EXPECT_EQ(values<int64_t>(t0.get()), (std::vector<int64_t>{-3, 1LL << 40}));
  EXPECT_TRUE(same(dtype_of(t1.get()), porta_float32));
  EXPECT_EQ(shape_of(t1.get()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<float>(t1.get()), (std::vector<float>{1, 2, 3, 4, 5, 6.5f}));
  EXPECT_TRUE(same(dtype_of(t2.get()), porta_uint8));
  EXPECT_EQ(shape_of(t2.get()), (std::vector<int64_t>{0}));
}

TEST(Safetensors, WritesTheReferenceLayout) {
  ScratchDir dir;
  Tensor t = from(std::vector<int32_t>{1, -2}, porta_int32, {2}, device("cpu"));
  const char* names[] = {"w\"q"};
  porta_tensor* tensors[] = {t.get()};
  const std::string path = dir.file("layout.safetensors");
  PORTA_ASSERT_OK(porta_safetensors_save(path.c_str(), names, tensors, 1));
  const Bytes file = read_file(path);
  ASSERT_GE(file.size(), 8u);
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | file[static_cast<size_t>(i)];
  ASSERT_EQ(file.size(), 8 + n + 8);
  const std::string header(file.begin() + 8, file.begin() + 8 + static_cast<std::ptrdiff_t>(n));
  EXPECT_EQ(header.substr(0, header.find_last_not_of(' ') + 1),
            "{\"__metadata__\":{\"format\":\"pt\"},"
            "\"w\\\"q\":{\"dtype\":\"I32\",\"shape\":[2],\"data_offsets\":[0,8]}}");
  const Bytes data(file.end() - 8, file.end());
  EXPECT_EQ(data, (Bytes{1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF})) << "little-endian, row-major";
}

TEST(Safetensors, NamesNeedingEscapesRoundTrip) {
  ScratchDir dir;
  const std::vector<std::string> wanted = {"q\"b\\s/", "line\nbreak\ttab\x01\x1f\x7f", "caf\xc3\xa9 \xf0\x9f\x98\x80",
                                           std::string(300, 'n')};
  std::vector<Tensor> owned;
  std::vector<const char*> names;
  std::vector<porta_tensor*> tensors;
  for (size_t i = 0; i < wanted.size(); ++i) {
    owned.push_back(from(std::vector<int32_t>{static_cast<int32_t>(i)}, porta_int32, {1}, device("cpu")));
    names.push_back(wanted[i].c_str());
    tensors.push_back(owned.back().get());
  }
  const std::string path = dir.file("names.safetensors");
  PORTA_ASSERT_OK(
      porta_safetensors_save(path.c_str(), names.data(), tensors.data(), static_cast<int32_t>(names.size())));
  porta_tensor_list* raw = nullptr;
  PORTA_ASSERT_OK(porta_safetensors_load(path.c_str(), device("cpu"), &raw));
  List list(raw);
  ASSERT_EQ(list_size(list.get()), static_cast<int32_t>(wanted.size()));
  for (int32_t i = 0; i < list_size(list.get()); ++i) {
    auto [name, t] = entry(list.get(), i);
    EXPECT_EQ(name, wanted[static_cast<size_t>(i)]);
    EXPECT_EQ(values<int32_t>(t.get()), std::vector<int32_t>{i});
  }
}

TEST(Safetensors, EmptyListRoundTrips) {
  ScratchDir dir;
  const std::string path = dir.file("empty.safetensors");
  PORTA_ASSERT_OK(porta_safetensors_save(path.c_str(), nullptr, nullptr, 0));
  porta_tensor_list* raw = nullptr;
  PORTA_ASSERT_OK(porta_safetensors_load(path.c_str(), device("cpu"), &raw));
  List list(raw);
  EXPECT_EQ(list_size(list.get()), 0);
}

TEST(Safetensors, SaveReplacesAnExistingFile) {
  ScratchDir dir;
  const std::string path = dir.file("replace.safetensors");
  write_file(path, Bytes(100, 0xAB));
  Tensor t = scalar_f64(2.5, device("cpu"));
  const char* names[] = {"x"};
  porta_tensor* tensors[] = {t.get()};
  PORTA_ASSERT_OK(porta_safetensors_save(path.c_str(), names, tensors, 1));
  porta_tensor_list* raw = nullptr;
  PORTA_ASSERT_OK(porta_safetensors_load(path.c_str(), device("cpu"), &raw));
  List list(raw);
  ASSERT_EQ(list_size(list.get()), 1);
  EXPECT_EQ(values<double>(entry(list.get(), 0).second.get()), std::vector<double>{2.5});
  EXPECT_FALSE(exists(path + ".tmp"));
}

TEST(Safetensors, BadSaveArgumentsAreRefusedAndTouchNothing) {
  ScratchDir dir;
  const std::string path = dir.file("keep.safetensors");
  const Bytes original = {1, 2, 3};
  write_file(path, original);
  Tensor a = scalar_f64(1, device("cpu"));
  Tensor b = scalar_f64(2, device("mock:0"));
  porta_tensor* tensors[] = {a.get(), b.get()};
  const auto save = [&](std::vector<const char*> names, porta_tensor** ts = nullptr) {
    return porta_safetensors_save(path.c_str(), names.data(), ts ? ts : tensors, static_cast<int32_t>(names.size()));
  };

  EXPECT_EQ(save({"a", "a"}), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "names[1] 'a' repeats names[0]")) << error();
  EXPECT_EQ(save({"a", ""}), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "names[1] is empty")) << error();
  EXPECT_EQ(save({"a", nullptr}), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "names[1] is NULL")) << error();
  EXPECT_EQ(save({"__metadata__", "b"}), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "reserves")) << error();
  EXPECT_EQ(save({"a", "\xff"}), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "UTF-8")) << error();
  porta_tensor* with_null[] = {a.get(), nullptr};
  EXPECT_EQ(save({"a", "b"}, with_null), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_TRUE(has(error(), "tensors[1]")) << error();

  const char* names[] = {"a", "b"};
  EXPECT_EQ(porta_safetensors_save(nullptr, names, tensors, 2), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "path must not be NULL")) << error();
  EXPECT_EQ(porta_safetensors_save("", names, tensors, 2), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_safetensors_save(path.c_str(), nullptr, tensors, 2), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "names must not be NULL")) << error();
  EXPECT_EQ(porta_safetensors_save(path.c_str(), names, nullptr, 2), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(has(error(), "tensors must not be NULL")) << error();
  EXPECT_EQ(porta_safetensors_save(path.c_str(), names, tensors, -1), PORTA_ERROR_INVALID_ARGUMENT);

  EXPECT_EQ(read_file(path), original) << "a refused save leaves the old file as it was";
  EXPECT_FALSE(exists(path + ".tmp"));
}

TEST(Safetensors, FailedWritesLeaveNothingBehind) {
  ScratchDir dir;
  Tensor a = scalar_f64(1, device("cpu"));
  const char* names[] = {"a"};
  porta_tensor* tensors[] = {a.get()};

  const std::string missing = dir.file("no/such/dir/x.safetensors");
  EXPECT_EQ(porta_safetensors_save(missing.c_str(), names, tensors, 1), PORTA_ERROR_IO);
  EXPECT_TRUE(has(error(), missing)) << error();
  EXPECT_TRUE(has(error(), "cannot create a temporary file")) << error();

  // A directory is not replaced.
  const std::string target = dir.file("is_a_dir");
  std::filesystem::create_directories(target + "/child");
  EXPECT_EQ(porta_safetensors_save(target.c_str(), names, tensors, 1), PORTA_ERROR_IO);
  EXPECT_TRUE(has(error(), "it exists and is not a regular file")) << error();
  EXPECT_TRUE(std::filesystem::is_directory(target + "/child"));
  // Nothing else was left in the directory: no temporary file.
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) left.push_back(e.path().filename());
  EXPECT_EQ(left, std::vector<std::string>{"is_a_dir"});
}

TEST(Safetensors, LoadArgumentsAreChecked) {
  ScratchDir dir;
  const std::string path = dir.file("x.safetensors");
  PORTA_ASSERT_OK(porta_safetensors_save(path.c_str(), nullptr, nullptr, 0));
  porta_tensor_list* const sentinel = reinterpret_cast<porta_tensor_list*>(0x1);
  porta_tensor_list* out = sentinel;
  EXPECT_EQ(porta_safetensors_load(nullptr, device("cpu"), &out), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_safetensors_load(path.c_str(), device("cpu"), nullptr), PORTA_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(porta_safetensors_load(path.c_str(), DLDevice{kDLExtDev, 7}, &out), PORTA_ERROR_NO_SUCH_DEVICE);
  const std::string missing = dir.file("missing.safetensors");
  EXPECT_EQ(porta_safetensors_load(missing.c_str(), device("cpu"), &out), PORTA_ERROR_IO);
  EXPECT_TRUE(has(error(), missing) && has(error(), "cannot open")) << error();
  EXPECT_EQ(porta_safetensors_load(dir.path().c_str(), device("cpu"), &out), PORTA_ERROR_IO);
  EXPECT_TRUE(has(error(), "not a regular file")) << error();
  EXPECT_EQ(out, sentinel) << "out is untouched on error";
}
