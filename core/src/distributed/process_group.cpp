// Process groups and their work (process_group.hpp).
#include "distributed/process_group.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "distributed/tcp_store.hpp"
#include "ops/ops.hpp"
#include "runtime/dispatch.hpp"
#include "runtime/error.hpp"
#include "runtime/log.hpp"
#include "runtime/plugin_errors.hpp"
#include "runtime/registry.hpp"

namespace porta::dist {
namespace {

std::mutex g_groups_mu;
std::shared_ptr<ProcessGroup> g_default;
std::vector<std::weak_ptr<ProcessGroup>> g_groups;  // every group made, the default one first
int64_t g_next_group = 0;

// An integer from the environment, or `fallback` when unset; a value that is
// not one is an error naming the variable.
int32_t env_int(const char* name, int32_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  if (*end || x < 0 || x > (1 << 30)) fail(PORTA_ERROR_INVALID_ARGUMENT, name, "='", v, "' is not a rank or a size");
  return static_cast<int32_t>(x);
}

bool is_float(const porta_tensor& t) { return is_floating(t.dtype); }

// "host:port" of a tcp store; `what` names where it came from, for messages.
// An IPv6 host may come bracketed, as in a URL ("[::1]"): the brackets are
// the URL's, not the address's.
std::pair<std::string, int> host_and_port(const std::string& bracketed, const std::string& port, const char* what) {
  const bool brackets = bracketed.size() >= 2 && bracketed.front() == '[' && bracketed.back() == ']';
  const std::string host = brackets ? bracketed.substr(1, bracketed.size() - 2) : bracketed;
  char* end = nullptr;
  const long p = std::strtol(port.c_str(), &end, 10);
  if (host.empty() || port.empty() || *end || p < 1 || p > 65535)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "init_process_group: ", what, " does not give a host and a TCP port (1 to ",
         "65535): host '", host, "', port '", port, "'");
  return {host, static_cast<int>(p)};
}

// The default group's rendezvous store, by init_method: "file://<dir>",
// "tcp://<host>:<port>", or "env://" (and "") with MASTER_ADDR and
// MASTER_PORT as torchrun sets them; a process started by the backend's
// launcher without them has none (the launcher connects the ranks).
std::shared_ptr<Store> make_store(const GroupOptions& o, int32_t rank, int32_t size, bool launched) {
  const std::string& m = o.init_method;
  if (m.rfind("file://", 0) == 0) return make_file_store(m.substr(7));
  if (m.rfind("tcp://", 0) == 0) {
    const std::string rest = m.substr(6);
    const size_t colon = rest.rfind(':');
    if (colon == std::string::npos)
      fail(PORTA_ERROR_INVALID_ARGUMENT, "init_process_group: init_method '", m, "' has no port: tcp://<host>:<port>");
    auto [host, port] = host_and_port(rest.substr(0, colon), rest.substr(colon + 1), "init_method 'tcp://'");
    return make_tcp_store(host, port, rank, size, o.timeout_ms);
  }
  if (!m.empty() && m != "env://")
    fail(PORTA_ERROR_INVALID_ARGUMENT, "init_process_group: init_method '", m,
         "' is not one Porta knows: 'env://', 'tcp://<host>:<port>' or 'file://<dir>'");
  const char* addr = std::getenv("MASTER_ADDR");
  const char* port = std::getenv("MASTER_PORT");
  if (addr && *addr && port && *port) {
    auto [host, p] = host_and_port(addr, port, "MASTER_ADDR:MASTER_PORT");
    return make_tcp_store(host, p, rank, size, o.timeout_ms);
  }
  if (!launched)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "init_process_group: init_method 'env://' needs MASTER_ADDR and MASTER_PORT ",
         "(rank 0's host and a free port, as torchrun sets them; MASTER_ADDR is ", addr && *addr ? "set" : "unset",
         ", MASTER_PORT ", port && *port ? "set" : "unset", "): launch with porta-run, or give ",
         "init_method='tcp://<host>:<port>' or 'file://<a directory every rank reaches>'");
  return make_absent_store(cat("the default process group was made by the ", o.backend,
                               " launcher without a rendezvous store; set MASTER_ADDR and MASTER_PORT (porta-run "
                               "does), or give init_method='tcp://<host>:<port>' or 'file://<dir>'"));
}

}  // namespace

