// Redisson's SentinelConnectionManager for redlab's client: finds the master through Redis
// Sentinel (SENTINEL GET-MASTER-ADDR-BY-NAME), learns its replicas and the other sentinels
// (SENTINEL REPLICAS / SENTINELS), listens to every sentinel's events (+switch-master, +sdown,
// -sdown, +slave, +sentinel) and rescans every Config::sentinel_scan_interval in case an event
// was missed. A moved master is reported to MasterFn. Loop thread only.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "client/config.h"
#include "client/connection.h"
#include "client/event_loop.h"

namespace redlab::client {

class SentinelWatch {
 public:
  /// Called when the sentinels name another master (loop thread).
  using MasterFn = std::function<void(const ServerAddress&)>;
  using DiscoveredFn = std::function<void(std::exception_ptr, ServerAddress)>;

  SentinelWatch(EventLoop& loop, const Config& config, MasterFn on_master_moved);
  ~SentinelWatch();
  SentinelWatch(const SentinelWatch&) = delete;
  SentinelWatch& operator=(const SentinelWatch&) = delete;

  /// Asks the configured sentinels in turn for the master; `done` gets its address (user,
  /// password and db from Config::masters[0]), or IoError when none knows it. Then subscribes
  /// to every sentinel's events and starts the rescans.
  void Discover(DiscoveredFn done);
  /// The replicas the sentinels list as up (no s_down, o_down or disconnected flag, a master
  /// link not in error): how many a lock write WAITs for.
  int64_t live_replicas() const;
  /// The sentinels known (configured and discovered).
  size_t sentinel_count() const { return peers_.size(); }
  /// Closes every connection to the sentinels.
  void Close();

 private:
  struct Peer {
    ServerAddress address;
    std::unique_ptr<Connection> commands;
    std::unique_ptr<Connection> events;
  };

  void AddPeer(const ServerAddress& address);
  void AskMaster(size_t i, DiscoveredFn done, std::string errors);
  // SENTINEL REPLICAS and SENTINELS on peer i; `then` after both answered (or failed).
  void Refresh(size_t i, std::function<void()> then = {});
  void Scan();
  void Subscribe(Peer& peer);
  void OnEvent(const Reply& reply);
  void MasterAt(const std::string& host, int port);
  ServerAddress WithCredentials(const std::string& host, int port) const;

  EventLoop& loop_;
  const Config& config_;
  MasterFn on_master_moved_;
  std::vector<std::unique_ptr<Peer>> peers_;
  size_t preferred_ = 0;  // the sentinel the rescans ask (the next one after a failure)
  ServerAddress master_;
  int64_t epoch_ = 0;  // the master's config-epoch as far as known: older answers are stale
  std::map<std::string, bool> replicas_;  // "ip:port" -> up
  Timer scan_timer_;
  bool closed_ = false;
};

}  // namespace redlab::client
