// A Lua script of lua/ as the client sends it: its text for EVAL and its SHA1 for EVALSHA.
#pragma once

#include <string>
#include <string_view>

namespace redlab::client {

struct Script {
  std::string name;
  std::string text;
  std::string sha;  // lowercase hex SHA1 of text, as SCRIPT LOAD answers

  /// The script `name` of lua/ (embedded at build time).
  static Script Load(std::string_view name);
};

/// Lowercase hex SHA1, as Redis names scripts.
std::string Sha1Hex(std::string_view text);

/// The lock family's scripts (see lua/*.lua for their keys, arguments and replies).
struct LockScripts {
  Script acquire = Script::Load("lock_acquire");
  Script release = Script::Load("lock_release");
  Script renew = Script::Load("lock_renew");
  Script force_release = Script::Load("lock_force_release");
  // RExpirable's expire, which RedissonMultiLock sends to shorten each lock to its lease.
  Script expire = Script::Load("expire");
  // The spin lock (RedissonSpinLock): releases that publish nothing.
  Script spin_release = Script::Load("spin_lock_release");
  Script spin_force_release = Script::Load("spin_lock_force_release");
  // The fenced lock: acquire returning the token, and the plain form behind Lock / TryLock.
  Script fenced_acquire = Script::Load("fenced_lock_acquire");
  Script fenced_acquire_plain = Script::Load("fenced_lock_acquire_plain");
  // The fair lock (RedissonFairLock).
  Script fair_acquire = Script::Load("fair_lock_acquire");
  Script fair_try_acquire = Script::Load("fair_lock_try_acquire");
  Script fair_release = Script::Load("fair_lock_release");
  Script fair_force_release = Script::Load("fair_lock_force_release");
  Script fair_leave_queue = Script::Load("fair_lock_leave_queue");
  // The read/write lock (RReadWriteLock).
  Script read_acquire = Script::Load("read_lock_acquire");
  Script read_release = Script::Load("read_lock_release");
  Script read_renew = Script::Load("read_lock_renew");
  Script read_force_release = Script::Load("read_lock_force_release");
  Script read_is_locked = Script::Load("read_lock_is_locked");
  Script write_acquire = Script::Load("write_lock_acquire");
  Script write_release = Script::Load("write_lock_release");
  Script write_force_release = Script::Load("write_lock_force_release");
  // The semaphore (RSemaphore) and the count-down latch (RCountDownLatch).
  Script semaphore_acquire = Script::Load("semaphore_acquire");
  Script semaphore_release = Script::Load("semaphore_release");
  Script semaphore_release_if_exists = Script::Load("semaphore_release_if_exists");
  Script semaphore_try_set_permits = Script::Load("semaphore_try_set_permits");
  Script semaphore_try_set_permits_ttl = Script::Load("semaphore_try_set_permits_ttl");
  Script semaphore_add_permits = Script::Load("semaphore_add_permits");
  Script semaphore_drain_permits = Script::Load("semaphore_drain_permits");
  // The permit-expirable semaphore (RPermitExpirableSemaphore); trySetPermits is RSemaphore's.
  Script permit_semaphore_try_acquire = Script::Load("permit_semaphore_try_acquire");
  Script permit_semaphore_release = Script::Load("permit_semaphore_release");
  Script permit_semaphore_available_permits = Script::Load("permit_semaphore_available_permits");
  Script permit_semaphore_update_lease_time = Script::Load("permit_semaphore_update_lease_time");
  Script permit_semaphore_add_permits = Script::Load("permit_semaphore_add_permits");
  Script permit_semaphore_release_many = Script::Load("permit_semaphore_release_many");
  Script permit_semaphore_permits = Script::Load("permit_semaphore_permits");
  Script permit_semaphore_acquired_permits = Script::Load("permit_semaphore_acquired_permits");
  Script permit_semaphore_set_permits = Script::Load("permit_semaphore_set_permits");
  Script permit_semaphore_lease_time = Script::Load("permit_semaphore_lease_time");
  Script latch_try_set_count = Script::Load("countdown_latch_try_set_count");
  Script latch_count_down = Script::Load("countdown_latch_count_down");
  Script latch_delete = Script::Load("countdown_latch_delete");
};

}  // namespace redlab::client
