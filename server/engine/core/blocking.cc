// Blocked clients and CLIENT PAUSE: the engine side of commands that make a client wait
// (Redis's blocked.c, timeout.c and pause handling in networking.c). Timeouts follow the node's
// clock.
#include "server/engine/core/blocking.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "server/base/monotonic.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {
Blocking::Blocking(Engine& engine) : engine_(engine), blocked_keys_(&engine.keyspace()) {}

void Blocking::BlockClient(Client& client, Client::BlockKind kind, int64_t deadline_ms) {
  Client::BlockState& block = client.block();
  block.kind = kind;
  block.deadline_ms = deadline_ms;
  block.blocked_pos = blocked_.insert(blocked_.end(), &client);
  // Redis keys its timeout table by the deadline as an unsigned number: one that overflowed
  // (negative) sorts after every real one and never comes.
  if (deadline_ms != 0) {
    block.timeout_pos = timeouts_.emplace(static_cast<uint64_t>(deadline_ms), &client);
  }
  ScheduleNextTimer();
}

void Blocking::BlockForKeys(CommandContext& ctx, Client::BlockKind kind,
                            std::span<const std::string> keys, int64_t deadline_ms) {
  Client& client = ctx.client();
  Client::BlockState& block = client.block();
  std::unordered_set<std::string_view> seen;
  for (const std::string& key : keys) {
    if (seen.insert(key).second) block.keys.push_back(Client::KeyWait{key, {}});
  }
  block.cmd = &ctx.command();
  block.args.assign(ctx.args().begin(), ctx.args().end());
  block.kind = kind;
  blocked_keys_.Add(&client);
  BlockClient(client, kind, deadline_ms);
}

void Blocking::BlockPopOrReplyNull(CommandContext& ctx, Client::BlockKind kind,
                                   std::span<const std::string> keys, int64_t deadline_ms,
                                   KeyServeProc serve, int64_t count, int from) {
  if (!ctx.may_block()) {
    ctx.reply().NullArray();
    return;
  }
  Client::BlockState& block = ctx.client().block();
  block.serve = serve;
  block.count = count;
  block.from = from;
  BlockForKeys(ctx, kind, keys, deadline_ms);
}

Client::BlockState Blocking::ReleaseBlock(Client& client) {
  Client::BlockState& block = client.block();
  blocked_.erase(block.blocked_pos);
  if (block.deadline_ms != 0) timeouts_.erase(block.timeout_pos);
  if (client.blocked_on_keys()) blocked_keys_.Remove(&client);
  Client::BlockState state = std::move(block);
  block = Client::BlockState{};
  return state;
}

void Blocking::UnblockClient(Client& client, bool resume) {
  if (!client.blocked()) return;
  Client::BlockState state = ReleaseBlock(client);
  // Its reply is about to leave: that counts as activity for the idle timeout, as in Redis.
  client.set_last_interaction_ms(engine_.clock().NowMs());
  if (state.kind == Client::BlockKind::kPostponed && !state.args.empty()) {
    // The postponed command runs now, as if it had just arrived.
    engine_.Execute(client, state.args);
  } else {
    client.AdvanceReplySkip();  // the blocked command is done now (CLIENT REPLY SKIP)
  }
  if (resume && client.io() != nullptr) client.io()->ResumeInput();
}

void Blocking::FinishBlockedCommand(Client& client, size_t reply_start, bool resume) {
  // The command ends now: CLIENT REPLY OFF or SKIP drop its reply as they would have had it not
  // blocked (a SKIP moves on when UnblockClient ends the command).
  if (client.reply_controlled()) ApplyReplyControl(client, reply_start);
  UnblockClient(client, resume);
}

void Blocking::ReplyTimedOut(Client& client) {
  resp::ReplyWriter reply(&client.reply_buffer(), client.protocol());
  switch (client.block().kind) {
    case Client::BlockKind::kWait:
      reply.Integer(engine_.ReplicasAcked(client.block().wait_offset));
      break;
    case Client::BlockKind::kList:
    case Client::BlockKind::kZset:
    case Client::BlockKind::kStream:
      reply.NullArray();
      break;
    default:
      break;
  }
}

