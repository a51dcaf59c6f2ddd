#include "server/node.h"

#include <signal.h>
#include <unistd.h>
#include <uv.h>

#include <atomic>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "server/base/numbers.h"
#include "server/base/open_files.h"
#include "server/base/text.h"
#include "server/engine/core/aof.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"
#include "server/engine/core/help.h"
#include "server/fault/fault.h"
#include "server/fault/history.h"
#include "server/log.h"
#include "server/net/listener.h"
#include "server/net/outbound_link.h"
#include "server/net/partition.h"
#include "server/net/stall.h"
#include "server/net/sync_link.h"
#include "server/node_config.h"
#include "server/replication/replication.h"
#include "server/sentinel/sentinel.h"
#include "server/topology.h"
#include "server/topology_command.h"

namespace redlab::server {

class Node::Impl : public sentinel::SentinelHost,
                   public replication::ReplicationHost,
                   public fault::FaultTarget {
 public:
  explicit Impl(const NodeOptions& options) : options_(options), logger_(options.loglevel) {
    NodeConfig configured = ConfigureNode(options);
    config_ = std::move(configured.config);
    replicaof_host_ = std::move(configured.replicaof_host);
    replicaof_port_ = configured.replicaof_port;
    sentinel_directives_ = std::move(configured.sentinel_directives);
    registry_ = options.registry ? options.registry : std::make_shared<NodeRegistry>();
  }

  ~Impl() override {
    Stop();
    registry_->Remove(this);
  }

  void Start() {
    std::promise<std::string> ready;
    std::future<std::string> ready_future = ready.get_future();
    thread_ = std::thread([this, &ready] { Run(ready); });
    std::string error = ready_future.get();
    if (!error.empty()) {
      thread_.join();
      throw std::runtime_error(error);
    }
  }

  void Stop() {
    std::lock_guard join_lock(join_mu_);
    if (!thread_.joinable()) return;
    if (std::this_thread::get_id() == thread_.get_id()) {
      RequestShutdown();  // from the node's own thread: the owner joins later
      return;
    }
    PostRaw([this] { BeginShutdown(); });
    stall_.Wake();  // a stalled loop would take the task only once the stall is over
    thread_.join();
  }

  void RequestStop() {
    PostRaw([this] { BeginShutdown(); });
    stall_.Wake();
  }

  void WaitUntilStopped() {
    std::unique_lock lock(mu_);
    stopped_cv_.wait(lock, [this] { return stopped_; });
  }

  bool stopped() const {
    std::lock_guard lock(mu_);
    return stopped_;
  }

  int port() const { return port_.load(); }
  bool crashed() const { return crashed_.load(); }

  void Post(std::function<void(engine::Engine&)> task) {
    PostRaw([this, task = std::move(task)] { task(*engine_); });
  }
  // Runs `fn` on the loop thread and waits for it; false when the node is gone.
  bool RunOnLoop(std::function<void()> fn) {
    auto done = std::make_shared<std::promise<void>>();
    std::future<void> f = done->get_future();
    PostRaw([fn = std::move(fn), done] {
      fn();
      done->set_value();
    });
    try {
      f.get();
      return true;
    } catch (const std::future_error&) {
      return false;  // the task was dropped: the node stopped
    }
  }

  // ---- SentinelHost ----
  sentinel::Sentinel* sentinel() override { return sentinel_.get(); }
  void SimulateCrash() override { Crash(); }

  // ---- EngineHost ----
  void RequestShutdown() override {
    shutdown_requested_ = true;
    uv_async_send(&async_);
  }
  int TcpPort() const override { return port_.load(); }
  bool Rebind(const std::string& bind, int port) override {
    if (!listener_) return false;
    int rc = listener_->Rebind(bind, port, static_cast<int>(engine_->config().tcp_backlog));
    if (rc != 0) {
      logger_.Warning("Failed to listen on " + bind + " port " + std::to_string(port) + ": " +
                      uv_strerror(rc));
      return false;
    }
    port_ = port;
    logger_.set_port(port);
    PublishState();
    return true;
  }
  void ProcessEventsWhileBlocked() override {
    if (listener_) listener_->ProcessEventsWhileBlocked();
  }
  void ScheduleTimer(int64_t delay_ms) override {
    if (crashed_) return;
    // `delay_ms` is node time: under CLOCK RATE it passes faster or slower than real time, and
    // a frozen clock reaches it only through CLOCK ADVANCE (which runs the engine's timer).
    // Every clock fault runs Engine::OnTimer, which re-arms this with the new rate.
    int64_t real_ms = engine_->clock().RealMsFor(delay_ms);
    if (real_ms < 0) {
      uv_timer_stop(&wakeup_);
      return;
    }
    uv_timer_start(&wakeup_, OnWakeup, static_cast<uint64_t>(real_ms), 0);
  }
  void ScheduleBeforeSleep() override {
    if (crashed_ || shutting_down_) return;
    // Due at once: the loop runs it before it waits for I/O again.
    if (!uv_is_active(reinterpret_cast<uv_handle_t*>(&before_sleep_))) {
      uv_timer_start(&before_sleep_, OnBeforeSleep, 0, 0);
    }
  }
  void LogWarning(std::string_view message) override { logger_.Warning(message); }
  void Log(int level, std::string_view message) override {
    logger_.Log(static_cast<LogLevel>(level), message);
  }
  std::unique_ptr<engine::SyncLink> ConnectSync(const std::string& host, int port,
                                                int64_t timeout_ms) override {
    // Across FAULT PARTITION the connection is never made: MIGRATE answers as it does when a
    // connect times out, without holding the node for the timeout.
    if (net::Partitioned(port_.load(), port)) return nullptr;
    return net::ConnectSync(host, port, timeout_ms);
  }
  bool ServesNodeCommands() const override { return true; }
  // FAULT or TOPOLOGY, checked by the engine as any command (see cmd_node_control.cc).
  void RunNodeCommand(engine::Client& /*client*/, std::span<std::string> args,
                      resp::ReplyWriter& reply) override {
    PublishState();
    if (server::EqualsIgnoreCase(args[0], "fault")) {
      faults_.Execute(args, reply, *this);
    } else {
      TopologyCommand(*registry_, port_.load(), args, reply);
    }
    PublishState();
  }

  // ---- ReplicationHost ----
  replication::LinkIo* ConnectToMaster(const std::string& host, int port,
                                       replication::LinkHandler* handler) override {
    return net::OutboundLink::Start(&loop_, host, port, handler, port_.load(),
                                    engine_->config().bind_source_addr);
  }
  void ScheduleReplicationTimer(int64_t delay_ms) override {
    if (crashed_ || shutting_down_) return;
    uv_timer_start(&repl_timer_, OnReplTimer, static_cast<uint64_t>(delay_ms), 0);
  }
  void OnReplicationStateChanged() override {
    if (engine_ != nullptr) PublishState();
  }
  void LogReplication(bool warning, std::string_view message) override {
    if (warning) {
      logger_.Warning(message);
    } else {
      logger_.Notice(message);
    }
  }

  // ---- FaultTarget ----
  engine::Engine& engine() override { return *engine_; }
  fault::ReplyFaults& reply_faults() override { return reply_faults_; }
  void Stall(int64_t ms) override {
    // After this loop iteration has sent the reply, the loop waits (net::StallWaiter): nothing
    // is read, written, expired or replicated meanwhile, until the end, FAULT RESET, SHUTDOWN or
    // Stop().
    stall_ms_ = ms;
    uv_timer_start(&stall_timer_, OnStall, 0, 0);
  }
  void CancelStall() override { uv_timer_stop(&stall_timer_); }
  void SetPartition(std::vector<int> ports) override { net::SetPartition(std::move(ports)); }
  std::vector<int> PartitionedPorts() override { return net::PartitionedPorts(); }
  void BeforeClockMove() override {
    if (keep_history_ && !crashed_) history_.Tick(*engine_, /*force=*/true);
  }
  void Crash() override {
    if (crashed_) return;
    // The last moment of the history: LOSE 0 keeps every write, as KEEP does.
    if (keep_history_) history_.Tick(*engine_, /*force=*/true);
    crash_ms_ = engine_->clock().NowMs();
    crashed_ = true;
    logger_.Warning("FAULT CRASH: the node dies now");
    replication::ReplicationOf(*engine_).Crash();
    uv_timer_stop(&cron_);
    uv_timer_stop(&wakeup_);
    uv_timer_stop(&repl_timer_);
    uv_timer_stop(&stall_timer_);
    uv_timer_stop(&before_sleep_);
    uv_timer_stop(&sentinel_timer_);
    if (sentinel_) sentinel_->CloseLinks();
    // The port and every connection close at once; unsent replies are lost.
    listener_->CloseAll([] {});
    retired_listeners_.push_back(std::move(listener_));
    PublishState();
  }

  // On the loop thread: brings a crashed node back on its port, empty, with its data, or (with
  // `lose_ms` >= 0) with its data as it was `lose_ms` before the crash.
  std::string RestartOnLoop(bool keep_data, int64_t lose_ms = -1) {
    if (!crashed_) return "the node on port " + std::to_string(port_.load()) + " is running";
    std::optional<std::string_view> past;
    if (lose_ms >= 0) {
      if (keep_history_) past = history_.At(crash_ms_ - lose_ms);
      if (!past) {
        std::string why = !keep_history_                        ? "it keeps no history"
                          : !history_.disabled_reason().empty() ? history_.disabled_reason()
                                                                : "its history does not reach back";
        return "the node on port " + std::to_string(port_.load()) +
               " cannot restart with its data of " + std::to_string(lose_ms) +
               " ms before its crash: " + why;
      }
    }
    auto listener = std::make_unique<net::Listener>(&loop_, engine_.get(), &reply_faults_);
    const std::string& bind = engine_->config().bind;
    int rc = listener->Listen(bind, port_.load(), static_cast<int>(config_.tcp_backlog));
    std::optional<std::string> error;
    if (rc != 0) {
      error = "Could not create server TCP listening socket " + bind + ":" +
              std::to_string(port_.load()) + ": " + uv_strerror(rc);
    } else {
      error = ListenOnUnixSocket(*listener);
    }
    if (error) {
      listener->CloseAll([] {});
      retired_listeners_.push_back(std::move(listener));
      return *error;
    }
    listener_ = std::move(listener);
    // A new process: no faults, real time, not paused; its data only if it persisted it.
    faults_.Forget();
    reply_faults_ = fault::ReplyFaults{};
    engine_->clock().SetReal();
    engine_->blocking().Unpause();
    if (past) {
      if (auto error = fault::DataHistory::Load(*engine_, *past)) {
        logger_.Warning("TOPOLOGY RESTART LOSE: the snapshot did not load: " + *error);
      }
    } else if (!keep_data) {
      engine_->signals().Flushed(-1);
      engine_->keyspace().FlushAll();
    }
    crashed_ = false;
    // Data from the past is not the history the replication offsets describe: a new one.
    replication::ReplicationOf(*engine_).Restart(keep_data && !past);
    // What was written after the moment restored never happened, as far as the node knows.
    if (keep_history_ && (past || !keep_data)) history_.Restart(*engine_);
    uv_timer_start(&cron_, OnCron, static_cast<uint64_t>(engine_->CronIntervalMs()), 0);
    if (sentinel_) uv_timer_start(&sentinel_timer_, OnSentinelTimer, 100, 0);
    logger_.Notice(past ? "TOPOLOGY RESTART: back with its data of " + std::to_string(lose_ms) +
                              " ms before the crash"
                   : keep_data ? "TOPOLOGY RESTART: back with its data"
                               : "TOPOLOGY RESTART: back, empty");
    PublishState();
    return {};
  }

  fault::Faults& faults() { return faults_; }

 private:
  void PostRaw(std::function<void()> task) {
    {
      std::lock_guard lock(mu_);
      if (stopped_ || !accepting_tasks_) return;  // dropped: the node is gone
      tasks_.push_back(std::move(task));
    }
    uv_async_send(&async_);
  }

  // Redis's start-up lines before the data loads; with always-show-logo its banner carries the
  // PID (test harnesses, Redis's own among them, wait for " PID: <pid>").
  void LogStartupBanner() {
    if (engine_->config().always_show_logo) {
      logger_.Notice("redlab-server, Redis " + std::string(engine::kRedisVersion) +
                     " compatible, 64 bit, standalone mode, port " + std::to_string(port_.load()) +
                     ", PID: " + std::to_string(getpid()));
    } else {
      logger_.Notice(std::string("Running mode=") + (sentinel_ ? "sentinel" : "standalone") +
                     ", port=" + std::to_string(port_.load()) + ".");
    }
    logger_.Warning("Server initialized");
  }

  // unixsocket (with unixsocketperm) beside the TCP sockets: Redis's words when it cannot be.
  std::optional<std::string> ListenOnUnixSocket(net::Listener& listener) {
    const engine::ServerConfig& c = engine_->config();
    if (c.unixsocket.empty()) return std::nullopt;
    int rc = listener.ListenUnix(c.unixsocket, static_cast<int>(c.unixsocketperm),
                                 static_cast<int>(c.tcp_backlog));
    if (rc == 0) return std::nullopt;
    return "Failed opening Unix socket: " + std::string(std::strerror(-rc));
  }

  void Run(std::promise<std::string>& ready) {
    uv_loop_init(&loop_);
    // initServer's adjustOpenFilesLimit: its lines follow "Configuration loaded".
    std::vector<OpenFilesLine> open_files_log;
    config_.maxclients = AdjustOpenFilesLimit(config_.maxclients, &open_files_log);
    engine_ = std::make_unique<engine::Engine>(config_, this, replication::MakeReplication);
    logger_.set_file(engine_->config().logfile);
    // redis-server 7.0.15's first lines, which harnesses may wait for.
    logger_.Warning("oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo");
    logger_.Warning("Redis version=" + std::string(engine::kRedisVersion) +
                    ", bits=64, commit=00000000, modified=0, pid=" + std::to_string(getpid()) +
                    ", just started");
    logger_.Warning("Configuration loaded");
    for (const OpenFilesLine& line : open_files_log) {
      logger_.Log(line.warning ? LogLevel::kWarning : LogLevel::kNotice, line.text);
    }
    replication::ReplicationOf(*engine_).set_host(this);
    listener_ = std::make_unique<net::Listener>(&loop_, engine_.get(), &reply_faults_);
    std::optional<std::string> startup_error = engine_->RenameCommandsAtStartup();
    if (!startup_error) startup_error = engine_->auth().LoadAclAtStartup();
    if (options_.sentinel && !startup_error) {
      sentinel_ = std::make_unique<sentinel::Sentinel>(engine_.get(), &loop_);
      sentinel_->config_file = options_.config_file;
      for (const std::vector<std::string>& words : sentinel_directives_) {
        if (auto error = sentinel_->Configure(words)) {
          std::string line = "sentinel";
          for (const std::string& w : words) line += " " + w;
          startup_error =
              "*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***\n>>> '" + line + "'\n" + *error;
          break;
        }
      }
    }
    int rc = startup_error ? 0
                       : listener_->Listen(config_.bind, static_cast<int>(config_.port),
                                           static_cast<int>(config_.tcp_backlog));
    std::optional<std::string> error = startup_error;
    if (!error && rc != 0) {
      error = "Could not create server TCP listening socket " + config_.bind + ":" +
              std::to_string(config_.port) + ": " + uv_strerror(rc);
    }
    if (!error) error = ListenOnUnixSocket(*listener_);
    if (!error) {
      port_ = listener_->port();
      logger_.set_port(port_);
      // An ephemeral port (0) is reported as the one bound.
      engine_->config_registry().SetBoundPort(port_);
      engine_->memory().MarkStartup();
      LogStartupBanner();
      // loadDataFromDisk, after the banner as in Redis (harnesses wait for its PID line, also
      // when loading fails): with appendonly yes the AOF's files (no RDB is loaded at start-up).
      error = engine_->aof().LoadAtStartup();
    }
    if (error) {
      listener_->CloseAll([] {});
      uv_run(&loop_, UV_RUN_DEFAULT);
      listener_.reset();
      sentinel_.reset();
      engine_.reset();
      uv_loop_close(&loop_);
      {
        std::lock_guard lock(mu_);
        stopped_ = true;
      }
      ready.set_value(*error);
      return;
    }
    uv_async_init(&loop_, &async_, OnAsync);
    async_.data = this;
    for (uv_timer_t* t :
         {&cron_, &wakeup_, &repl_timer_, &stall_timer_, &before_sleep_, &sentinel_timer_}) {
      uv_timer_init(&loop_, t);
      t->data = this;
    }
    uv_timer_start(&cron_, OnCron, static_cast<uint64_t>(engine_->CronIntervalMs()), 0);
    {
      std::lock_guard lock(mu_);
      accepting_tasks_ = true;
    }
    registry_->Add(this, State());
    // FAULT PARTITION set on any node: this node's links re-check, on its own loop.
    partition_watch_ = net::WatchPartition([this] {
      PostRaw([this] {
        if (listener_) listener_->RecheckPartition();
        net::OutboundLink::RecheckPartition(&loop_);
      });
    });
    if (!replicaof_host_.empty()) {
      replication::ReplicationOf(*engine_).ReplicaOf(replicaof_host_, replicaof_port_,
                                                     /*fresh=*/true);
    }
    if (sentinel_) {
      sentinel_->Start();
      uv_timer_start(&sentinel_timer_, OnSentinelTimer, 100, 0);
    }
    keep_history_ = options_.keep_history && !options_.sentinel;
    if (keep_history_) history_.Restart(*engine_);
    logger_.Notice("Ready to accept connections");
    if (!engine_->config().unixsocket.empty()) {
      logger_.Notice("The server is now ready to accept connections at " +
                     engine_->config().unixsocket);
    }
    ready.set_value(std::string());

    uv_run(&loop_, UV_RUN_DEFAULT);

    // Every handle is closed; run what is left and tear down.
    net::UnwatchPartition(partition_watch_);
    listener_.reset();
    retired_listeners_.clear();
    sentinel_.reset();
    engine_.reset();
    uv_loop_close(&loop_);
    std::deque<std::function<void()>> dropped;
    {
      std::lock_guard lock(mu_);
      stopped_ = true;
      accepting_tasks_ = false;
      dropped.swap(tasks_);
    }
    stopped_cv_.notify_all();
    registry_->Notify();  // Topology::WaitForSync gives up on a stopped node
  }

  NodeRegistry::Entry State() const {
    NodeRegistry::Entry e;
    e.port = port_.load();
    const replication::Replication& repl = replication::ReplicationOf(*engine_);
    e.role = repl.is_replica() ? "replica" : "master";
    e.state = crashed_ ? "crashed" : "up";
    if (repl.is_replica()) e.master = repl.master_host() + ":" + std::to_string(repl.master_port());
    e.link_up = repl.link_up();
    return e;
  }
  void PublishState() {
    logger_.set_role(replication::ReplicationOf(*engine_).is_replica() ? 'S' : 'M');
    registry_->Update(this, State());
  }

  static void OnAsync(uv_async_t* handle) {
    auto* self = static_cast<Impl*>(handle->data);
    std::deque<std::function<void()>> tasks;
    {
      std::lock_guard lock(self->mu_);
      tasks.swap(self->tasks_);
    }
    for (auto& task : tasks) task();
    if (self->shutdown_requested_) self->BeginShutdown();
  }

  static void OnWakeup(uv_timer_t* handle) { static_cast<Impl*>(handle->data)->engine_->OnTimer(); }
  static void OnBeforeSleep(uv_timer_t* handle) {
    static_cast<Impl*>(handle->data)->engine_->BeforeSleep();
  }
  static void OnReplTimer(uv_timer_t* handle) {
    replication::ReplicationOf(*static_cast<Impl*>(handle->data)->engine_).OnTimer();
  }
  static void OnStall(uv_timer_t* handle) {
    auto* self = static_cast<Impl*>(handle->data);
    if (!self->listener_ || self->shutting_down_) return;
    net::StallWaiter::End end =
        self->stall_.Wait(*self->listener_, self->stall_ms_, self->engine_->auth().required());
    if (end != net::StallWaiter::End::kElapsed) {
      self->logger_.Notice("FAULT STALL broken before its end");
    }
  }

  static void OnSentinelTimer(uv_timer_t* handle) {
    auto* self = static_cast<Impl*>(handle->data);
    if (!self->sentinel_) return;
    self->sentinel_->Timer();
    // As sentinelTimer varies server.hz (10 to 19): sentinels started together do not stay in
    // step and ask for votes at the same moments.
    if (!self->crashed_) uv_timer_start(handle, OnSentinelTimer, 50 + std::rand() % 50, 0);
  }

  static void OnCron(uv_timer_t* handle) {
    auto* self = static_cast<Impl*>(handle->data);
    self->engine_->Cron();
    if (self->keep_history_) self->history_.Tick(*self->engine_);
    self->PublishState();
    uv_timer_start(&self->cron_, OnCron, static_cast<uint64_t>(self->engine_->CronIntervalMs()), 0);
  }

  void BeginShutdown() {
    if (shutting_down_) return;
    shutting_down_ = true;
    {
      std::lock_guard lock(mu_);
      accepting_tasks_ = false;
    }
    logger_.Warning("User requested shutdown...");
    // The link to a master is a handle of this loop too: it must close with the others.
    replication::ReplicationOf(*engine_).Crash();
    if (sentinel_) sentinel_->CloseLinks();
    for (uv_timer_t* t :
         {&cron_, &wakeup_, &repl_timer_, &stall_timer_, &before_sleep_, &sentinel_timer_}) {
      uv_timer_stop(t);
      uv_close(reinterpret_cast<uv_handle_t*>(t), nullptr);
    }
    auto close_async = [this] { uv_close(reinterpret_cast<uv_handle_t*>(&async_), nullptr); };
    if (listener_) {
      // closeListeningSockets: the unix socket's file goes with its socket.
      if (!engine_->config().unixsocket.empty()) logger_.Notice("Removing the unix socket file.");
      listener_->CloseAll(close_async);
    } else {
      close_async();
    }
    logger_.Warning(std::string(sentinel_ ? "Sentinel" : "Redis") +
                    " is now ready to exit, bye bye...");
  }

  NodeOptions options_;
  engine::ServerConfig config_;
  Logger logger_;
  std::string replicaof_host_;
  int replicaof_port_ = 0;
  std::shared_ptr<NodeRegistry> registry_;
  uv_loop_t loop_;
  uv_async_t async_;
  uv_timer_t cron_;
  uv_timer_t wakeup_;      // blocked clients' timeouts (Engine::OnTimer)
  uv_timer_t repl_timer_;  // replication: held streams, GETACK (Replication::OnTimer)
  uv_timer_t stall_timer_;
  uv_timer_t before_sleep_;    // Engine::BeforeSleep (BCAST invalidations)
  uv_timer_t sentinel_timer_;  // Sentinel::Timer every 100 ms (a sentinel node only)
  std::vector<std::vector<std::string>> sentinel_directives_;
  std::unique_ptr<sentinel::Sentinel> sentinel_;
  int64_t stall_ms_ = 0;
  // TOPOLOGY RESTART LOSE's snapshots (not for sentinels, which hold no data).
  bool keep_history_ = false;
  fault::DataHistory history_;
  int64_t crash_ms_ = 0;  // node time of the last crash
  int partition_watch_ = 0;
  net::StallWaiter stall_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<net::Listener> listener_;
  // Listeners closed by a crash; freed with the loop (their handles close asynchronously).
  std::vector<std::unique_ptr<net::Listener>> retired_listeners_;
  fault::Faults faults_;
  fault::ReplyFaults reply_faults_;
  std::thread thread_;
  std::mutex join_mu_;  // Stop() may race between the owner and a signal thread
  std::atomic<int> port_{0};
  std::atomic<bool> shutdown_requested_{false};
  std::atomic<bool> crashed_{false};
  bool shutting_down_ = false;

  mutable std::mutex mu_;
  std::condition_variable stopped_cv_;
  std::deque<std::function<void()>> tasks_;
  bool accepting_tasks_ = false;
  bool stopped_ = false;
};

// ---- NodeRegistry ----

// Restart reaches into the node's loop; the registry's bookkeeping is in topology.cc.
std::string NodeRegistry::Restart(int port, bool keep_data, int64_t lose_ms) {
  Node::Impl* target = nullptr;
  {
    std::lock_guard lock(mu_);
    for (const auto& [n, e] : nodes_) {
      if (e.port == port) target = n;
    }
  }
  if (target == nullptr) return "no node of this process listened on port " + std::to_string(port);
  std::string error;
  if (!target->RunOnLoop([&] { error = target->RestartOnLoop(keep_data, lose_ms); })) {
    return "the node on port " + std::to_string(port) + " has stopped";
  }
  return error;
}

// ---- Node ----

namespace {

// A write to a connection its peer has closed raises SIGPIPE, whose default kills the process;
// Redis ignores it (initServer) and sees the write fail instead. A node does the same, unless
// the process that embeds it chose a handler of its own.
void IgnoreSigpipeUnlessHandled() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction current {};
    if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      signal(SIGPIPE, SIG_IGN);
    }
  });
}

}  // namespace