const char* reduce_op_name(porta_reduce_op op) {
  switch (op) {
    case PORTA_REDUCE_SUM:
      return "SUM";
    case PORTA_REDUCE_AVG:
      return "AVG";
    case PORTA_REDUCE_MAX:
      return "MAX";
    case PORTA_REDUCE_MIN:
      return "MIN";
    case PORTA_REDUCE_PROD:
      return "PRODUCT";
  }
  return "?";
}

// ------------------------------------------------------------------ Work

Work::Work(std::shared_ptr<ProcessGroup> group, const char* op, int64_t seq, int32_t peer, int32_t tag)
    : group_(std::move(group)), op_(op), seq_(seq), peer_(peer), tag_(tag) {}

std::string Work::what() const {
  if (peer_ >= 0)
    return cat(op_, std::strcmp(op_, "recv") == 0 ? " from rank " : " to rank ", peer_, " (tag ", tag_,
               ") in process group '", group_->name(), "'");
  return cat(op_, " #", seq_, " of process group '", group_->name(), "'");
}

Work::~Work() {
  if (handle_) group_->backend().api.work_release(handle_);
}

void Work::fail_with(const Error& e) {
  done_ = true;
  error_ = std::make_unique<Error>(e.status(), cat(what(), " failed: ", e.what()));
  if (handle_) group_->backend().api.work_release(handle_);
  handle_ = nullptr;
  keep_.clear();
  back_.clear();
}

void Work::finish() {
  if (handle_) group_->backend().api.work_release(handle_);
  handle_ = nullptr;
  done_ = true;
  try {
    for (auto& [dst, buf] : back_) ops::copy_into(dst, buf);
  } catch (const Error& e) {
    back_.clear();
    keep_.clear();
    error_ = std::make_unique<Error>(e.status(), cat(what(), ": copying the result back failed: ", e.what()));
    throw *error_;
  }
  back_.clear();
  keep_.clear();
}

bool Work::is_completed() {
  std::lock_guard<std::mutex> lock(mu_);
  if (done_) {
    if (error_) throw *error_;
    return true;
  }
  int32_t done = 0;
  try {
    if (porta_status st = group_->backend().api.work_test(handle_, &done); st != PORTA_OK)
      check_comm(st, group_->backend(), what().c_str());
  } catch (const Error& e) {
    fail_with(e);
    throw *error_;
  }
  if (done) finish();
  return done != 0;
}

void Work::wait(int64_t timeout_ms) {
  std::lock_guard<std::mutex> lock(mu_);
  if (done_) {
    if (error_) throw *error_;
    return;
  }
  const int64_t limit = timeout_ms < 0 ? group_->timeout_ms() : timeout_ms;
  const auto& api = group_->backend().api;
  // In slices, between which the store says whether a member has gone: a
  // rank that died ends the wait at once, not at the timeout.
  const auto start = std::chrono::steady_clock::now();
  int64_t slice = 100;
  porta_status st = PORTA_ERROR_TIMEOUT;
  for (;;) {
    const int64_t waited =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    const int64_t left = limit - waited;
    st = api.work_wait(handle_, std::max<int64_t>(0, std::min(slice, left)));
    if (st != PORTA_ERROR_TIMEOUT || left <= slice) break;
    if (std::string gone = group_->ended_members(); !gone.empty()) {
      // A rank that did its part and then ended may have delivered it all: a last short wait.
      st = api.work_wait(handle_, std::min<int64_t>(1000, std::max<int64_t>(0, left - slice)));
      if (st != PORTA_ERROR_TIMEOUT) break;
      take_plugin_error();
      fail(PORTA_ERROR_BACKEND, what(), " cannot complete on rank ", group_->rank(), " of ", group_->size(), ": ", gone,
           "; end this process too (the job cannot go on without it)");
    }
    slice = std::min<int64_t>(slice * 2, 2000);
  }
  if (st == PORTA_ERROR_TIMEOUT) {
    take_plugin_error();
    fail(PORTA_ERROR_TIMEOUT, what(), " did not complete within ", limit, " ms on rank ", group_->rank(), " of ",
         group_->size(), seq_ ? group_->missing_ranks(seq_) : std::string(),
         " (a rank that has not joined may be waiting in another collective, or have failed; "
         "PORTA_DISTRIBUTED_DEBUG=DETAIL compares every rank's calls before they run)");
  }
  try {
    if (st != PORTA_OK) check_comm(st, group_->backend(), what().c_str());
  } catch (const Error& e) {
    fail_with(e);
    throw *error_;
  }
  finish();
}