bool Blocking::UnblockById(uint64_t id, bool with_error) {
  Client* target = engine_.clients().Find(id);
  // A client postponed by CLIENT PAUSE has no command in progress to end (real Redis 7.0.15
  // crashes on this; later versions refuse it as done here).
  if (target == nullptr || !target->blocked() ||
      target->block().kind == Client::BlockKind::kPostponed) {
    return false;
  }
  size_t reply_start = target->reply_buffer().size();
  if (with_error) {
    resp::ReplyWriter reply(&target->reply_buffer(), target->protocol());
    reply.set_error_listener(&engine_.stats());
    reply.Error("-UNBLOCKED client unblocked via CLIENT UNBLOCK");
  } else {
    ReplyTimedOut(*target);
  }
  // Redis counts the blocked command as failed either way, and records its latency
  // (updateStatsOnUnblock); a timeout or WAIT's end records none.
  if (const Command* cmd = target->last_command(); cmd != nullptr) {
    engine_.stats().CountFailedCall(*cmd);
    if (engine_.config().latency_tracking) {
      engine_.stats().RecordCommandLatency(*cmd, target->block().call_us);
    }
  }
  FinishBlockedCommand(*target, reply_start, /*resume=*/true);
  return true;
}

void Blocking::HandleClientsBlockedOnKeys() {
  // Serving a BLMOVE pushes to its destination, which may make another key ready: go on until
  // nothing is left.
  while (blocked_keys_.has_ready()) {
    for (const BlockedKeys::ReadyKey& ready : blocked_keys_.TakeReady()) {
      blocked_keys_.Serving(ready);
      engine_.keyspace().SnapshotTime();
      ServeKey(ready.db, ready.key, &served_);
    }
  }
  // The served clients go on with their pipelined input only now, as Redis does in beforeSleep:
  // nothing runs in between that could change the queues being served. What they run may serve
  // others in turn: those are resumed by this same loop, so a chain of clients feeding each
  // other does not nest one call per client.
  if (resuming_served_) return;
  resuming_served_ = true;
  for (size_t i = 0; i < served_.size(); ++i) {
    Client* c = engine_.clients().Find(served_[i]);
    if (c != nullptr && !c->blocked() && c->io() != nullptr) c->io()->ResumeInput();
  }
  served_.clear();
  resuming_served_ = false;
}

void Blocking::ServeKey(int db, const std::string& key, std::vector<uint64_t>* served) {
  Db& d = engine_.keyspace().db(db);
  // The key may be gone again (MULTI; LPUSH k; DEL k; EXEC), or expired: then its DEL leaves now.
  Db::Node* node = d.LookupQuiet(key);
  if (node == nullptr) {
    // unblockDeletedStreamReadgroupClients: XREADGROUP waiters on a stream that went away.
    UnblockDeletedStreamReaders(db, key, served);
    return;
  }
  Client::BlockKind kind;
  if (node->value.value.is(ObjectType::kList)) {
    kind = Client::BlockKind::kList;
  } else if (node->value.value.is(ObjectType::kZset)) {
    kind = Client::BlockKind::kZset;
  } else if (node->value.value.is(ObjectType::kStream)) {
    kind = Client::BlockKind::kStream;
  } else {
    UnblockDeletedStreamReaders(db, key, served);
    return;
  }
  // First come, first served; clients waiting for the other type stay blocked.
  for (Client* c : blocked_keys_.Waiters(db, key)) {
    if (c->block().kind != kind) continue;
    if (kind == Client::BlockKind::kStream && !StreamHasNewEntries(*c, node, key)) continue;
    ServeClient(*c, key);
    served->push_back(c->id());
    if (d.LookupQuiet(key) == nullptr) break;  // emptied and deleted
  }
  // A stream overwritten by another type: its XREADGROUP waiters are told, after that type's.
  if (kind != Client::BlockKind::kStream) UnblockDeletedStreamReaders(db, key, served);
}

