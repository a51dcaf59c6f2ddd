// ACL and its subcommands (Redis's aclCommand in acl.c): users and their rules, the ACL log,
// the ACL file, categories, DRYRUN and GENPASS. The rules themselves live in server/acl/.
#include <openssl/rand.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "server/base/hex.h"
#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/help.h"

namespace redlab::server::engine {
namespace {

constexpr int64_t kGenpassMaxBits = 4096;

void AclSetUserCommand(CommandContext& ctx) {
  // Nothing of a user's rules (passwords, key names) reaches SLOWLOG or MONITOR.
  for (size_t j = 2; j < ctx.argc(); ++j) ctx.RedactArg(j);
  const std::string& name = ctx.arg(2);
  if (acl::HasSpacesOrNul(name)) {
    ctx.ReplyError("Usernames can't contain spaces or null characters");
    return;
  }
  Engine& engine = ctx.engine();
  std::string error;
  std::optional<acl::User> staged = engine.auth().acl().Stage(
      name, ctx.args().subspan(3), engine.auth().all_channels_default(), &error);
  if (!staged) {
    ctx.ReplyError(error);
    return;
  }
  if (const acl::User* existing = engine.auth().acl().Find(name)) {
    engine.auth().DisconnectRevokedSubscribers(*existing, *staged, &ctx.client());
  }
  engine.auth().acl().Commit(name, *staged);
  ctx.ReplyOk();
}

void AclDelUserCommand(CommandContext& ctx) {
  for (size_t j = 2; j < ctx.argc(); ++j) {
    if (CStringPrefix(ctx.arg(j)) == "default") {
      ctx.ReplyError("The 'default' user cannot be removed");
      return;
    }
  }
  int64_t deleted = 0;
  for (size_t j = 2; j < ctx.argc(); ++j) {
    if (std::unique_ptr<acl::User> user = ctx.engine().auth().acl().Remove(ctx.arg(j))) {
      ctx.engine().auth().DisconnectClientsOf(user.get(), &ctx.client());
      ++deleted;
    }
  }
  ctx.reply().Integer(deleted);
}

// A selector's commands, keys and channels, as ACL GETUSER shows them.
void ReplySelector(resp::ReplyWriter& r, const acl::Selector& selector) {
  r.Bulk("commands");
  r.Bulk(selector.DescribeCommands());
  r.Bulk("keys");
  r.Bulk(selector.DescribeKeys());
  r.Bulk("channels");
  r.Bulk(selector.DescribeChannels());
}

void AclGetUserCommand(CommandContext& ctx) {
  const acl::User* user = ctx.engine().auth().acl().Find(ctx.arg(2));
  resp::ReplyWriter& r = ctx.reply();
  if (user == nullptr) {
    r.Null();
    return;
  }
  r.MapHeader(6);
  r.Bulk("flags");
  std::vector<std::string_view> flags = user->FlagNames();
  r.SetHeader(flags.size());
  for (std::string_view flag : flags) r.Bulk(flag);
  r.Bulk("passwords");
  r.ArrayHeader(user->passwords().size());
  for (const std::string& hash : user->passwords()) r.Bulk(hash);
  // The root selector at the top level, the others in "selectors".
  ReplySelector(r, user->selectors()[0]);
  r.Bulk("selectors");
  r.ArrayHeader(user->selectors().size() - 1);
  for (size_t i = 1; i < user->selectors().size(); ++i) {
    r.MapHeader(3);
    ReplySelector(r, user->selectors()[i]);
  }
}

void AclListCommand(CommandContext& ctx) {
  std::vector<std::string> lines = ctx.engine().auth().acl().DescribeUsers();
  ctx.reply().ArrayHeader(lines.size());
  for (const std::string& line : lines) ctx.reply().Bulk(line);
}

void AclUsersCommand(CommandContext& ctx) {
  const acl::Acl::Users& users = ctx.engine().auth().acl().users();
  ctx.reply().ArrayHeader(users.size());
  for (const auto& [name, user] : users) ctx.reply().Bulk(name);
}

void AclWhoAmICommand(CommandContext& ctx) {
  if (ctx.client().user() == nullptr) {
    ctx.reply().Null();
  } else {
    ctx.reply().Bulk(ctx.client().user()->name());
  }
}

bool RequireAclFile(CommandContext& ctx) {
  if (!ctx.engine().config().aclfile.empty()) return true;
  ctx.ReplyError(
      "This Redis instance is not configured to use an ACL file. You may want to specify users "
      "via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis "
      "configuration file set) in order to store users in the Redis configuration.");
  return false;
}

void AclLoadCommand(CommandContext& ctx) {
  if (!RequireAclFile(ctx)) return;
  if (auto error = ctx.engine().auth().ReloadAclFile(&ctx.client())) {
    ctx.ReplyError(*error);
  } else {
    ctx.ReplyOk();
  }
}

void AclSaveCommand(CommandContext& ctx) {
  if (!RequireAclFile(ctx)) return;
  if (ctx.engine().auth().SaveAclFile()) {
    ctx.ReplyOk();
  } else {
    ctx.ReplyError(
        "There was an error trying to save the ACLs. Please check the server logs for more "
        "information");
  }
}

void AclCatCommand(CommandContext& ctx) {
  resp::ReplyWriter& r = ctx.reply();
  if (ctx.argc() == 2) {
    std::span<const AclCategoryInfo> categories = AclCategories();
    r.ArrayHeader(categories.size());
    for (const AclCategoryInfo& category : categories) r.Bulk(category.name.substr(1));
    return;
  }
  if (ctx.argc() != 3) {
    ReplySubcommandSyntaxError(ctx);
    return;
  }
  uint32_t category = AclCategoryByName(CStringPrefix(ctx.arg(2)));
  if (category == 0) {
    ctx.ReplyError("Unknown category '" + std::string(CStringPrefix(ctx.arg(2)).substr(0, 128)) +
                   "'");
    return;
  }
  // Containers belong to categories too (CLIENT is @slow), and are listed as such.
  std::vector<std::string_view> names;
  for (const auto& cmd : ctx.engine().commands().originals()) {
    if (cmd->acl & category) names.push_back(cmd->full_name);
    for (const auto& sub : cmd->subcommands) {
      if (sub->acl & category) names.push_back(sub->full_name);
    }
  }
  r.ArrayHeader(names.size());
  for (std::string_view name : names) r.Bulk(name);
}

void AclGenPassCommand(CommandContext& ctx) {
  if (ctx.argc() > 3) {
    ReplySubcommandSyntaxError(ctx);
    return;
  }
  int64_t bits = 256;
  if (ctx.argc() == 3 && !ctx.IntArg(2, &bits)) return;
  if (bits <= 0 || bits > kGenpassMaxBits) {
    ctx.ReplyError(
        "ACL GENPASS argument must be the number of bits for the output password, a positive "
        "number up to 4096");
    return;
  }
  size_t chars = static_cast<size_t>((bits + 3) / 4);
  std::vector<unsigned char> random((chars + 1) / 2);
  RAND_bytes(random.data(), static_cast<int>(random.size()));
  std::string password = HexOf(random);
  password.resize(chars);
  ctx.reply().Bulk(password);
}

void AclLogCommand(CommandContext& ctx) {
  if (ctx.argc() > 3) {
    ReplySubcommandSyntaxError(ctx);
    return;
  }
  acl::AclLog& log = ctx.engine().auth().acl().log();
  int64_t count = 10;
  if (ctx.argc() == 3) {
    if (EqualsIgnoreCase(CStringPrefix(ctx.arg(2)), "reset")) {
      log.Reset();
      ctx.ReplyOk();
      return;
    }
    if (!ctx.IntArg(2, &count)) return;
    if (count < 0) count = 0;
  }
  size_t shown = std::min(static_cast<size_t>(count), log.entries().size());
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(shown);
  int64_t now = ctx.engine().clock().NowMs();
  for (size_t i = 0; i < shown; ++i) {
    const acl::LogEntry& entry = log.entries()[i];
    r.MapHeader(7);
    r.Bulk("count");
    r.Integer(static_cast<int64_t>(entry.count));
    r.Bulk("reason");
    r.Bulk(acl::LogReasonName(entry.reason));
    r.Bulk("context");
    r.Bulk(acl::LogContextName(entry.context));
    r.Bulk("object");
    r.Bulk(entry.object);
    r.Bulk("username");
    r.Bulk(entry.username);
    r.Bulk("age-seconds");
    r.Double(static_cast<double>(now - entry.time_ms) / 1000);
    r.Bulk("client-info");
    r.Bulk(entry.client_info);
  }
}

void AclDryRunCommand(CommandContext& ctx) {
  const acl::User* user = ctx.engine().auth().acl().Find(ctx.arg(2));
  if (user == nullptr) {
    ctx.ReplyError("User '" + std::string(CStringPrefix(ctx.arg(2))) + "' not found");
    return;
  }
  std::span<std::string> line = ctx.args().subspan(3);
  const Command* cmd = ctx.engine().commands().Resolve(line);
  if (cmd == nullptr) {
    ctx.ReplyError("Command '" + std::string(CStringPrefix(line[0])) + "' not found");
    return;
  }
  if (!cmd->ArityAccepts(line.size())) {
    ctx.ReplyError(err::WrongArity(cmd->full_name));
    return;
  }
  acl::CheckResult result = acl::CheckCommand(*user, *cmd, line);
  switch (result.verdict) {
    case acl::Verdict::kAllowed:
      ctx.ReplyOk();
      break;
    case acl::Verdict::kCommand:
      ctx.reply().Bulk("This user has no permissions to run the '" + cmd->full_name + "' command");
      break;
    case acl::Verdict::kKey:
      ctx.reply().Bulk("This user has no permissions to access the '" +
                       std::string(CStringPrefix(line[result.arg_index])) + "' key");
      break;
    case acl::Verdict::kChannel:
      ctx.reply().Bulk("This user has no permissions to access the '" +
                       std::string(CStringPrefix(line[result.arg_index])) + "' channel");
      break;
  }
}

void AclHelpCommand(CommandContext& ctx) { ReplyHelp(ctx, kAclHelp); }

}  // namespace

// The commands of specs/acl.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/acl.inc"

}  // namespace redlab::server::engine
