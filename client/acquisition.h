// One Lock / TryLock in progress, as a state machine on the loop thread: Redisson's
// lock(leaseTime) and tryLock(waitTime, leaseTime) loops. Try; on failure subscribe to the
// unlock channel (shared with the other waiters of the name); then try again each time an
// unlock message wakes it, or the holder's PTTL runs out, or the wait budget ends.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <random>
#include <type_traits>

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
  /// `token`: the fencing token when acquired with Params::with_token, else -1.
  using Done = std::function<void(std::exception_ptr, bool acquired, int64_t token)>;

  struct Params {
    std::optional<Millis> lease;                 // none: the watchdog keeps the lock
    std::optional<Millis> wait;                  // none: wait as long as it takes (Lock)
    bool once = false;                           // TryLock(): a single attempt
    std::shared_ptr<InterruptHandle> interrupt;  // LockInterruptibly
    bool with_token = false;                     // fenced lock: report the token
    int64_t permits = 1;                         // semaphore: how many
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
  // Spin lock: sleep the next back-off, then try again (RedissonSpinLock).
  void BackOff();
  // The waiters group in LockWaiters: the primitive's, or its per-waiter channel.
  std::string WaiterKey() const;
  void AfterSleep(Clock::time_point since);
  // Spends the time since `since` from the wait budget; false when it is used up.
  bool Spend(Clock::time_point since);
  void Finish(std::exception_ptr error, bool acquired, int64_t token = -1);

  std::shared_ptr<LockCore> lock_;
  ThreadId owner_;
  Params params_;
  Done done_;
  Timer timer_;  // subscription timeout, or the sleep bound while parked
  Millis remaining_{0};
  int64_t next_sleep_ms_ = 0;  // spin lock: the next back-off (0: not started)
  int fails_ = 0;              // spin lock: failed attempts, for the jitter
  Clock::time_point started_;  // of the current step, for the budget
  bool in_flight_ = false;     // an acquire attempt awaits its reply
  bool joined_ = false;        // among the lock's waiters (subscribed or subscribing)
  bool subscribing_ = false;
  bool parked_ = false;
  bool interrupted_ = false;
  bool finished_ = false;
  bool attempted_ = false;   // an attempt was sent (a fair lock may have queued us)
  std::minstd_rand random_;  // seeded at the first back-off
};

/// Starts an acquisition from any thread. The future holds `convert(acquired, token)`, or
/// nothing (T = void: Lock, which only ends acquired or failed).
template <typename T, typename Convert>
std::future<T> StartAcquisition(const std::shared_ptr<LockCore>& core, ThreadId owner,
                                Acquisition::Params params, Convert convert) {
  return core->client->Submit<T>([core, owner, params = std::move(params),
                                  convert](std::shared_ptr<std::promise<T>> p) mutable {
    Acquisition::Start(core, owner, std::move(params),
                       [p, convert](std::exception_ptr error, bool acquired, int64_t token) {
                         if (error) {
                           p->set_exception(error);
                         } else if constexpr (std::is_void_v<T>) {
                           p->set_value();
                         } else {
                           p->set_value(convert(acquired, token));
                         }
                       });
  });
}

}  // namespace redlab::client
