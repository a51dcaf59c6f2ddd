// The workload's actors and the guarded resource.
#include "tools/lab/workload.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace redlab::lab {

int64_t GuardedResource::Read() {
  std::lock_guard lock(mu_);
  return value_;
}

bool GuardedResource::Write(int64_t value, std::optional<int64_t> token) {
  std::lock_guard lock(mu_);
  if (check_tokens_) {
    if (!token) return false;
    if (newest_token_ && *token < *newest_token_) return false;
    newest_token_ = token;
  }
  value_ = value;
  return true;
}

Op Actor::NewOp(OpKind kind, const std::string& lock) {
  Op op;
  op.process = name_;
  op.owner = driver_->OwnerId(lock);
  op.lock = lock;
  op.kind = kind;
  return op;
}

void Actor::WatchRenewals(const std::string& lock) {
  {
    std::lock_guard hold(mu_);
    if (!renewals_watched_.insert(lock).second) return;
  }
  Op op = NewOp(OpKind::kRenew, lock);
  driver_->OnRenewed(lock, [this, op](const DriverRenewal& r) {
    Op renew = op;
    renew.lease_ms = r.lease_ms;
    // The lab's clock and the client's are both steady_clock: the send time, on the lab's.
    auto ago = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - r.sent);
    renew.invoke_us = std::max<int64_t>(1, history_.NowUs() - ago.count());
    int64_t id = history_.Invoke(renew);
    history_.Complete(id, r.outcome, std::nullopt, std::nullopt, r.error);
  });
}

DriverResult Actor::Acquire(const std::string& lock, Millis wait, Millis lease) {
  WatchRenewals(lock);
  Op op = NewOp(OpKind::kAcquire, lock);
  op.lease_ms = lease.count();
  int64_t id = history_.Invoke(op);
  DriverResult r = driver_->Acquire(lock, wait, lease);
  if (r.outcome == Outcome::kOk) token_ = r.token;
  history_.Complete(id, r.outcome, r.token, std::nullopt, r.error);
  return r;
}

DriverResult Actor::Release(const std::string& lock) {
  int64_t id = history_.Invoke(NewOp(OpKind::kRelease, lock));
  DriverResult r = driver_->Release(lock);
  history_.Complete(id, r.outcome, std::nullopt, std::nullopt, r.error);
  return r;
}

int64_t Actor::Read(GuardedResource& res) {
  Op op;
  op.process = name_;
  op.owner = name_;
  op.lock = res.name();
  op.kind = OpKind::kRead;
  int64_t id = history_.Invoke(op);
  int64_t v = res.Read();
  history_.Complete(id, Outcome::kOk, std::nullopt, v);
  return v;
}

bool Actor::Write(GuardedResource& res, int64_t read_value, int64_t value) {
  Op op;
  op.process = name_;
  op.owner = name_;
  op.lock = res.name();
  op.kind = OpKind::kWrite;
  op.read_value = read_value;
  op.value = value;
  op.token = token_;
  int64_t id = history_.Invoke(op);
  bool ok = res.Write(value, token_);
  history_.Complete(id, ok ? Outcome::kOk : Outcome::kFail, std::nullopt, std::nullopt,
                    ok ? "" : "rejected: stale token");
  return ok;
}

bool Actor::Update(GuardedResource& res, Millis work) {
  int64_t v = Read(res);
  std::this_thread::sleep_for(work);  // the work done under the lock
  return Write(res, v, v + 1);
}

void Actor::WatchLost(const std::string& lock) {
  Op op = NewOp(OpKind::kLost, lock);
  driver_->OnLost(lock, [this, op] {
    history_.Instant(op);
    std::lock_guard hold(mu_);
    lost_ = true;
    lost_cv_.notify_all();
  });
}

bool Actor::WaitLost(Millis timeout) {
  std::unique_lock hold(mu_);
  return lost_cv_.wait_for(hold, timeout, [&] { return lost_; });
}

}  // namespace redlab::lab
