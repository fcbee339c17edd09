// Which plugin files the loader trusts. Before Porta's first use, main()
// builds a scratch tree of plugin copies (mkdtemp) and points
// PORTA_PLUGIN_PATH at it; each test then reads the recorded attempt for
// its case: world-writable files and directories, a FIFO and a directory
// named as plugins are refused with a reason; a symlink to a trusted file
// loads; relative entries and the current directory are never searched.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <porta/porta.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "plugin_attempts.hpp"

namespace fs = std::filesystem;

namespace {

const char* const kPlugin = "libporta_plugin_mock.so";
std::string scratch;  // the mkdtemp root

// A private copy of the mock plugin in scratch/<dir> (created with mode `dir_mode`), with file mode `file_mode`.
std::string plant(const std::string& dir, mode_t dir_mode, mode_t file_mode) {
  const std::string d = scratch + "/" + dir;
  fs::create_directories(d);
  const std::string file = d + "/" + kPlugin;
  fs::copy_file(std::string(PORTA_TEST_MOCK_PLUGIN_DIR) + "/" + kPlugin, file);
  chmod(file.c_str(), file_mode);
  chmod(d.c_str(), dir_mode);
  return file;
}

std::map<std::string, porta_plugin_info> attempts_by_path() {
  std::map<std::string, porta_plugin_info> m;
  for (const porta_plugin_info& info : plugin_attempts()) m[info.path] = info;
  return m;
}

// The attempt for `path`; a failed expectation when it was never tried.
porta_plugin_info attempt(const std::string& path) {
  auto all = attempts_by_path();
  auto it = all.find(path);
  EXPECT_NE(it, all.end()) << path << " was never tried";
  return it == all.end() ? porta_plugin_info{} : it->second;
}

std::string reason(const std::string& path) {
  const char* r = attempt(path).reason;
  return r ? r : "";
}

std::string path_of(const char* dir) { return scratch + "/" + dir + "/" + kPlugin; }

}  // namespace

TEST(PluginTrust, SymlinkToATrustedFileLoads) {
  const porta_plugin_info a = attempt(path_of("link"));
  EXPECT_EQ(a.state, PORTA_PLUGIN_LOADED) << reason(path_of("link"));
  int n = 0;
  EXPECT_EQ(porta_device_count("mock", &n), PORTA_OK);
  EXPECT_EQ(n, 2);
}

TEST(PluginTrust, WorldWritableFileIsRefused) {
  EXPECT_EQ(attempt(path_of("writable_file")).state, PORTA_PLUGIN_FAILED);
  EXPECT_NE(reason(path_of("writable_file")).find("is writable by every user"), std::string::npos)
      << reason(path_of("writable_file"));
}

TEST(PluginTrust, WorldWritableDirectoryIsRefusedStickyOrNot) {
  for (const char* dir : {"writable_dir", "sticky_dir"}) {
    EXPECT_EQ(attempt(path_of(dir)).state, PORTA_PLUGIN_FAILED) << dir;
    EXPECT_NE(reason(path_of(dir)).find("its directory " + scratch + "/" + dir + " is writable by every user"),
              std::string::npos)
        << reason(path_of(dir));
  }
}

TEST(PluginTrust, SymlinkIntoAWorldWritableDirectoryIsRefused) {
  // The link's own directory is safe; its target's is not: the real path is what counts.
  EXPECT_EQ(attempt(path_of("link_to_writable")).state, PORTA_PLUGIN_FAILED);
  EXPECT_NE(reason(path_of("link_to_writable")).find(scratch + "/writable_dir is writable"), std::string::npos)
      << reason(path_of("link_to_writable"));
}

TEST(PluginTrust, AnAncestorWritableByEveryoneMustBeSticky) {
  const std::string open = scratch + "/open_ancestor/inner/" + kPlugin;
  EXPECT_EQ(attempt(open).state, PORTA_PLUGIN_FAILED);
  EXPECT_NE(reason(open).find("its ancestor directory " + scratch +
                              "/open_ancestor is writable by every user without the sticky bit"),
            std::string::npos)
      << reason(open);
  // Sticky (as /tmp): others cannot rename inner/ away, so the plugin passes the check (and is then
  // rejected only because the symlinked copy already serves its device type).
  const std::string sticky = scratch + "/sticky_ancestor/inner/" + kPlugin;
  EXPECT_EQ(attempt(sticky).state, PORTA_PLUGIN_REJECTED) << reason(sticky);
  EXPECT_EQ(reason(sticky).find("refused"), std::string::npos) << reason(sticky);
}

TEST(PluginTrust, FifoAndDirectoryAreNotRegularFiles) {
  for (const std::string& path : {scratch + "/fifo/libporta_plugin_fifo.so", scratch + "/dir_named/libporta_plugin_dir.so"}) {
    EXPECT_EQ(attempt(path).state, PORTA_PLUGIN_FAILED) << path;
    EXPECT_NE(reason(path).find("not a regular file"), std::string::npos) << reason(path);
  }
}

TEST(PluginTrust, RelativeEntriesAndTheCurrentDirectoryAreNeverSearched) {
  for (const auto& [path, info] : attempts_by_path()) {
    EXPECT_EQ(path[0], '/') << "a relative entry was searched: " << path;
    EXPECT_EQ(path.find("/relative/"), std::string::npos) << "a relative entry was searched: " << path;
    EXPECT_EQ(path.find("/cwd/"), std::string::npos) << "the current directory was searched: " << path;
  }
}

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  char root[] = "/tmp/porta-trust-XXXXXX";
  if (mkdtemp(root) == nullptr) return 2;
  scratch = root;
  const std::string trusted = plant("trusted", 0755, 0755);
  plant("writable_file", 0755, 0757);
  plant("writable_dir", 0777, 0755);
  plant("sticky_dir", 01777, 0755);
  plant("relative", 0755, 0755);
  plant("open_ancestor/inner", 0755, 0755);
  chmod((scratch + "/open_ancestor").c_str(), 0777);
  plant("sticky_ancestor/inner", 0755, 0755);
  chmod((scratch + "/sticky_ancestor").c_str(), 01777);
  plant("cwd", 0755, 0755);
  fs::create_directories(scratch + "/link");
  fs::create_symlink(trusted, path_of("link"));
  fs::create_directories(scratch + "/link_to_writable");
  fs::create_symlink(path_of("writable_dir"), path_of("link_to_writable"));
  fs::create_directories(scratch + "/fifo");
  mkfifo((scratch + "/fifo/libporta_plugin_fifo.so").c_str(), 0644);
  fs::create_directories(scratch + "/dir_named/libporta_plugin_dir.so");
  if (chdir((scratch + "/cwd").c_str()) != 0) return 2;
  // The symlink comes first so that it, not a later copy, serves the mock device type.
  const std::string path = scratch + "/link:" + scratch + "/writable_file:" + scratch + "/writable_dir:" + scratch +
                           "/sticky_dir:" + scratch + "/link_to_writable:" + scratch + "/fifo/libporta_plugin_fifo.so:" +
                           scratch + "/dir_named:" + scratch + "/open_ancestor/inner:" + scratch +
                           "/sticky_ancestor/inner:../relative:.";
  setenv("PORTA_PLUGIN_PATH", path.c_str(), 1);
  const int result = RUN_ALL_TESTS();
  if (chdir("/") == 0) fs::remove_all(scratch);
  return result;
}
