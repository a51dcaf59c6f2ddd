// Blocked clients and CLIENT PAUSE: the engine side of commands that make a client wait
// (Redis's blocked.c and pause handling in networking.c). Timeouts follow the node's clock.
#include <algorithm>

#include "server/engine/engine.h"

namespace redlab::server::engine {

void Engine::BlockClient(Client& client, Client::BlockKind kind, int64_t deadline_ms) {
  client.block().kind = kind;
  client.block().deadline_ms = deadline_ms;
  blocked_.push_back(&client);
  ScheduleNextTimer();
}

void Engine::UnblockClient(Client& client) {
  if (!client.blocked()) return;
  blocked_.erase(std::remove(blocked_.begin(), blocked_.end(), &client), blocked_.end());
  Client::BlockState state = std::move(client.block());
  client.block() = Client::BlockState{};
  if (state.kind == Client::BlockKind::kPostponed && !state.args.empty()) {
    // The postponed command runs now, as if it had just arrived.
    Execute(client, state.args);
  }
  if (client.io() != nullptr) client.io()->ResumeInput();
}

void Engine::ServeWaitingReplicas() {
  std::vector<Client*> ready;
  for (Client* c : blocked_) {
    if (c->block().kind != Client::BlockKind::kWait) continue;
    if (ReplicasAcked(c->block().wait_offset) >= c->block().wait_replicas) ready.push_back(c);
  }
  for (Client* c : ready) {
    resp::ReplyWriter reply(&c->reply_buffer(), c->protocol());
    reply.Integer(ReplicasAcked(c->block().wait_offset));
    UnblockClient(*c);
  }
}

void Engine::DisconnectBlockedClients(std::string_view error) {
  std::vector<Client*> victims;
  for (Client* c : blocked_) {
    // Postponed commands start over when released, and get checked then.
    if (c->block().kind != Client::BlockKind::kPostponed) victims.push_back(c);
  }
  for (Client* c : victims) {
    resp::ReplyWriter reply(&c->reply_buffer(), c->protocol());
    reply.set_error_listener(this);
    reply.Error(std::string("-") + std::string(error));
    c->set_close_after_reply();
    UnblockClient(*c);
  }
}

bool Engine::PauseApplies(uint32_t flags) const {
  if (pause_end_ms_ == 0) return false;
  if (!pause_writes_only_) return true;
  // WRITE pauses hold commands that may change the dataset or replicate something.
  return (flags & (kCmdWrite | kCmdMayReplicate)) != 0;
}

void Engine::Pause(int64_t end_ms, bool writes_only) {
  // A new pause may lengthen the current one, and an ALL pause overrides a WRITE one, but a
  // pause never shrinks (Redis's pauseClients).
  if (pause_end_ms_ != 0) {
    end_ms = std::max(end_ms, pause_end_ms_);
    writes_only = writes_only && pause_writes_only_;
  }
  pause_end_ms_ = end_ms;
  pause_writes_only_ = writes_only;
  keyspace_.set_expiry_paused(true);
  ScheduleNextTimer();
}

void Engine::Unpause() {
  pause_end_ms_ = 0;
  pause_writes_only_ = false;
  keyspace_.set_expiry_paused(false);
  std::vector<Client*> postponed;
  for (Client* c : blocked_) {
    if (c->block().kind == Client::BlockKind::kPostponed) postponed.push_back(c);
  }
  for (Client* c : postponed) UnblockClient(*c);
}

void Engine::OnTimer() {
  keyspace_.SnapshotTime();
  int64_t now = keyspace_.now_ms();
  if (pause_end_ms_ != 0 && now >= pause_end_ms_) Unpause();
  std::vector<Client*> due;
  for (Client* c : blocked_) {
    if (c->block().deadline_ms != 0 && c->block().deadline_ms <= now) due.push_back(c);
  }
  for (Client* c : due) {
    if (c->block().kind == Client::BlockKind::kWait) {
      resp::ReplyWriter reply(&c->reply_buffer(), c->protocol());
      reply.Integer(ReplicasAcked(c->block().wait_offset));
    }
    UnblockClient(*c);
  }
  ScheduleNextTimer();
}

void Engine::ScheduleNextTimer() {
  int64_t next = pause_end_ms_;
  for (Client* c : blocked_) {
    int64_t d = c->block().deadline_ms;
    if (d != 0 && (next == 0 || d < next)) next = d;
  }
  if (next == 0 || host_ == nullptr) return;
  host_->ScheduleTimer(std::max<int64_t>(1, next - clock_.NowMs()));
}

}  // namespace redlab::server::engine
