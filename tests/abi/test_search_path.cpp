// The loader never searches the current directory, and ignores relative
// PORTA_PLUGIN_PATH entries. Run with the working directory set to a folder
// full of plugins and PORTA_PLUGIN_PATH="." (see CMakeLists.txt).
#include <gtest/gtest.h>
#include <porta/porta.h>

#include <string>

TEST(SearchPath, CurrentDirectoryAndRelativeEntriesAreNeverSearched) {
  int32_t n = 0;
  ASSERT_EQ(porta_plugin_count(&n), PORTA_OK);
  bool cpu = false;
  for (int32_t i = 0; i < n; ++i) {
    porta_plugin_info info{};
    info.struct_size = sizeof(info);
    ASSERT_EQ(porta_plugin_get_info(i, &info), PORTA_OK);
    const std::string path = info.path;
    EXPECT_EQ(path.find("test-plugins"), std::string::npos) << "loaded from the working directory: " << path;
    EXPECT_EQ(path[0], '/') << path;
    cpu = cpu || std::string(info.name) == "cpu";
  }
  EXPECT_TRUE(cpu) << "the install's own plugin directory is still searched";
  int count = -1;
  EXPECT_EQ(porta_device_count("mock", &count), PORTA_ERROR_NO_SUCH_DEVICE);
}
