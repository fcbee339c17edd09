// Every handle kind of the C ABI (runtime/handle_kinds.hpp) released twice,
// then every function that takes one called with the released handle: each
// call is PORTA_ERROR_INVALID_HANDLE saying "already released", the second
// release is ignored, and nothing reads freed memory (this binary also runs
// under valgrind; ASan runs it with the unit label). The functions are
// found in porta.h, so a function added for a kind without a case here fails
// EveryFunctionTakingAHandleHasACase. Process groups come from the loopback
// communicator test plugin (a world of one rank, no launcher).
#include <gtest/gtest.h>
#include <porta/porta.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr DLDevice kCpu{kDLCPU, 0};
constexpr DLDataType kF32{kDLFloat, 32, 1};

porta_tensor* ones(std::vector<int64_t> shape) {
  porta_tensor* t = nullptr;
  EXPECT_EQ(porta_full(shape.data(), int32_t(shape.size()), 1.0, kF32, kCpu, &t), PORTA_OK) << porta_last_error();
  return t;
}

void expect_released(porta_status status, const std::string& call) {
  EXPECT_EQ(status, PORTA_ERROR_INVALID_HANDLE) << call << ": " << porta_last_error();
  EXPECT_NE(std::string(porta_last_error()).find("already released"), std::string::npos)
      << call << ": " << porta_last_error();
}

// A fresh directory for this process's file store and files.
const std::string& scratch() {
  static const std::string dir = [] {
    char name[] = "/tmp/porta-handle-release-XXXXXX";
    return std::string(mkdtemp(name) ? name : "");
  }();
  return dir;
}

// One world of one rank for the whole binary, over the loopback plugin.
class World : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_FALSE(scratch().empty()) << "mkdtemp failed";
    setenv("PORTA_COMM_PLUGIN_PATH", PORTA_TEST_COMM_LOOPBACK_DIR, 1);
    const std::string store = "file://" + scratch();
    const porta_init_options o{sizeof o, "loopback", store.c_str(), 0, 1, 10000};
    ASSERT_EQ(porta_init_process_group(&o), PORTA_OK) << porta_last_error();
  }
  void TearDown() override {
    EXPECT_EQ(porta_destroy_process_group(nullptr), PORTA_OK) << porta_last_error();
    std::filesystem::remove_all(scratch());
  }
};
[[maybe_unused]] const auto* const kWorld = ::testing::AddGlobalTestEnvironment(new World);

// The calls of each kind, by function name, with a released handle of it.
struct Released {
  porta_tensor* tensor;
  porta_tensor_list* list;
  porta_optimizer* optimizer;
  porta_process_group* group;
  porta_work* work;
  porta_reducer* reducer;
  porta_tensor* t;      // a live float32 [4]
  porta_tensor* param;  // a live float32 [4] that requires grad
};
using Call = std::function<porta_status(const Released&)>;

