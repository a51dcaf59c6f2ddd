// The built-in client's locks as lab drivers: the reentrant lock (Redisson's RLock), the fenced
// lock (RFencedLock, with tokens) and RedLock over independent masters. One owner per driver.
#include <map>
#include <mutex>
#include <string_view>

#include "client/client.h"
#include "client/fenced_lock.h"
#include "client/red_lock.h"
#include "tools/lab/driver.h"

namespace redlab::lab {

Config LabConfig(Config config) {
  config.connect_timeout = Millis(500);
  config.timeout = Millis(500);
  config.retry_attempts = 0;
  config.retry_interval = Millis(50);
  config.connection_pool_size = 1;
  return config;
}

namespace {

constexpr ThreadId kOwner{1};

// The client's errors as outcomes.
template <typename Fn>
DriverResult RunClientCall(Fn&& fn) {
  try {
    return fn();
  } catch (const NoSyncedReplicas& e) {
    return {Outcome::kFail, std::nullopt, std::string("NoSyncedReplicas: ") + e.what()};
  } catch (const IllegalMonitorState& e) {
    return {Outcome::kFail, std::nullopt, std::string("IllegalMonitorState: ") + e.what()};
  } catch (const ReplyError& e) {
    return {Outcome::kFail, std::nullopt, std::string("ReplyError: ") + e.what()};
  } catch (const TimeoutError& e) {
    return {Outcome::kUnknown, std::nullopt, std::string("TimeoutError: ") + e.what()};
  } catch (const IoError& e) {
    // Never connected: the command was never sent. Otherwise it may have run.
    bool unsent = std::string_view(e.what()).starts_with("cannot connect");
    return {unsent ? Outcome::kFail : Outcome::kUnknown, std::nullopt,
            std::string("IoError: ") + e.what()};
  } catch (const Error& e) {
    return {Outcome::kUnknown, std::nullopt, e.what()};
  }
}

DriverResult Ok(std::optional<int64_t> token = std::nullopt) { return {Outcome::kOk, token, {}}; }
DriverResult NotAcquired() { return {Outcome::kFail, std::nullopt, "not acquired"}; }

// A driver holding one client and a handle per lock name, of type L.
template <typename L>
class ClientDriver : public LockDriver {
 public:
  explicit ClientDriver(const Config& config) : client_(config) {}
  ~ClientDriver() override { client_.Shutdown(); }

  std::string OwnerId(const std::string& lock) override { return Get(lock).OwnerId(kOwner); }
  // TryLock for `wait` with the lease, or kept by the watchdog when `lease` is zero; then
  // Acquired.
  DriverResult Acquire(const std::string& lock, Millis wait, Millis lease) override {
    return RunClientCall([&] {
      L l = Get(lock);
      bool ok = lease.count() > 0 ? l.TryLock(wait, lease, kOwner) : l.TryLock(wait, kOwner);
      return ok ? Acquired(l) : NotAcquired();
    });
  }
  DriverResult Release(const std::string& lock) override {
    return RunClientCall([&] {
      Get(lock).Unlock(kOwner);
      return Ok();
    });
  }
  void OnLost(const std::string& lock, std::function<void()> callback) override {
    Get(lock).OnLost([callback = std::move(callback)](const LockLost&) { callback(); });
  }

 protected:
  virtual L Make(const std::string& lock) = 0;
  // The result of an acquisition that got `l`: success, unless a driver checks more.
  virtual DriverResult Acquired(L& /*l*/) { return Ok(); }
  L Get(const std::string& lock) {
    std::lock_guard hold(mu_);
    auto it = locks_.find(lock);
    if (it == locks_.end()) it = locks_.emplace(lock, Make(lock)).first;
    return it->second;
  }
  Client client_;

 private:
  std::mutex mu_;
  std::map<std::string, L> locks_;
};

// A driver of locks of type L kept by the watchdog (a reentrant lock or a fenced one, which share
// it): their renewals reported as DriverRenewals.
template <typename L>
class WatchdogDriver : public ClientDriver<L> {
 public:
  using ClientDriver<L>::ClientDriver;
  void OnRenewed(const std::string& lock,
                 std::function<void(const DriverRenewal&)> callback) override {
    this->Get(lock).OnRenewed([callback = std::move(callback)](const LockRenewed& e) {
      DriverRenewal r;
      r.outcome = e.ok ? Outcome::kOk : e.error.empty() ? Outcome::kFail : Outcome::kUnknown;
      r.lease_ms = e.lease_ms;
      r.sent = e.sent;
      r.error = e.ok ? "" : e.error.empty() ? "the lock was gone" : e.error;
      callback(r);
    });
  }
};

class ReentrantDriver : public WatchdogDriver<ReentrantLock> {
 public:
  ReentrantDriver(const Config& config, const ReentrantOptions& options)
      : WatchdogDriver(config), options_(options) {}
  std::string kind() const override { return "reentrant"; }

 private:
  ReentrantLock Make(const std::string& lock) override { return client_.GetLock(lock); }
  // With --wait-replicas, the lock counts only once WAIT saw that many replicas acknowledge it;
  // else it is released again.
  DriverResult Acquired(ReentrantLock& l) override {
    if (options_.wait_replicas > 0) {
      Reply acked = client_.Execute({"WAIT", std::to_string(options_.wait_replicas),
                                     std::to_string(options_.wait_replicas_timeout.count())});
      if (acked.integer < options_.wait_replicas) {
        l.Unlock(kOwner);
        return DriverResult{Outcome::kFail, std::nullopt,
                            "WAIT " + std::to_string(options_.wait_replicas) +
                                ": acknowledged by " + std::to_string(acked.integer)};
      }
    }
    return Ok();
  }
  ReentrantOptions options_;
};

class FencedDriver : public WatchdogDriver<FencedLock> {
 public:
  using WatchdogDriver::WatchdogDriver;
  std::string kind() const override { return "fenced"; }

  DriverResult Acquire(const std::string& lock, Millis wait, Millis lease) override {
    return RunClientCall([&] {
      FencedLock l = Get(lock);
      std::optional<int64_t> token = lease.count() > 0 ? l.TryLockWithToken(wait, lease, kOwner)
                                                       : l.TryLockWithToken(wait, kOwner);
      return token ? Ok(token) : NotAcquired();
    });
  }

 private:
  FencedLock Make(const std::string& lock) override { return client_.GetFencedLock(lock); }
};

class RedLockDriver : public ClientDriver<RedLock> {
 public:
  using ClientDriver::ClientDriver;
  std::string kind() const override { return "redlock"; }

 private:
  RedLock Make(const std::string& lock) override { return client_.GetRedLock(lock); }
};

}  // namespace

std::unique_ptr<LockDriver> MakeReentrantDriver(const Config& config,
                                                const ReentrantOptions& options) {
  return std::make_unique<ReentrantDriver>(config, options);
}

std::unique_ptr<LockDriver> MakeFencedDriver(const Config& config) {
  return std::make_unique<FencedDriver>(config);
}

std::unique_ptr<LockDriver> MakeRedLockDriver(const Config& config) {
  return std::make_unique<RedLockDriver>(config);
}

}  // namespace redlab::lab
