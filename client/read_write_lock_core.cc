#include "client/read_write_lock_core.h"

namespace redlab::client {
namespace {

// RedissonReadLock sends "0" (one waiter), RedissonWriteLock "1" (every waiter).
constexpr char kReadUnlockMessage[] = "0";
constexpr char kWriteUnlockMessage[] = "1";

}  // namespace

std::string SuffixName(std::string_view name, std::string_view suffix) {
  std::string s;
  if (name.find('{') != std::string_view::npos) {
    s = std::string(name);
  } else {
    s = "{" + std::string(name) + "}";
  }
  s += ':';
  s += suffix;
  return s;
}

WriteLockCore::WriteLockCore(std::shared_ptr<ClientCore> c, size_t node, std::string name)
    : LockCore(c, node, name, PrefixName("redisson_rwlock", name),
               PrefixName("redisson_rwlock", name), /*wake_all=*/false) {}

ScriptCall WriteLockCore::AcquireCall(ThreadId t, int64_t ttl, const AcquireRequest&) const {
  return {&client->scripts.write_acquire, {name}, {std::to_string(ttl), Field(t)}};
}

ScriptCall WriteLockCore::ReleaseCall(ThreadId t, int64_t restart_ms, const std::string& latch,
                                      int64_t latch_ms) const {
  return {&client->scripts.write_release,
          {name, channel, latch},
          {kWriteUnlockMessage, std::to_string(restart_ms), Field(t), kPublishCommand,
           std::to_string(latch_ms)}};
}

ScriptCall WriteLockCore::ForceReleaseCall() const {
  return {&client->scripts.write_force_release,
          {name, channel},
          {kWriteUnlockMessage, kPublishCommand}};
}

ReadLockCore::ReadLockCore(std::shared_ptr<ClientCore> c, size_t node, std::string name)
    : LockCore(c, node, name, PrefixName("redisson_rwlock", name),
               PrefixName("redisson_rwlock", name), /*wake_all=*/false),
      key_prefix(name.find('{') != std::string::npos ? name : "{" + name + "}") {}

std::string ReadLockCore::TimeoutPrefix(ThreadId t) const {
  return SuffixName(name, Owner(t)) + ":rwlock_timeout";
}

ScriptCall ReadLockCore::AcquireCall(ThreadId t, int64_t ttl, const AcquireRequest&) const {
  return {&client->scripts.read_acquire,
          {name, TimeoutPrefix(t)},
          {std::to_string(ttl), Owner(t), Owner(t) + ":write"}};
}

ScriptCall ReadLockCore::ReleaseCall(ThreadId t, int64_t, const std::string& latch,
                                     int64_t latch_ms) const {
  return {&client->scripts.read_release,
          {name, channel, TimeoutPrefix(t), key_prefix, latch},
          {kReadUnlockMessage, Owner(t), kPublishCommand, std::to_string(latch_ms)}};
}

ScriptCall ReadLockCore::ForceReleaseCall() const {
  return {
      &client->scripts.read_force_release, {name, channel}, {kReadUnlockMessage, kPublishCommand}};
}

}  // namespace redlab::client