// ---------------------------------------------------------- ProcessGroup

struct ProcessGroup::Comm {
  porta_comm* handle = nullptr;
  DeviceState* device = nullptr;  // where its buffers live
  void* stream = nullptr;         // the device plugin's stream (native_stream), or NULL: the default one
};

ProcessGroup::~ProcessGroup() {
  // A group dropped without destroy(): its communicators stay with the
  // plugin (destroying one is a collective call the other ranks may not make
  // now), as an MPI communicator never freed.
}

std::shared_ptr<ProcessGroup> ProcessGroup::default_group() {
  std::lock_guard<std::mutex> lock(g_groups_mu);
  return g_default;
}

std::shared_ptr<ProcessGroup> ProcessGroup::init(const GroupOptions& o) {
  std::lock_guard<std::mutex> lock(g_groups_mu);
  if (g_default)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "init_process_group: the default process group is already initialized ",
         "(rank ", g_default->rank_, " of ", g_default->size_, "); call destroy_process_group() first");
  if (o.timeout_ms <= 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "init_process_group: timeout must be positive, got ", o.timeout_ms, " ms");
  const CommBackend& b = comm_backend(o.backend);
  int32_t launched = 0, launched_rank = -1, launched_size = -1;
  if (b.api.launched_rank)
    check_comm(b.api.launched_rank(&launched, &launched_rank, &launched_size), b, "launched_rank");
  int32_t rank = o.rank >= 0 ? o.rank : env_int("RANK", launched ? launched_rank : -1);
  int32_t size = o.world_size >= 0 ? o.world_size : env_int("WORLD_SIZE", launched ? launched_size : -1);
  if (rank < 0 || size < 0)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "init_process_group: this process's rank and the world size are unknown: ",
         "give rank= and world_size=, set RANK and WORLD_SIZE (as torchrun does), or start the processes with the ",
         o.backend, " backend's launcher (mpirun -n N for mpi)");
  if (size < 1 || rank >= size)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "init_process_group: rank ", rank, " is outside a world of ", size, " ranks");
  if (launched && (rank != launched_rank || size != launched_size))
    fail(PORTA_ERROR_INVALID_ARGUMENT, "init_process_group: rank ", rank, " of ", size, " given, but the ", o.backend,
         " launcher started this process as rank ", launched_rank, " of ", launched_size);
  auto g = std::shared_ptr<ProcessGroup>(new ProcessGroup());
  g->backend_ = &b;
  g->rank_ = rank;
  g->size_ = size;
  g->timeout_ms_ = o.timeout_ms;
  g->name_ = "0";
  for (int32_t r = 0; r < size; ++r) g->world_ranks_.push_back(r);
  const char* debug = std::getenv("PORTA_DISTRIBUTED_DEBUG");
  g->debug_ = debug && std::strcmp(debug, "DETAIL") == 0;
  g->store_ = make_store(o, rank, size, launched != 0);
  g_next_group = 1;
  // The host communicator now: a failure to connect surfaces here, not at
  // the first collective, and every rank checks it sits in the same world.
  if (b.serves(kDLCPU)) {
    DeviceState& host = *g->comm_for(DLDevice{kDLCPU, 0}).device;
    const int64_t mine[3] = {0x706f727461, size, rank};  // "porta"
    TensorPtr in = ops::from_host(mine, Dtype::Int64, Dims{3}, host);
    TensorPtr all = empty(host, Dtype::Int64, Dims{3 * static_cast<int64_t>(size)});
    g->all_gather(all, in)->wait();
    std::vector<int64_t> got(3 * static_cast<size_t>(size));
    ops::to_host(*all, got.data(), got.size() * sizeof(int64_t));
    for (int32_t r = 0; r < size; ++r)
      if (got[3 * r] != mine[0] || got[3 * r + 1] != size || got[3 * r + 2] != r)
        fail(PORTA_ERROR_INVALID_ARGUMENT, "init_process_group: the ranks disagree: this is rank ", rank, " of ", size,
             ", but the process in place ", r, " says it is rank ", got[3 * r + 2], " of ", got[3 * r + 1],
             " (check RANK and WORLD_SIZE on every process)");
    g->seq_ = 0;  // the check is not the user's: their first collective is #1
  }
  g_default = g;
  g_groups.push_back(g);
  return g;
}

