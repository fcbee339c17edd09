// The suite checks itself: plugins loaded, devices found, every op of
// PORTA_OP_LIST has a reference and a test, and the host Philox is right.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "device_params.hpp"
#include "missing_kernel.hpp"
#include "op_tables.hpp"
#include "philox_reference.hpp"
#include "reference.hpp"

namespace conformance {
namespace {

TEST(Suite, EveryPluginAttemptLoaded) {
  int32_t attempts = 0;
  CHECK_OK(porta_plugin_count(&attempts));
  ASSERT_GT(attempts, 0) << "no plugin was found; set PORTA_PLUGIN_PATH";
  for (int32_t i = 0; i < attempts; ++i) {
    porta_plugin_info info{};
    info.struct_size = sizeof(info);
    CHECK_OK(porta_plugin_get_info(i, &info));
    EXPECT_TRUE(info.state == PORTA_PLUGIN_LOADED || info.state == PORTA_PLUGIN_NO_DEVICES)
        << info.path << " (" << info.name << "): state " << info.state << ": " << info.reason;
  }
}

TEST(Suite, DevicesAreEnumerated) {
  const auto& devices = loaded_devices();
  ASSERT_FALSE(devices.empty());
  bool cpu = false;
  std::set<std::string> names;
  for (const DeviceCase& c : devices) {
    cpu = cpu || c.label == "cpu_0";
    EXPECT_TRUE(names.insert(c.name).second) << c.name << " listed twice";
    DLDevice parsed{};
    CHECK_OK(porta_device_parse(c.name.c_str(), &parsed));  // the printed name parses back
    EXPECT_EQ(parsed.device_type, c.device.device_type) << c.name;
    EXPECT_EQ(parsed.device_id, c.device.device_id) << c.name;
  }
  EXPECT_TRUE(cpu) << "the cpu plugin did not load";
  // Run through CTest, the mock plugin is configured: its two devices must be there.
  const char* path = std::getenv("PORTA_PLUGIN_PATH");
  if (path != nullptr && std::string(path).find("mock") != std::string::npos) {
    EXPECT_TRUE(names.count("mock:0") && names.count("mock:1")) << "PORTA_PLUGIN_PATH=" << path;
  }
}

// Which test file covers each op, by its kind (nullptr: none yet): a new
// row of an existing kind joins that kind's tests.
const char* covering_file(porta_op op) {
  const OpInfo* info = nullptr;
  for (const OpInfo& o : kAllOps)
    if (o.op == op) info = &o;
  if (info == nullptr) return nullptr;
  switch (info->kind) {
    case PORTA_OP_KIND_FACTORY:
      return op == PORTA_OP_RAND_UNIFORM || op == PORTA_OP_RAND_NORMAL ? "test_random.cpp" : "test_factories.cpp";
    case PORTA_OP_KIND_COPY:
      return op == PORTA_OP_CAST ? "test_cast.cpp" : "test_views.cpp, test_copy.cpp, test_transfer.cpp";
    case PORTA_OP_KIND_UNARY:
      return "test_unary.cpp";
    case PORTA_OP_KIND_BINARY:
    case PORTA_OP_KIND_COMPARE:
      return "test_binary.cpp, test_scalar.cpp";
    case PORTA_OP_KIND_WHERE:
      return "test_where.cpp";
    case PORTA_OP_KIND_REDUCE:
      return "test_reduce.cpp";
    case PORTA_OP_KIND_ARGREDUCE:
      return "test_argreduce.cpp";
    case PORTA_OP_KIND_MATMUL:
      return "test_matmul.cpp";
    case PORTA_OP_KIND_CONV:
    case PORTA_OP_KIND_POOL:
    case PORTA_OP_KIND_SOFTMAX:
    case PORTA_OP_KIND_LOSS:
      return "test_nn.cpp";
    case PORTA_OP_KIND_OPTIMIZER:
      return "test_optimizers.cpp";
    case PORTA_OP_KIND_INDEX:
      return "test_index.cpp";
    case PORTA_OP_KIND_SCAN:
    case PORTA_OP_KIND_RUNNING_EXTREME:
      return "test_scan.cpp";
    case PORTA_OP_KIND_SORT:
      return "test_sort.cpp";
    case PORTA_OP_KIND_NORM:
      return "test_nn.cpp";
    case PORTA_OP_KIND_RNN:
      return "test_nn.cpp";
  }
  return nullptr;
}

TEST(Suite, EveryOpHasATestAndAReference) {
  std::set<int> in_tables;
  for (const UnaryOp& u : kUnaryOps) {
    in_tables.insert(u.op);
    EXPECT_NO_THROW(unary_ref(u.op, 0.5)) << u.name;
  }
  for (const BinaryOp& b : kBinaryOps) {
    in_tables.insert(b.op);
    EXPECT_NO_THROW(binary_ref(b.op, 0.5, 2.0)) << b.name;
  }
  const HostTensor t = make_host(porta_float64, {2}, {1, 2});
  for (const ReduceOp& r : kReduceOps) {
    in_tables.insert(r.op);
    EXPECT_NO_THROW(ref_reduce(r.op, t, {}, false)) << r.name;
  }
  for (const ArgReduceOp& a : kArgReduceOps) {
    in_tables.insert(a.op);
    EXPECT_NO_THROW(ref_argreduce(a.op, t, 0, false)) << a.name;
  }
  for (const ScanOp& s : kScanOps) {
    in_tables.insert(s.op);
    EXPECT_NO_THROW(ref_scan(s.op, t, 0)) << s.name;
  }
  // INDEX ops have no common signature: op_tables.hpp stops the build at a
  // new one, and each has its reference here.
  const HostTensor index = make_host(porta_int64, {2}, {1, 1});
  for (const OpInfo& op : kAllOps) {
    if (op.kind != PORTA_OP_KIND_INDEX) continue;
    in_tables.insert(op.op);
    if (op.op == PORTA_OP_GATHER)
      EXPECT_NO_THROW(ref_gather(t, 0, index)) << op.name;
    else if (op.op == PORTA_OP_SCATTER)
      for (int32_t reduce = PORTA_SCATTER_ASSIGN; reduce <= PORTA_SCATTER_MEAN; ++reduce)
        EXPECT_NO_THROW(ref_scatter(t, 0, index, t, reduce, reduce % 2 == 0)) << op.name << " reduce " << reduce;
    else
      ADD_FAILURE() << op.name << ": an INDEX op without a reference";
  }
  int count = 0;
  std::string untested;
  for (const OpInfo& op : kAllOps) {
    ++count;
    if (covering_file(op.op) == nullptr) untested += std::string(untested.empty() ? "" : ", ") + op.name;
    const bool tabled = op.kind == PORTA_OP_KIND_UNARY || op.kind == PORTA_OP_KIND_BINARY ||
                        op.kind == PORTA_OP_KIND_COMPARE || op.kind == PORTA_OP_KIND_REDUCE ||
                        op.kind == PORTA_OP_KIND_ARGREDUCE || op.kind == PORTA_OP_KIND_SCAN ||
                        op.kind == PORTA_OP_KIND_INDEX;
    EXPECT_EQ(tabled, in_tables.count(op.op) == 1) << op.name;
  }
  EXPECT_TRUE(untested.empty()) << "ops of PORTA_OP_LIST without a conformance test: " << untested;
  EXPECT_EQ(count, PORTA_OP_COUNT) << "ids of PORTA_OP_LIST are not dense";
}

// Only the core's kernel lookup counts as "not implemented": its exact text
// (tests/abi/test_loader.cpp pins it), with a known op, at the start.
TEST(Suite, OnlyAKernelLookupIsAMissingKernel) {
  const auto found =
      missing_kernel(PORTA_ERROR_NOT_IMPLEMENTED, "add (float32) is not implemented by plugin 'old_minor'");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->kernel(), "add (float32)");
  EXPECT_EQ(found->plugin, "old_minor");
  EXPECT_TRUE(missing_kernel(PORTA_ERROR_NOT_IMPLEMENTED,
                             "sgd_step (float64) is not implemented by plugin 'x' (optimizer step stopped at parameter "
                             "0 of 1: ...)"));
  const char* const not_missing[] = {
      "add (float32) on mock:0: [mock plugin] add (float32) is not implemented by plugin 'mock'",  // a kernel said so
      "frobnicate (float32) is not implemented by plugin 'mock'",                                  // no such op
      "while stepping: add (float32) is not implemented by plugin 'mock'",                         // not at the start
      "add (float32) is not implemented", ""};
  for (const char* message : not_missing) EXPECT_FALSE(missing_kernel(PORTA_ERROR_NOT_IMPLEMENTED, message)) << message;
  for (porta_status other : {PORTA_OK, PORTA_ERROR_BACKEND, PORTA_ERROR_UNSUPPORTED_DTYPE, PORTA_ERROR_INTERNAL})
    EXPECT_FALSE(missing_kernel(other, "add (float32) is not implemented by plugin 'mock'")) << other;
}

// Known-answer vectors of Random123's kat_vectors for philox4x32 10.
TEST(Suite, HostPhiloxMatchesRandom123) {
  using A4 = std::array<uint32_t, 4>;
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}), (A4{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32_10({~0u, ~0u, ~0u, ~0u}, {~0u, ~0u}), (A4{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
            (A4{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

}  // namespace
}  // namespace conformance
