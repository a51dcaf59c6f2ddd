#include "client/acquisition.h"

#include <algorithm>

#include "client/errors.h"

namespace redlab::client {

void Acquisition::Start(std::shared_ptr<LockCore> lock, ThreadId owner, Params params, Done done) {
  auto a = std::make_shared<Acquisition>(lock, owner, std::move(params), std::move(done));
  if (a->params_.interrupt) {
    if (a->params_.interrupt->requested) {
      // Java's lockInterruptibly: an already interrupted thread does not even try.
      a->finished_ = true;
      a->done_(std::make_exception_ptr(
                   LockInterrupted("lock '" + lock->name + "': interrupted before acquiring")),
               false, -1);
      return;
    }
    a->params_.interrupt->target = a;
  }
  lock->client->acquisitions[a.get()] = a;  // alive until Finish
  a->Attempt();
}

Acquisition::Acquisition(std::shared_ptr<LockCore> lock, ThreadId owner, Params params, Done done)
    : lock_(std::move(lock)),
      owner_(owner),
      params_(std::move(params)),
      done_(std::move(done)),
      timer_(lock_->client->loop),
      remaining_(params_.wait.value_or(Millis(0))) {}

std::string Acquisition::WaiterKey() const {
  // The fair lock's waiters each have their own channel: group them by it.
  std::string channel = lock_->WaitChannel(owner_);
  return channel == lock_->channel ? lock_->waiter_key : channel;
}

void Acquisition::Attempt() {
  attempted_ = true;
  started_ = Clock::now();
  in_flight_ = true;
  auto self = shared_from_this();
  AcquireRequest request{params_.lease, params_.with_token, params_.permits, params_.wait,
                         params_.once};
  lock_->TryAcquireOnce(owner_, request, [self](AcquireOutcome outcome) {
    self->in_flight_ = false;
    self->OnAttempt(outcome);
  });
}

bool Acquisition::Spend(Clock::time_point since) {
  if (!params_.wait) return true;
  remaining_ -= std::chrono::duration_cast<Millis>(Clock::now() - since);
  return remaining_.count() > 0;
}

void Acquisition::OnAttempt(const AcquireOutcome& outcome) {
  if (finished_) return;
  if (outcome.error) return Finish(outcome.error, false);
  if (outcome.acquired) return Finish(nullptr, true, outcome.token);
  if (interrupted_) {
    return Finish(std::make_exception_ptr(
                      LockInterrupted("lock '" + lock_->name + "': interrupted while waiting")),
                  false);
  }
  if (params_.once || !Spend(started_)) return Finish(nullptr, false);
  if (lock_->spin) return BackOff();
  if (!joined_) {
    // First failure: subscribe, within the budget left (TryLock) or subscription_timeout.
    joined_ = true;
    subscribing_ = true;
    started_ = Clock::now();
    Millis limit = params_.wait ? remaining_ : lock_->client->config.subscription_timeout;
    timer_.Start(limit, [this] {
      subscribing_ = false;
      if (params_.wait) return Finish(nullptr, false);
      Finish(std::make_exception_ptr(TimeoutError(
                 "lock '" + lock_->name + "': no subscription to " + lock_->WaitChannel(owner_) +
                 " within " + std::to_string(lock_->client->config.subscription_timeout.count()) +
                 " ms")),
             false);
    });
    lock_->link().waiters().Join(WaiterKey(), lock_->WaitChannel(owner_), this, lock_->wake_all);
    return;
  }
  Park(outcome.ttl);
}

void Acquisition::BackOff() {
  // ExponentialBackOffPolicy.getNextSleepPeriod.
  const LockCore::Spin& spin = *lock_->spin;
  if (next_sleep_ms_ == 0) {
    next_sleep_ms_ = spin.initial_ms;
    random_.seed(std::random_device{}());
  }
  int64_t sleep = next_sleep_ms_;
  if (next_sleep_ms_ != spin.max_ms) {
    ++fails_;
    int64_t jitter = std::uniform_int_distribution<int64_t>(0, fails_ - 1)(random_);
    next_sleep_ms_ = std::min(spin.max_ms, next_sleep_ms_ * spin.multiplier + jitter);
  }
  started_ = Clock::now();
  timer_.Start(Millis(sleep), [this] {
    Spend(started_);  // the next attempt runs whatever is left, as Redisson's
    Attempt();
  });
}

void Acquisition::OnSubscribed() {
  if (finished_ || !subscribing_) return;
  subscribing_ = false;
  timer_.Stop();
  if (!Spend(started_)) return Finish(nullptr, false);
  Attempt();
}

void Acquisition::Park(int64_t ttl) {
  // Sleep until an unlock message, at most the holder's TTL (it may expire unannounced) and at
  // most the budget left. A holder without expiry (ttl -1) is waited for by messages alone.
  std::optional<Millis> bound;
  if (params_.wait) {
    bound = ttl >= 0 && Millis(ttl) < remaining_ ? Millis(ttl) : remaining_;
  } else if (ttl >= 0) {
    bound = Millis(ttl);
  }
  started_ = Clock::now();
  if (!lock_->link().waiters().Park(WaiterKey(), this)) {
    AfterSleep(started_);  // a message came while we were trying
    return;
  }
  parked_ = true;
  if (bound) {
    timer_.Start(*bound, [this] {
      parked_ = false;
      lock_->link().waiters().Unpark(WaiterKey(), this);
      AfterSleep(started_);
    });
  }
}

void Acquisition::OnWake() {
  if (finished_ || !parked_) return;
  parked_ = false;
  timer_.Stop();
  AfterSleep(started_);
}

void Acquisition::AfterSleep(Clock::time_point since) {
  if (!Spend(since)) return Finish(nullptr, false);
  Attempt();
}

void Acquisition::Interrupt() {
  if (finished_) return;
  interrupted_ = true;
  if (in_flight_) return;  // OnAttempt decides: a lock obtained meanwhile is kept
  Finish(std::make_exception_ptr(
             LockInterrupted("lock '" + lock_->name + "': interrupted while waiting")),
         false);
}

void Acquisition::Abort(std::exception_ptr error) { Finish(std::move(error), false); }

void Acquisition::Finish(std::exception_ptr error, bool acquired, int64_t token) {
  if (finished_) return;
  finished_ = true;
  timer_.Stop();
  LockWaiters& waiters = lock_->link().waiters();
  if (parked_) waiters.Unpark(WaiterKey(), this);
  parked_ = false;
  // Redisson's unsubscribe(): the last waiter of the name unsubscribes.
  if (joined_) waiters.Leave(WaiterKey(), this);
  if (!acquired && attempted_) {
    AcquireRequest request{params_.lease, params_.with_token, params_.permits, params_.wait,
                           params_.once};
    lock_->GaveUp(owner_, request);
  }
  auto self = shared_from_this();  // the map below may hold the last reference
  lock_->client->acquisitions.erase(this);
  done_(std::move(error), acquired, token);
}

}  // namespace redlab::client
