// One Lock / TryLock in progress, as a state machine on the loop thread: Redisson's
// lock(leaseTime) and tryLock(waitTime, leaseTime) loops. Try; on failure subscribe to the
// unlock channel (shared with the other waiters of the name); then try again each time an
// unlock message wakes it, or the holder's PTTL runs out, or the wait budget ends.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>

#include "client/event_loop.h"
#include "client/ids.h"
#include "client/lock_core.h"
#include "client/lock_waiters.h"

namespace redlab::client {

/// Lets a stop_callback on another thread reach an acquisition: both sides touch it only on
/// the loop thread (the stop side posts there).
struct InterruptHandle {
  std::weak_ptr<class Acquisition> target;
  bool requested = false;
};

class Acquisition : public std::enable_shared_from_this<Acquisition>, public LockWaiters::Waiter {
 public:
  using Millis = std::chrono::milliseconds;
  using Done = std::function<void(std::exception_ptr, bool acquired)>;

  struct Params {
    std::optional<Millis> lease;                 // none: the watchdog keeps the lock
    std::optional<Millis> wait;                  // none: wait as long as it takes (Lock)
    bool once = false;                           // TryLock(): a single attempt
    std::shared_ptr<InterruptHandle> interrupt;  // LockInterruptibly
  };

  /// Starts an acquisition (loop thread); `done` runs once, on the loop thread.
  static void Start(std::shared_ptr<LockCore> lock, ThreadId owner, Params params, Done done);

  Acquisition(std::shared_ptr<LockCore> lock, ThreadId owner, Params params, Done done);

  /// The stop_token fired: give up with LockInterrupted, unless an attempt in flight succeeds.
  void Interrupt();
  /// Ends now with `error` (client shutdown).
  void Abort(std::exception_ptr error);

  void OnSubscribed() override;
  void OnWake() override;

 private:
  using Clock = std::chrono::steady_clock;

  void Attempt();
  void OnAttempt(const AcquireOutcome& outcome);
  void Park(int64_t ttl);
  void AfterSleep(Clock::time_point since);
  // Spends the time since `since` from the wait budget; false when it is used up.
  bool Spend(Clock::time_point since);
  void Finish(std::exception_ptr error, bool acquired);

  std::shared_ptr<LockCore> lock_;
  ThreadId owner_;
  Params params_;
  Done done_;
  Timer timer_;  // subscription timeout, or the sleep bound while parked
  Millis remaining_{0};
  Clock::time_point started_;  // of the current step, for the budget
  bool in_flight_ = false;     // an acquire attempt awaits its reply
  bool joined_ = false;        // among the lock's waiters (subscribed or subscribing)
  bool subscribing_ = false;
  bool parked_ = false;
  bool interrupted_ = false;
  bool finished_ = false;
};

}  // namespace redlab::client
