// The ACL state of a node (Redis's acl.c globals, owned here by the node): its users, the
// default one always among them, the ACL log, and the operations that replace users as a whole
// (ACL SETUSER's all-or-nothing rules, ACL LOAD and SAVE, `user` directives at startup).
// Disconnecting the clients of users that go away is the engine's part: these operations hand
// the users back to it.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/acl/acl_log.h"
#include "server/acl/user.h"

namespace redlab::server::acl {

class Acl {
 public:
  // By name, in Redis's order (the byte order of its radix tree).
  using Users = std::map<std::string, std::unique_ptr<User>, std::less<>>;

  // Starts with the default user: on, nopass, every command, key and channel.
  explicit Acl(const server::CommandTable& table);

  User& default_user() { return *default_; }
  const User& default_user() const { return *default_; }
  User* Find(std::string_view name) const;
  const Users& users() const { return users_; }
  AclLog& log() { return log_; }

  // requirepass: makes `password` the default user's only password, or the user nopass when it
  // is empty (ACLUpdateDefaultUserPassword).
  void SetDefaultPassword(std::string_view password);

  // ACL SETUSER (ACLStringSetUser): applies `rules` to a copy of user `name` (a new user when
  // there is none), joining selector rules spread over several arguments ("(~k" "+get)").
  // Returns the staged user, or nothing with Redis's error text in *error; Commit applies it.
  std::optional<User> Stage(std::string_view name, std::span<const std::string> rules,
                            bool all_channels, std::string* error) const;
  // Gives user `name` (created if needed) the staged rules.
  void Commit(std::string_view name, const User& staged);
  // ACL DELUSER: takes a user out (never the default one) and returns it, so that its clients
  // can be disconnected before it is gone; nullptr when there is no such user.
  std::unique_ptr<User> Remove(std::string_view name);

  // ACL LOAD (ACLLoadFromFile): parses an ACL file into a new set of users. Any error leaves
  // *users unusable and returns Redis's error text, naming the file as `filename`.
  std::optional<std::string> ParseFile(std::string_view text, std::string_view filename,
                                       bool all_channels, Users* users) const;
  // Installs a parsed set of users. The default user keeps its identity (its clients stay) and
  // takes the loaded rules, or the initial ones when the file has none; the previous users are
  // returned for their clients to be disconnected.
  std::vector<std::unique_ptr<User>> Install(Users users);
  // Each user as ACL LIST gives it and CONFIG REWRITE writes it, "user <name> <rules>", by name.
  std::vector<std::string> DescribeUsers() const;
  // The users as ACL SAVE writes them: the lines of DescribeUsers, each ended by "\n".
  std::string Serialize() const;

  // `user` directives at startup (ACLAppendUserForLoading and ACLLoadConfiguredUsers): each line
  // is "<name> <rule> ..." as in redis.conf. Returns the error that stops the server.
  std::optional<std::string> LoadConfiguredUsers(std::span<const std::string> lines,
                                                 bool all_channels);

 private:
  std::unique_ptr<User> MakeDefaultUser(bool all_channels) const;

  const server::CommandTable* table_;
  Users users_;
  User* default_;
  AclLog log_;
};

// Joins selector rules split over several arguments (ACLMergeSelectorArguments): "(~a" "+get)"
// becomes "(~a +get)". On an unmatched "(" returns false with the index of the argument that
// opened it.
bool MergeSelectorRules(std::span<const std::string> args, std::vector<std::string>* merged,
                        size_t* unmatched);

}  // namespace redlab::server::acl