std::shared_ptr<ProcessGroup> ProcessGroup::new_group(std::vector<int32_t> ranks, int64_t timeout_ms) {
  std::shared_ptr<ProcessGroup> parent = default_group();
  if (!parent) fail(PORTA_ERROR_INVALID_ARGUMENT, "new_group: call init_process_group first");
  std::sort(ranks.begin(), ranks.end());
  if (ranks.empty()) ranks = parent->world_ranks_;
  for (size_t i = 0; i < ranks.size(); ++i)
    if (ranks[i] < 0 || ranks[i] >= parent->size_ || (i && ranks[i] == ranks[i - 1]))
      fail(PORTA_ERROR_INVALID_ARGUMENT, "new_group: rank ", ranks[i], " is ",
           ranks[i] < 0 || ranks[i] >= parent->size_ ? "outside the default group" : "listed twice",
           " (the default group has ranks 0 to ", parent->size_ - 1, ")");
  std::lock_guard<std::mutex> lock(g_groups_mu);
  const std::string name = cat(g_next_group++);  // every rank numbers its groups alike: all call new_group
  const auto at = std::find(ranks.begin(), ranks.end(), parent->rank_);
  if (at == ranks.end()) return nullptr;
  auto g = std::shared_ptr<ProcessGroup>(new ProcessGroup());
  g->backend_ = parent->backend_;
  g->rank_ = static_cast<int32_t>(at - ranks.begin());
  g->size_ = static_cast<int32_t>(ranks.size());
  g->timeout_ms_ = timeout_ms > 0 ? timeout_ms : parent->timeout_ms_;
  g->name_ = name;
  g->debug_ = parent->debug_;
  for (int32_t r : ranks) g->world_ranks_.push_back(parent->world_ranks_[static_cast<size_t>(r)]);
  g->store_ = parent->store_;
  g_groups.push_back(g);
  return g;
}

void ProcessGroup::destroy_all() {
  std::vector<std::shared_ptr<ProcessGroup>> groups;
  {
    std::lock_guard<std::mutex> lock(g_groups_mu);
    for (auto it = g_groups.rbegin(); it != g_groups.rend(); ++it)
      if (auto g = it->lock()) groups.push_back(g);
    g_groups.clear();
    g_default.reset();
  }
  for (auto& g : groups) g->destroy();
}

int32_t ProcessGroup::group_rank_of(int32_t global) const {
  const auto at = std::find(world_ranks_.begin(), world_ranks_.end(), global);
  return at == world_ranks_.end() ? -1 : static_cast<int32_t>(at - world_ranks_.begin());
}

int32_t ProcessGroup::global_rank_of(int32_t group_rank) const {
  if (group_rank < 0 || group_rank >= size_)
    fail(PORTA_ERROR_INVALID_ARGUMENT, "get_global_rank: group rank ", group_rank, " is outside process group '", name_,
         "' (", size_, " ranks)");
  return world_ranks_[static_cast<size_t>(group_rank)];
}

void ProcessGroup::check_open(const char* op) const {
  if (destroyed_)
    fail(PORTA_ERROR_INVALID_HANDLE, op, ": process group '", name_, "' was destroyed (destroy_process_group)");
}

