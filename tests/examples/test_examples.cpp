// Runs the programs of docs/examples as a user would, on cpu and on mock:1
// (and on opencl:0 where the OpenCL plugin is built),
// and checks that they train: "Training finished!" and a loss that falls.
// Seed case 2 reads a small synthetic CIFAR-10 (binary format) written here,
// whose classes are learnable (each class lights its own patch).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "../support/run_command.hpp"

namespace {

using porta_test::CommandResult;

// Runs `command`, capturing standard output and standard error together.
CommandResult run(const std::string& command) { return porta_test::run_command(command + " 2>&1"); }

// Every number following `label` in the output, in order.
std::vector<double> numbers_after(const std::string& text, const std::string& label) {
  std::vector<double> v;
  const std::regex re(label + R"(\s*([-0-9.eE+]+))");
  for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) v.push_back(std::stod((*it)[1]));
  return v;
}

void expect_trains(const CommandResult& r, const std::string& label, size_t min_reports) {
  ASSERT_EQ(r.exit_status, 0) << r.output;
  EXPECT_NE(r.output.find("Training finished!"), std::string::npos) << r.output;
  const std::vector<double> losses = numbers_after(r.output, label);
  ASSERT_GE(losses.size(), min_reports) << r.output;
  EXPECT_LT(losses.back(), losses.front()) << r.output;
}

// data_batch_1..5.bin and test_batch.bin with `per_file` records each.
std::string synthetic_cifar(int per_file, const std::string& tag) {
  const auto dir = std::filesystem::temp_directory_path() / ("porta_synthetic_cifar_" + tag);
  std::filesystem::create_directories(dir);
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> noise(0, 60);
  auto write = [&](const std::string& name) {
    std::ofstream f(dir / name, std::ios::binary);
    for (int r = 0; r < per_file; ++r) {
      const int label = r % 10;
      std::vector<unsigned char> rec(3073);
      rec[0] = static_cast<unsigned char>(label);
      for (int c = 0; c < 3; ++c)
        for (int y = 0; y < 32; ++y)
          for (int x = 0; x < 32; ++x) {
            const bool patch = c == label % 3 && y / 8 == label / 3 && x / 8 == label % 4;
            rec[1 + c * 1024 + y * 32 + x] = static_cast<unsigned char>(noise(rng) + (patch ? 190 : 0));
          }
      f.write(reinterpret_cast<const char*>(rec.data()), static_cast<std::streamsize>(rec.size()));
    }
  };
  for (int i = 1; i <= 5; ++i) write("data_batch_" + std::to_string(i) + ".bin");
  write("test_batch.bin");
  return dir.string();
}

class Examples : public testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(Examples, Seed1LinearRegressionInC) {
  expect_trains(run(std::string(SEED1_C) + " " + GetParam()), "Loss:", 100);
}

TEST_P(Examples, Seed1LinearRegressionInCpp) {
  CommandResult r = run(std::string(SEED1_CPP) + " " + GetParam());
  expect_trains(r, "Loss:", 100);
  EXPECT_NE(r.output.find("Using device: " + GetParam()), std::string::npos) << r.output;
}

TEST_P(Examples, Seed2CifarCnnInCpp) {
  // 200 training images: 50 batches of 4 per epoch, 2 epochs (4 loss reports; the full schedule is
  // the demo's, run by hand); one folder per device (tests run in parallel).
  std::string tag = GetParam();
  for (char& ch : tag)
    if (ch == ':') ch = '_';
  const std::string dir = synthetic_cifar(40, tag);
  expect_trains(run(std::string(SEED2_CPP) + " " + dir + " " + GetParam() + " --epochs 2 --print-every 25"),
                R"(\] loss:)", 4);
}

TEST(Readme, CExampleMultiplies) {
  CommandResult r = run(README_C);
  ASSERT_EQ(r.exit_status, 0) << r.output;
  EXPECT_NE(r.output.find("7 10 15 22"), std::string::npos) << r.output;
}

TEST(Readme, CppExampleTrains) {
  CommandResult r = run(README_CPP);
  ASSERT_EQ(r.exit_status, 0) << r.output;
  const std::vector<double> losses = numbers_after(r.output, "loss");
  ASSERT_EQ(losses.size(), 5u) << r.output;
  EXPECT_LT(losses.back(), losses.front()) << r.output;
}

#ifdef PORTA_TEST_HAVE_OPENCL
#define PORTA_EXAMPLE_DEVICES "cpu", "mock:1", "opencl:0"
#else
#define PORTA_EXAMPLE_DEVICES "cpu", "mock:1"
#endif
INSTANTIATE_TEST_SUITE_P(Devices, Examples, testing::Values(PORTA_EXAMPLE_DEVICES), [](const auto& info) {
  std::string name = info.param;
  for (char& ch : name)
    if (ch == ':') ch = '_';
  return name;
});
