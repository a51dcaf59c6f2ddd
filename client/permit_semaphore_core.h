// The permit-expirable semaphore as something an Acquisition can wait for: one attempt is
// Redisson's tryAcquire script with fresh permit ids (expired permits reclaimed first); a failed
// one waits for a message on redisson_sc:{name}, or at most until the nearest permit with a
// lease expires. The ids of a successful attempt are kept here under its serial number, which
// travels as the outcome's token, until the caller's future takes them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "client/lock_core.h"

namespace redlab::client {

/// Redisson's nonExpirableTimeout: the expiry date of a permit taken without a lease.
inline constexpr int64_t kNonExpirableDate = 922337203685477;

/// Now as Redisson's System.currentTimeMillis(): unix milliseconds.
int64_t UnixMillis();
/// Hex (Redisson's permit ids) to the bytes the scripts store; "" when not hex.
std::string HexToBytes(const std::string& hex);

struct PermitSemaphoreCore : LockCore {
  PermitSemaphoreCore(std::shared_ptr<ClientCore> client, size_t node, std::string name);

  void TryAcquireOnce(ThreadId t, const AcquireRequest& request,
                      std::function<void(AcquireOutcome)> done) override;
  /// The ids acquired by the attempt numbered `serial` (loop thread; once).
  std::vector<std::string> TakeIds(int64_t serial);

  const std::string timeout_key;  // {name}:timeout

 private:
  int64_t next_serial_ = 0;                               // loop thread
  std::map<int64_t, std::vector<std::string>> acquired_;  // loop thread
};

}  // namespace redlab::client
