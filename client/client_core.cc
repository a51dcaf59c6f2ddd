#include "client/client_core.h"

#include "client/acquisition.h"
#include "client/ids.h"
#include "client/lock.h"
#include "client/red_lock_core.h"
#include "client/sentinel_watch.h"
#include "client/watchdog.h"

namespace redlab::client {

ClientCore::ClientCore(Config c) : config(std::move(c)), id(RandomUuid()) {}

ClientCore::~ClientCore() { Shutdown(); }

void ClientCore::CheckNotLoopThread() const {
  if (loop.InLoopThread()) {
    throw Error(
        "synchronous redlab call on the client's loop thread (from an OnLost callback?) would "
        "wait for itself: use the async variant");
  }
}

void ClientCore::Start() {
  // Build the links on the loop thread (they own loop handles), then PING every master: a
  // client that cannot reach its servers fails here, as Redisson.create does.
  std::future<void> built = Submit<void>([this](std::shared_ptr<std::promise<void>> p) {
    red_locks = std::make_unique<RedLocks>(*this);
    if (config.mode != Config::Mode::kSentinel) {
      for (const ServerAddress& address : config.masters) AddNode(address);
      return p->set_value();
    }
    // Sentinel mode: the master is wherever the sentinels say, now and after a failover.
    sentinels = std::make_unique<SentinelWatch>(loop, config, [this](const ServerAddress& a) {
      if (!nodes.empty()) nodes[0].link->Retarget(a);
    });
    sentinels->Discover([this, p](std::exception_ptr error, ServerAddress master) {
      if (error) return p->set_exception(error);
      AddNode(master);
      SentinelWatch* watch = sentinels.get();
      nodes[0].link->SetReplicaCount([watch] { return watch->live_replicas(); });
      p->set_value();
    });
  });
  built.get();
  // Independent masters (RedLock) work with a majority up: a minority down is no failure.
  size_t may_fail =
      config.mode == Config::Mode::kIndependentMasters ? (config.masters.size() - 1) / 2 : 0;
  std::exception_ptr first_error;
  size_t failed = 0;
  for (size_t i = 0; i < config.masters.size(); ++i) {
    std::future<Reply> pong = Submit<Reply>([this, i](std::shared_ptr<std::promise<Reply>> p) {
      // No retries: a server that is down should be reported now, not in retry_attempts
      // intervals.
      NodeLink::CallOptions once;
      once.retry = false;
      nodes[i].link->Call({"PING"}, once, [p](CommandResult r) {
        if (r.error) {
          p->set_exception(r.error);
        } else {
          p->set_value(std::move(r.reply));
        }
      });
    });
    try {
      Reply r = pong.get();
      if (r.is_error()) {
        throw ReplyError(r.str + " (" +
                         (config.mode == Config::Mode::kSentinel
                              ? "master " + config.sentinel_master_name
                              : config.masters[i].ToString()) +
                         ")");
      }
    } catch (...) {
      if (!first_error) first_error = std::current_exception();
      if (++failed > may_fail) std::rethrow_exception(first_error);
    }
  }
}

void ClientCore::AddNode(const ServerAddress& address) {
  Node node;
  size_t index = nodes.size();
  node.link = std::make_unique<NodeLink>(loop, config, address);
  node.watchdog = std::make_unique<Watchdog>(
      loop, *node.link, config, scripts.renew, scripts.read_renew,
      [this, index](const std::string& name, ThreadId t) { NotifyLost(index, name, t); },
      [this, index](LockRenewed event) { NotifyRenewed(index, std::move(event)); });
  node.link->ConnectAll();
  nodes.push_back(std::move(node));
}

void ClientCore::Shutdown() {
  if (shut_down_.exchange(true)) return;
  loop.Stop([this] {
    for (Node& n : nodes) n.watchdog->Close();
    if (red_locks) red_locks->Close();
    sentinels.reset();  // its timer and connections are loop handles: closed here
    // Waiting acquisitions end with ClientClosed (each removes itself from the map).
    while (!acquisitions.empty()) {
      std::shared_ptr<Acquisition> a = acquisitions.begin()->second;
      a->Abort(std::make_exception_ptr(ClientClosed("the client was shut down")));
      acquisitions.erase(a.get());
    }
    for (Node& n : nodes) n.link->Close();
    nodes.clear();
  });
  // Outside the lock: a callback's captures may own lock handles.
  std::map<std::pair<size_t, std::string>, std::shared_ptr<const LostCallback>> dropped;
  std::map<std::pair<size_t, std::string>, std::shared_ptr<const RenewedCallback>> dropped_renewed;
  {
    std::lock_guard<std::mutex> lock(on_lost_mu_);
    on_lost_closed_ = true;
    dropped.swap(on_lost_);
    dropped_renewed.swap(on_renewed_);
  }
}

namespace {

// The callbacks of one kind, per (node, lock name), guarded by ClientCore::on_lost_mu_.
template <typename Callback>
using CallbackSlots = std::map<std::pair<size_t, std::string>, std::shared_ptr<const Callback>>;

// Sets the callback of `key` in `slots` (an empty one removes it) and returns the previous one,
// for the caller to destroy once it no longer holds the lock. The caller holds it.
template <typename Callback>
std::shared_ptr<const Callback> Replace(CallbackSlots<Callback>& slots,
                                        const std::pair<size_t, std::string>& key,
                                        Callback callback) {
  auto& slot = slots[key];
  std::shared_ptr<const Callback> previous = std::move(slot);
  if (callback) {
    slot = std::make_shared<const Callback>(std::move(callback));
  } else {
    slots.erase(key);
  }
  return previous;
}

// The callback of `key`, taken under `mu` so that it can be called outside it; null when none.
template <typename Callback>
std::shared_ptr<const Callback> Find(std::mutex& mu, const CallbackSlots<Callback>& slots,
                                     const std::pair<size_t, std::string>& key) {
  std::lock_guard<std::mutex> lock(mu);
  auto it = slots.find(key);
  return it == slots.end() ? nullptr : it->second;
}

}  // namespace

void ClientCore::SetOnLost(size_t node, const std::string& name, LostCallback callback) {
  std::shared_ptr<const LostCallback> previous;  // destroyed after the lock is released
  std::lock_guard<std::mutex> lock(on_lost_mu_);
  if (!on_lost_closed_) previous = Replace(on_lost_, {node, name}, std::move(callback));
}

void ClientCore::NotifyLost(size_t node, const std::string& name, ThreadId t) {
  auto callback = Find(on_lost_mu_, on_lost_, {node, name});
  if (callback) (*callback)(LockLost{name, t, id + ":" + std::to_string(t.value)});
}

void ClientCore::SetOnRenewed(size_t node, const std::string& name, RenewedCallback callback) {
  std::shared_ptr<const RenewedCallback> previous;  // destroyed after the lock is released
  std::lock_guard<std::mutex> lock(on_lost_mu_);
  if (!on_lost_closed_) previous = Replace(on_renewed_, {node, name}, std::move(callback));
}

void ClientCore::NotifyRenewed(size_t node, LockRenewed event) {
  auto callback = Find(on_lost_mu_, on_renewed_, {node, event.name});
  if (!callback) return;
  event.owner = id + ":" + std::to_string(event.thread.value);
  (*callback)(event);
}

}  // namespace redlab::client

#if defined(__SANITIZE_THREAD__)
// ThreadSanitizer builds: errors cross from the loop thread to the caller inside std::future,
// and the exception object's reference count lives in libstdc++, which is not instrumented.
// When the loop thread drops the last reference (its promise) after the caller has handled the
// error, TSan sees the destructor race the caller's reads without the ordering the (invisible)
// atomic count provides. Only that release path is suppressed.
extern "C" const char* __tsan_default_suppressions() {
  return "race:std::__exception_ptr::exception_ptr::_M_release\n";
}
#endif
