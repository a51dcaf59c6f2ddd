#include "server/engine/pubsub/notify.h"

#include "server/base/numbers.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {
namespace {

// The letters of the classes, in the order keyspaceEventsFlagsToString writes those A covers.
constexpr struct {
  char letter;
  uint32_t flag;
} kClassLetters[] = {{'g', kNotifyGeneric}, {'$', kNotifyString},  {'l', kNotifyList},
                     {'s', kNotifySet},     {'h', kNotifyHash},    {'z', kNotifyZset},
                     {'x', kNotifyExpired}, {'e', kNotifyEvicted}, {'t', kNotifyStream},
                     {'d', kNotifyModule},  {'n', kNotifyNew}};

}  // namespace

std::optional<uint32_t> KeyspaceEventsFromString(std::string_view text) {
  uint32_t flags = 0;
  for (char c : text) {
    if (c == '\0') break;  // Redis reads the text as a C string
    switch (c) {
      case 'A':
        flags |= kNotifyAll;
        break;
      case 'K':
        flags |= kNotifyKeyspace;
        break;
      case 'E':
        flags |= kNotifyKeyevent;
        break;
      case 'm':
        flags |= kNotifyKeyMiss;
        break;
      default: {
        bool known = false;
        for (const auto& cl : kClassLetters) {
          if (cl.letter == c) {
            flags |= cl.flag;
            known = true;
            break;
          }
        }
        if (!known) return std::nullopt;
      }
    }
  }
  return flags;
}

std::string KeyspaceEventsToString(uint32_t flags) {
  std::string out;
  if ((flags & kNotifyAll) == kNotifyAll) {
    out += 'A';
    // n is not part of A, yet Redis writes it only in the letter-by-letter form: with A it is
    // dropped from the text (while staying on).
  } else {
    for (const auto& cl : kClassLetters) {
      if (flags & cl.flag) out += cl.letter;
    }
  }
  if (flags & kNotifyKeyspace) out += 'K';
  if (flags & kNotifyKeyevent) out += 'E';
  if (flags & kNotifyKeyMiss) out += 'm';
  return out;
}

void Engine::PublishKeyspaceEvent(std::string_view event, std::string_view key, int db) {
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

void Engine::ConfigureKeyspaceEvents() {
  // The "new" and "keymiss" events come from inside the keyspace; it reports them only while
  // they could be published, so that otherwise adding a key or missing one costs a branch.
  const uint32_t notify = config_.notify_keyspace_events;
  const bool channels = (notify & (kNotifyKeyspace | kNotifyKeyevent)) != 0;
  keyspace_.set_report_new_keys(channels && (notify & kNotifyNew));
  keyspace_.set_report_misses(channels && (notify & kNotifyKeyMiss));
}

void Engine::OnNewKey(Db& db, std::string_view key) {
  NotifyKeyspaceEvent(kNotifyNew, "new", key, db.id());
}

void Engine::OnKeyMiss(Db& db, std::string_view key) {
  NotifyKeyspaceEvent(kNotifyKeyMiss, "keymiss", key, db.id());
}

}  // namespace redlab::server::engine