ProcessGroup::Comm& ProcessGroup::comm_for(DLDevice device) {
  if (!backend_->serves(device.device_type)) {
    if (!backend_->serves(kDLCPU))
      fail(PORTA_ERROR_NOT_IMPLEMENTED, "process group '", name_, "': the ", backend_->name,
           " backend serves neither this tensor's device type (", device.device_type,
           ") nor host memory to stage it through");
    device = DLDevice{kDLCPU, 0};  // staged through host memory: a copy each way
  }
  last_device_ = device;
  auto key = std::make_pair(static_cast<int32_t>(device.device_type), device.device_id);
  if (auto it = comms_.find(key); it != comms_.end()) return *it->second;
  auto c = std::make_unique<Comm>();
  c->device = &Registry::get().device(device);
  // The device's stream, on which the plugin enqueues (a device plugin without the slot: its default one).
  const porta_plugin_api& dev_api = c->device->backend->api;
  if (device.device_type != kDLCPU && dev_api.native_stream)
    check_plugin(dev_api.native_stream(c->device->index, &c->stream), *c->device->backend,
                 cat("native_stream of ", c->device->name));
  // Each rank's k-th communicator of a device type meets the others' k-th,
  // whichever device of that type each rank uses (rank r on cuda:r).
  int64_t same_type = 0;
  for (const auto& [k, other] : comms_) same_type += k.first == device.device_type;
  KvAdapter kv(*store_, cat("group/", name_, "/", device.device_type, "/", same_type));
  porta_comm_config config{};
  config.struct_size = sizeof config;
  config.rank = rank_;
  config.world_size = size_;
  config.world_ranks = world_ranks_.data();
  config.device = device;
  config.name = name_.c_str();
  config.timeout_ms = timeout_ms_;
  config.kv = kv.table();
  check_comm(backend_->api.comm_create(&config, &c->handle), *backend_, "comm_create");
  return *(comms_[key] = std::move(c));
}

DLDevice ProcessGroup::control_device() {
  if (backend_->serves(kDLCPU)) return DLDevice{kDLCPU, 0};
  if (last_device_) return *last_device_;
  const auto type = static_cast<DLDeviceType>(backend_->device_types.front());
  const auto count = static_cast<int32_t>(Registry::get().device(DLDevice{type, 0}).backend->devices.size());
  return DLDevice{type, rank_ % std::max<int32_t>(count, 1)};
}

TensorPtr ProcessGroup::buffer_for(const TensorPtr& t, Comm& comm, Work& work, bool written, bool read) {
  if (t->device == comm.device && t->is_contiguous()) {
    work.keep_.push_back(t);
    return t;
  }
  TensorPtr buf;
  if (!read)
    buf = empty(*comm.device, t->dtype, t->shape);
  else
    buf = ops::contiguous(t->device == comm.device ? t : ops::to(t, *comm.device));
  work.keep_.push_back(buf);
  if (written) work.back_.emplace_back(t, buf);
  return buf;
}

void ProcessGroup::reap() {
  outstanding_.erase(std::remove_if(outstanding_.begin(), outstanding_.end(),
                                    [](const std::shared_ptr<Work>& w) {
                                      std::lock_guard<std::mutex> lock(w->mu_);
                                      return w->done_;
                                    }),
                     outstanding_.end());
}

std::shared_ptr<Work> ProcessGroup::start(const char* op, const TensorPtr& sample, int64_t detail) {
  check_open(op);
  reap();
  const int64_t seq = ++seq_;
  if (my_progress_key_.empty()) my_progress_key_ = progress_key(rank_);
  store_->post(my_progress_key_, std::to_string(seq) + " " + op);
  if (debug_) check_same_call(op, seq, sample.get(), detail);
  return std::make_shared<Work>(shared_from_this(), op, seq);
}

std::string ProcessGroup::progress_key(int32_t rank) const { return cat("group/", name_, "/progress/", rank); }

