// Replication commands: WAIT (block until enough replicas acknowledge the caller's last write),
// REPLICAOF / SLAVEOF, ROLE, FAILOVER, and the internal REPLCONF, PSYNC and SYNC a replica sends
// its master. The replication layer (server/replication/) does the work; these parse arguments
// and reply Redis's errors in Redis's order.
#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/resp/parser.h"

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
  engine.blocking().BlockClient(ctx.client(), Client::BlockKind::kWait, deadline_ms);
  // Replicas ack on their own once a second; a WAIT asks them to do it now.
  engine.replication().RequestAcks();
}

void ReplicaofCommand(CommandContext& ctx) {
  ReplicationRole& repl = ctx.engine().replication();
  if (repl.failover_state() != FailoverState::kNone) {
    ctx.ReplyError("REPLICAOF not allowed while failing over.");
    return;
  }
  if (ctx.ArgIs(1, "no") && ctx.ArgIs(2, "one")) {
    if (repl.is_replica()) repl.ReplicaOfNoOne();
    ctx.ReplyOk();
    return;
  }
  if (ctx.client().repl_role() == Client::ReplRole::kReplica) {
    // It would have to drop every replica, this very client included.
    ctx.ReplyError("Command is not valid when client is a replica.");
    return;
  }
  int64_t port = 0;
  if (!server::ParseInt64(ctx.arg(2), &port) || port < 0 || port > 65535) {
    ctx.ReplyError("Invalid master port");
    return;
  }
  if (repl.is_replica() && EqualsIgnoreCase(repl.master_host(), ctx.arg(1)) &&
      repl.master_port() == port) {
    ctx.reply().Status("OK Already connected to specified master");
    return;
  }
  repl.ReplicaOf(ctx.arg(1), static_cast<int>(port));
  ctx.ReplyOk();
}

void ReplconfCommand(CommandContext& ctx) {
  // Options come in pairs.
  if (ctx.argc() % 2 == 0) {
    ctx.ReplySyntaxError();
    return;
  }
  ReplicationRole& repl = ctx.engine().replication();
  Client& client = ctx.client();
  for (size_t j = 1; j < ctx.argc(); j += 2) {
    if (ctx.ArgIs(j, "listening-port")) {
      int64_t port = 0;
      if (!ctx.IntArg(j + 1, &port)) return;
      repl.SetListeningPort(client, port);
    } else if (ctx.ArgIs(j, "ip-address")) {
      if (ctx.arg(j + 1).size() >= 256) {  // NET_HOST_STR_LEN
        ctx.ReplyError("REPLCONF ip-address provided by replica instance is too long: " +
                       std::to_string(ctx.arg(j + 1).size()) + " bytes");
        return;
      }
      repl.SetReplicaAddress(client, ctx.arg(j + 1));
    } else if (ctx.ArgIs(j, "capa")) {
      repl.AddCapability(client, ctx.arg(j + 1));
    } else if (ctx.ArgIs(j, "ack")) {
      // Acks have no reply, and are ignored from anyone but an attached replica.
      int64_t offset = 0;
      if (server::ParseInt64(ctx.arg(j + 1), &offset)) repl.OnAck(client, offset);
      return;
    } else if (ctx.ArgIs(j, "getack")) {
      repl.OnGetAck(client);  // answered with an ACK command, not a reply
      return;
    } else if (ctx.ArgIs(j, "rdb-only")) {
      int64_t rdb_only = 0;
      if (!ctx.RangeIntArg(j + 1, 0, 1, &rdb_only)) return;
    } else if (ctx.ArgIs(j, "rdb-filter-only")) {
      resp::ArgList filters;
      if (!resp::SplitInlineArgs(ctx.arg(j + 1), &filters)) {
        ctx.ReplyError("Missing rdb-filter-only values");
        return;
      }
      bool include_functions = false;
      for (size_t i = 0; i < filters.size(); ++i) {
        if (!EqualsIgnoreCase(filters[i], "functions")) {
          ctx.ReplyError("Unsupported rdb-filter-only option: " + filters[i]);
          return;
        }
        include_functions = true;
      }
      repl.SetRdbFilter(client, include_functions);
    } else {
      ctx.ReplyError("Unrecognized REPLCONF option: " + ctx.arg(j));
      return;
    }
  }
  ctx.ReplyOk();
}

void SyncCommand(CommandContext& ctx) {
  ctx.engine().replication().OnSync(ctx.client(), ctx.args(), ctx.reply());
}

void RoleCommand(CommandContext& ctx) { ctx.engine().replication().ReplyRole(ctx.reply()); }

void FailoverCommand(CommandContext& ctx) {
  ctx.engine().replication().Failover(ctx.args(), ctx.client(), ctx.reply());
}

}  // namespace

// The commands of specs/replication.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/replication.inc"

}  // namespace redlab::server::engine
