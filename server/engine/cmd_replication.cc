// Replication commands. WAIT: block until enough replicas acknowledge the caller's last write.
#include "server/engine/command_table.h"
#include "server/engine/context.h"
#include "server/engine/engine.h"

namespace redlab::server::engine {
namespace {

void WaitCommand(CommandContext& ctx) {
  if (ctx.keyspace().replica()) {
    ctx.ReplyError(
        "WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a "
        "replica is configured to be writable (which is not the default) writes to replicas are "
        "just local and are not propagated.");
    return;
  }
  int64_t numreplicas = 0;
  int64_t deadline_ms = 0;
  if (!ctx.IntArg(1, &numreplicas)) return;
  if (!ctx.TimeoutArg(2, /*seconds=*/false, &deadline_ms)) return;
  Engine& engine = ctx.engine();
  int64_t offset = engine.ClientWriteOffset(ctx.client());
  int64_t acked = engine.ReplicasAcked(offset);
  // Inside MULTI a client cannot block: it gets the count now (Redis's CLIENT_DENY_BLOCKING).
  if (acked >= numreplicas || ctx.client().in_multi()) {
    ctx.reply().Integer(acked);
    return;
  }
  Client::BlockState& block = ctx.client().block();
  block.wait_offset = offset;
  block.wait_replicas = numreplicas;
  engine.BlockClient(ctx.client(), Client::BlockKind::kWait, deadline_ms);
}

}  // namespace

void RegisterReplicationCommands(CommandTable& table) {
  table.Add({.name = "wait", .arity = 3, .flags = kCmdNoscript, .acl = kAclConnection,
             .proc = WaitCommand, .group = "generic", .since = "3.0.0",
             .summary = "Wait for the synchronous replication of all the write commands sent in "
                        "the context of the current connection",
             .complexity = "O(1)",
             .tips = {"request_policy:all_shards", "response_policy:agg_min"}});
}

}  // namespace redlab::server::engine
