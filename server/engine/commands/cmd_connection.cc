// Connection commands: PING, ECHO, SELECT, QUIT, RESET, AUTH and HELLO (CLIENT is in
// cmd_client.cc).
#include <string>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"
#include "server/engine/core/help.h"

namespace redlab::server::engine {
namespace {

void PingCommand(CommandContext& ctx) {
  if (ctx.argc() > 2) {
    ctx.ReplyWrongArity();
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
  ctx.engine().signals().UnwatchAll(&c);
  ctx.engine().messaging().ForgetClient(c);
  ctx.engine().diagnostics().RemoveMonitor(c);
  c.ResetReplyControl();
  c.set_db(0);
  c.set_protocol(2);
  c.set_name(std::string());
  // clientSetDefaultAuth: back to the default user.
  c.set_user(&ctx.engine().auth().acl().default_user());
  c.set_authenticated(!ctx.engine().auth().required());
  ctx.reply().set_protocol(2);
  ctx.reply().Status("RESET");
}

void AuthCommand(CommandContext& ctx) {
  if (ctx.argc() > 3) {
    ctx.ReplySyntaxError();
    return;
  }
  ctx.RedactArg(1);  // the password (or the user name, which is no one's business either)
  std::string_view user = "default";
  std::string_view password;
  if (ctx.argc() == 2) {
    if (ctx.engine().auth().acl().default_user().nopass()) {
      ctx.ReplyError(
          "AUTH <password> called without any password configured for the default user. Are you "
          "sure your configuration is correct?");
      return;
    }
    password = ctx.arg(1);
  } else {
    user = ctx.arg(1);
    password = ctx.arg(2);
    ctx.RedactArg(2);
  }
  if (ctx.engine().auth().Authenticate(ctx.client(), user, password, ctx.arg(0))) {
    ctx.ReplyOk();
  } else {
    ctx.ReplyError(err::kWrongPass);
  }
}

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
  // Options take effect one by one, as Redis applies them: an error stops HELLO but keeps what
  // the options before it did (an AUTH that passed, a name that was set).
  for (size_t j = next; j < ctx.argc(); ++j) {
    size_t more = ctx.argc() - 1 - j;
    if (ctx.ArgIs(j, "AUTH") && more >= 2) {
      ctx.RedactArg(j + 1);
      ctx.RedactArg(j + 2);
      if (!ctx.engine().auth().Authenticate(ctx.client(), ctx.arg(j + 1), ctx.arg(j + 2),
                                            ctx.arg(0))) {
        ctx.ReplyError(err::kWrongPass);
        return;
      }
      j += 2;
    } else if (ctx.ArgIs(j, "SETNAME") && more >= 1) {
      if (!ValidClientName(ctx.arg(j + 1))) {
        ctx.ReplyError(kBadClientName);
        return;
      }
      ctx.client().set_name(ctx.arg(j + 1));
      ++j;
    } else {
      ctx.ReplyError("Syntax error in HELLO option '" + ctx.arg(j) + "'");
      return;
    }
  }
  if (!ctx.client().authenticated()) {
    ctx.ReplyError(
        "-NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO "
        "AUTH <user> <pass> option can be used to authenticate the client and select the "
        "RESP protocol version at the same time");
    return;
  }
  if (version != 0) {
    ctx.client().set_protocol(static_cast<int>(version));
    ctx.reply().set_protocol(static_cast<int>(version));
  }
  resp::ReplyWriter& r = ctx.reply();
  bool sentinel = ctx.engine().config().sentinel_mode;
  r.MapHeader(sentinel ? 6 : 7);
  r.Bulk("server");
  r.Bulk("redis");
  r.Bulk("version");
  r.Bulk(kRedisVersion);
  r.Bulk("proto");
  r.Integer(ctx.client().protocol());
  r.Bulk("id");
  r.Integer(static_cast<int64_t>(ctx.client().id()));
  r.Bulk("mode");
  r.Bulk(sentinel ? "sentinel" : "standalone");
  if (!sentinel) {
    r.Bulk("role");
    r.Bulk(ctx.keyspace().replica() ? "replica" : "master");
  }
  r.Bulk("modules");
  r.EmptyArray();
}

}  // namespace

// The commands of specs/connection.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/connection.inc"

}  // namespace redlab::server::engine
