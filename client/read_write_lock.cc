#include "client/read_write_lock.h"

#include "client/read_write_lock_core.h"

namespace redlab {

::redlab::ReadLock ReadWriteLock::ReadLock() const {
  return ::redlab::ReadLock(std::make_shared<client::ReadLockCore>(core_, master_, name_));
}

::redlab::WriteLock ReadWriteLock::WriteLock() const {
  return ::redlab::WriteLock(std::make_shared<client::WriteLockCore>(core_, master_, name_));
}

bool WriteLock::IsLocked() { return core_->client->Await(IsLockedAsync()); }

std::future<bool> WriteLock::IsLockedAsync() {
  return core_->client->Submit<bool>([core = core_](std::shared_ptr<std::promise<bool>> p) {
    core->link().Call({"HGET", core->name, "mode"}, {}, [p](client::CommandResult r) {
      if (r.error) return p->set_exception(r.error);
      p->set_value(!r.reply.is_nil() && r.reply.str == "write");
    });
  });
}

bool ReadLock::IsLocked() { return core_->client->Await(IsLockedAsync()); }

std::future<bool> ReadLock::IsLockedAsync() {
  return client::EvalAsync<bool>(core_, core_->client->scripts.read_is_locked, {core_->name}, {},
                                 /*idempotent=*/true,
                                 [](const Reply& r) { return r.integer == 1; });
}

}  // namespace redlab
