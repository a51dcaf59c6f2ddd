// Identities as Redisson forms them: a random UUID per client, a number per thread (the owner
// of a lock is "<client uuid>:<thread id>"), and random request ids for unlock latches.
#pragma once

#include <compare>
#include <cstdint>
#include <string>

namespace redlab {

/// Who holds a lock within one client: Java's thread id in Redisson. ThreadId::Current() is
/// the calling thread's (numbers are handed out in order of first use and never reused within
/// a process, as Java's are); any other value names an owner explicitly, for async use or to
/// hand a lock from one thread to another.
struct ThreadId {
  uint64_t value = 0;

  static ThreadId Current();
  auto operator<=>(const ThreadId&) const = default;
};

namespace client {

/// A random RFC 4122 version-4 UUID ("1b4e28ba-2fa1-41d2-883f-0016d3cca427").
std::string RandomUuid();
/// `bytes` random bytes as lowercase hex (Redisson's generateId uses 16).
std::string RandomHex(size_t bytes);

}  // namespace client
}  // namespace redlab
