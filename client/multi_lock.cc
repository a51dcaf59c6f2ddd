#include "client/multi_lock.h"

#include <exception>
#include <random>

#include "client/errors.h"

namespace redlab {

using Clock = std::chrono::steady_clock;

MultiLock::MultiLock(std::vector<ReentrantLock> locks) : locks_(std::move(locks)) {
  if (locks_.empty()) throw ConfigError("a MultiLock needs at least one lock");
}

void MultiLock::ReleaseAll(const std::vector<ReentrantLock*>& held, ThreadId owner) {
  for (ReentrantLock* lock : held) {
    try {
      lock->Unlock(owner);
    } catch (const Error&) {
      // Taking back a partial round: a lock already gone is what we wanted anyway.
    }
  }
}

bool MultiLock::Acquire(std::optional<Millis> wait, std::optional<Millis> lease, ThreadId owner) {
  Clock::time_point deadline = Clock::now() + wait.value_or(Millis(0));
  // RedissonMultiLock.tryLock(waitTime, leaseTime): with a lease and a wait, each lock is
  // taken with twice the wait as its lease (newLeaseTime), so that the first ones cannot run
  // out while a later one is awaited; once all are held, each is shortened to the lease.
  std::optional<Millis> taken_with = lease;
  if (lease && wait && wait->count() > 0) taken_with = *wait * 2;
  while (true) {
    std::vector<ReentrantLock*> held;
    bool all = true;
    for (ReentrantLock& lock : locks_) {
      bool got = false;
      // Redisson's tryLock counts a lock whose attempt failed (an error reply, a lost
      // connection) as not acquired, and releases it when the answer timed out (the attempt
      // may have taken it).
      try {
        if (!wait) {
          got = lease ? lock.TryLock(Millis(0), *taken_with, owner) : lock.TryLock(owner);
        } else {
          auto left = std::chrono::duration_cast<Millis>(deadline - Clock::now());
          if (left.count() < 0) left = Millis(0);
          got = lease ? lock.TryLock(left, *taken_with, owner) : lock.TryLock(left, owner);
        }
      } catch (const TimeoutError&) {
        ReleaseAll({&lock}, owner);
      } catch (const Error&) {
      }
      if (!got) {
        all = false;
        break;
      }
      held.push_back(&lock);
    }
    if (all) {
      if (lease) Shorten(*lease);
      return true;
    }
    ReleaseAll(held, owner);
    if (!wait || Clock::now() >= deadline) return false;
  }
}

void MultiLock::Shorten(Millis lease) {
  // RedissonMultiLock: `acquiredLocks...map(l -> l.expireAsync(leaseTime)).forEach(join)`:
  // RedissonExpirable's expire script on every lock at once, then each answer awaited; the
  // first failure is thrown (the locks keep the lease they were taken with), as join() does.
  std::vector<std::future<bool>> answers;
  answers.reserve(locks_.size());
  for (ReentrantLock& lock : locks_) answers.push_back(lock.ExpireAsync(lease));
  std::exception_ptr first;
  for (std::future<bool>& answer : answers) {
    try {
      answer.get();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

void MultiLock::Lock() { Lock(Millis(-1), ThreadId::Current()); }
void MultiLock::Lock(Millis lease) { Lock(lease, ThreadId::Current()); }
void MultiLock::Lock(Millis lease, ThreadId owner) {
  // Redisson's lockInterruptibly: rounds of N x 1.5 s without a lease; with one, a random
  // round within [lease / 2, lease) when the lease is at most that, else [N x 1.5 s, lease).
  const int64_t base = static_cast<int64_t>(locks_.size()) * 1500;
  std::optional<Millis> l;
  if (lease.count() > 0) l = lease;
  thread_local std::mt19937_64 random{std::random_device{}()};
  while (true) {
    int64_t round = base;
    if (l) {
      int64_t low = l->count() <= base ? l->count() / 2 : base;
      int64_t high = l->count();
      round = low < high ? std::uniform_int_distribution<int64_t>(low, high - 1)(random) : low;
    }
    if (Acquire(Millis(round), l, owner)) return;
  }
}

bool MultiLock::TryLock() { return TryLock(ThreadId::Current()); }
bool MultiLock::TryLock(ThreadId owner) { return Acquire(std::nullopt, std::nullopt, owner); }
bool MultiLock::TryLock(Millis wait) { return Acquire(wait, std::nullopt, ThreadId::Current()); }
bool MultiLock::TryLock(Millis wait, Millis lease) {
  return TryLock(wait, lease, ThreadId::Current());
}
bool MultiLock::TryLock(Millis wait, Millis lease, ThreadId owner) {
  std::optional<Millis> l;
  if (lease.count() > 0) l = lease;
  return Acquire(wait, l, owner);
}

void MultiLock::Unlock() { Unlock(ThreadId::Current()); }
void MultiLock::Unlock(ThreadId owner) {
  std::exception_ptr first;
  for (ReentrantLock& lock : locks_) {
    try {
      lock.Unlock(owner);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

void MultiLock::unlock() noexcept {
  for (ReentrantLock& lock : locks_) lock.unlock();
}

std::future<bool> MultiLock::TryLockAsync(Millis wait, Millis lease, ThreadId owner) {
  return std::async(std::launch::async,
                    [this, wait, lease, owner] { return TryLock(wait, lease, owner); });
}

std::future<void> MultiLock::UnlockAsync(ThreadId owner) {
  return std::async(std::launch::async, [this, owner] { Unlock(owner); });
}

}  // namespace redlab
