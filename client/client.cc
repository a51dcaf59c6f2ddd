#include "client/client.h"

#include "client/client_core.h"
#include "client/countdown_latch_core.h"
#include "client/fair_lock_core.h"
#include "client/lock_core.h"
#include "client/permit_semaphore_core.h"
#include "client/semaphore_core.h"
#include "client/watchdog.h"

namespace redlab {

using client::ClientCore;
using client::CommandResult;

Client::Client(Config config) {
  config.Validate();
  core_ = std::make_shared<ClientCore>(std::move(config));
  try {
    core_->Start();
  } catch (...) {
    core_->Shutdown();
    throw;
  }
}

Client::~Client() { Shutdown(); }

void Client::Shutdown() {
  core_->CheckNotLoopThread();
  core_->Shutdown();
}

namespace {

void CheckMaster(const Config& config, size_t master) {
  if (master >= config.masters.size()) {
    throw ConfigError("no master #" + std::to_string(master) + " (there are " +
                      std::to_string(config.masters.size()) + ")");
  }
}

}  // namespace

ReentrantLock Client::GetLock(std::string name, size_t master) {
  CheckMaster(core_->config, master);
  return ReentrantLock(std::make_shared<client::LockCore>(core_, master, std::move(name)));
}

FencedLock Client::GetFencedLock(std::string name, size_t master) {
  CheckMaster(core_->config, master);
  std::string token_key = client::PrefixName("redisson_lock_token", name);
  return FencedLock(
      std::make_shared<client::LockCore>(core_, master, std::move(name), std::move(token_key)));
}

RedLock Client::GetRedLock(std::string name) { return RedLock(core_, std::move(name)); }

FairLock Client::GetFairLock(std::string name, size_t master) {
  CheckMaster(core_->config, master);
  return FairLock(std::make_shared<client::FairLockCore>(core_, master, std::move(name)));
}

ReadWriteLock Client::GetReadWriteLock(std::string name, size_t master) {
  CheckMaster(core_->config, master);
  return ReadWriteLock(core_, master, std::move(name));
}

SpinLock Client::GetSpinLock(std::string name, size_t master) {
  CheckMaster(core_->config, master);
  auto core = std::make_shared<client::LockCore>(core_, master, std::move(name));
  core->spin = client::LockCore::Spin{};
  return SpinLock(std::move(core));
}

CountDownLatch Client::GetCountDownLatch(std::string name, size_t master) {
  CheckMaster(core_->config, master);
  return CountDownLatch(
      std::make_shared<client::CountDownLatchCore>(core_, master, std::move(name)));
}

Semaphore Client::GetSemaphore(std::string name, size_t master) {
  CheckMaster(core_->config, master);
  return Semaphore(std::make_shared<client::SemaphoreCore>(core_, master, std::move(name)));
}

PermitExpirableSemaphore Client::GetPermitExpirableSemaphore(std::string name, size_t master) {
  CheckMaster(core_->config, master);
  return PermitExpirableSemaphore(
      std::make_shared<client::PermitSemaphoreCore>(core_, master, std::move(name)));
}

std::future<Reply> Client::ExecuteAsync(std::vector<std::string> args) {
  return core_->Submit<Reply>(
      [core = core_, args = std::move(args)](std::shared_ptr<std::promise<Reply>> p) mutable {
        if (core->nodes.empty()) {
          return p->set_exception(std::make_exception_ptr(ClientClosed("the client is closed")));
        }
        client::NodeLink::CallOptions options;
        options.idempotent = false;  // unknown command: repeat only what never left
        core->nodes[0].link->Call(std::move(args), options, [p](CommandResult r) {
          if (r.error) return p->set_exception(r.error);
          if (r.reply.is_error()) {
            return p->set_exception(std::make_exception_ptr(ReplyError(r.reply.str)));
          }
          p->set_value(std::move(r.reply));
        });
      });
}

Reply Client::Execute(std::vector<std::string> args) {
  return core_->Await(ExecuteAsync(std::move(args)));
}

const std::string& Client::id() const { return core_->id; }
const Config& Client::config() const { return core_->config; }

size_t Client::ParkedWaiters(const std::string& name, size_t master) {
  return core_->Await(
      core_->Submit<size_t>([core = core_, name, master](std::shared_ptr<std::promise<size_t>> p) {
        p->set_value(master < core->nodes.size() ? core->nodes[master].link->waiters().parked(name)
                                                 : 0);
      }));
}

size_t Client::WatchedLocks(size_t master) {
  return core_->Await(
      core_->Submit<size_t>([core = core_, master](std::shared_ptr<std::promise<size_t>> p) {
        p->set_value(master < core->nodes.size() ? core->nodes[master].watchdog->size() : 0);
      }));
}

}  // namespace redlab
