// The lock watchdog of one master: while a lock taken without a lease is held, renew it every
// lock_watchdog_timeout / 3, many locks per EVAL (lua/lock_renew.lua), until it is released;
// when a renewal finds a lock gone, drop it and call the lock's OnLost. Errors keep the entries
// and try again after retry_interval. Loop thread only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "client/config.h"
#include "client/event_loop.h"
#include "client/ids.h"
#include "client/node_link.h"

namespace redlab::client {

struct LockCore;

class Watchdog {
 public:
  Watchdog(EventLoop& loop, NodeLink& link, const Config& config, const Script& renew);

  /// One more hold of `lock` by `t` to keep alive (Redisson's scheduleExpirationRenewal).
  void Add(std::shared_ptr<LockCore> lock, ThreadId t);
  /// One hold fewer; the last one stops the renewals (cancelExpirationRenewal(threadId)).
  void Remove(const std::string& name, ThreadId t);
  /// Stops renewing `name` for every owner (forceUnlock).
  void RemoveAll(const std::string& name);
  /// Stops everything: held locks then expire.
  void Close();

  size_t size() const { return entries_.size(); }

 private:
  using Key = std::pair<std::string, uint64_t>;  // lock name, thread id
  struct Entry {
    std::shared_ptr<LockCore> lock;
    std::string owner;
    int holds = 0;
    uint64_t generation = 0;  // tells a renewed entry from one re-added since
  };

  void Schedule(std::chrono::milliseconds delay);
  void Renew();

  EventLoop& loop_;
  NodeLink& link_;
  const Config& config_;
  const Script& renew_;
  std::map<Key, Entry> entries_;
  Timer timer_;
  bool renewing_ = false;  // a round of renewals is in flight
  bool closed_ = false;
  uint64_t next_generation_ = 1;
};

}  // namespace redlab::client
