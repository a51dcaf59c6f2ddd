// The workload's pieces: an Actor is one lab client (a name, a LockDriver, the history it records
// into) and a GuardedResource is what the lock protects — a register a holder reads, computes
// from and writes back, optionally checking fencing tokens as a storage service would.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "tools/lab/driver.h"
#include "tools/lab/history.h"

namespace redlab::lab {

// In the lab's process, linearizable (one mutex). With `check_tokens`, a write whose token is
// older than the newest one accepted is rejected (Kleppmann's fencing: the storage checks).
class GuardedResource {
 public:
  GuardedResource(std::string name, bool check_tokens)
      : name_(std::move(name)), check_tokens_(check_tokens) {}
  const std::string& name() const { return name_; }
  bool check_tokens() const { return check_tokens_; }
  int64_t Read();
  // Whether the write was accepted.
  bool Write(int64_t value, std::optional<int64_t> token);

 private:
  std::string name_;
  bool check_tokens_;
  std::mutex mu_;
  int64_t value_ = 0;
  std::optional<int64_t> newest_token_;
};

class Actor {
 public:
  Actor(std::string name, std::unique_ptr<LockDriver> driver, History& history)
      : name_(std::move(name)), driver_(std::move(driver)), history_(history) {}
  // The driver (its client, whose callbacks record here) goes first.
  ~Actor() { driver_.reset(); }

  const std::string& name() const { return name_; }
  LockDriver& driver() { return *driver_; }

  // Each records its invocation and completion. The first Acquire of a lock also records, from
  // then on, each renewal the driver reports for it (kRenew: invoked when the renewal was sent,
  // completed when its result came).
  DriverResult Acquire(const std::string& lock, Millis wait, Millis lease);
  DriverResult Release(const std::string& lock);
  // Reads the resource; records the value read.
  int64_t Read(GuardedResource& r);
  // Writes `value`, computed from `read_value`, with the token of the current hold if any.
  bool Write(GuardedResource& r, int64_t read_value, int64_t value);
  // A read, `work` spent computing, and the write of what was read plus one.
  bool Update(GuardedResource& r, Millis work);
  // The token the last successful acquire returned.
  std::optional<int64_t> token() const { return token_; }

  // Records a kLost op when the driver reports `lock` lost, and wakes WaitLost.
  void WatchLost(const std::string& lock);
  // Waits until a loss was reported or `timeout` passed; whether one was.
  bool WaitLost(Millis timeout);
  // Drops the driver (its client shuts down); later calls are not allowed.
  void Close() { driver_.reset(); }

 private:
  Op NewOp(OpKind kind, const std::string& lock);
  void WatchRenewals(const std::string& lock);

  std::string name_;
  std::unique_ptr<LockDriver> driver_;
  History& history_;
  std::optional<int64_t> token_;
  std::mutex mu_;
  std::condition_variable lost_cv_;
  bool lost_ = false;
  std::set<std::string> renewals_watched_;  // locks whose renewals are recorded (mu_)
};

}  // namespace redlab::lab
