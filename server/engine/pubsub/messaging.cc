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
  std::string& channel = notify_channel_;
  if (flags & kNotifyKeyspace) {
    channel.assign("__keyspace@");
    AppendInt64(&channel, db);
    channel.append("__:");
    channel.append(key);
    pubsub_.Publish(channel, event, PubSubKind::kChannel);
  }
  if (flags & kNotifyKeyevent) {
    channel.assign("__keyevent@");
    AppendInt64(&channel, db);
    channel.append("__:");
    channel.append(event);
    pubsub_.Publish(channel, key, PubSubKind::kChannel);
  }
}

}  // namespace redlab::server::engine
