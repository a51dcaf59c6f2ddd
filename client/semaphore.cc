#include "client/semaphore.h"

#include "client/acquisition.h"
#include "client/lock_core.h"
#include "client/semaphore_core.h"

namespace redlab {

using client::Acquisition;
using client::CallAsync;
using client::EvalAsync;
using client::kPublishCommand;

namespace {

void CheckPermits(int64_t permits) {
  if (permits < 0) throw Error("permits must not be negative");
}

// A future already settled, for what Redisson answers itself without a round trip.
std::future<void> Ready() {
  std::promise<void> p;
  p.set_value();
  return p.get_future();
}
std::future<bool> Ready(bool value) {
  std::promise<bool> p;
  p.set_value(value);
  return p.get_future();
}

int64_t AsInteger(const Reply& r) {
  if (r.type == Reply::Type::kInteger) return r.integer;
  if (r.is_nil()) return 0;
  return std::stoll(r.str);
}

}  // namespace

std::future<bool> Semaphore::Start(int64_t permits, std::optional<Millis> wait, bool once) {
  CheckPermits(permits);
  if (permits == 0) return Ready(true);
  Acquisition::Params params;
  params.wait = wait;
  params.once = once;
  params.permits = permits;
  return client::StartAcquisition<bool>(core_, ThreadId::Current(), std::move(params),
                                        [](bool acquired, int64_t) { return acquired; });
}

void Semaphore::Acquire(int64_t permits) { core_->client->Await(AcquireAsync(permits)); }
bool Semaphore::TryAcquire(int64_t permits) {
  return core_->client->Await(TryAcquireAsync(permits));
}
bool Semaphore::TryAcquire(int64_t permits, Millis wait) {
  return core_->client->Await(TryAcquireAsync(permits, wait));
}
void Semaphore::Release(int64_t permits) { core_->client->Await(ReleaseAsync(permits)); }

bool Semaphore::ReleaseIfExists(int64_t permits) {
  CheckPermits(permits);
  if (permits == 0) return false;  // as Redisson
  const auto& scripts = core_->client->scripts;
  return core_->client->Await(
      EvalAsync<bool>(core_, scripts.semaphore_release_if_exists, {core_->name, core_->channel},
                      {std::to_string(permits), kPublishCommand}, /*idempotent=*/false,
                      [](const Reply& r) { return r.integer == 1; }));
}

bool Semaphore::TrySetPermits(int64_t permits) {
  return core_->client->Await(TrySetPermitsAsync(permits));
}

bool Semaphore::TrySetPermits(int64_t permits, Millis ttl) {
  const auto& scripts = core_->client->scripts;
  return core_->client->Await(
      EvalAsync<bool>(core_, scripts.semaphore_try_set_permits_ttl, {core_->name, core_->channel},
                      {std::to_string(permits), kPublishCommand, std::to_string(ttl.count())},
                      /*idempotent=*/true, [](const Reply& r) { return r.integer == 1; }));
}

void Semaphore::AddPermits(int64_t permits) {
  core_->client->Await(
      client::AddPermitsAsync(core_, core_->client->scripts.semaphore_add_permits, permits));
}

int64_t Semaphore::DrainPermits() {
  const auto& scripts = core_->client->scripts;
  return core_->client->Await(EvalAsync<int64_t>(
      core_, scripts.semaphore_drain_permits, {core_->name}, {}, /*idempotent=*/true, AsInteger));
}

int64_t Semaphore::AvailablePermits() { return core_->client->Await(AvailablePermitsAsync()); }

bool Semaphore::Delete() {
  return core_->client->Await(
      core_->client->Submit<bool>([core = core_](std::shared_ptr<std::promise<bool>> p) {
        core->link().Call({"DEL", core->name}, {}, [p](client::CommandResult r) {
          if (r.error) return p->set_exception(r.error);
          p->set_value(r.reply.integer == 1);
        });
      }));
}

std::future<void> Semaphore::AcquireAsync(int64_t permits) {
  CheckPermits(permits);
  if (permits == 0) return Ready();
  Acquisition::Params params;
  params.permits = permits;
  // Without a wait bound it ends acquired or failed.
  return client::StartAcquisition<void>(core_, ThreadId::Current(), std::move(params),
                                        [](bool, int64_t) { return 0; });
}
std::future<bool> Semaphore::TryAcquireAsync(int64_t permits) {
  return Start(permits, std::nullopt, true);
}
std::future<bool> Semaphore::TryAcquireAsync(int64_t permits, Millis wait) {
  return Start(permits, wait, false);
}

std::future<void> Semaphore::ReleaseAsync(int64_t permits) {
  CheckPermits(permits);
  // Redisson's releaseAsync(0) answers itself: no INCRBY 0 creating a semaphore, no message.
  if (permits == 0) return Ready();
  const auto& scripts = core_->client->scripts;
  return EvalAsync<void>(core_, scripts.semaphore_release, {core_->name, core_->channel},
                         {std::to_string(permits), kPublishCommand}, /*idempotent=*/false,
                         [](const Reply&) {});
}

std::future<bool> Semaphore::TrySetPermitsAsync(int64_t permits) {
  return client::TrySetPermitsAsync(core_, permits);
}

std::future<int64_t> Semaphore::AvailablePermitsAsync() {
  return CallAsync<int64_t>(core_, {"GET", core_->name}, AsInteger);
}

const std::string& Semaphore::name() const { return core_->name; }
const std::string& Semaphore::channel() const { return core_->channel; }

}  // namespace redlab
