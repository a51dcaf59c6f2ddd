#include "client/countdown_latch_core.h"

#include <charconv>

namespace redlab::client {

std::string LatchChannel(const std::string& name) {
  return "redisson_countdownlatch__channel__{" + name + "}";
}

CountDownLatchCore::CountDownLatchCore(std::shared_ptr<ClientCore> client, size_t node,
                                       std::string name)
    : LockCore(client, node, name, LatchChannel(name), LatchChannel(name), /*wake_all=*/true) {}

void CountDownLatchCore::TryAcquireOnce(ThreadId, const AcquireRequest&,
                                        std::function<void(AcquireOutcome)> done) {
  link().Call({"GET", name}, {}, [done = std::move(done)](CommandResult r) {
    AcquireOutcome out;
    if (!out.Failed(r)) {
      int64_t count = 0;
      if (!r.reply.is_nil()) {
        std::from_chars(r.reply.str.data(), r.reply.str.data() + r.reply.str.size(), count);
      }
      out.acquired = count <= 0;  // open
      out.ttl = -1;               // closed: wait for a message
    }
    done(out);
  });
}

}  // namespace redlab::client
