// Redisson's RedissonPermitExpirableSemaphore: the calls around its scripts.
#include "client/permit_semaphore.h"

#include "client/acquisition.h"
#include "client/errors.h"
#include "client/permit_semaphore_core.h"
#include "client/semaphore_core.h"

namespace redlab {

using client::Acquisition;
using client::EvalAsync;
using client::kNonExpirableDate;
using client::kPublishCommand;
using client::UnixMillis;

namespace {

void CheckPermits(int64_t permits) {
  if (permits < 0) throw Error("Permits amount can't be negative");
}

std::string IdBytes(const std::string& id) {
  std::string bytes = client::HexToBytes(id);
  if (bytes.empty()) throw Error("not a permit id: " + id);
  return bytes;
}

}  // namespace

std::future<std::vector<std::string>> PermitExpirableSemaphore::TryAcquireAsync(
    int64_t permits, std::optional<Millis> wait, std::optional<Millis> lease) {
  CheckPermits(permits);
  Acquisition::Params params;
  params.lease = lease;
  params.wait = wait.value_or(Millis(0));
  params.once = !wait;
  params.permits = permits;
  auto core = core_;
  return client::StartAcquisition<std::vector<std::string>>(
      core_, ThreadId::Current(), std::move(params), [core](bool acquired, int64_t serial) {
        return acquired ? core->TakeIds(serial) : std::vector<std::string>{};
      });
}

std::future<std::vector<std::string>> PermitExpirableSemaphore::AcquireAsync(
    int64_t permits, std::optional<Millis> lease) {
  CheckPermits(permits);
  Acquisition::Params params;
  params.lease = lease;
  params.permits = permits;
  auto core = core_;
  // No wait bound: it ends acquired or failed.
  return client::StartAcquisition<std::vector<std::string>>(
      core_, ThreadId::Current(), std::move(params), [core](bool acquired, int64_t serial) {
        return acquired ? core->TakeIds(serial) : std::vector<std::string>{};
      });
}

std::string PermitExpirableSemaphore::Acquire(std::optional<Millis> lease) {
  return Acquire(1, lease).at(0);
}

std::vector<std::string> PermitExpirableSemaphore::Acquire(int64_t permits,
                                                           std::optional<Millis> lease) {
  return core_->client->Await(AcquireAsync(permits, lease));
}

std::optional<std::string> PermitExpirableSemaphore::TryAcquire() {
  std::vector<std::string> ids =
      core_->client->Await(TryAcquireAsync(1, std::nullopt, std::nullopt));
  if (ids.empty()) return std::nullopt;
  return ids[0];
}

std::optional<std::string> PermitExpirableSemaphore::TryAcquire(Millis wait,
                                                                std::optional<Millis> lease) {
  std::vector<std::string> ids = TryAcquire(1, wait, lease);
  if (ids.empty()) return std::nullopt;
  return ids[0];
}

std::vector<std::string> PermitExpirableSemaphore::TryAcquire(int64_t permits, Millis wait,
                                                              std::optional<Millis> lease) {
  return core_->client->Await(TryAcquireAsync(permits, wait, lease));
}

std::future<bool> PermitExpirableSemaphore::TryReleaseAsync(const std::string& id) {
  const auto& scripts = core_->client->scripts;
  return EvalAsync<bool>(core_, scripts.permit_semaphore_release,
                         {core_->name, core_->channel, core_->timeout_key},
                         {IdBytes(id), "1", std::to_string(UnixMillis()), kPublishCommand},
                         /*idempotent=*/true, [](const Reply& r) { return r.integer == 1; });
}

bool PermitExpirableSemaphore::TryRelease(const std::string& id) {
  return core_->client->Await(TryReleaseAsync(id));
}

void PermitExpirableSemaphore::Release(const std::string& id) {
  if (!TryRelease(id)) {
    throw Error("Permit with id " + id + " has already been released or doesn't exist");
  }
}

int64_t PermitExpirableSemaphore::TryRelease(const std::vector<std::string>& ids) {
  if (ids.empty()) throw Error("permitIds can't be null or empty");
  std::vector<std::string> args{std::to_string(ids.size()), std::to_string(UnixMillis()),
                                kPublishCommand};
  for (const std::string& id : ids) args.push_back(IdBytes(id));
  const auto& scripts = core_->client->scripts;
  return core_->client->Await(EvalAsync<int64_t>(core_, scripts.permit_semaphore_release_many,
                                                 {core_->name, core_->channel, core_->timeout_key},
                                                 std::move(args), /*idempotent=*/true,
                                                 [](const Reply& r) { return r.integer; }));
}

void PermitExpirableSemaphore::Release(const std::vector<std::string>& ids) {
  if (TryRelease(ids) == static_cast<int64_t>(ids.size())) return;
  std::string list;
  for (const std::string& id : ids) list += (list.empty() ? "" : ", ") + id;
  throw Error("Permits with ids [" + list + "] have already been released or don't exist");
}

int64_t PermitExpirableSemaphore::GetLeaseTime(const std::string& id) {
  const auto& scripts = core_->client->scripts;
  int64_t left = core_->client->Await(EvalAsync<int64_t>(
      core_, scripts.permit_semaphore_lease_time, {core_->name, core_->timeout_key, core_->channel},
      {IdBytes(id), std::to_string(kNonExpirableDate), std::to_string(UnixMillis()),
       kPublishCommand},
      /*idempotent=*/true, [](const Reply& r) { return r.integer; }));
  if (left == 0) {
    throw Error("Permit with id " + id + " has already been released or doesn't exist");
  }
  return left;
}

int64_t PermitExpirableSemaphore::GetPermits() {
  const auto& scripts = core_->client->scripts;
  return core_->client->Await(EvalAsync<int64_t>(
      core_, scripts.permit_semaphore_permits, {core_->name, core_->timeout_key, core_->channel},
      {std::to_string(UnixMillis()), kPublishCommand}, /*idempotent=*/true,
      [](const Reply& r) { return r.integer; }));
}

int64_t PermitExpirableSemaphore::AcquiredPermits() {
  const auto& scripts = core_->client->scripts;
  return core_->client->Await(EvalAsync<int64_t>(core_, scripts.permit_semaphore_acquired_permits,
                                                 {core_->name, core_->timeout_key, core_->channel},
                                                 {std::to_string(UnixMillis()), kPublishCommand},
                                                 /*idempotent=*/true,
                                                 [](const Reply& r) { return r.integer; }));
}

void PermitExpirableSemaphore::SetPermits(int64_t permits) {
  const auto& scripts = core_->client->scripts;
  core_->client->Await(EvalAsync<void>(core_, scripts.permit_semaphore_set_permits,
                                       {core_->name, core_->channel, core_->timeout_key},
                                       {std::to_string(permits), kPublishCommand},
                                       /*idempotent=*/true, [](const Reply&) {}));
}

bool PermitExpirableSemaphore::UpdateLeaseTime(const std::string& id, std::optional<Millis> lease) {
  int64_t now = UnixMillis();
  int64_t date = lease ? now + lease->count() : kNonExpirableDate;
  const auto& scripts = core_->client->scripts;
  return core_->client->Await(
      EvalAsync<bool>(core_, scripts.permit_semaphore_update_lease_time,
                      {core_->name, core_->timeout_key, core_->channel},
                      {IdBytes(id), std::to_string(date), std::to_string(now), kPublishCommand},
                      /*idempotent=*/true, [](const Reply& r) { return r.integer == 1; }));
}

int64_t PermitExpirableSemaphore::AvailablePermits() {
  const auto& scripts = core_->client->scripts;
  return core_->client->Await(
      EvalAsync<int64_t>(core_, scripts.permit_semaphore_available_permits,
                         {core_->name, core_->timeout_key, core_->channel},
                         {std::to_string(UnixMillis()), kPublishCommand}, /*idempotent=*/true,
                         [](const Reply& r) -> int64_t {
                           return r.type == Reply::Type::kInteger ? r.integer : std::stoll(r.str);
                         }));
}

bool PermitExpirableSemaphore::TrySetPermits(int64_t permits) {
  return core_->client->Await(client::TrySetPermitsAsync(core_, permits));
}

void PermitExpirableSemaphore::AddPermits(int64_t permits) {
  core_->client->Await(client::AddPermitsAsync(
      core_, core_->client->scripts.permit_semaphore_add_permits, permits));
}

bool PermitExpirableSemaphore::Delete() {
  return core_->client->Await(
      core_->client->Submit<bool>([core = core_](std::shared_ptr<std::promise<bool>> p) {
        core->link().Call({"DEL", core->name, core->timeout_key}, {}, [p](client::CommandResult r) {
          if (r.error) return p->set_exception(r.error);
          p->set_value(r.reply.integer > 0);
        });
      }));
}

const std::string& PermitExpirableSemaphore::name() const { return core_->name; }
const std::string& PermitExpirableSemaphore::timeout_name() const { return core_->timeout_key; }
const std::string& PermitExpirableSemaphore::channel() const { return core_->channel; }

}  // namespace redlab
