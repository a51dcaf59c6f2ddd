// The command table of a node: every CommandSpec registered by the command families, indexed
// by name, with what Redis derives from the descriptions (full names like "config|get", the
// legacy first/last/step key positions, implicit ACL categories).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>  // NameHash users include it through here
#include <vector>

#include "server/base/text.h"
#include "server/command/command.h"

namespace redlab::server {

// Name -> command, looked up by string_view in any case without building a std::string (Redis's
// command dict hashes and compares case-insensitively too). Every request looks its command up,
// so this is open addressing over a power-of-two array kept at most half full: one hash of the
// name, and mostly one probe.
struct Command;

// Case-insensitive hashing and equality for other tables keyed by names.
struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return HashIgnoreCase(s); }
};
struct NameEquals {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const {
    return a == b || EqualsIgnoreCase(a, b);
  }
};

class NameIndex {
 public:
  // Adds `cmd` under `name` (lower case); false when the name is taken.
  bool Insert(std::string_view name, const Command* cmd);
  const Command* Find(std::string_view name) const;
  size_t size() const { return size_; }

 private:
  struct Slot {
    std::string name;  // lower case
    size_t hash = 0;
    const Command* cmd = nullptr;  // null: the slot is free
  };
  void Place(Slot slot);
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

struct Command {
  const CommandSpec* spec = nullptr;
  const Command* parent = nullptr;                // set for subcommands
  std::string full_name;                          // "get", "config|get"
  size_t id = 0;                                  // index into per-node statistics
  int first_key = 0, last_key = 0, key_step = 0;  // legacy range, from the first key spec
  bool movable_keys = false;                      // keys not describable by the legacy range
  uint32_t acl = 0;                               // explicit and implicit ACL categories
  std::vector<std::unique_ptr<Command>> subcommands;
  NameIndex subcommand_index;  // by lower-case subcommand name

  std::string_view name() const { return spec->name; }
  int arity() const { return spec->arity; }
  bool has(uint32_t flag) const { return (spec->flags & flag) != 0; }
  bool is_write() const { return has(kCmdWrite); }
  // Whether `argc` arguments (the name included) fit the arity: exactly N, or at least -N.
  bool ArityAccepts(size_t argc) const {
    int n = static_cast<int>(argc);
    return arity() > 0 ? n == arity() : n >= -arity();
  }
  const Command* FindSubcommand(std::string_view name) const;  // case-insensitive
};

class CommandTable {
 public:
  // Fills the table: `register_all` calls Add once per command (the engine's families, see
  // engine/commands/families.h).
  using Registrar = void (*)(CommandTable& table);
  explicit CommandTable(Registrar register_all);

  // Adds a top-level command. A second command of one name is a programming error: it aborts
  // with the name, so no family can shadow another's command silently.
  void Add(CommandSpec spec);

  // Adds a command no client may learn of (kCmdNodeControl: FAULT, TOPOLOGY): nothing that lists
  // or looks up commands sees it (COMMAND, INFO commandstats, ACL rules and categories,
  // scripts); only ResolveHidden finds it, for the engine to run a client's request.
  void AddHidden(CommandSpec spec);

  // rename-command (Redis's configuration, at startup only): the command registered or last
  // renamed as `name` answers to `new_name` from now on, or is gone when it is empty. Find,
  // Resolve and all() (COMMAND, INFO commandstats, scripts) see the new names; the command's
  // full name (replies, statistics) stays, and so do ACL rules and categories, which use the
  // original names as Redis's orig_commands does. Redis's error text when `name` is no command
  // or `new_name` another's.
  std::optional<std::string> Rename(std::string_view name, std::string_view new_name);

  // Case-insensitive lookup of a top-level command by the name it answers to.
  const Command* Find(std::string_view name) const;
  // The same by the name it was registered under, renamed or not (ACL rules).
  const Command* FindOriginal(std::string_view name) const;
  // Resolves an invocation as Redis's lookupCommand: a command with subcommands called with
  // arguments resolves to the subcommand args[1] names (nullptr when none does); called alone it
  // resolves to itself (whose arity then refuses it).
  const Command* Resolve(std::span<const std::string> args) const;
  // The hidden command args[0] names, or nullptr.
  const Command* ResolveHidden(std::span<const std::string> args) const;

  size_t size() const { return live_.size(); }   // top-level commands answering to a name
  size_t total_ids() const { return next_id_; }  // commands and subcommands
  // The top-level commands answering to a name, in registration order.
  std::span<const Command* const> all() const { return live_; }
  // Every top-level command registered, renamed away or not (ACL categories).
  const std::vector<std::unique_ptr<Command>>& originals() const { return commands_; }

 private:
  std::unique_ptr<Command> Build(const CommandSpec* spec, const Command* parent);

  std::vector<std::unique_ptr<CommandSpec>> specs_;  // owned descriptions (stable addresses)
  std::vector<std::unique_ptr<Command>> commands_;   // in registration order
  NameIndex original_index_;                         // by registered name
  std::vector<const Command*> live_;                 // the commands answering to a name...
  std::vector<std::string> live_names_;              // ...and those names (lower case)
  NameIndex index_;                                  // live_names_ -> live_
  std::vector<std::unique_ptr<Command>> hidden_;
  NameIndex hidden_index_;
  size_t next_id_ = 0;
};

// The ACL categories in Redis's order (COMMAND INFO, ACL CAT), with their names ("@keyspace").
struct AclCategoryInfo {
  uint32_t bit;
  std::string_view name;
};
std::span<const AclCategoryInfo> AclCategories();
// The category named `name` (without '@', any case), or 0 when there is none.
uint32_t AclCategoryByName(std::string_view name);
// The names of the categories set in `acl`, in the order COMMAND INFO prints them.
std::vector<std::string_view> AclCategoryNames(uint32_t acl);
// The flag names COMMAND INFO prints, in its order.
std::vector<std::string_view> CommandFlagNames(const Command& cmd);
std::vector<std::string_view> KeySpecFlagNames(uint32_t flags);

}  // namespace redlab::server