std::string ProcessGroup::missing_ranks(int64_t seq) {
  if (!store_->present())
    return " (the ranks that have not joined it are named when the group has a rendezvous store: launch with "
           "porta-run, or set MASTER_ADDR and MASTER_PORT)";
  std::string missing;
  try {
    for (int32_t r = 0; r < size_; ++r) {
      if (r == rank_) continue;
      const std::optional<std::string> note = store_->try_get(progress_key(r));
      int64_t last = 0;
      std::string op;
      if (note) {
        const size_t space = note->find(' ');
        last = std::strtoll(note->c_str(), nullptr, 10);
        op = space == std::string::npos ? "?" : note->substr(space + 1);
      }
      if (last >= seq) continue;
      missing += cat(missing.empty() ? "" : ", ", "rank ", r,
                     note ? cat(" (its last collective: ", op, " #", last, ")") : std::string(" (no collective yet)"));
    }
  } catch (const Error& e) {
    return cat(" (the ranks missing are unknown: ", e.what(), ")");
  }
  if (missing.empty()) return "; every rank has entered it, the engine has not completed it";
  return "; ranks missing from it: " + missing;
}

std::string ProcessGroup::ended_members() {
  const std::vector<RankState> states = store_->rank_states();
  std::string gone;
  for (int32_t r = 0; r < size_; ++r) {
    const auto world = static_cast<size_t>(world_ranks_[static_cast<size_t>(r)]);
    if (r == rank_ || world >= states.size()) continue;
    if (states[world] == RankState::failed)
      gone += cat(gone.empty() ? "" : "; ", "rank ", r, "'s process ended without leaving the group (it died or was ",
                  "killed)");
    else if (states[world] == RankState::left)
      gone += cat(gone.empty() ? "" : "; ", "rank ", r, " has left (its process groups were destroyed or it ended)");
  }
  return gone;
}

void ProcessGroup::submit(const std::shared_ptr<Work>& work, porta_status st) {
  if (st != PORTA_OK) check_comm(st, *backend_, work->what().c_str());
  outstanding_.push_back(work);
}

namespace {

// The collectives the debug check tells apart, by their number in the fingerprint.
constexpr const char* kCollectives[] = {"all_reduce", "broadcast", "all_gather", "reduce_scatter", "barrier"};

int64_t collective_number(const char* op) {
  for (size_t i = 0; i < std::size(kCollectives); ++i)
    if (std::strcmp(op, kCollectives[i]) == 0) return static_cast<int64_t>(i);
  return -1;
}

// "all_reduce #4 of 7 float32 elements (ReduceOp.SUM)" from a fingerprint.
std::string describe_call(const int64_t* f) {
  const std::string name = f[0] >= 0 && f[0] < static_cast<int64_t>(std::size(kCollectives)) ? kCollectives[f[0]] : "?";
  std::string what = cat(name, " #", f[1]);
  if (f[2] >= 0) what += cat(" of ", f[3], " ", dtype_name(static_cast<Dtype>(f[2])), " elements");
  if (name == "all_reduce" || name == "reduce_scatter")
    what += cat(" (ReduceOp.", reduce_op_name(static_cast<porta_reduce_op>(f[4])), ")");
  else if (name == "broadcast")
    what += cat(" (from rank ", f[4], ")");
  return what;
}

}  // namespace

void ProcessGroup::check_same_call(const char* op, int64_t seq, const porta_tensor* sample, int64_t detail) {
  const int64_t mine[5] = {collective_number(op), seq, sample ? static_cast<int64_t>(sample->dtype) : -1,
                           sample ? sample->numel() : -1, detail};
  Comm& c = comm_for(control_device());
  TensorPtr in = ops::from_host(mine, Dtype::Int64, Dims{5}, *c.device);
  TensorPtr all = empty(*c.device, Dtype::Int64, Dims{5 * static_cast<int64_t>(size_)});
  KernelArg a(*in), b(*all);
  porta_comm_work* w = nullptr;
  check_comm(backend_->api.all_gather(c.handle, &a.dl, &b.dl, c.stream, &w), *backend_, "debug check");
  const porta_status st = backend_->api.work_wait(w, timeout_ms_);
  backend_->api.work_release(w);
  if (st == PORTA_ERROR_TIMEOUT)
    fail(PORTA_ERROR_TIMEOUT, op, " #", seq, " of process group '", name_, "': the ranks' calls were not all made ",
         "within ", timeout_ms_, " ms (PORTA_DISTRIBUTED_DEBUG's check before the call)");
  check_comm(st, *backend_, "debug check");
  std::vector<int64_t> got(5 * static_cast<size_t>(size_));
  ops::to_host(*all, got.data(), got.size() * sizeof(int64_t));
  std::string differ;
  for (int32_t r = 0; r < size_; ++r)
    if (!std::equal(mine, mine + 5, got.begin() + 5 * r))
      differ +=
          cat(differ.empty() ? "" : "; ", "rank ", r, " called ", describe_call(&got[5 * static_cast<size_t>(r)]));
  if (!differ.empty())
    fail(PORTA_ERROR_INVALID_ARGUMENT, "process group '", name_, "': rank ", rank_, " called ", describe_call(mine),
         ", which does not match the other ranks' calls: ", differ,
         " (every rank must make the same collectives, "
         "in the same order, with the same sizes)");
}

