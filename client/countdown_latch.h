// redlab::CountDownLatch: Redisson's RCountDownLatch (RedissonCountDownLatch) in C++: a string
// `name` holding the count, deleted when it reaches zero, and the channel
// redisson_countdownlatch__channel__{name} ("0": reached zero, "1": a new count). Obtained from
// Client::GetCountDownLatch(name).
//
//   redlab::CountDownLatch ready = client.GetCountDownLatch("workers-ready");
//   ready.TrySetCount(3);                 // the coordinator
//   ready.CountDown();                    // each worker
//   ready.Await(std::chrono::seconds(10));
#pragma once

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <string>

namespace redlab {

namespace client {
struct LockCore;
}

/// A latch counts down to zero once; at zero the key is deleted and every waiter opens. A latch
/// that is not set (never, or back at zero) is open: Await returns at once, as Redisson's.
class CountDownLatch {
 public:
  using Millis = std::chrono::milliseconds;

  /// Sets the count when the latch is not counting; false when it is (trySetCount).
  bool TrySetCount(int64_t count);
  /// Counts down by one; at zero the latch is deleted and the waiters open (countDown).
  void CountDown();
  /// The count now; 0 when not set (getCount).
  int64_t GetCount();
  /// Waits until the count is zero (await()), or at most `wait`: true when it reached zero.
  void Await();
  bool Await(Millis wait);
  /// Deletes the latch (its waiters stay closed until a count reaches zero); true when it
  /// existed (delete, which announces a new count).
  bool Delete();

  std::future<void> AwaitAsync();
  std::future<bool> AwaitAsync(Millis wait);
  std::future<void> CountDownAsync();

  const std::string& name() const;
  /// redisson_countdownlatch__channel__{name}.
  const std::string& channel() const;

 private:
  friend class Client;
  explicit CountDownLatch(std::shared_ptr<client::LockCore> core) : core_(std::move(core)) {}

  std::shared_ptr<client::LockCore> core_;
};

}  // namespace redlab
