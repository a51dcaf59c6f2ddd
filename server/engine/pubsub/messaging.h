// What clients are told besides replies, behind one interface: publish/subscribe, client-side
// caching's invalidations and keyspace notifications (Redis's pubsub.c, tracking.c, notify.c).
// The engine owns one; commands and key changes reach PubSub and Tracking only through it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/command/command_table.h"
#include "server/engine/config/config.h"
#include "server/engine/core/client.h"
#include "server/engine/pubsub/notify.h"
#include "server/engine/pubsub/pubsub.h"
#include "server/engine/pubsub/tracking.h"

namespace redlab::server::engine {

class Engine;

class Messaging {
 public:
  Messaging(Engine& engine, const ServerConfig& config) : config_(config), tracking_(engine) {}

  // Publish/subscribe (see PubSub): each returns whether the subscription changed.
  bool Subscribe(Client* client, std::string_view channel, PubSubKind kind) {
    return pubsub_.Subscribe(client, channel, kind);
  }
  bool Unsubscribe(Client* client, std::string_view channel, PubSubKind kind) {
    return pubsub_.Unsubscribe(client, channel, kind);
  }
  bool SubscribePattern(Client* client, std::string_view pattern) {
    return pubsub_.SubscribePattern(client, pattern);
  }
  bool UnsubscribePattern(Client* client, std::string_view pattern) {
    return pubsub_.UnsubscribePattern(client, pattern);
  }
  // PUBLISH and SPUBLISH; returns how many receptions there were.
  int64_t Publish(std::string_view channel, std::string_view message, PubSubKind kind) {
    return pubsub_.Publish(channel, message, kind);
  }
  // The subscriptions, read only (PUBSUB, INFO).
  const PubSub& pubsub() const { return pubsub_; }

  // A client leaves (RESET, disconnect): its subscriptions and its tracking end, without replies.
  void ForgetClient(Client& client);

  // Client-side caching (see Tracking). CLIENT TRACKING ON and OFF:
  void EnableTracking(Client& client, const Tracking::Options& options,
                      std::span<const std::string> prefixes) {
    tracking_.Enable(client, options, prefixes);
  }
  void DisableTracking(Client& client) { tracking_.Disable(client); }
  // After a read-only command of a tracking client: remembers the keys it read (a BCAST client
  // follows prefixes instead).
  void RememberTrackedKeys(Client& client, const Command& cmd, std::span<const std::string> args);
  // A key changed (`by` changed it; nullptr when no client did): the clients caching it are
  // told. Costs one branch while nobody tracks.
  void InvalidateKey(const Client* by, std::string_view key) {
    if (!tracking_.idle()) [[unlikely]] {
      tracking_.InvalidateKey(by, key, /*bcast=*/true);
    }
  }
  // A database was flushed: every tracking client drops its whole cache.
  void InvalidateAll() { tracking_.InvalidateAll(); }
  // Keeps the tracking table within tracking-table-max-keys (before a command, and in cron).
  void LimitTrackingTable() {
    if (tracking_.clients() > 0) [[unlikely]]
      tracking_.LimitUsedSlots();
  }
  // The end of a command: the invalidations held for its client leave after its reply.
  void SendPendingInvalidations() {
    if (tracking_.has_pending()) tracking_.SendPending();
  }
  // Before the loop sleeps: the BCAST clients' invalidations.
  void BroadcastInvalidations() { tracking_.BroadcastInvalidations(); }
  // The tracking table, read only (INFO).
  const Tracking& tracking() const { return tracking_; }

  // Keyspace notifications (Redis's notifyKeyspaceEvent): publishes `event` about `key` of
  // database `db` on __keyspace@<db>__:<key> and/or __keyevent@<db>__:<event>, when
  // notify-keyspace-events enables the event's class (`type`, a NotifyClass). Off, it costs one
  // branch. The messages reach subscribers at once, as PUBLISH's, and never replicas.
  void NotifyKeyspaceEvent(uint32_t type, std::string_view event, std::string_view key, int db) {
    if (config_.notify_keyspace_events & type) [[unlikely]] {
      PublishKeyspaceEvent(event, key, db);
    }
  }

 private:
  void PublishKeyspaceEvent(std::string_view event, std::string_view key, int db);

  const ServerConfig& config_;
  PubSub pubsub_;
  Tracking tracking_;
  std::string notify_channel_;  // reused for the channel names of keyspace notifications
};

}  // namespace redlab::server::engine