namespace {

void check_reduce_op(const char* op, porta_reduce_op r, const porta_tensor& t) {
  if (r < PORTA_REDUCE_SUM || r > PORTA_REDUCE_PROD)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": unknown reduce op ", static_cast<int>(r),
         " (SUM 0, AVG 1, MAX 2, MIN 3, PRODUCT 4)");
  if (r == PORTA_REDUCE_AVG && !is_float(t))
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": ReduceOp.AVG needs a floating-point tensor, got ", dtype_name(t.dtype),
         " (as torch.distributed); reduce with SUM and divide");
}

void check_peer(const char* op, int32_t peer, const ProcessGroup& g, const char* what) {
  if (peer < 0 || peer >= g.size())
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": ", what, " rank ", peer, " is outside process group '", g.name(), "' (",
         g.size(), " ranks)");
}

void check_pair(const char* op, const porta_tensor& out, const porta_tensor& in, int64_t out_per_in,
                int64_t in_per_out) {
  check_same_device(op, {&out, &in});
  if (out.dtype != in.dtype)
    fail(PORTA_ERROR_UNSUPPORTED_DTYPE, op, ": output and input must share a dtype, got ", dtype_name(out.dtype),
         " and ", dtype_name(in.dtype));
  if (out.numel() * in_per_out != in.numel() * out_per_in)
    fail(PORTA_ERROR_SHAPE_MISMATCH, op, ": the output has ", out.numel(), " elements and the input ", in.numel(),
         "; the ", out_per_in > 1 ? "output" : "input", " must have world_size (", std::max(out_per_in, in_per_out),
         ") times the other's");
}

}  // namespace

std::shared_ptr<Work> ProcessGroup::all_reduce(const TensorPtr& t, porta_reduce_op op) {
  check_handle(t.get(), "tensor");
  check_reduce_op("all_reduce", op, *t);
  check_writable_memory(*t, "all_reduce");
  std::lock_guard<std::mutex> lock(mu_);
  auto w = start("all_reduce", t, op);
  Comm& c = comm_for(t->device->dl);
  begin_write(*t, "all_reduce");
  TensorPtr buf = buffer_for(t, c, *w, true, true);
  KernelArg a(*buf);
  submit(w, backend_->api.all_reduce(c.handle, &a.dl, &a.dl, op, c.stream, &w->handle_));
  return w;
}

std::shared_ptr<Work> ProcessGroup::broadcast(const TensorPtr& t, int32_t root) {
  check_handle(t.get(), "tensor");
  check_peer("broadcast", root, *this, "source");
  check_writable_memory(*t, "broadcast");
  std::lock_guard<std::mutex> lock(mu_);
  auto w = start("broadcast", t, root);
  Comm& c = comm_for(t->device->dl);
  if (root != rank_) begin_write(*t, "broadcast");
  TensorPtr buf = buffer_for(t, c, *w, root != rank_, root == rank_);
  KernelArg a(*buf);
  submit(w, backend_->api.broadcast(c.handle, &a.dl, root, c.stream, &w->handle_));
  return w;
}