bool Blocking::StreamHasNewEntries(const Client& client, const Db::Node* node,
                                   std::string_view key) {
  // serveClientsBlockedOnStreamKey: served when the stream's last ID passed the client's; in
  // a group, the group's last delivered ID (and a group that is gone is an error to serve).
  const Client::BlockState& block = client.block();
  const StreamValue& s = node->value.value.stream();
  if (!block.xread_group.empty()) {
    auto it = s.groups().find(block.xread_group);
    return it == s.groups().end() || s.last_id() > it->second.last_id();
  }
  for (size_t i = 0; i < block.keys.size(); ++i) {
    if (block.keys[i].key != key) continue;
    return s.last_id() > block.stream_ids[i];
  }
  return false;
}

void Blocking::UnblockDeletedStreamReaders(int db, const std::string& key,
                                           std::vector<uint64_t>* served) {
  if (blocked_keys_.stream_clients() == 0) return;
  for (Client* c : blocked_keys_.Waiters(db, key)) {
    if (c->block().kind != Client::BlockKind::kStream || c->block().xread_group.empty()) continue;
    size_t reply_start = c->reply_buffer().size();
    resp::ReplyWriter reply(&c->reply_buffer(), c->protocol());
    Stats& stats = engine_.stats();
    reply.set_error_listener(&stats);
    uint64_t errors_before = stats.error_replies();
    reply.Error("-UNBLOCKED the stream key no longer exists");
    const Command& cmd = *c->block().cmd;
    if (engine_.config().latency_tracking) stats.RecordCommandLatency(cmd, c->block().call_us);
    if (stats.error_replies() != errors_before) stats.CountFailedCall(cmd);
    FinishBlockedCommand(*c, reply_start, /*resume=*/false);
    served->push_back(c->id());
  }
}

void Blocking::ServeClient(Client& client, const std::string& key) {
  Client::BlockState& block = client.block();
  const Command& cmd = *block.cmd;
  size_t reply_start = client.reply_buffer().size();
  resp::ReplyWriter reply(&client.reply_buffer(), client.protocol());
  Stats& stats = engine_.stats();
  reply.set_error_listener(&stats);
  uint64_t errors_before = stats.error_replies();
  int64_t start = MonotonicUs();
  CommandContext ctx(engine_, client, block.args, cmd, reply);
  // As a command: what it propagates (an expired destination's DEL too) leaves as one unit, and
  // it is the current client, whose own invalidations wait for its reply.
  engine_.RunAsCommand(client, [&] { block.serve(ctx, key); });
  // The call itself was counted when the client blocked (updateStatsOnUnblock); its latency is
  // that call's and this reply's.
  int64_t reply_us = MonotonicUs() - start;
  stats.AddCommandTime(cmd, reply_us);
  if (engine_.config().latency_tracking) stats.RecordCommandLatency(cmd, block.call_us + reply_us);
  if (stats.error_replies() != errors_before) stats.CountFailedCall(cmd);
  // The slow log takes the command as the client sent it (BLPOP, not the LPOP it propagates),
  // with the time of its call and of this reply; then the reply's own latency event.
  Diagnostics& diagnostics = engine_.diagnostics();
  if (diagnostics.SlowLogConsiders(block.call_us + reply_us) && !cmd.has(kCmdSkipSlowlog)) {
    diagnostics.LogSlowCommand(client, block.args, {}, block.call_us + reply_us);
  }
  diagnostics.RecordLatency("command-unblocking", reply_us / 1000);
  FinishBlockedCommand(client, reply_start, /*resume=*/false);
  engine_.messaging().SendPendingInvalidations();
}

void Blocking::ServeWaitingReplicas() {
  std::vector<Client*> ready;
  for (Client* c : blocked_) {
    if (c->block().kind != Client::BlockKind::kWait) continue;
    if (engine_.ReplicasAcked(c->block().wait_offset) >= c->block().wait_replicas)
      ready.push_back(c);
  }
  for (Client* c : ready) {
    size_t reply_start = c->reply_buffer().size();
    resp::ReplyWriter reply(&c->reply_buffer(), c->protocol());
    reply.Integer(engine_.ReplicasAcked(c->block().wait_offset));
    FinishBlockedCommand(*c, reply_start, /*resume=*/true);
  }
}

