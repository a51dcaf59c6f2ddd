// The built-in reentrant lock (Redisson's RLock, client/lock.h) as a lab driver.
#include <map>
#include <mutex>
#include <string_view>

#include "client/client.h"
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

class ReentrantDriver : public LockDriver {
 public:
  ReentrantDriver(const Config& config, const ReentrantOptions& options)
      : client_(config), options_(options) {}
  ~ReentrantDriver() override { client_.Shutdown(); }

  std::string kind() const override { return "reentrant"; }
  std::string OwnerId(const std::string& lock) override { return Get(lock).OwnerId(kOwner); }

  DriverResult Acquire(const std::string& lock, Millis wait, Millis lease) override {
    return Run([&] {
      ReentrantLock l = Get(lock);
      bool ok = lease.count() > 0 ? l.TryLock(wait, lease, kOwner) : l.TryLock(wait, kOwner);
      if (!ok) return DriverResult{Outcome::kFail, std::nullopt, "not acquired"};
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
      return DriverResult{Outcome::kOk, std::nullopt, {}};
    });
  }

  DriverResult Release(const std::string& lock) override {
    return Run([&] {
      Get(lock).Unlock(kOwner);
      return DriverResult{Outcome::kOk, std::nullopt, {}};
    });
  }

  void OnLost(const std::string& lock, std::function<void()> callback) override {
    Get(lock).OnLost([callback = std::move(callback)](const LockLost&) { callback(); });
  }

 private:
  ReentrantLock Get(const std::string& lock) {
    std::lock_guard hold(mu_);
    auto it = locks_.find(lock);
    if (it == locks_.end()) it = locks_.emplace(lock, client_.GetLock(lock)).first;
    return it->second;
  }

  template <typename Fn>
  static DriverResult Run(Fn&& fn) {
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

  Client client_;
  ReentrantOptions options_;
  std::mutex mu_;
  std::map<std::string, ReentrantLock> locks_;
};

}  // namespace

std::unique_ptr<LockDriver> MakeReentrantDriver(const Config& config,
                                                const ReentrantOptions& options) {
  return std::make_unique<ReentrantDriver>(config, options);
}

}  // namespace redlab::lab
