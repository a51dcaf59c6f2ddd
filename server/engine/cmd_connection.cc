// Connection commands: PING, ECHO, SELECT, QUIT, RESET, AUTH, HELLO and CLIENT.
#include <string>

#include "server/engine/command_table.h"
#include "server/engine/context.h"
#include "server/engine/engine.h"
#include "server/engine/errors.h"
#include "server/engine/help.h"
#include "server/engine/numbers.h"
#include "server/engine/text.h"

namespace redlab::server::engine {
namespace {

void PingCommand(CommandContext& ctx) {
  if (ctx.argc() > 2) {
    ctx.ReplyError("wrong number of arguments for 'ping' command");
    return;
  }
  // A subscribed RESP2 client gets ["pong", message], as it could not tell a status from a
  // message otherwise.
  if (ctx.client().subscribed() && ctx.client().protocol() == 2) {
    ctx.reply().ArrayHeader(2);
    ctx.reply().Bulk("pong");
    ctx.reply().Bulk(ctx.argc() == 1 ? std::string_view() : std::string_view(ctx.arg(1)));
    return;
  }
  if (ctx.argc() == 1) {
    ctx.reply().Status("PONG");
  } else {
    ctx.reply().Bulk(ctx.arg(1));
  }
}

void EchoCommand(CommandContext& ctx) { ctx.reply().Bulk(ctx.arg(1)); }

void SelectCommand(CommandContext& ctx) {
  int64_t id = 0;
  if (!ctx.RangeIntArg(1, INT32_MIN, INT32_MAX, &id)) return;  // getIntFromObjectOrReply
  if (id < 0 || id >= ctx.keyspace().num_dbs()) {
    ctx.ReplyError(err::kDbIndexOutOfRange);
    return;
  }
  ctx.client().set_db(static_cast<int>(id));
  ctx.ReplyOk();
}

void QuitCommand(CommandContext& ctx) {
  ctx.ReplyOk();
  ctx.client().set_close_after_reply();
}

void ResetCommand(CommandContext& ctx) {
  Client& c = ctx.client();
  // clearClientConnectionState: drop any transaction and watches too.
  c.multi() = Client::MultiState{};
  c.clear_dirty_cas();
  ctx.engine().watches().UnwatchAll(&c);
  ctx.engine().pubsub().UnsubscribeAll(&c);
  c.set_db(0);
  c.set_protocol(2);
  c.set_name(std::string());
  c.set_authenticated(!ctx.engine().auth_required());
  ctx.reply().set_protocol(2);
  ctx.reply().Status("RESET");
}

// ACLAuthenticateUser for the one user redlab knows, "default", whose password is requirepass
// (no password configured: any password is accepted, as for a nopass user).
bool Authenticate(CommandContext& ctx, std::string_view user, std::string_view password) {
  if (user != "default") return false;
  const std::string& required = ctx.engine().config().requirepass;
  if (!required.empty() && required != password) return false;
  ctx.client().set_authenticated(true);
  return true;
}

void AuthCommand(CommandContext& ctx) {
  if (ctx.argc() > 3) {
    ctx.ReplySyntaxError();
    return;
  }
  std::string_view user = "default";
  std::string_view password;
  if (ctx.argc() == 2) {
    if (!ctx.engine().auth_required()) {
      ctx.ReplyError(
          "AUTH <password> called without any password configured for the default user. Are you "
          "sure your configuration is correct?");
      return;
    }
    password = ctx.arg(1);
  } else {
    user = ctx.arg(1);
    password = ctx.arg(2);
  }
  if (Authenticate(ctx, user, password)) {
    ctx.ReplyOk();
  } else {
    ctx.ReplyError(err::kWrongPass);
  }
}

// validateClientName: printable ASCII without spaces.
bool ValidClientName(std::string_view name) {
  for (char c : name) {
    if (c < '!' || c > '~') return false;
  }
  return true;
}
constexpr std::string_view kBadClientName =
    "Client names cannot contain spaces, newlines or special characters.";

void HelloCommand(CommandContext& ctx) {
  int64_t version = 0;
  size_t next = 1;
  if (ctx.argc() >= 2) {
    if (!ctx.IntArg(next++, &version, "Protocol version is not an integer or out of range")) return;
    if (version < 2 || version > 3) {
      ctx.ReplyError("-NOPROTO unsupported protocol version");
      return;
    }
  }
  const std::string* user = nullptr;
  const std::string* password = nullptr;
  const std::string* name = nullptr;
  for (size_t j = next; j < ctx.argc(); ++j) {
    size_t more = ctx.argc() - 1 - j;
    if (ctx.ArgIs(j, "AUTH") && more >= 2) {
      user = &ctx.arg(j + 1);
      password = &ctx.arg(j + 2);
      j += 2;
    } else if (ctx.ArgIs(j, "SETNAME") && more >= 1) {
      name = &ctx.arg(j + 1);
      if (!ValidClientName(*name)) {
        ctx.ReplyError(kBadClientName);
        return;
      }
      ++j;
    } else {
      ctx.ReplyError("Syntax error in HELLO option '" + ctx.arg(j) + "'");
      return;
    }
  }
  if (user != nullptr && !Authenticate(ctx, *user, *password)) {
    ctx.ReplyError(err::kWrongPass);
    return;
  }
  if (!ctx.client().authenticated()) {
    ctx.ReplyError(
        "-NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO "
        "AUTH <user> <pass> option can be used to authenticate the client and select the "
        "RESP protocol version at the same time");
    return;
  }
  if (name != nullptr) ctx.client().set_name(*name);
  if (version != 0) {
    ctx.client().set_protocol(static_cast<int>(version));
    ctx.reply().set_protocol(static_cast<int>(version));
  }
  resp::ReplyWriter& r = ctx.reply();
  r.MapHeader(7);
  r.Bulk("server");
  r.Bulk("redis");
  r.Bulk("version");
  r.Bulk(kRedisVersion);
  r.Bulk("proto");
  r.Integer(ctx.client().protocol());
  r.Bulk("id");
  r.Integer(static_cast<int64_t>(ctx.client().id()));
  r.Bulk("mode");
  r.Bulk("standalone");
  r.Bulk("role");
  r.Bulk(ctx.keyspace().replica() ? "replica" : "master");
  r.Bulk("modules");
  r.EmptyArray();
}

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
  if (c.repl_role() == Client::ReplRole::kReplica) flags += 'S';
  if (c.repl_role() == Client::ReplRole::kMaster) flags += 'M';
  if (c.subscribed()) flags += 'P';
  if (c.in_multi()) flags += 'x';
  if (c.blocked()) flags += 'b';
  if (c.close_after_reply()) flags += 'c';
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
  num("tot-mem", static_cast<int64_t>(sizeof(Client) + c.reply_buffer().capacity() +
                                      (io ? io->QueryBufferLength() + io->QueryBufferFree() : 0)));
  field("events", "r");
  field("cmd", c.last_command() ? std::string_view(c.last_command()->full_name) : "NULL");
  field("user", "default");
  num("redir", -1);
  num("resp", c.protocol());
  return s;
}

void ClientIdCommand(CommandContext& ctx) { ctx.reply().Integer(static_cast<int64_t>(ctx.client().id())); }

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
      if (!ParseInt64(ctx.arg(j), &id) || id <= 0) {
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
      if (Client* c = ctx.engine().FindClient(id)) add(*c);
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
  std::string addr, laddr, type, user;
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
        user = value;
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
    if (!user.empty() && user != "default") continue;
    if (id != 0 && c->id() != id) continue;
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

void ClientPauseCommand(CommandContext& ctx) {
  if (ctx.argc() > 4) {
    ReplySubcommandSyntaxError(ctx);
    return;
  }
  bool writes_only = false;
  if (ctx.argc() == 4) {
    if (ctx.ArgIs(3, "write")) {
      writes_only = true;
    } else if (!ctx.ArgIs(3, "all")) {
      ctx.ReplyError("CLIENT PAUSE mode must be WRITE or ALL");
      return;
    }
  }
  int64_t end_ms = 0;
  if (!ctx.TimeoutArg(2, /*seconds=*/false, &end_ms)) return;
  ctx.engine().Pause(end_ms, writes_only);
  ctx.ReplyOk();
}

void ClientUnpauseCommand(CommandContext& ctx) {
  ctx.engine().Unpause();
  ctx.ReplyOk();
}

// CLIENT UNBLOCK id [TIMEOUT|ERROR]: the reason is checked before the id.
void ClientUnblockCommand(CommandContext& ctx) {
  if (ctx.argc() > 4) {
    ReplySubcommandSyntaxError(ctx);
    return;
  }
  bool with_error = false;
  if (ctx.argc() == 4) {
    if (ctx.ArgIs(3, "error")) {
      with_error = true;
    } else if (!ctx.ArgIs(3, "timeout")) {
      ctx.ReplyError("CLIENT UNBLOCK reason should be TIMEOUT or ERROR");
      return;
    }
  }
  int64_t id = 0;
  if (!ctx.IntArg(2, &id)) return;
  bool unblocked = ctx.engine().UnblockById(static_cast<uint64_t>(id), with_error);
  ctx.reply().Integer(unblocked ? 1 : 0);
}

void ClientHelpCommand(CommandContext& ctx) { ReplyHelp(ctx, kClientHelp); }

}  // namespace

void RegisterConnectionCommands(CommandTable& table) {
  constexpr uint32_t kConn = kAclConnection;
  table.Add({.name = "ping", .arity = -1, .flags = kCmdFast, .acl = kConn, .proc = PingCommand,
             .group = "connection", .since = "1.0.0", .summary = "Ping the server",
             .complexity = "O(1)", .tips = {"request_policy:all_shards", "response_policy:all_succeeded"}});
  table.Add({.name = "echo", .arity = 2, .flags = kCmdLoading | kCmdStale | kCmdFast, .acl = kConn, .proc = EchoCommand,
             .group = "connection", .since = "1.0.0", .summary = "Echo the given string",
             .complexity = "O(1)"});
  table.Add({.name = "select", .arity = 2, .flags = kCmdLoading | kCmdStale | kCmdFast,
             .acl = kConn, .proc = SelectCommand, .group = "connection", .since = "1.0.0",
             .summary = "Change the selected database for the current connection",
             .complexity = "O(1)"});
  table.Add({.name = "quit", .arity = -1,
             .flags = kCmdNoscript | kCmdLoading | kCmdStale | kCmdFast | kCmdNoAuth | kCmdAllowBusy,
             .acl = kConn, .proc = QuitCommand, .group = "connection", .since = "1.0.0",
             .summary = "Close the connection", .complexity = "O(1)"});
  table.Add({.name = "reset", .arity = 1,
             .flags = kCmdNoscript | kCmdLoading | kCmdStale | kCmdFast | kCmdNoAuth | kCmdAllowBusy,
             .acl = kConn, .proc = ResetCommand, .group = "connection", .since = "6.2.0",
             .summary = "Reset the connection", .complexity = "O(1)"});
  table.Add({.name = "auth", .arity = -2,
             .flags = kCmdNoscript | kCmdLoading | kCmdStale | kCmdFast | kCmdNoAuth | kCmdAllowBusy,
             .acl = kConn, .proc = AuthCommand, .group = "connection", .since = "1.0.0",
             .summary = "Authenticate to the server",
             .complexity = "O(N) where N is the number of passwords defined for the user"});
  table.Add({.name = "hello", .arity = -1,
             .flags = kCmdNoscript | kCmdLoading | kCmdStale | kCmdFast | kCmdNoAuth | kCmdAllowBusy,
             .acl = kConn, .proc = HelloCommand, .group = "connection", .since = "6.0.0",
             .summary = "Handshake with Redis", .complexity = "O(1)"});

  constexpr uint32_t kClientFlags = kCmdNoscript | kCmdLoading | kCmdStale;
  auto sub = [](std::string_view name, int arity, uint32_t flags, uint32_t acl, CommandProc proc,
                std::string_view since, std::string_view summary, std::string_view complexity) {
    return CommandSpec{.name = name, .arity = arity, .flags = flags, .acl = acl, .proc = proc,
                       .group = "connection", .since = since, .summary = summary,
                       .complexity = complexity};
  };
  CommandSpec client{.name = "client", .arity = -2, .group = "connection", .since = "2.4.0",
                     .summary = "A container for client connection commands",
                     .complexity = "Depends on subcommand."};
  client.subcommands = {
      sub("help", 2, kCmdLoading | kCmdStale, kConn, ClientHelpCommand, "5.0.0",
          "Show helpful text about the different subcommands", "O(1)"),
      sub("id", 2, kClientFlags, kConn, ClientIdCommand, "5.0.0",
          "Returns the client ID for the current connection", "O(1)"),
      sub("info", 2, kClientFlags, kConn, ClientInfoCommand, "6.2.0",
          "Returns information about the current client connection.", "O(1)"),
      sub("getname", 2, kClientFlags, kConn, ClientGetNameCommand, "2.6.9",
          "Get the current connection name", "O(1)"),
      sub("setname", 3, kClientFlags, kConn, ClientSetNameCommand, "2.6.9",
          "Set the current connection name", "O(1)"),
      sub("list", -2, kCmdAdmin | kClientFlags, kConn, ClientListCommand, "2.4.0",
          "Get the list of client connections",
          "O(N) where N is the number of client connections"),
      sub("kill", -3, kCmdAdmin | kClientFlags, kConn, ClientKillCommand, "2.4.0",
          "Kill the connection of a client", "O(N) where N is the number of client connections"),
      sub("pause", -3, kCmdAdmin | kClientFlags, kConn, ClientPauseCommand, "2.9.50",
          "Stop processing commands from clients for some time", "O(1)"),
      sub("unpause", 2, kCmdAdmin | kClientFlags, kConn, ClientUnpauseCommand, "6.2.0",
          "Resume processing of clients that were paused",
          "O(N) Where N is the number of paused clients"),
      sub("unblock", -3, kCmdAdmin | kClientFlags, kConn, ClientUnblockCommand, "5.0.0",
          "Unblock a client blocked in a blocking command from a different connection",
          "O(log N) where N is the number of client connections"),
  };
  client.subcommands[2].tips = {"nondeterministic_output"};
  client.subcommands[5].tips = {"nondeterministic_output"};
  table.Add(std::move(client));
}

}  // namespace redlab::server::engine
