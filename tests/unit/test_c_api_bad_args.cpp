// Every entry point of porta/porta.h refuses bad arguments with a status and
// a message, leaves its out-parameters alone, and the runtime keeps working;
// released handles are detected. The cases themselves live in
// test_c_api_bad_args_{tensors,ops,nn,io}.cpp.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "c_api_bad_args.hpp"

namespace porta_bad_args {

using namespace porta_test;

Tensor make(std::vector<int64_t> shape, DLDevice device, DLDataType dtype) {
  porta_tensor* t = nullptr;
  EXPECT_EQ(porta_ones(shape.data(), static_cast<int32_t>(shape.size()), dtype, device, &t), PORTA_OK)
      << porta_last_error();
  return Tensor(t);
}

Fixture::Fixture() : cpu(device("cpu")), mock(device("mock:1")) {
  f = from({1, 2, 3, 4, 5, 6}, {2, 3}, cpu);
  other = from({1, 2, 3, 4, 5, 6}, {2, 3}, mock);
  f4 = make({4}, cpu);
  const int64_t two = 2, ids[2] = {0, 1};
  porta_tensor* t = nullptr;
  EXPECT_EQ(porta_tensor_from_host(ids, porta_int64, &two, 1, cpu, &t), PORTA_OK) << porta_last_error();
  labels.reset(t);
  EXPECT_EQ(porta_gt_scalar(f.get(), 3, &t), PORTA_OK) << porta_last_error();
  mask.reset(t);
  image = make({1, 1, 4, 4}, cpu);
  kernel = make({1, 1, 2, 2}, cpu);
}

porta_tensor* Fixture::released() {
  porta_tensor* t = nullptr;
  const int64_t one = 1;
  EXPECT_EQ(porta_zeros(&one, 1, porta_float32, DLDevice{kDLCPU, 0}, &t), PORTA_OK) << porta_last_error();
  porta_tensor_release(t);
  return t;
}

Tensor Fixture::leaf() {
  porta_tensor* t = nullptr;
  EXPECT_EQ(porta_clone(f.get(), &t), PORTA_OK) << porta_last_error();
  EXPECT_EQ(porta_tensor_set_requires_grad(t, 1), PORTA_OK) << porta_last_error();
  return Tensor(t);
}

porta_tensor* Fixture::foreign() {
  alignas(64) static unsigned char zeros[4096] = {};
  return reinterpret_cast<porta_tensor*>(zeros);
}

namespace {

constexpr int32_t kMarkerIndex = -424242;

std::string marker() {
  porta_plugin_info info{};
  info.struct_size = sizeof info;
  porta_plugin_get_info(kMarkerIndex, &info);
  return porta_last_error();
}

// Every case, in header order.
const std::vector<Case>& all_cases() {
  static const std::vector<Case> cases = [] {
    std::vector<Case> all = tensor_cases();
    for (auto part : {op_cases(), nn_cases(), io_cases(), distributed_cases(), amp_cases()}) all.insert(all.end(), part.begin(), part.end());
    return all;
  }();
  return cases;
}

// The names after PORTA_EXPORT in porta.h, in order.
std::vector<std::string> exported_names() {
  std::ifstream in(PORTA_PUBLIC_HEADER);
  EXPECT_TRUE(in) << "cannot read " << PORTA_PUBLIC_HEADER;
  std::stringstream text;
  text << in.rdbuf();
  const std::string header = text.str();
  static const std::regex declaration(R"(PORTA_EXPORT[^;(]*?\b(porta_\w+)\s*\()");
  std::vector<std::string> names;
  for (std::sregex_iterator it(header.begin(), header.end(), declaration), end; it != end; ++it)
    names.push_back((*it)[1]);
  return names;
}

// A plain op still computes the right values (after every case).
void expect_runtime_works(Fixture& x) {
  porta_tensor* sum = nullptr;
  PORTA_ASSERT_OK(porta_add(x.f.get(), x.f.get(), &sum));
  Tensor owned(sum);
  EXPECT_EQ(values(sum), (std::vector<float>{2, 4, 6, 8, 10, 12}));
  porta_tensor* on_mock = nullptr;
  PORTA_ASSERT_OK(porta_mul_scalar(x.other.get(), 2, &on_mock));
  Tensor owned_mock(on_mock);
  EXPECT_EQ(values(on_mock), (std::vector<float>{2, 4, 6, 8, 10, 12}));
}

}  // namespace

void mark_last_error() { marker(); }

void expect_refused(porta_status got, int want, const char* hint, const char* call) {
  const std::string message = porta_last_error();
  static const std::string mark = marker();  // after reading the message: this call overwrites it
  if (want == kAnyError)
    EXPECT_NE(got, PORTA_OK) << call << " was accepted";
  else
    EXPECT_EQ(got, want) << call << ": got " << porta_status_name(got) << " (" << message << "), expected "
                         << porta_status_name(static_cast<porta_status>(want));
  if (got == PORTA_OK) return;
  EXPECT_FALSE(message.empty()) << call << " set no message";
  EXPECT_NE(message, mark) << call << " left the previous message in place";
  EXPECT_NE(message.find(hint), std::string::npos)
      << call << ": the message \"" << message << "\" lacks \"" << hint << "\"";
}

// gtest names a failing case by its entry point, not its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.entry; }

class EntryPoint : public ::testing::TestWithParam<Case> {};

TEST_P(EntryPoint, RefusesBadArgumentsAndKeepsWorking) {
  Fixture x;
  GetParam().run(x);
  expect_runtime_works(x);
}

INSTANTIATE_TEST_SUITE_P(CApiBadArgs, EntryPoint, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.entry); });

