// An ACL user (Redis 7.0's user): its flags (on/off, nopass), password hashes and selectors,
// changed one rule at a time as ACL SETUSER, the ACL file and `user` directives give them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/acl/selector.h"

namespace redlab::server::acl {

// The SHA-256 of `password` in lower-case hex: how passwords are kept and shown (#<hash>).
std::string HashPassword(std::string_view password);

class User {
 public:
  // A new user is off, has no password and allows nothing; its root selector allows every
  // channel when `all_channels` (acl-pubsub-default allchannels).
  User(std::string name, const server::CommandTable& table, bool all_channels);

  const std::string& name() const { return name_; }
  bool enabled() const { return (flags_ & kEnabled) != 0; }
  bool disabled() const { return (flags_ & kDisabled) != 0; }
  bool nopass() const { return (flags_ & kNoPass) != 0; }
  const std::vector<std::string>& passwords() const { return passwords_; }  // hashes
  const std::vector<Selector>& selectors() const { return selectors_; }     // [0]: the root
  // Whether one selector allows every command, key and channel: such a user's commands need no
  // checking at all (the hot path of processCommand).
  bool unrestricted() const { return unrestricted_; }

  // Applies one rule (Redis's ACLSetUser): on, off, nopass, resetpass, >password, <password,
  // #hash, !hash, reset, (selector rules), clearselectors, [skip-]sanitize-payload, or a rule
  // of the root selector. New selectors and `reset` follow `all_channels` (acl-pubsub-default).
  std::optional<RuleError> Apply(std::string_view rule, bool all_channels);

  // Whether `password` authenticates this user (ACLCheckUserCredentials): never when off, always
  // when nopass, else when it matches one of the hashes.
  bool CheckPassword(std::string_view password) const;

  // Takes the other user's rules, keeping this name (ACLCopyUser).
  void CopyRulesFrom(const User& other);

  // The user's flags in ACL GETUSER's order.
  std::vector<std::string_view> FlagNames() const;
  // The user as ACL LIST and the ACL file write it, without "user <name> " (ACLDescribeUser).
  std::string Describe() const;

 private:
  enum Flag : uint32_t {
    kEnabled = 1u << 0,
    kDisabled = 1u << 1,
    kNoPass = 1u << 2,
    kSkipSanitizePayload = 1u << 3,
    kSanitizePayload = 1u << 4,
  };
  void Refresh();

  std::string name_;
  const server::CommandTable* table_;
  uint32_t flags_ = kDisabled;
  std::vector<std::string> passwords_;
  std::vector<Selector> selectors_;
  bool unrestricted_ = false;
};

}  // namespace redlab::server::acl
