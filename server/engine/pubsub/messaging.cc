// Messaging: the pub/sub, tracking and notification work that is more than a forward (Redis's
// pubsub.c, tracking.c and notify.c's notifyKeyspaceEvent).
#include "server/engine/pubsub/messaging.h"

#include "server/base/numbers.h"

namespace redlab::server::engine {

void Messaging::ForgetClient(Client& client) {
  pubsub_.UnsubscribeAll(&client);
  if (client.tracking().on) tracking_.Disable(client);
}

void Messaging::RememberTrackedKeys(Client& client, const Command& cmd,
                                    std::span<const std::string> args) {
  if (client.tracking().bcast) return;  // BCAST clients follow prefixes, not keys
  tracking_.RememberKeys(client, cmd, args);
}

void Messaging::PublishKeyspaceEvent(std::string_view event, std::string_view key, int db) {
  const uint32_t flags = config_.notify_keyspace_events;
  // Nobody could receive the messages: skip building their channels (Redis builds and publishes
  // them to no one, which nobody can observe).
  if (pubsub_.NumChannels(PubSubKind::kChannel) == 0 && pubsub_.NumPatterns() == 0) return;
  // The channel's name is built in a reused string: __keyspace@<db>__:<key> carries the event,
  // __keyevent@<db>__:<event> the key.
  auto publish = [&](std::string_view prefix, std::string_view name, std::string_view message) {
    std::string& channel = notify_channel_;
    channel.assign(prefix);
    AppendInt64(&channel, db);
    channel.append("__:");
    channel.append(name);
    pubsub_.Publish(channel, message, PubSubKind::kChannel);
  };
  if (flags & kNotifyKeyspace) publish("__keyspace@", key, event);
  if (flags & kNotifyKeyevent) publish("__keyevent@", event, key);
}

}  // namespace redlab::server::engine
