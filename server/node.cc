#include "server/node.h"

#include <uv.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "server/engine/engine.h"
#include "server/log.h"
#include "server/net/listener.h"

namespace redlab::server {

class Node::Impl : public engine::EngineHost {
 public:
  explicit Impl(const NodeOptions& options) : options_(options), logger_(options.loglevel) {
    std::vector<std::pair<std::string_view, std::string_view>> settings(options.settings.begin(),
                                                                         options.settings.end());
    if (auto error = engine::ConfigRegistry(&config_).Set(settings, /*startup=*/true)) {
      throw std::runtime_error(*error);
    }
    config_.bind = options.bind;
    config_.port = options.port;
    config_.requirepass = options.requirepass;
    config_.loglevel = options.loglevel;
  }

  ~Impl() override { Stop(); }

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
    thread_.join();
  }

  void RequestStop() { PostRaw([this] { BeginShutdown(); }); }

  void WaitUntilStopped() {
    std::unique_lock lock(mu_);
    stopped_cv_.wait(lock, [this] { return stopped_; });
  }

  bool stopped() const {
    std::lock_guard lock(mu_);
    return stopped_;
  }

  int port() const { return port_.load(); }

  void Post(std::function<void(engine::Engine&)> task) {
    PostRaw([this, task = std::move(task)] { task(*engine_); });
  }

  // EngineHost
  void RequestShutdown() override {
    shutdown_requested_ = true;
    uv_async_send(&async_);
  }
  int TcpPort() const override { return port_.load(); }
  void ProcessEventsWhileBlocked() override { listener_->ProcessEventsWhileBlocked(); }
  void ScheduleTimer(int64_t delay_ms) override {
    uv_timer_start(&wakeup_, OnWakeup, static_cast<uint64_t>(delay_ms), 0);
  }
  void LogWarning(std::string_view message) override { logger_.Warning(message); }
  void Log(int level, std::string_view message) override {
    logger_.Log(static_cast<LogLevel>(level), message);
  }

 private:
  void PostRaw(std::function<void()> task) {
    {
      std::lock_guard lock(mu_);
      if (stopped_ || !accepting_tasks_) return;  // dropped: the node is gone
      tasks_.push_back(std::move(task));
    }
    uv_async_send(&async_);
  }

  void Run(std::promise<std::string>& ready) {
    uv_loop_init(&loop_);
    engine_ = std::make_unique<engine::Engine>(config_, this);
    listener_ = std::make_unique<net::Listener>(&loop_, engine_.get());
    int rc = listener_->Listen(config_.bind, static_cast<int>(config_.port),
                               static_cast<int>(config_.tcp_backlog));
    if (rc != 0) {
      std::string error = "Could not create server TCP listening socket " + config_.bind + ":" +
                          std::to_string(config_.port) + ": " + uv_strerror(rc);
      listener_->CloseAll([] {});
      uv_run(&loop_, UV_RUN_DEFAULT);
      listener_.reset();
      engine_.reset();
      uv_loop_close(&loop_);
      {
        std::lock_guard lock(mu_);
        stopped_ = true;
      }
      ready.set_value(error);
      return;
    }
    port_ = listener_->port();
    logger_.set_port(port_);
    uv_async_init(&loop_, &async_, OnAsync);
    async_.data = this;
    uv_timer_init(&loop_, &cron_);
    cron_.data = this;
    uv_timer_init(&loop_, &wakeup_);
    wakeup_.data = this;
    uv_timer_start(&cron_, OnCron, static_cast<uint64_t>(engine_->CronIntervalMs()), 0);
    {
      std::lock_guard lock(mu_);
      accepting_tasks_ = true;
    }
    logger_.Notice("Ready to accept connections tcp");
    ready.set_value(std::string());

    uv_run(&loop_, UV_RUN_DEFAULT);

    // Every handle is closed; run what is left and tear down.
    listener_.reset();
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

  static void OnCron(uv_timer_t* handle) {
    auto* self = static_cast<Impl*>(handle->data);
    self->engine_->Cron();
    uv_timer_start(&self->cron_, OnCron, static_cast<uint64_t>(self->engine_->CronIntervalMs()), 0);
  }

  void BeginShutdown() {
    if (shutting_down_) return;
    shutting_down_ = true;
    {
      std::lock_guard lock(mu_);
      accepting_tasks_ = false;
    }
    logger_.Notice("User requested shutdown...");
    uv_timer_stop(&cron_);
    uv_close(reinterpret_cast<uv_handle_t*>(&cron_), nullptr);
    uv_timer_stop(&wakeup_);
    uv_close(reinterpret_cast<uv_handle_t*>(&wakeup_), nullptr);
    listener_->CloseAll([this] {
      uv_close(reinterpret_cast<uv_handle_t*>(&async_), nullptr);
    });
  }

  NodeOptions options_;
  engine::ServerConfig config_;
  Logger logger_;
  uv_loop_t loop_;
  uv_async_t async_;
  uv_timer_t cron_;
  uv_timer_t wakeup_;  // blocked clients' timeouts (Engine::OnTimer)
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<net::Listener> listener_;
  std::thread thread_;
  std::mutex join_mu_;  // Stop() may race between the owner and a signal thread
  std::atomic<int> port_{0};
  std::atomic<bool> shutdown_requested_{false};
  bool shutting_down_ = false;

  mutable std::mutex mu_;
  std::condition_variable stopped_cv_;
  std::deque<std::function<void()>> tasks_;
  bool accepting_tasks_ = false;
  bool stopped_ = false;
};

std::unique_ptr<Node> Node::Start(const NodeOptions& options) {
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
void Node::Post(std::function<void(engine::Engine&)> task) { impl_->Post(std::move(task)); }

}  // namespace redlab::server