void Blocking::DisconnectBlockedClients(std::string_view error) {
  std::vector<Client*> victims;
  for (Client* c : blocked_) {
    // Postponed commands start over when released, and get checked then.
    if (c->block().kind != Client::BlockKind::kPostponed) victims.push_back(c);
  }
  for (Client* c : victims) {
    resp::ReplyWriter reply(&c->reply_buffer(), c->protocol());
    reply.set_error_listener(&engine_.stats());
    reply.Error(std::string("-") + std::string(error));
    c->set_close_after_reply();
    UnblockClient(*c);
  }
}

bool Blocking::PauseHoldsSlow(const Client& client, const Command& cmd, uint32_t flags) const {
  if (!pause_writes_only_) return true;
  // WRITE pauses hold commands that may change the dataset or replicate something, and an EXEC
  // whose queue holds one.
  if ((flags & (kCmdWrite | kCmdMayReplicate)) != 0) return true;
  return cmd.has(kCmdRunsQueue) &&
         std::any_of(client.multi().commands.begin(), client.multi().commands.end(),
                     [](const Client::QueuedCommand& q) {
                       return (q.flags & (kCmdWrite | kCmdMayReplicate)) != 0;
                     });
}

void Blocking::Pause(int64_t end_ms, bool writes_only) {
  // A new pause may lengthen the current one, and an ALL pause overrides a WRITE one, but a
  // pause never shrinks (Redis's pauseClients).
  if (pause_end_ms_ != 0) {
    end_ms = std::max(end_ms, pause_end_ms_);
    writes_only = writes_only && pause_writes_only_;
  }
  pause_end_ms_ = end_ms;
  pause_writes_only_ = writes_only;
  engine_.keyspace().set_expiry_paused(true);
  ScheduleNextTimer();
}

void Blocking::Unpause() {
  pause_end_ms_ = 0;
  pause_writes_only_ = false;
  engine_.keyspace().set_expiry_paused(false);
  std::vector<Client*> postponed;
  for (Client* c : blocked_) {
    if (c->block().kind == Client::BlockKind::kPostponed) postponed.push_back(c);
  }
  for (Client* c : postponed) UnblockClient(*c);
}

void Blocking::OnTimer() {
  engine_.keyspace().SnapshotTime();
  int64_t now = engine_.keyspace().now_ms();
  if (pause_end_ms_ != 0 && now >= pause_end_ms_) Unpause();
  std::vector<Client*> due;
  for (auto it = timeouts_.begin(); it != timeouts_.end(); ++it) {
    if (now < 0 || it->first > static_cast<uint64_t>(now)) break;
    due.push_back(it->second);
  }
  for (Client* c : due) {
    // An earlier one's pipelined input may have unblocked this one (CLIENT UNBLOCK).
    const Client::BlockState& block = c->block();
    if (!c->blocked() || block.deadline_ms <= 0 || block.deadline_ms > now) continue;
    size_t reply_start = c->reply_buffer().size();
    ReplyTimedOut(*c);
    FinishBlockedCommand(*c, reply_start, /*resume=*/true);
  }
  // Keys made ready by a postponed command that just ran are served by its Execute; this is for
  // anything signalled outside a command.
  if (blocked_keys_.has_ready() && !engine_.in_call()) HandleClientsBlockedOnKeys();
  ScheduleNextTimer();
}

void Blocking::ScheduleNextTimer() {
  int64_t next = pause_end_ms_;
  if (!timeouts_.empty() && timeouts_.begin()->first <= static_cast<uint64_t>(INT64_MAX)) {
    int64_t d = static_cast<int64_t>(timeouts_.begin()->first);
    if (next == 0 || d < next) next = d;
  }
  if (next == 0 || engine_.host() == nullptr) return;
  engine_.host()->ScheduleTimer(std::max<int64_t>(1, next - engine_.clock().NowMs()));
}

}  // namespace redlab::server::engine
