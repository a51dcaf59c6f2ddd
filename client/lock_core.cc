#include "client/lock_core.h"

#include <algorithm>

#include "client/ids.h"
#include "client/watchdog.h"

namespace redlab::client {
namespace {

constexpr char kUnlockMessage[] = "0";

std::exception_ptr AsReplyError(const Reply& r) {
  return std::make_exception_ptr(ReplyError(r.str));
}

}  // namespace

bool AcquireOutcome::Failed(const CommandResult& r) {
  if (r.error) {
    error = r.error;
  } else if (r.reply.is_error()) {
    error = AsReplyError(r.reply);
  }
  return error != nullptr;
}

std::string PrefixName(std::string_view prefix, std::string_view name) {
  std::string s(prefix);
  if (name.find('{') != std::string_view::npos) {
    s += ':';
    s += name;
  } else {
    s += ":{";
    s += name;
    s += '}';
  }
  return s;
}

LockCore::LockCore(std::shared_ptr<ClientCore> c, size_t n, std::string lock_name,
                   std::string token)
    : client(std::move(c)),
      node(n),
      name(std::move(lock_name)),
      channel(PrefixName("redisson_lock__channel", name)),
      token_key(std::move(token)),
      waiter_key(name) {}

LockCore::LockCore(std::shared_ptr<ClientCore> c, size_t n, std::string primitive_name,
                   std::string channel_name, std::string key, bool all)
    : client(std::move(c)),
      node(n),
      name(std::move(primitive_name)),
      channel(std::move(channel_name)),
      waiter_key(std::move(key)),
      wake_all(all) {}

ScriptCall LockCore::AcquireCall(ThreadId t, int64_t ttl, const AcquireRequest&) const {
  return {&client->scripts.acquire, {name}, {std::to_string(ttl), Owner(t)}};
}

ScriptCall LockCore::ReleaseCall(ThreadId t, int64_t restart_ms, const std::string& latch,
                                 int64_t latch_ms) const {
  if (spin) {
    // RedissonSpinLock's own release: no waiter subscribes, so nothing is published.
    return {&client->scripts.spin_release,
            {name, latch},
            {std::to_string(restart_ms), Owner(t), std::to_string(latch_ms)}};
  }
  return {&client->scripts.release,
          {name, channel, latch},
          {kUnlockMessage, std::to_string(restart_ms), Owner(t), kPublishCommand,
           std::to_string(latch_ms)}};
}

ScriptCall LockCore::ForceReleaseCall() const {
  if (spin) return {&client->scripts.spin_force_release, {name}, {}};
  return {&client->scripts.force_release, {name, channel}, {kUnlockMessage, kPublishCommand}};
}

void LockCore::TryAcquireOnce(ThreadId t, const AcquireRequest& request,
                              std::function<void(AcquireOutcome)> done) {
  const std::optional<std::chrono::milliseconds>& lease = request.lease;
  bool with_token = request.with_token;
  int64_t lease_ms = lease && lease->count() > 0 ? lease->count() : 0;  // 0: the watchdog
  // The TTL comes from the owner's book of holds and is recorded only once the server said
  // yes: a failed attempt (held elsewhere) changes nothing.
  int64_t ttl = watchdog().AcquireTtl(BookName(), t, lease_ms);
  auto self = shared_from_this();
  // The reentrant lock's script, or a fenced lock's (the token key second): the plain one
  // answers as the reentrant lock's, the one with the token {-1, token} or {pttl, -1}.
  const LockScripts& scripts = client->scripts;
  bool fenced = !token_key.empty();
  with_token = with_token && fenced;
  ScriptCall call = AcquireCall(t, ttl, request);
  if (fenced) {
    call.script = with_token ? &scripts.fenced_acquire : &scripts.fenced_acquire_plain;
    call.keys = {name, token_key};
  }
  auto acquired = [with_token](const Reply& r) {
    return with_token ? r.type == Reply::Type::kArray && r.elements.size() == 2 &&
                            r.elements[1].integer != -1
                      : r.is_nil();
  };
  // Not idempotent: a repeated acquisition would count a second hold.
  link().EvalWrite(
      *call.script, std::move(call.keys), std::move(call.args),
      /*idempotent=*/false, acquired,
      [self, t, lease_ms, with_token, acquired, done = std::move(done)](WriteResult w) {
        AcquireOutcome out;
        const CommandResult& r = w.result;
        if (r.error) {
          out.error = r.error;
        } else if (r.reply.is_error()) {
          out.error = AsReplyError(r.reply);
        } else if (with_token &&
                   (r.reply.type != Reply::Type::kArray || r.reply.elements.size() != 2)) {
          out.error = std::make_exception_ptr(ReplyError(
              "fenced lock '" + self->name + "': unexpected reply " + r.reply.ToString()));
        } else if (!acquired(r.reply)) {
          out.ttl = with_token ? r.reply.elements[0].integer : r.reply.integer;
        } else if (w.unsynced() && self->client->config.check_lock_synced_slaves) {
          // Redisson's handleNoSync: take back the hold no replica has, then fail.
          std::string what = "lock '" + self->name + "' acquired on the master but none of " +
                             std::to_string(w.replicas) + " replicas acknowledged it within " +
                             std::to_string(self->client->config.slaves_sync_timeout.count()) +
                             " ms; released again";
          self->Release(
              t,
              [done, what](std::exception_ptr) {
                AcquireOutcome failed;
                failed.error = std::make_exception_ptr(NoSyncedReplicas(what));
                done(failed);
              },
              /*on_book=*/false);
          return;
        } else {
          out.acquired = true;
          if (with_token) out.token = r.reply.elements[1].integer;
          self->watchdog().Acquired(self->BookName(), t, lease_ms, self->Field(t), self->name,
                                    self->ReadRenewPrefix());
        }
        done(out);
      });
}

void LockCore::Release(ThreadId t, std::function<void(std::exception_ptr)> done, bool on_book) {
  const Config& config = client->config;
  std::string request_id = RandomHex(16);
  std::string latch = PrefixName("redisson_unlock_latch", name) + ":" + request_id;
  // The latch outlives every retry of this release: Redisson's
  // (timeout + retryDelay(retryAttempts)) * retryAttempts, at least 1 ms.
  int64_t latch_ms =
      std::max<int64_t>(1, (config.timeout + config.RetryDelay(config.retry_attempts)).count() *
                               config.retry_attempts);
  // Taken off the book now, not at the answer: a renewal racing this release on another
  // connection must not read the deleted key as a loss.
  Watchdog::Ticket ticket;
  if (on_book) {
    ticket = watchdog().BeginRelease(BookName(), t);
  } else {
    ticket.restart_ms = watchdog().RestartTtl(BookName(), t);
  }
  ScriptCall call = ReleaseCall(t, ticket.restart_ms, latch, latch_ms);
  auto self = shared_from_this();
  link().EvalWrite(
      *call.script, std::move(call.keys), std::move(call.args),
      /*idempotent=*/true, [](const Reply& r) { return !r.is_nil(); },
      [self, t, latch, on_book, ticket, done = std::move(done)](WriteResult w) {
        using Outcome = Watchdog::ReleaseOutcome;
        const CommandResult& r = w.result;
        Outcome outcome = r.error || r.reply.is_error() ? Outcome::kFailed
                          : r.reply.is_nil()            ? Outcome::kNotHeld
                          : r.reply.integer == 1        ? Outcome::kReleased
                                                        : Outcome::kStillHeld;
        if (on_book) self->watchdog().EndRelease(self->BookName(), t, ticket, outcome);
        if (r.error) {
          done(r.error);
          return;
        }
        if (r.reply.is_error()) {
          done(AsReplyError(r.reply));
          return;
        }
        // The answer is in hand: the latch has done its work.
        self->link().Call({"DEL", latch}, {}, [](CommandResult) {});
        if (r.reply.is_nil()) {
          done(std::make_exception_ptr(IllegalMonitorState(self->name, self->client->id, t.value)));
        } else if (w.unsynced() && self->client->config.check_lock_synced_slaves) {
          done(std::make_exception_ptr(
              NoSyncedReplicas("lock '" + self->name + "' released on the master but none of " +
                               std::to_string(w.replicas) + " replicas acknowledged it")));
        } else {
          done(nullptr);
        }
      });
}

void LockCore::ForceRelease(std::function<void(std::exception_ptr, bool)> done) {
  watchdog().RemoveAll(BookName());
  auto self = shared_from_this();
  ScriptCall call = ForceReleaseCall();
  link().EvalWrite(
      *call.script, std::move(call.keys), std::move(call.args),
      /*idempotent=*/true, [](const Reply& r) { return r.integer == 1; },
      [self, done = std::move(done)](WriteResult w) {
        const CommandResult& r = w.result;
        if (r.error) return done(r.error, false);
        if (r.reply.is_error()) return done(AsReplyError(r.reply), false);
        bool deleted = r.reply.integer == 1;
        if (deleted && w.unsynced() && self->client->config.check_lock_synced_slaves) {
          return done(std::make_exception_ptr(NoSyncedReplicas(
                          "lock '" + self->name +
                          "' deleted on the master but no replica acknowledged it")),
                      true);
        }
        done(nullptr, deleted);
      });
}

}  // namespace redlab::client
