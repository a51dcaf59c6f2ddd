// Keyspace notifications (notify-keyspace-events): the event classes, with Redis's bit values
// and letters, and the conversions between the configured text and the class flags (Redis's
// notify.c). Messaging::NotifyKeyspaceEvent publishes the events.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace redlab::server::engine {

// The classes a command names when it notifies, and the two channel kinds; Redis's NOTIFY_*.
enum NotifyClass : uint32_t {
  kNotifyKeyspace = 1u << 0,  // K: __keyspace@<db>__:<key>, the message is the event
  kNotifyKeyevent = 1u << 1,  // E: __keyevent@<db>__:<event>, the message is the key
  kNotifyGeneric = 1u << 2,   // g: DEL, EXPIRE, RENAME... (commands of no one type)
  kNotifyString = 1u << 3,    // $
  kNotifyList = 1u << 4,      // l
  kNotifySet = 1u << 5,       // s
  kNotifyHash = 1u << 6,      // h
  kNotifyZset = 1u << 7,      // z
  kNotifyExpired = 1u << 8,   // x: a key deleted because its TTL passed
  kNotifyEvicted = 1u << 9,   // e: a key deleted by maxmemory
  kNotifyStream = 1u << 10,   // t
  kNotifyKeyMiss = 1u << 11,  // m: a read found no key (not part of A, as it is costly)
  kNotifyModule = 1u << 13,   // d (redlab has no modules: accepted, never emitted)
  kNotifyNew = 1u << 14,      // n: a key came into being (not part of A: added in 7.0)
  // A: every class of events but m and n.
  kNotifyAll = kNotifyGeneric | kNotifyString | kNotifyList | kNotifySet | kNotifyHash |
               kNotifyZset | kNotifyExpired | kNotifyEvicted | kNotifyStream | kNotifyModule,
};

// keyspaceEventsStringToFlags: the flags of a configured text; nullopt when it holds a letter
// that names no class.
std::optional<uint32_t> KeyspaceEventsFromString(std::string_view text);
// keyspaceEventsFlagsToString: the normal form CONFIG GET shows ("A" for all of A's classes,
// then K, E and m last).
std::string KeyspaceEventsToString(uint32_t flags);

}  // namespace redlab::server::engine
