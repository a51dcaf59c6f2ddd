// The engine's side of ACLs (Redis's acl.c): the checks of processCommand, authentication, the
// ACL log's entries, disconnecting the clients of users that change or go, and the ACL file.
#include "server/engine/core/auth.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "server/base/text.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {
namespace {

// Reads a whole file as Redis's ACLLoadFromFile does; on failure *error is strerror's text.
bool ReadFile(const std::string& path, std::string* text, std::string* error) {
  std::FILE* file = std::fopen(path.c_str(), "r");
  if (file == nullptr) {
    *error = std::strerror(errno);
    return false;
  }
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) text->append(buffer, n);
  std::fclose(file);
  return true;
}

// ACLSaveToFile: the new content goes to a temporary file that then replaces the old one, so a
// failure never leaves a half-written ACL file.
bool WriteFileAtomically(const std::string& path, std::string_view content, int64_t now_ms) {
  std::string temp = path + ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(now_ms);
  int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd == -1) return false;
  bool ok = write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
  ok = close(fd) == 0 && ok;
  if (ok) ok = rename(temp.c_str(), path.c_str()) == 0;
  if (!ok) unlink(temp.c_str());
  return ok;
}

// getClientType's pub/sub class: subscribed, and neither a master nor a replica link.
bool IsPubSubClient(const Client& c) {
  return c.repl_role() == Client::ReplRole::kNone && c.subscribed();
}

}  // namespace

bool Auth::all_channels_default() const {
  return engine_.config().acl_pubsub_default == "allchannels";
}

std::optional<std::string> Auth::CommandRefusal(const Client& client, const Command& cmd,
                                                std::span<const std::string> args) {
  acl::CheckResult result = acl::CheckCommand(*client.user(), cmd, args);
  if (result.allowed()) return std::nullopt;
  LogAclDenial(client, cmd, args, result,
               client.in_multi() ? acl::LogContext::kMulti : acl::LogContext::kToplevel);
  switch (result.verdict) {
    case acl::Verdict::kCommand:
      return "-NOPERM this user has no permissions to run the '" + cmd.full_name + "' command";
    case acl::Verdict::kKey:
      return "-NOPERM this user has no permissions to access one of the keys used as arguments";
    default:
      return "-NOPERM this user has no permissions to access one of the channels used as "
             "arguments";
  }
}

std::optional<std::string> Auth::QueuedRefusal(const Client& client,
                                               const Client::QueuedCommand& queued) {
  acl::CheckResult result = acl::CheckCommand(*client.user(), *queued.cmd, queued.args);
  if (result.allowed()) return std::nullopt;
  LogAclDenial(client, *queued.cmd, queued.args, result, acl::LogContext::kMulti);
  std::string_view reason = result.verdict == acl::Verdict::kCommand
                                ? "no permission to execute the command or subcommand"
                            : result.verdict == acl::Verdict::kKey
                                ? "no permission to touch the specified keys"
                                : "no permission to access one of the channels used as arguments";
  return "-NOPERM ACLs rules changed between the moment the transaction was accumulated and the "
         "EXEC call. This command is no longer allowed for the following reason: " +
         std::string(reason);
}

std::optional<std::string> Auth::ScriptRefusal(const Client& client, const ScriptCall& call,
                                               const Command& cmd,
                                               std::span<const std::string> args) {
  acl::CheckResult result = acl::CheckCommand(*client.user(), cmd, args);
  if (result.allowed()) return std::nullopt;
  LogAclDenial(client, cmd, args, result, acl::LogContext::kLua, call.caller);
  std::string_view reason =
      result.verdict == acl::Verdict::kCommand ? "can't run this command or subcommand"
      : result.verdict == acl::Verdict::kKey
          ? "can't access at least one of the keys mentioned in the command arguments"
          : "can't publish to the channel mentioned in the command";
  return "The user executing the script " + std::string(reason);
}

void Auth::LogAclDenial(const Client& client, const Command& cmd, std::span<const std::string> args,
                        const acl::CheckResult& result, acl::LogContext context,
                        const Client* described) {
  acl::LogReason reason = acl::LogReason::kCommand;
  std::string object = cmd.full_name;
  if (result.verdict == acl::Verdict::kKey || result.verdict == acl::Verdict::kChannel) {
    reason = result.verdict == acl::Verdict::kKey ? acl::LogReason::kKey : acl::LogReason::kChannel;
    object = args[result.arg_index];
  }
  LogAclEvent(described != nullptr ? *described : client, reason, context, std::move(object),
              client.user()->name());
}