std::shared_ptr<Work> ProcessGroup::all_gather(const TensorPtr& out, const TensorPtr& in) {
  return out_of_in("all_gather", out, in, PORTA_REDUCE_SUM);
}

std::shared_ptr<Work> ProcessGroup::reduce_scatter(const TensorPtr& out, const TensorPtr& in, porta_reduce_op op) {
  return out_of_in("reduce_scatter", out, in, op);
}

std::shared_ptr<Work> ProcessGroup::out_of_in(const char* op, const TensorPtr& out, const TensorPtr& in,
                                              porta_reduce_op reduce) {
  const bool gather = std::strcmp(op, "all_gather") == 0;
  check_handle(out.get(), "output");
  check_handle(in.get(), "input");
  check_pair(op, *out, *in, gather ? size_ : 1, gather ? 1 : size_);
  if (!gather) check_reduce_op(op, reduce, *in);
  check_writable_memory(*out, op);
  std::lock_guard<std::mutex> lock(mu_);
  auto w = start(op, in, gather ? 0 : reduce);
  Comm& c = comm_for(in->device->dl);
  begin_write(*out, op);
  TensorPtr src = buffer_for(in, c, *w, false, true), dst = buffer_for(out, c, *w, true, false);
  KernelArg a(*src), b(*dst);
  submit(w, gather ? backend_->api.all_gather(c.handle, &a.dl, &b.dl, c.stream, &w->handle_)
                   : backend_->api.reduce_scatter(c.handle, &a.dl, &b.dl, reduce, c.stream, &w->handle_));
  return w;
}

std::shared_ptr<Work> ProcessGroup::barrier() {
  std::lock_guard<std::mutex> lock(mu_);
  auto w = start("barrier", TensorPtr(), 0);
  Comm& c = comm_for(control_device());
  submit(w, backend_->api.barrier(c.handle, &w->handle_));
  return w;
}

std::shared_ptr<Work> ProcessGroup::send(const TensorPtr& t, int32_t peer, int32_t tag) {
  return point_to_point(t, peer, tag, false);
}

std::shared_ptr<Work> ProcessGroup::recv(const TensorPtr& t, int32_t peer, int32_t tag) {
  return point_to_point(t, peer, tag, true);
}

std::shared_ptr<Work> ProcessGroup::point_to_point(const TensorPtr& t, int32_t peer, int32_t tag, bool receive) {
  const char* op = receive ? "recv" : "send";
  check_handle(t.get(), "tensor");
  check_peer(op, peer, *this, receive ? "source" : "destination");
  if (peer == rank_)
    fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": the ", receive ? "source" : "destination", " is this rank (", rank_, ")");
  if (tag < 0) fail(PORTA_ERROR_INVALID_ARGUMENT, op, ": tag must be >= 0, got ", tag);
  if (receive) check_writable_memory(*t, op);
  std::lock_guard<std::mutex> lock(mu_);
  check_open(op);
  reap();
  auto w = std::make_shared<Work>(shared_from_this(), op, 0, peer, tag);
  Comm& c = comm_for(t->device->dl);
  if (receive) begin_write(*t, op);
  TensorPtr buf = buffer_for(t, c, *w, receive, !receive);
  KernelArg a(*buf);
  submit(w, (receive ? backend_->api.recv : backend_->api.send)(c.handle, &a.dl, peer, tag, c.stream, &w->handle_));
  return w;
}

void ProcessGroup::destroy() {
  std::vector<std::shared_ptr<Work>> pending;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (destroyed_) return;
    destroyed_ = true;
    pending.swap(outstanding_);
  }
  std::string first_error;
  for (auto& w : pending) {
    try {
      w->wait();
    } catch (const Error& e) {
      if (first_error.empty()) first_error = e.what();
    }
  }
  for (auto& [key, c] : comms_) {
    const porta_status st = backend_->api.comm_destroy(c->handle);
    if (st != PORTA_OK && first_error.empty()) first_error = cat("comm_destroy: ", take_plugin_error());
  }
  comms_.clear();
  if (!first_error.empty())
    fail(PORTA_ERROR_BACKEND, "destroy_process_group: process group '", name_, "': ", first_error);
}

}  // namespace porta::dist