std::unique_ptr<Node> Node::Start(const NodeOptions& options) {
  IgnoreSigpipeUnlessHandled();
  auto impl = std::make_unique<Impl>(options);
  impl->Start();
  return std::unique_ptr<Node>(new Node(std::move(impl)));
}

Node::Node(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Node::~Node() = default;

int Node::port() const { return impl_->port(); }
void Node::Stop() { impl_->Stop(); }
void Node::RequestStop() { impl_->RequestStop(); }
void Node::WaitUntilStopped() { impl_->WaitUntilStopped(); }
bool Node::stopped() const { return impl_->stopped(); }
bool Node::crashed() const { return impl_->crashed(); }
void Node::Post(std::function<void(engine::Engine&)> task) { impl_->Post(std::move(task)); }

void Node::Fault(std::vector<std::string> args) {
  std::optional<std::string> error;
  impl_->RunOnLoop([&] { error = impl_->faults().Apply(args, *impl_); });
  if (error) throw std::runtime_error("ERR " + *error);
}

std::vector<std::string> Node::ListFaults() {
  std::vector<std::string> out;
  impl_->RunOnLoop([&] { out = impl_->faults().List(*impl_); });
  return out;
}

void Node::Crash() {
  impl_->RunOnLoop([&] { impl_->Crash(); });
}

void Node::Restart(bool keep_data, int64_t lose_ms) {
  std::string error;
  if (!impl_->RunOnLoop([&] { error = impl_->RestartOnLoop(keep_data, lose_ms); })) {
    throw std::runtime_error("the node has stopped");
  }
  if (!error.empty()) throw std::runtime_error(error);
}

}  // namespace redlab::server
