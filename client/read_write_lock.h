// redlab::ReadWriteLock: Redisson's RReadWriteLock (RedissonReadWriteLock, RedissonReadLock,
// RedissonWriteLock) in C++: many readers or one writer over the hash `name`. Obtained from
// Client::GetReadWriteLock(name).
//
//   redlab::ReadWriteLock rw = client.GetReadWriteLock("catalog");
//   { std::shared_lock<redlab::ReadLock> reading(rw.ReadLock()); ... }   // many at once
//   { std::lock_guard<redlab::WriteLock> writing(rw.WriteLock()); ... }  // alone
#pragma once

#include <cstddef>
#include <future>
#include <memory>
#include <string>

#include "client/lock.h"

namespace redlab {

namespace client {
struct ClientCore;
}

/// The write side: exclusive and reentrant, field "<uuid>:<thread>:write" in the hash `name`
/// (mode "write"); a release wakes every waiter ("1" on redisson_rwlock:{name}). A reader does
/// not become a writer (Redisson does not upgrade). Every ReentrantLock operation applies,
/// with the watchdog when no lease is given.
class WriteLock : public ReentrantLock {
 public:
  /// Whether a writer holds it (isLocked: HGET name mode == "write").
  bool IsLocked();
  std::future<bool> IsLockedAsync();

 private:
  friend class ReadWriteLock;
  explicit WriteLock(std::shared_ptr<client::LockCore> core) : ReentrantLock(std::move(core)) {}
};

/// The read side: shared among readers (and the writer may read too), reentrant, one timeout
/// key per hold so the hash lives as long as its longest hold; a release wakes one waiter.
/// SharedLockable: std::shared_lock works. The watchdog renews the owner's read holds with
/// Redisson's batched read-lock renewal. OnLost reports the name as "<name> (read)".
class ReadLock : public ReentrantLock {
 public:
  /// Whether anyone reads (isLocked: mode "read", or a writer that also reads).
  bool IsLocked();
  std::future<bool> IsLockedAsync();

  // SharedLockable.
  void lock_shared() { Lock(); }
  bool try_lock_shared() { return TryLock(); }
  void unlock_shared() noexcept { unlock(); }

 private:
  friend class ReadWriteLock;
  explicit ReadLock(std::shared_ptr<client::LockCore> core) : ReentrantLock(std::move(core)) {}
};

class ReadWriteLock {
 public:
  ::redlab::ReadLock ReadLock() const;
  ::redlab::WriteLock WriteLock() const;
  const std::string& name() const { return name_; }

 private:
  friend class Client;
  ReadWriteLock(std::shared_ptr<client::ClientCore> core, size_t master, std::string name)
      : core_(std::move(core)), master_(master), name_(std::move(name)) {}

  std::shared_ptr<client::ClientCore> core_;
  size_t master_ = 0;
  std::string name_;
};

}  // namespace redlab
