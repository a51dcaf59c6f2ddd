// One ACL selector (Redis 7.0's aclSelector): the commands, keys and channels a set of rules
// allows. A user is a root selector plus any number of "(...)" selectors; a command may run when
// one of them allows all of it (see check.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/command/command_table.h"

namespace redlab::server::acl {

// Why a rule was refused: Redis's errno values from ACLSetSelector / ACLSetUser, each with the
// text of ACLSetUserStringError.
enum class RuleError {
  kSyntax,                // EINVAL
  kUnknownName,           // ENOENT: no such command or category
  kPatternAfterAllKeys,   // EEXIST
  kChannelAfterAll,       // EISDIR
  kNoSuchPassword,        // ENODEV
  kBadHash,               // EBADMSG
  kFirstArgOfSubcommand,  // ECHILD
};
std::string_view RuleErrorText(RuleError error);

// What a key pattern allows (%R~ reads, %W~ writes, ~ both).
enum KeyPermission : uint8_t { kKeyRead = 1, kKeyWrite = 2, kKeyReadWrite = 3 };

struct KeyPattern {
  std::string pattern;
  uint8_t permissions;
  bool operator==(const KeyPattern&) const = default;
};

// ACLStringHasSpaces: user names and patterns may hold neither whitespace nor NUL bytes, so that
// rules can be written back one per word.
bool HasSpacesOrNul(std::string_view s);

// Whether `channel` is allowed by a list of channel patterns (ACLCheckChannelAgainstList): a
// channel is matched as a glob; the pattern of a PSUBSCRIBE (`is_pattern`) only literally.
bool ChannelListAllows(std::span<const std::string> patterns, std::string_view channel,
                       bool is_pattern);

// Redis's lookupCommandBySdsLogic for rules: "get" or "config|get", case-insensitive; nullptr
// for anything else (an unknown name, a subcommand of a command without any, "a|b|c").
const server::Command* LookupCommandForRule(const server::CommandTable& table,
                                            std::string_view name);

class Selector {
 public:
  // A selector that allows nothing (but every channel when `all_channels`: acl-pubsub-default).
  // The root selector is the one outside parentheses.
  Selector(const server::CommandTable& table, bool root, bool all_channels);

  // Applies one rule (Redis's ACLSetSelector): allkeys, resetkeys, ~pattern, %RW~pattern,
  // allchannels, resetchannels, &pattern, allcommands, nocommands, +cmd, -cmd, +cmd|sub,
  // +cmd|firstarg, +@category, -@category.
  std::optional<RuleError> Apply(std::string_view rule);

  bool root() const { return root_; }
  bool all_keys() const { return all_keys_; }
  bool all_channels() const { return all_channels_; }
  bool all_commands() const { return all_commands_; }
  const std::vector<KeyPattern>& keys() const { return keys_; }
  const std::vector<std::string>& channels() const { return channels_; }

  // Whether the command itself may run (its bit, or an allowed first argument); commands that
  // need no authentication always may.
  bool AllowsCommand(const server::Command& cmd, std::span<const std::string> args) const;
  // Whether a key used with these key-spec flags is allowed (ACLSelectorCheckKey).
  bool AllowsKey(std::string_view key, uint32_t key_spec_flags) const;

  // The rules that rebuild the command permissions, as ACL GETUSER's "commands" shows them:
  // +@all or -@all, the categories that fit best, then single commands (Redis's
  // ACLDescribeSelectorCommandRules).
  std::string DescribeCommands() const;
  // ACL GETUSER's "keys" and "channels" fields.
  std::string DescribeKeys() const;
  std::string DescribeChannels() const;
  // The whole selector as ACL LIST writes it: keys, channels, then the command rules.
  std::string Describe() const;

 private:
  bool Bit(size_t id) const { return (bits_[id / 64] >> (id % 64)) & 1; }
  void SetBit(size_t id, bool value);
  // ACLChangeSelectorPerm: a command and all its subcommands.
  void ChangePermission(const server::Command& cmd, bool allow);
  void SetCategory(uint32_t category, bool allow);
  void CountCategory(uint32_t category, size_t* on, size_t* off) const;
  void SetAllCommands(bool allow);
  std::optional<RuleError> AddKeyPattern(std::string_view rule);
  std::optional<RuleError> AddChannel(std::string_view rule);
  std::optional<RuleError> AllowCommandRule(std::string_view name);
  // Emits the single-command differences between this selector and `fake`, applying them to it.
  void DescribeSingleCommands(Selector& fake, std::string* rules,
                              const std::vector<std::unique_ptr<server::Command>>& commands) const;

  const server::CommandTable* table_;
  bool root_;
  bool all_keys_ = false;
  bool all_channels_;
  bool all_commands_ = false;
  // One bit per command id, and one more, set only by +@all, that stands for commands that do
  // not exist yet (Redis's "future commands" bit: it tells +@all-and-subtract from -@all-and-add).
  std::vector<uint64_t> bits_;
  std::map<size_t, std::vector<std::string>> first_args_;  // by command id: +select|0
  std::vector<KeyPattern> keys_;
  std::vector<std::string> channels_;
};

}  // namespace redlab::server::acl
