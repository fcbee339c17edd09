// Saving and loading files safely: the temporary file is unique and created
// exclusively (concurrent saves leave one whole file; a planted symlink or an
// unrelated file is never touched), symlinks are written through keeping the
// target's mode, and readers refuse FIFOs and devices before they could block.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "io_test_util.hpp"

using namespace porta_io_test;

namespace {

Tensor filled(double value) {
  const int64_t shape[1] = {1 << 16};
  porta_tensor* t = nullptr;
  EXPECT_EQ(porta_full(shape, 1, value, porta_float64, device("cpu"), &t), PORTA_OK) << error();
  return Tensor(t);
}

porta_status save(const std::string& path, const Tensor& t) {
  const char* names[] = {"t"};
  porta_tensor* tensors[] = {t.get()};
  return porta_safetensors_save(path.c_str(), names, tensors, 1);
}

// The first element of the file's only tensor, or NaN when it does not load.
double first_value(const std::string& path) {
  porta_tensor_list* list = nullptr;
  if (porta_safetensors_load(path.c_str(), device("cpu"), &list) != PORTA_OK) return std::nan("");
  porta_tensor* t = nullptr;
  const char* name = nullptr;
  EXPECT_EQ(porta_tensor_list_get(list, 0, &name, &t), PORTA_OK) << error();
  std::vector<double> v(1 << 16);
  EXPECT_EQ(porta_tensor_to_host(t, v.data(), v.size() * sizeof(double)), PORTA_OK) << error();
  porta_tensor_release(t);
  porta_tensor_list_release(list);
  for (double x : v) EXPECT_EQ(x, v[0]) << "a file mixing two saves";
  return v[0];
}

std::vector<std::string> entries(const ScratchDir& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST(FileSafety, ConcurrentSavesToOnePathLeaveOneWholeFile) {
  ScratchDir dir;
  const std::string path = dir.file("model.safetensors");
  const Tensor one = filled(1), two = filled(2);
  std::thread a([&] {
    for (int i = 0; i < 20; ++i) EXPECT_EQ(save(path, one), PORTA_OK) << error();
  });
  std::thread b([&] {
    for (int i = 0; i < 20; ++i) EXPECT_EQ(save(path, two), PORTA_OK) << error();
  });
  a.join();
  b.join();
  const double v = first_value(path);
  EXPECT_TRUE(v == 1 || v == 2) << v;
  EXPECT_EQ(entries(dir), std::vector<std::string>{"model.safetensors"}) << "temporary files were left behind";
}

TEST(FileSafety, APlantedTmpSymlinkAndAnUnrelatedFileAreNeverTouched) {
  ScratchDir dir;
  const std::string path = dir.file("model.safetensors"), victim = dir.file("victim");
  write_file(victim, Bytes{'k', 'e', 'e', 'p'});
  std::filesystem::create_symlink(victim, path + ".tmp");  // the old fixed temporary name
  ASSERT_EQ(save(path, filled(3)), PORTA_OK) << error();
  EXPECT_EQ(read_file(victim), (Bytes{'k', 'e', 'e', 'p'}));
  EXPECT_TRUE(std::filesystem::is_symlink(path + ".tmp"));
  EXPECT_EQ(first_value(path), 3);
}

TEST(FileSafety, ASymlinkIsWrittenThroughAndTheTargetKeepsItsMode) {
  ScratchDir dir;
  const std::string target = dir.file("real.safetensors"), link = dir.file("link.safetensors");
  ASSERT_EQ(save(target, filled(4)), PORTA_OK) << error();
  ASSERT_EQ(::chmod(target.c_str(), 0600), 0);
  std::filesystem::create_symlink(target, link);
  ASSERT_EQ(save(link, filled(5)), PORTA_OK) << error();
  EXPECT_TRUE(std::filesystem::is_symlink(link)) << "the link itself was replaced";
  EXPECT_EQ(first_value(target), 5);
  struct stat st {};
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u) << "the target's mode was not kept";
  std::filesystem::create_symlink(dir.file("nowhere"), dir.file("dangling"));
  EXPECT_EQ(save(dir.file("dangling"), filled(6)), PORTA_ERROR_IO);
  EXPECT_TRUE(has(error(), "a symlink to a missing file")) << error();
}

TEST(FileSafety, ReadersRefuseFifosAndDevicesWithoutBlocking) {
  ScratchDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {fifo, std::string("/dev/zero")}) {
    porta_tensor_list* list = nullptr;
    EXPECT_EQ(porta_safetensors_load(path.c_str(), device("cpu"), &list), PORTA_ERROR_IO) << path;
    EXPECT_TRUE(has(error(), "not a regular file")) << error();
    porta_tensor* t = nullptr;
    EXPECT_EQ(porta_read_idx(path.c_str(), &t), PORTA_ERROR_IO) << path;
    EXPECT_TRUE(has(error(), "not a regular file")) << error();
  }
  EXPECT_EQ(save(fifo, filled(7)), PORTA_ERROR_IO) << "a FIFO was opened for writing";
  EXPECT_TRUE(has(error(), "not a regular file")) << error();
}
