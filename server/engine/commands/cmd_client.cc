// CLIENT and its subcommands (Redis's clientCommand in networking.c): identity, listing and
// killing clients, pauses, and the per-connection switches (REPLY, NO-EVICT); the client-side
// caching ones (TRACKING...) are in cmd_client_tracking.cc.
#include "server/engine/commands/cmd_client.h"

#include <algorithm>
#include <string>
#include <vector>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/commands/cmd_string.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"
#include "server/engine/core/help.h"

namespace redlab::server::engine {

// One line of CLIENT LIST, with Redis 7.0's fields in Redis's order.
std::string DescribeClient(Engine& engine, const Client& c) {
  int64_t now = engine.clock().NowMs();
  ClientIo* io = c.io();
  std::string s;
  s.reserve(256);
  auto field = [&](std::string_view name, std::string_view value) {
    if (!s.empty()) s += ' ';
    s += name;
    s += '=';
    s += value;
  };
  auto num = [&](std::string_view name, int64_t value) { field(name, Int64ToString(value)); };
  num("id", static_cast<int64_t>(c.id()));
  field("addr", io ? io->PeerAddress() : "");
  field("laddr", io ? io->LocalAddress() : "");
  num("fd", io ? io->Fd() : -1);
  field("name", c.name());
  num("age", (now - c.ctime_ms()) / 1000);
  num("idle", (now - c.last_interaction_ms()) / 1000);
  std::string flags;
  if (c.monitor()) flags += 'O';
  if (c.repl_role() == Client::ReplRole::kReplica) flags += 'S';
  if (c.repl_role() == Client::ReplRole::kMaster) flags += 'M';
  if (c.subscribed()) flags += 'P';
  if (c.in_multi()) flags += 'x';
  if (c.blocked()) flags += 'b';
  if (c.tracking().on) flags += 't';
  if (c.tracking().broken_redirect) flags += 'R';
  if (c.tracking().bcast) flags += 'B';
  if (c.dirty_cas()) flags += 'd';
  if (c.close_after_reply()) flags += 'c';
  if (io != nullptr && io->UnixSocket()) flags += 'U';
  if (c.no_evict()) flags += 'e';
  field("flags", flags.empty() ? "N" : flags);
  num("db", c.db());
  num("sub", static_cast<int64_t>(c.pubsub().channels.size()));
  num("psub", static_cast<int64_t>(c.pubsub().patterns.size()));
  num("ssub", static_cast<int64_t>(c.pubsub().shard_channels.size()));
  num("multi", c.in_multi() ? static_cast<int64_t>(c.multi().commands.size()) : -1);
  num("qbuf", io ? static_cast<int64_t>(io->QueryBufferLength()) : 0);
  num("qbuf-free", io ? static_cast<int64_t>(io->QueryBufferFree()) : 0);
  num("argv-mem", static_cast<int64_t>(c.argv_mem()));
  num("multi-mem", 0);
  num("rbs", static_cast<int64_t>(c.reply_buffer().capacity()));
  num("rbp", static_cast<int64_t>(c.reply_buffer().size()));
  num("obl", static_cast<int64_t>(c.reply_buffer().size()));
  num("oll", 0);
  num("omem", io ? static_cast<int64_t>(io->PendingOutputBytes()) : 0);
  num("tot-mem", static_cast<int64_t>(c.TotalMemory()));
  field("events", "r");
  field("cmd", c.last_command() ? std::string_view(c.last_command()->full_name) : "NULL");
  field("user", c.user() != nullptr ? std::string_view(c.user()->name()) : "(superuser)");
  num("redir", c.tracking().on ? static_cast<int64_t>(c.tracking().redirect) : -1);
  num("resp", c.protocol());
  return s;
}

namespace {

void ClientIdCommand(CommandContext& ctx) {
  ctx.reply().Integer(static_cast<int64_t>(ctx.client().id()));
}

void ClientGetNameCommand(CommandContext& ctx) {
  if (ctx.client().name().empty()) {
    ctx.reply().Null();
  } else {
    ctx.reply().Bulk(ctx.client().name());
  }
}

void ClientSetNameCommand(CommandContext& ctx) {
  if (!ValidClientName(ctx.arg(2))) {
    ctx.ReplyError(kBadClientName);
    return;
  }
  ctx.client().set_name(ctx.arg(2));
  ctx.ReplyOk();
}

void ClientInfoCommand(CommandContext& ctx) {
  ctx.reply().Verbatim(DescribeClient(ctx.engine(), ctx.client()) + "\n");
}

// Client types for CLIENT LIST/KILL TYPE (getClientType): master, replica, pubsub or normal.
bool ValidClientType(std::string_view type) {
  return EqualsIgnoreCase(type, "normal") || EqualsIgnoreCase(type, "master") ||
         EqualsIgnoreCase(type, "replica") || EqualsIgnoreCase(type, "slave") ||
         EqualsIgnoreCase(type, "pubsub");
}

bool IsClientType(const Client& c, std::string_view type) {
  std::string_view actual = c.repl_role() == Client::ReplRole::kMaster    ? "master"
                            : c.repl_role() == Client::ReplRole::kReplica ? "replica"
                            : c.subscribed()                              ? "pubsub"
                                                                          : "normal";
  if (EqualsIgnoreCase(type, "slave")) type = "replica";
  return EqualsIgnoreCase(type, actual);
}

void ClientListCommand(CommandContext& ctx) {
  std::string type;
  std::vector<uint64_t> ids;
  bool by_id = false;
  if (ctx.argc() == 4 && ctx.ArgIs(2, "type")) {
    type = ctx.arg(3);
    if (!ValidClientType(type)) {
      ctx.ReplyError("Unknown client type '" + type + "'");
      return;
    }
  } else if (ctx.argc() > 3 && ctx.ArgIs(2, "id")) {
    by_id = true;
    for (size_t j = 3; j < ctx.argc(); ++j) {
      int64_t id = 0;
      if (!ParseInt64(ctx.arg(j), &id)) {  // any integer: 0 and negatives just match no client
        ctx.ReplyError("Invalid client ID");
        return;
      }
      ids.push_back(static_cast<uint64_t>(id));
    }
  } else if (ctx.argc() != 2) {
    ctx.ReplySyntaxError();
    return;
  }
  std::string out;
  auto add = [&](const Client& c) {
    out += DescribeClient(ctx.engine(), c);
    out += '\n';
  };
  if (by_id) {
    for (uint64_t id : ids) {
      if (Client* c = ctx.engine().clients().Find(id)) add(*c);
    }
  } else {
    for (const auto& [id, c] : ctx.engine().clients()) {
      if (!type.empty() && !IsClientType(*c, type)) continue;
      add(*c);
    }
  }
  ctx.reply().Verbatim(out);
}

void ClientKillCommand(CommandContext& ctx) {
  Engine& engine = ctx.engine();
  Client& self = ctx.client();
  std::string addr, laddr, type;
  const acl::User* user = nullptr;
  uint64_t id = 0;
  bool skipme = true;
  bool old_form = ctx.argc() == 3;
  if (old_form) {
    addr = ctx.arg(2);
    skipme = false;
  } else {
    if (ctx.argc() % 2 != 0) {  // options come in pairs after "CLIENT KILL"
      ctx.ReplySyntaxError();
      return;
    }
    for (size_t i = 2; i < ctx.argc(); i += 2) {
      const std::string& value = ctx.arg(i + 1);
      if (ctx.ArgIs(i, "id")) {
        int64_t v = 0;
        if (!ParseInt64(value, &v) || v <= 0) {
          ctx.ReplyError("client-id should be greater than 0");
          return;
        }
        id = static_cast<uint64_t>(v);
      } else if (ctx.ArgIs(i, "type")) {
        if (!ValidClientType(value)) {
          ctx.ReplyError("Unknown client type '" + value + "'");
          return;
        }
        type = value;
      } else if (ctx.ArgIs(i, "addr")) {
        addr = value;
      } else if (ctx.ArgIs(i, "laddr")) {
        laddr = value;
      } else if (ctx.ArgIs(i, "user")) {
        user = engine.auth().acl().Find(value);
        if (user == nullptr) {
          ctx.ReplyError("No such user '" + std::string(CStringPrefix(value)) + "'");
          return;
        }
      } else if (ctx.ArgIs(i, "skipme")) {
        if (EqualsIgnoreCase(value, "yes")) {
          skipme = true;
        } else if (EqualsIgnoreCase(value, "no")) {
          skipme = false;
        } else {
          ctx.ReplySyntaxError();
          return;
        }
      } else {
        ctx.ReplySyntaxError();
        return;
      }
    }
  }
  std::vector<Client*> victims;
  for (const auto& [cid, c] : engine.clients()) {
    ClientIo* io = c->io();
    if (!addr.empty() && (io == nullptr || io->PeerAddress() != addr)) continue;
    if (!laddr.empty() && (io == nullptr || io->LocalAddress() != laddr)) continue;
    if (!type.empty() && !IsClientType(*c, type)) continue;
    if (id != 0 && c->id() != id) continue;
    if (user != nullptr && c->user() != user) continue;
    if (c.get() == &self && skipme) continue;
    victims.push_back(c.get());
  }
  for (Client* c : victims) {
    // The caller itself is closed once this reply is written, as Redis does.
    if (c == &self) {
      self.set_close_after_reply();
    } else if (c->io() != nullptr) {
      c->io()->CloseAsap();
    }
  }
  if (old_form) {
    if (victims.empty()) {
      ctx.ReplyError("No such client");
    } else {
      ctx.ReplyOk();
    }
  } else {
    ctx.reply().Integer(static_cast<int64_t>(victims.size()));
  }
}

// CLIENT PAUSE's and CLIENT UNBLOCK's optional argument 3, one of two words: sets *first when
// it is `first`. False once the reply is made: a syntax error for more arguments, `error` for
// another word.
bool OptionalChoiceArg(CommandContext& ctx, std::string_view first, std::string_view second,
                       std::string_view error, bool* is_first) {
  if (ctx.argc() > 4) {
    ReplySubcommandSyntaxError(ctx);
    return false;
  }
  *is_first = false;
  if (ctx.argc() == 4) {
    if (ctx.ArgIs(3, first)) {
      *is_first = true;
    } else if (!ctx.ArgIs(3, second)) {
      ctx.ReplyError(error);
      return false;
    }
  }
  return true;
}

void ClientPauseCommand(CommandContext& ctx) {
  bool writes_only = false;
  if (!OptionalChoiceArg(ctx, "write", "all", "CLIENT PAUSE mode must be WRITE or ALL",
                         &writes_only)) {
    return;
  }
  int64_t end_ms = 0;
  if (!ctx.TimeoutArg(2, /*seconds=*/false, &end_ms)) return;
  ctx.engine().blocking().Pause(end_ms, writes_only);
  ctx.ReplyOk();
}

void ClientUnpauseCommand(CommandContext& ctx) {
  ctx.engine().blocking().Unpause();
  ctx.ReplyOk();
}

// CLIENT UNBLOCK id [TIMEOUT|ERROR]: the reason is checked before the id.
void ClientUnblockCommand(CommandContext& ctx) {
  bool with_error = false;
  if (!OptionalChoiceArg(ctx, "error", "timeout",
                         "CLIENT UNBLOCK reason should be TIMEOUT or ERROR", &with_error)) {
    return;
  }
  int64_t id = 0;
  if (!ctx.IntArg(2, &id)) return;
  bool unblocked = ctx.engine().blocking().UnblockById(static_cast<uint64_t>(id), with_error);
  ctx.reply().Integer(unblocked ? 1 : 0);
}

void ClientHelpCommand(CommandContext& ctx) { ReplyHelp(ctx, kClientHelp); }

// CLIENT REPLY ON|OFF|SKIP. Only ON is answered; OFF and SKIP take effect on their own reply
// already (see Engine::ApplyReplyControl).
void ClientReplyCommand(CommandContext& ctx) {
  Client& c = ctx.client();
  std::string_view mode = ctx.arg(2);
  if (OptionIs(mode, "on")) {
    c.set_reply_on();
    ctx.ReplyOk();
  } else if (OptionIs(mode, "off")) {
    c.set_reply_off(true);
  } else if (OptionIs(mode, "skip")) {
    c.set_reply_skip_next();
  } else {
    ctx.ReplySyntaxError();
  }
}

void ClientNoEvictCommand(CommandContext& ctx) {
  std::string_view mode = ctx.arg(2);
  if (OptionIs(mode, "on")) {
    ctx.client().set_no_evict(true);
  } else if (OptionIs(mode, "off")) {
    ctx.client().set_no_evict(false);
  } else {
    ctx.ReplySyntaxError();
    return;
  }
  ctx.ReplyOk();
}

}  // namespace

// The commands of specs/client.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/client.inc"

}  // namespace redlab::server::engine
