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
        const CommandResult& r = w.result;
        if (r.error) {
          out.error = r.error;
        } else if (r.reply.is_error()) {
          out.error = std::make_exception_ptr(ReplyError(r.reply.str));
        } else {
          out.acquired = r.reply.integer == 1;
          out.ttl = -1;  // no holder's TTL: wait for a message
        }
        done(out);
      });
}

}  // namespace redlab::client
