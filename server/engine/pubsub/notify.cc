#include "server/engine/pubsub/notify.h"

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

}  // namespace redlab::server::engine
