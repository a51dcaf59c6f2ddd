#include "client/permit_semaphore_core.h"

#include <chrono>

namespace redlab::client {

int64_t UnixMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string HexToBytes(const std::string& hex) {
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (hex.empty() || hex.size() % 2 != 0) return {};
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = digit(hex[i]), lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return {};
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

PermitSemaphoreCore::PermitSemaphoreCore(std::shared_ptr<ClientCore> client, size_t node,
                                         std::string name)
    : LockCore(client, node, name, PrefixName("redisson_sc", name),
               // The semaphore's group of waiters: both listen on redisson_sc:{name}.
               PrefixName("redisson_sc", name), /*wake_all=*/true),
      timeout_key((name.find('{') != std::string::npos ? name : "{" + name + "}") + ":timeout") {}

void PermitSemaphoreCore::TryAcquireOnce(ThreadId, const AcquireRequest& request,
                                         std::function<void(AcquireOutcome)> done) {
  std::vector<std::string> ids;
  int64_t now = UnixMillis();
  int64_t date = request.lease ? now + request.lease->count() : kNonExpirableDate;
  std::vector<std::string> args{std::to_string(request.permits), std::to_string(date),
                                std::to_string(now), std::to_string(kNonExpirableDate),
                                kPublishCommand};
  for (int64_t i = 0; i < request.permits; ++i) {
    ids.push_back(RandomHex(16));  // Redisson's generateId, sent as its bytes
    args.push_back(HexToBytes(ids.back()));
  }
  auto self = std::static_pointer_cast<PermitSemaphoreCore>(shared_from_this());
  // Not idempotent: a repeated attempt would take other permits.
  link().EvalWrite(
      client->scripts.permit_semaphore_try_acquire, {name, timeout_key, channel}, std::move(args),
      /*idempotent=*/false, [](const Reply& r) { return r.str == "OK"; },
      [self, ids = std::move(ids), done = std::move(done)](WriteResult w) mutable {
        AcquireOutcome out;
        const CommandResult& r = w.result;
        if (out.Failed(r)) return done(out);
        if (r.reply.type == Reply::Type::kString && r.reply.str == "OK") {
          out.acquired = true;
          out.token = self->next_serial_++;
          self->acquired_[out.token] = std::move(ids);
        } else if (r.reply.type == Reply::Type::kString && r.reply.str.rfind(':', 0) == 0) {
          // The nearest lease's end: sleep until then at most, as Redisson.
          int64_t nearest = 0;
          try {
            nearest = static_cast<int64_t>(std::stod(r.reply.str.substr(1)));
          } catch (...) {
          }
          out.ttl = std::max<int64_t>(0, nearest - UnixMillis());
        } else {
          out.ttl = -1;  // no lease to wait for: a message only
        }
        done(out);
      });
}

std::vector<std::string> PermitSemaphoreCore::TakeIds(int64_t serial) {
  auto it = acquired_.find(serial);
  if (it == acquired_.end()) return {};
  std::vector<std::string> ids = std::move(it->second);
  acquired_.erase(it);
  return ids;
}

}  // namespace redlab::client
