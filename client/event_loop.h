// The client's loop thread: one libuv loop that owns every connection, timer and pending
// operation of a Client. Other threads reach it only through Post().
#pragma once

#include <uv.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace redlab::client {

class EventLoop {
 public:
  EventLoop();   // starts the loop thread
  ~EventLoop();  // Stop() if not yet stopped
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  /// Runs `task` on the loop thread, after the tasks posted before it. Returns false (and drops
  /// the task) once Stop() has begun: the caller then reports ClientClosed itself.
  bool Post(std::function<void()> task);

  /// Runs the posted tasks, then `shutdown` on the loop thread (it must close whatever it
  /// opened: connections, timers), then waits for every handle to close and joins the thread.
  /// Idempotent; not callable from the loop thread.
  void Stop(std::function<void()> shutdown = {});

  bool InLoopThread() const { return std::this_thread::get_id() == thread_id_.load(); }
  uv_loop_t* uv() { return &loop_; }

 private:
  static void OnAsync(uv_async_t* handle);
  void Run();

  uv_loop_t loop_;
  uv_async_t async_;
  std::mutex mu_;
  std::deque<std::function<void()>> tasks_;  // guarded by mu_
  bool accepting_ = true;                    // guarded by mu_
  bool stop_requested_ = false;              // guarded by mu_
  std::atomic<std::thread::id> thread_id_;
  std::thread thread_;
  std::once_flag stop_once_;
};

/// A one-shot or repeating timer on the loop. Loop thread only; destroying it cancels it (the
/// libuv handle is freed in its close callback, as libuv requires).
class Timer {
 public:
  explicit Timer(EventLoop& loop);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  /// (Re)arms the timer: `fn` runs once after `delay`.
  void Start(std::chrono::milliseconds delay, std::function<void()> fn);
  void Stop();
  bool active() const;

 private:
  static void OnTimer(uv_timer_t* handle);
  uv_timer_t* handle_;
  std::function<void()> fn_;
};

}  // namespace redlab::client