const std::map<std::string, Call>& calls() {
  static const std::map<std::string, Call> table = {
      // porta_tensor_list
      {"porta_tensor_list_size", [](const Released& r) { int32_t n; return porta_tensor_list_size(r.list, &n); }},
      {"porta_tensor_list_get",
       [](const Released& r) {
         const char* name;
         porta_tensor* t;
         return porta_tensor_list_get(r.list, 0, &name, &t);
       }},
      // porta_optimizer
      {"porta_optimizer_step", [](const Released& r) { return porta_optimizer_step(r.optimizer); }},
      {"porta_optimizer_zero_grad", [](const Released& r) { return porta_optimizer_zero_grad(r.optimizer); }},
      {"porta_optimizer_set_lr", [](const Released& r) { return porta_optimizer_set_lr(r.optimizer, 0.1); }},
      {"porta_optimizer_get_lr", [](const Released& r) { double v; return porta_optimizer_get_lr(r.optimizer, &v); }},
      {"porta_optimizer_state_slots",
       [](const Released& r) { int32_t n; return porta_optimizer_state_slots(r.optimizer, &n); }},
      {"porta_optimizer_get_state",
       [](const Released& r) { porta_tensor* t; return porta_optimizer_get_state(r.optimizer, 0, 0, &t); }},
      {"porta_optimizer_set_state", [](const Released& r) { return porta_optimizer_set_state(r.optimizer, 0, 0, r.t); }},
      {"porta_optimizer_get_step",
       [](const Released& r) { int64_t n; return porta_optimizer_get_step(r.optimizer, 0, &n); }},
      {"porta_optimizer_set_step", [](const Released& r) { return porta_optimizer_set_step(r.optimizer, 0, 1); }},
      {"porta_optimizer_set_master_weights",
       [](const Released& r) { return porta_optimizer_set_master_weights(r.optimizer, 1); }},
      {"porta_optimizer_get_master_weight",
       [](const Released& r) { porta_tensor* t; return porta_optimizer_get_master_weight(r.optimizer, 0, &t); }},
      {"porta_optimizer_set_master_weight",
       [](const Released& r) { return porta_optimizer_set_master_weight(r.optimizer, 0, r.t); }},
      {"porta_optimizer_set_maximize", [](const Released& r) { return porta_optimizer_set_maximize(r.optimizer, 1); }},
      // porta_process_group
      {"porta_destroy_process_group", [](const Released& r) { return porta_destroy_process_group(r.group); }},
      {"porta_get_rank", [](const Released& r) { int32_t v; return porta_get_rank(r.group, &v); }},
      {"porta_get_world_size", [](const Released& r) { int32_t v; return porta_get_world_size(r.group, &v); }},
      {"porta_get_backend", [](const Released& r) { const char* v; return porta_get_backend(r.group, &v); }},
      {"porta_get_global_rank", [](const Released& r) { int32_t v; return porta_get_global_rank(r.group, 0, &v); }},
      {"porta_all_reduce", [](const Released& r) { return porta_all_reduce(r.t, PORTA_REDUCE_SUM, r.group, nullptr); }},
      {"porta_broadcast", [](const Released& r) { return porta_broadcast(r.t, 0, r.group, nullptr); }},
      {"porta_all_gather_into_tensor",
       [](const Released& r) { return porta_all_gather_into_tensor(r.t, r.t, r.group, nullptr); }},
      {"porta_reduce_scatter_tensor",
       [](const Released& r) { return porta_reduce_scatter_tensor(r.t, r.t, PORTA_REDUCE_SUM, r.group, nullptr); }},
      {"porta_barrier", [](const Released& r) { return porta_barrier(r.group, nullptr); }},
      {"porta_send", [](const Released& r) { return porta_send(r.t, 0, 0, r.group, nullptr); }},
      {"porta_recv", [](const Released& r) { return porta_recv(r.t, 0, 0, r.group, nullptr); }},
      {"porta_reducer_create",
       [](const Released& r) {
         porta_tensor* p = r.param;
         porta_reducer* out;
         return porta_reducer_create(&p, 1, r.group, 0, 0, 0, &out);
       }},
      {"porta_reducer_create_with_options",
       [](const Released& r) {
         porta_tensor* p = r.param;
         const porta_reducer_options o{sizeof o, 0, 0, 0, 0};
         porta_reducer* out;
         return porta_reducer_create_with_options(&p, 1, r.group, &o, &out);
       }},
      // porta_work
      {"porta_work_wait", [](const Released& r) { return porta_work_wait(r.work, 100); }},
      {"porta_work_is_completed", [](const Released& r) { int32_t v; return porta_work_is_completed(r.work, &v); }},
      // porta_reducer
      {"porta_reducer_prepare_for_backward",
       [](const Released& r) {
         porta_tensor* out = r.t;
         return porta_reducer_prepare_for_backward(r.reducer, &out, 1);
       }},
      {"porta_reducer_bucket_count", [](const Released& r) { int32_t v; return porta_reducer_bucket_count(r.reducer, &v); }},
  };
  return table;
}