void Auth::LogAclEvent(const Client& client, acl::LogReason reason, acl::LogContext context,
                       std::string object, std::string_view username) {
  acl::LogEntry entry;
  entry.reason = reason;
  entry.context = context;
  entry.object = std::move(object);
  entry.username = std::string(username);
  entry.time_ms = engine_.clock().NowMs();
  entry.client_info = DescribeClient(engine_, client);
  acl_.log().Add(std::move(entry), static_cast<size_t>(engine_.config().acllog_max_len));
}

bool Auth::Authenticate(Client& client, std::string_view username, std::string_view password,
                        std::string_view command) {
  const acl::User* user = acl_.Find(username);
  if (user != nullptr && user->CheckPassword(password)) {
    client.set_user(user);
    client.set_authenticated(true);
    return true;
  }
  LogAclEvent(client, acl::LogReason::kAuth,
              client.in_multi() ? acl::LogContext::kMulti : acl::LogContext::kToplevel,
              std::string(command), username);
  return false;
}

void Auth::DisconnectClientsOf(const acl::User* user, Client* current) {
  for (const auto& [id, c] : engine_.clients()) {
    if (c->user() != user) continue;
    // Back to the default user, unauthenticated, until the connection is gone: safer than a
    // client left with a user that no longer exists.
    c->set_user(&acl_.default_user());
    c->set_authenticated(false);
    if (c.get() == current) {
      c->set_close_after_reply();
    } else if (c->io() != nullptr) {
      c->io()->CloseAsap();
    }
  }
}

void Auth::DisconnectRevokedSubscribers(const acl::User& user, const acl::User& new_rules,
                                        Client* current) {
  std::vector<std::string> allowed;
  for (const acl::Selector& s : new_rules.selectors()) {
    if (s.all_channels()) return;
    allowed.insert(allowed.end(), s.channels().begin(), s.channels().end());
  }
  // Nothing to do when every channel pattern of the old rules is still there.
  bool kept = true;
  for (const acl::Selector& s : user.selectors()) {
    if (s.all_channels()) kept = false;
    for (const std::string& channel : s.channels()) {
      if (std::find(allowed.begin(), allowed.end(), channel) == allowed.end()) kept = false;
    }
    if (!kept) break;
  }
  if (kept) return;
  for (const auto& [id, c] : engine_.clients()) {
    if (c->user() != &user || !IsPubSubClient(*c)) continue;
    const Client::PubSubState& subs = c->pubsub();
    auto refused = [&](const std::vector<std::string>& names, bool patterns) {
      return std::any_of(names.begin(), names.end(), [&](const std::string& name) {
        return !acl::ChannelListAllows(allowed, name, patterns);
      });
    };
    if (!refused(subs.patterns, true) && !refused(subs.channels, false) &&
        !refused(subs.shard_channels, false)) {
      continue;
    }
    if (c.get() == current) {
      c->set_close_after_reply();
    } else if (c->io() != nullptr) {
      c->io()->CloseAsap();
    }
  }
}

std::string Auth::AclFilePath() const {
  const ServerConfig& config = engine_.config();
  const std::string& file = config.aclfile;
  if (file.empty() || file[0] == '/' || config.dir.empty() || config.dir == ".") return file;
  return config.dir + "/" + file;
}

std::optional<std::string> Auth::ReloadAclFile(Client* current) {
  std::string text;
  std::string error;
  if (!ReadFile(AclFilePath(), &text, &error)) {
    return "Error loading ACLs, opening file '" + engine_.config().aclfile + "': " + error;
  }
  acl::Acl::Users users;
  if (auto parse_error =
          acl_.ParseFile(text, engine_.config().aclfile, all_channels_default(), &users)) {
    return parse_error;
  }
  // Every user but the default one is replaced: their clients must go.
  for (const auto& old_user : acl_.Install(std::move(users))) {
    DisconnectClientsOf(old_user.get(), current);
  }
  return std::nullopt;
}

bool Auth::SaveAclFile() {
  return WriteFileAtomically(AclFilePath(), acl_.Serialize(), engine_.clock().NowMs());
}

std::optional<std::string> Auth::LoadAclAtStartup() {
  const ServerConfig& config = engine_.config();
  if (!config.aclfile.empty() && !config.users.empty()) {
    return std::string(
        "Configuring Redis with users defined in redis.conf and at the same setting an ACL file "
        "path is invalid. This setup is very likely to lead to configuration errors and security "
        "holes, please define either an ACL file or declare users directly in your redis.conf, "
        "but not both.");
  }
  if (auto error = acl_.LoadConfiguredUsers(config.users, all_channels_default())) {
    return *error + ". Critical error while loading ACLs. Exiting.";
  }
  if (!config.aclfile.empty()) {
    if (auto error = ReloadAclFile(nullptr)) {
      return "Aborting Redis startup because of ACL errors: " + *error;
    }
  }
  return std::nullopt;
}

}  // namespace redlab::server::engine
