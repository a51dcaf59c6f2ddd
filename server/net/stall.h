// FAULT STALL as the event loop lives it (Redis's DEBUG SLEEP, or a GC/VM pause): the loop
// thread waits, reading, writing, expiring and replicating nothing, until the stall's end, a
// wake-up from another thread (Node::Stop, SIGTERM) or a request that must break it arriving on
// a client socket (FAULT RESET, SHUTDOWN). Sockets are only peeked meanwhile, so every byte is
// served, in order, once the loop runs again.
#pragma once

#include <cstddef>
#include <cstdint>

namespace redlab::server::net {

class Listener;

class StallWaiter {
 public:
  enum class End { kElapsed, kWoken, kBreakingRequest };

  StallWaiter();
  ~StallWaiter();
  StallWaiter(const StallWaiter&) = delete;
  StallWaiter& operator=(const StallWaiter&) = delete;

  // On the loop thread: waits up to `ms` (a wait on events with a deadline, never a sleep).
  // Connections accepted meanwhile (to peek at their first request) are handed to `listener`
  // afterwards. With `auth_required`, only authenticated clients' requests break the stall.
  End Wait(Listener& listener, int64_t ms, bool auth_required);
  // From any thread: ends the stall under way, or the next one at once (the node is stopping).
  void Wake();

  // Whether `request` (a client's first pending bytes) begins with a request that breaks a
  // stall: FAULT RESET or SHUTDOWN, in RESP or inline form. Exposed for tests.
  static bool BreaksStall(const char* data, size_t size);

 private:
  int wake_fd_ = -1;  // an eventfd
};

}  // namespace redlab::server::net