// The functions of porta.h with a parameter of one of the kinds above (a
// handle, not an out-parameter for one), release functions apart.
std::set<std::string> functions_taking_a_handle() {
  std::ifstream in(PORTA_PUBLIC_HEADER);
  std::stringstream text;
  text << in.rdbuf();
  const std::string header = text.str();
  const std::regex declaration(R"(PORTA_EXPORT\s+[a-z_]+\s+(porta_[a-z0-9_]+)\(([^;]*)\);)");
  const std::regex handle(R"(\b(porta_tensor_list|porta_optimizer|porta_process_group|porta_work|porta_reducer)\s*\*(?!\*))");
  std::set<std::string> found;
  for (auto it = std::sregex_iterator(header.begin(), header.end(), declaration); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1], params = (*it)[2];
    if (name.size() > 8 && name.compare(name.size() - 8, 8, "_release") == 0) continue;
    if (std::regex_search(params, handle)) found.insert(name);
  }
  return found;
}

}  // namespace

TEST(HandleRelease, EveryFunctionTakingAHandleHasACase) {
  const std::set<std::string> in_header = functions_taking_a_handle();
  ASSERT_GT(in_header.size(), 20u) << "porta.h was not parsed";
  for (const std::string& name : in_header) EXPECT_TRUE(calls().count(name)) << name << " has no case here";
  for (const auto& [name, call] : calls()) EXPECT_TRUE(in_header.count(name)) << name << " is not in porta.h";
}

TEST(HandleRelease, EveryKindReleasedTwiceThenUsedIsRefused) {
  Released r{};
  r.t = ones({4});
  porta_tensor* param = r.param = ones({4});
  ASSERT_EQ(porta_tensor_set_requires_grad(param, 1), PORTA_OK);

  // A tensor: its last reference released twice.
  r.tensor = ones({2});
  porta_tensor_release(r.tensor);
  porta_tensor_release(r.tensor);
  int32_t ndim = -1;
  expect_released(porta_tensor_ndim(r.tensor, &ndim), "porta_tensor_ndim");

  // A list, from a file just written.
  const std::string path = scratch() + "/list.safetensors";
  const char* names[] = {"t"};
  ASSERT_EQ(porta_safetensors_save(path.c_str(), names, &r.t, 1), PORTA_OK) << porta_last_error();
  ASSERT_EQ(porta_safetensors_load(path.c_str(), kCpu, &r.list), PORTA_OK) << porta_last_error();

  const porta_sgd_options sgd{sizeof sgd, 0.1, 0, 0, 0, 0};
  ASSERT_EQ(porta_sgd_create(&param, 1, &sgd, &r.optimizer), PORTA_OK) << porta_last_error();

  const int32_t ranks[] = {0};
  ASSERT_EQ(porta_new_group(ranks, 1, 0, &r.group), PORTA_OK) << porta_last_error();
  ASSERT_NE(r.group, nullptr);
  ASSERT_EQ(porta_all_reduce(r.t, PORTA_REDUCE_SUM, r.group, &r.work), PORTA_OK) << porta_last_error();
  ASSERT_EQ(porta_work_wait(r.work, 1000), PORTA_OK) << porta_last_error();
  const porta_reducer_options ro{sizeof ro, 0, 0, 0, 0};
  ASSERT_EQ(porta_reducer_create_with_options(&param, 1, r.group, &ro, &r.reducer), PORTA_OK) << porta_last_error();

  for (int twice = 0; twice < 2; ++twice) {
    porta_tensor_list_release(r.list);
    porta_optimizer_release(r.optimizer);
    porta_reducer_release(r.reducer);
    porta_work_release(r.work);
    porta_process_group_release(r.group);
  }
  for (const auto& [name, call] : calls()) expect_released(call(r), name);

  // The default group and live handles still work after all that.
  porta_tensor* sum = ones({4});
  EXPECT_EQ(porta_all_reduce(sum, PORTA_REDUCE_SUM, nullptr, nullptr), PORTA_OK) << porta_last_error();
  porta_tensor_release(sum);
  porta_tensor_release(param);
  porta_tensor_release(r.t);
}
