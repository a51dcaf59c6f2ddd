#include "client/event_loop.h"

#include <future>
#include <stdexcept>

namespace redlab::client {

EventLoop::EventLoop() {
  if (uv_loop_init(&loop_) != 0) throw std::runtime_error("uv_loop_init failed");
  async_.data = this;
  uv_async_init(&loop_, &async_, OnAsync);
  std::promise<void> started;
  std::future<void> ready = started.get_future();
  thread_ = std::thread([this, &started] {
    thread_id_ = std::this_thread::get_id();
    started.set_value();
    Run();
  });
  ready.wait();
}

EventLoop::~EventLoop() { Stop(); }

bool EventLoop::Post(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!accepting_) return false;
    tasks_.push_back(std::move(task));
  }
  uv_async_send(&async_);
  return true;
}

void EventLoop::Stop(std::function<void()> shutdown) {
  std::call_once(stop_once_, [&] {
    {
      std::lock_guard<std::mutex> lock(mu_);
      accepting_ = false;
      if (shutdown) tasks_.push_back(std::move(shutdown));
      stop_requested_ = true;
    }
    uv_async_send(&async_);
    thread_.join();
    uv_loop_close(&loop_);
  });
}

void EventLoop::OnAsync(uv_async_t* handle) {
  auto* self = static_cast<EventLoop*>(handle->data);
  std::deque<std::function<void()>> tasks;
  bool stop;
  {
    std::lock_guard<std::mutex> lock(self->mu_);
    tasks.swap(self->tasks_);
    stop = self->stop_requested_ && !self->accepting_;
  }
  for (auto& task : tasks) task();
  if (stop) {
    // Every task (the shutdown one last) has run; what it closed finishes closing in
    // uv_run, which returns once no handle is left.
    uv_close(reinterpret_cast<uv_handle_t*>(&self->async_), nullptr);
  }
}

void EventLoop::Run() {
  uv_run(&loop_, UV_RUN_DEFAULT);
  // Handles left open by a careless owner would make uv_loop_close fail: close them here.
  uv_walk(
      &loop_,
      [](uv_handle_t* h, void*) {
        if (!uv_is_closing(h)) uv_close(h, nullptr);
      },
      nullptr);
  uv_run(&loop_, UV_RUN_DEFAULT);
}

Timer::Timer(EventLoop& loop) : handle_(new uv_timer_t) {
  uv_timer_init(loop.uv(), handle_);
  handle_->data = this;
}

Timer::~Timer() {
  uv_timer_stop(handle_);
  handle_->data = nullptr;
  uv_close(reinterpret_cast<uv_handle_t*>(handle_),
           [](uv_handle_t* h) { delete reinterpret_cast<uv_timer_t*>(h); });
}

void Timer::Start(std::chrono::milliseconds delay, std::function<void()> fn) {
  fn_ = std::move(fn);
  uint64_t ms = delay.count() > 0 ? static_cast<uint64_t>(delay.count()) : 0;
  uv_timer_start(handle_, OnTimer, ms, 0);
}

void Timer::Stop() { uv_timer_stop(handle_); }

bool Timer::active() const {
  return uv_is_active(reinterpret_cast<const uv_handle_t*>(handle_)) != 0;
}

void Timer::OnTimer(uv_timer_t* handle) {
  auto* self = static_cast<Timer*>(handle->data);
  if (self == nullptr) return;
  // The callback may re-arm or destroy this timer: run a copy.
  std::function<void()> fn = self->fn_;
  fn();
}

}  // namespace redlab::client
