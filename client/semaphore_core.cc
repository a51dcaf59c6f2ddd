#include "client/semaphore_core.h"

namespace redlab::client {

SemaphoreCore::SemaphoreCore(std::shared_ptr<ClientCore> client, size_t node, std::string name)
    : LockCore(client, node, name, PrefixName("redisson_sc", name),
               // Its own group of waiters: a lock of the same name waits on another channel.
               PrefixName("redisson_sc", name), /*wake_all=*/true) {}

void SemaphoreCore::TryAcquireOnce(ThreadId, const AcquireRequest& request,
                                   std::function<void(AcquireOutcome)> done) {
  // Not idempotent: a repeated attempt would take the permits twice.
  link().EvalWrite(
      client->scripts.semaphore_acquire, {name}, {std::to_string(request.permits)},
      /*idempotent=*/false, [](const Reply& r) { return r.integer == 1; },
      [done = std::move(done)](WriteResult w) {
        AcquireOutcome out;
        if (!out.Failed(w.result)) {
          out.acquired = w.result.reply.integer == 1;
          out.ttl = -1;  // no holder's TTL: wait for a message
        }
        done(out);
      });
}

std::future<bool> TrySetPermitsAsync(const std::shared_ptr<LockCore>& core, int64_t permits) {
  return EvalAsync<bool>(core, core->client->scripts.semaphore_try_set_permits,
                         {core->name, core->channel}, {std::to_string(permits), kPublishCommand},
                         /*idempotent=*/true, [](const Reply& r) { return r.integer == 1; });
}

std::future<void> AddPermitsAsync(const std::shared_ptr<LockCore>& core, const Script& script,
                                  int64_t permits) {
  return EvalAsync<void>(core, script, {core->name, core->channel},
                         {std::to_string(permits), kPublishCommand}, /*idempotent=*/false,
                         [](const Reply&) {});
}

}  // namespace redlab::client
