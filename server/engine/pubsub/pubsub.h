// Publish/subscribe: which clients listen to which channels, patterns and shard channels, and
// delivery of messages into their reply buffers (Redis's pubsub.c).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/command/command_table.h"
#include "server/engine/core/client.h"

namespace redlab::server::engine {

enum class PubSubKind { kChannel, kShard };

class PubSub {
 public:
  // Each returns whether the subscription changed (false: already subscribed / not subscribed).
  bool Subscribe(Client* client, std::string_view channel, PubSubKind kind);
  bool Unsubscribe(Client* client, std::string_view channel, PubSubKind kind);
  bool SubscribePattern(Client* client, std::string_view pattern);
  bool UnsubscribePattern(Client* client, std::string_view pattern);
  // Drops every subscription of a client (RESET, disconnect), without replies.
  void UnsubscribeAll(Client* client);

  // Delivers `message` to the channel's subscribers and, for plain channels, to every matching
  // pattern subscription; returns how many receptions there were (PUBLISH's reply).
  int64_t Publish(std::string_view channel, std::string_view message, PubSubKind kind);

  // Introspection (PUBSUB): active channels matching a glob (empty pattern: all), subscriber
  // counts, and the number of distinct subscribed patterns. No pattern lists them all; the empty
  // pattern matches only the empty name, as in Redis.
  std::vector<std::string_view> Channels(std::optional<std::string_view> pattern,
                                         PubSubKind kind) const;
  int64_t NumSubscribers(std::string_view channel, PubSubKind kind) const;
  int64_t NumPatterns() const { return static_cast<int64_t>(patterns_.size()); }
  size_t NumChannels(PubSubKind kind) const { return Map(kind).size(); }

 private:
  using ClientsByName =
      std::unordered_map<std::string, std::vector<Client*>, NameHash, std::equal_to<>>;
  ClientsByName& Map(PubSubKind kind) {
    return kind == PubSubKind::kShard ? shard_channels_ : channels_;
  }
  const ClientsByName& Map(PubSubKind kind) const {
    return kind == PubSubKind::kShard ? shard_channels_ : channels_;
  }

  ClientsByName channels_;
  ClientsByName shard_channels_;
  std::map<std::string, std::vector<Client*>, std::less<>> patterns_;
};

}  // namespace redlab::server::engine
