// The engine's side of ACLs (Redis's acl.c around the rules themselves): the node's users and ACL
// log, authentication, the checks of processCommand, EXEC and scripts, disconnecting the clients
// of users that change or go, and the ACL file. Owned once by the Engine.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "server/acl/acl.h"
#include "server/acl/check.h"
#include "server/command/command_table.h"
#include "server/engine/core/client.h"

namespace redlab::server::engine {

class Engine;
struct ScriptCall;

class Auth {
 public:
  // `engine` gives the configuration, the clock and the clients to disconnect.
  Auth(Engine& engine, const CommandTable& commands) : engine_(engine), acl_(commands) {}
  Auth(const Auth&) = delete;
  Auth& operator=(const Auth&) = delete;

  // The node's users and ACL log.
  acl::Acl& acl() { return acl_; }
  const acl::Acl& acl() const { return acl_; }

  // Whether clients must authenticate: the default user needs a password or is off (Redis's
  // authRequired, for a client that has not authenticated).
  bool required() const {
    const acl::User& user = acl_.default_user();
    return !user.nopass() || user.disabled();
  }
  // Whether new users get every channel (acl-pubsub-default allchannels).
  bool all_channels_default() const;

  // AUTH and HELLO AUTH (ACLAuthenticateUser): on success the client runs as `username`; a
  // failure is logged in the ACL log with `command` (the AUTH or HELLO as the client wrote it).
  bool Authenticate(Client& client, std::string_view username, std::string_view password,
                    std::string_view command);

  // processCommand's ACL check for a client whose user is restricted: the NOPERM error to
  // reply, after logging the refusal, or nothing when the command may run.
  std::optional<std::string> CommandRefusal(const Client& client, const Command& cmd,
                                            std::span<const std::string> args);
  // EXEC's check of a queued command, as the rules may have changed since it was queued: the
  // NOPERM error for the EXEC reply, or nothing.
  std::optional<std::string> QueuedRefusal(const Client& client,
                                           const Client::QueuedCommand& queued);
  // scriptVerifyACL: the text a script gets for a command its user may not run, if any.
  std::optional<std::string> ScriptRefusal(const Client& client, const ScriptCall& call,
                                           const Command& cmd, std::span<const std::string> args);

  // Adds an event to the ACL log (addACLLogEntry), with `client` described as CLIENT LIST does.
  void LogAclEvent(const Client& client, acl::LogReason reason, acl::LogContext context,
                   std::string object, std::string_view username);
  // Logs a refused command (reason and object from `result`). `described` is the client the log
  // shows, when not `client` itself (a script's client is shown as the client running it).
  void LogAclDenial(const Client& client, const Command& cmd, std::span<const std::string> args,
                    const acl::CheckResult& result, acl::LogContext context,
                    const Client* described = nullptr);

  // Disconnects the clients running as `user`, which is going away (ACLFreeUserAndKillClients):
  // they return to the default user, unauthenticated; `current` is closed after its reply.
  void DisconnectClientsOf(const acl::User* user, Client* current);
  // ACL SETUSER that takes channels away (ACLKillPubsubClientsIfNeeded): the subscribers of
  // `user` whose subscriptions the new rules would refuse are disconnected.
  void DisconnectRevokedSubscribers(const acl::User& user, const acl::User& new_rules,
                                    Client* current);

  // aclfile as a path: relative to `dir`, as Redis (which runs in `dir`) reads it.
  std::string AclFilePath() const;
  // ACL LOAD: replaces the users by the aclfile's, disconnecting the clients of the previous
  // users (`current` after its reply); Redis's error text when the file cannot be used.
  std::optional<std::string> ReloadAclFile(Client* current);
  // ACL SAVE: writes the users to the aclfile (through a temporary file); false on failure.
  bool SaveAclFile();
  // `user` directives and aclfile at startup (ACLLoadUsersAtStartup); the error that must stop
  // the node, if any.
  std::optional<std::string> LoadAclAtStartup();

 private:
  Engine& engine_;
  acl::Acl acl_;
};

}  // namespace redlab::server::engine