TEST(CApiBadArgs, EveryExportedFunctionHasACaseInHeaderOrder) {
  const std::vector<std::string> exported = exported_names();
  EXPECT_GT(exported.size(), 100u) << "the porta.h parser found too few declarations";
  std::vector<std::string> covered;
  for (const Case& c : all_cases()) covered.push_back(c.entry);
  const std::set<std::string> exported_set(exported.begin(), exported.end()),
      covered_set(covered.begin(), covered.end());
  EXPECT_EQ(covered_set.size(), covered.size()) << "an entry point has two cases";
  for (const std::string& name : exported)
    EXPECT_TRUE(covered_set.count(name)) << name << " is exported by porta.h but has no bad-argument case: add one";
  for (const std::string& name : covered)
    EXPECT_TRUE(exported_set.count(name)) << name << " has a case but is not in porta.h";
  EXPECT_EQ(covered, exported) << "cases are not in header order";
  std::printf("bad-argument cases cover %zu of %zu exported functions\n", covered_set.size(), exported_set.size());
}

// ---- released handles

TEST(CApiBadArgs, ReleasedTensorsAreDetectedNotReadAfterFree) {
  Fixture x;
  const int64_t shape[2] = {2, 3};
  porta_tensor* t = nullptr;
  PORTA_ASSERT_OK(porta_ones(shape, 2, porta_float32, x.cpu, &t));
  porta_tensor_release(t);
  Untouched<porta_tensor*> out;
  Untouched<int32_t> ndim;
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_tensor_ndim(t, ndim.p()));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "a is not a live porta_tensor", porta_neg(t, out.p()));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "b is not a live porta_tensor", porta_add(x.f.get(), t, out.p()));
  // The void entry points report through the last error (and a warning on stderr).
  mark_last_error();
  porta_tensor_retain(t);
  EXPECT_NE(error().find("porta_tensor_retain: t is not a live porta_tensor"), std::string::npos) << error();
  mark_last_error();
  porta_tensor_release(t);  // a double release: no double free
  EXPECT_NE(error().find("porta_tensor_release: t is not a live porta_tensor"), std::string::npos) << error();
  expect_runtime_works(x);
}

TEST(CApiBadArgs, ViewsKeepStorageAliveAfterTheirBaseIsReleased) {
  Fixture x;
  porta_tensor* base = nullptr;
  PORTA_ASSERT_OK(porta_clone(x.f.get(), &base));
  porta_tensor* view = nullptr;
  PORTA_ASSERT_OK(porta_transpose(base, 0, 1, &view));
  porta_tensor_release(base);
  EXPECT_EQ(values(view), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  // The view holds a reference to the tensor it views (PyTorch's `_base`,
  // whose history an in-place write into the view rebases): the base's
  // handle dies with its last view.
  porta_tensor_release(view);
  int32_t nd = 0;
  EXPECT_EQ(porta_tensor_ndim(base, &nd), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(porta_tensor_ndim(view, &nd), PORTA_ERROR_INVALID_HANDLE);
}

TEST(CApiBadArgs, ManyReleasesKeepTheLatestDetectable) {
  Fixture x;
  const int64_t one = 1;
  std::vector<porta_tensor*> released;
  for (int i = 0; i < 4096; ++i) {
    porta_tensor* t = nullptr;
    PORTA_ASSERT_OK(porta_zeros(&one, 1, porta_float32, x.cpu, &t));
    porta_tensor_release(t);
    released.push_back(t);
  }
  int32_t nd = -1;
  for (porta_tensor* t : released) ASSERT_EQ(porta_tensor_ndim(t, &nd), PORTA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(nd, -1);
  expect_runtime_works(x);
}

TEST(CApiBadArgs, ReleasedOptimizersAreDetected) {
  Fixture x;
  porta_tensor* p = nullptr;
  PORTA_ASSERT_OK(porta_clone(x.f.get(), &p));
  Tensor param(p);
  PORTA_ASSERT_OK(porta_tensor_set_requires_grad(p, 1));
  porta_sgd_options o{sizeof o, 0.1, 0, 0, 0, 0};
  porta_optimizer* opt = nullptr;
  PORTA_ASSERT_OK(porta_sgd_create(&p, 1, &o, &opt));
  porta_optimizer_release(opt);
  Untouched<double> lr;
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_optimizer_get_lr(opt, lr.p()));
  REFUSED(PORTA_ERROR_INVALID_HANDLE, "already released", porta_optimizer_step(opt));
  mark_last_error();
  porta_optimizer_release(opt);  // a double release: no double free
  EXPECT_NE(error().find("already released"), std::string::npos) << error();
  expect_runtime_works(x);
}

// A timing loop for the record (no threshold: wall-clock limits make flaky tests).
TEST(CApiBadArgs, CreateReleaseLoopTiming) {
  Fixture x;
  const int64_t shape[2] = {2, 3};
  constexpr int kIterations = 20000;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kIterations; ++i) {
    porta_tensor* t = nullptr;
    ASSERT_EQ(porta_tensor_empty(porta_float32, shape, 2, x.cpu, &t), PORTA_OK);
    porta_tensor_release(t);
  }
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  std::printf("porta_tensor_empty + porta_tensor_release: %.0f ns per pair (%d pairs)\n", ns / kIterations,
              kIterations);
}

}  // namespace porta_bad_args
