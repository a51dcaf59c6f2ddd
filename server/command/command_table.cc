#include "server/command/command_table.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>

#include "server/base/text.h"

namespace redlab::server {
namespace {

uint32_t ImplicitAcl(const CommandSpec& spec) {
  uint32_t acl = spec.acl;
  if (spec.flags & kCmdWrite) acl |= kAclWrite;
  // Redis: readonly commands are @read unless they are @scripting (EVAL_RO and friends).
  if ((spec.flags & kCmdReadonly) && !(acl & kAclScripting)) acl |= kAclRead;
  if (spec.flags & kCmdAdmin) acl |= kAclAdmin | kAclDangerous;
  if (spec.flags & kCmdPubsub) acl |= kAclPubsub;
  if (spec.flags & kCmdFast) acl |= kAclFast;
  if (spec.flags & kCmdBlocking) acl |= kAclBlocking;
  if (!(acl & kAclFast)) acl |= kAclSlow;
  return acl;
}

// Redis's populateCommandLegacyRangeSpec: the (first, last, step) triple of COMMAND INFO covers
// one range spec, or several consecutive step-1 range specs; any other shape sets movablekeys.
void DeriveLegacyRange(Command* cmd) {
  const auto& keys = cmd->spec->keys;
  if (keys.empty()) return;
  auto is_range = [](const KeySpec& k) { return !k.unknown && k.begin_index > 0 && !k.keynum; };
  if (keys.size() == 1 && is_range(keys[0])) {
    const KeySpec& k = keys[0];
    cmd->first_key = k.begin_index;
    cmd->last_key = k.last_key < 0 ? k.last_key : k.begin_index + k.last_key;
    cmd->key_step = k.key_step;
    if (k.flags & kKeyIncomplete) cmd->movable_keys = true;
    return;
  }
  int first = INT_MAX;
  int last = 0;
  int prev_last = 0;
  for (const KeySpec& k : keys) {
    if (!is_range(k)) {
      cmd->movable_keys = true;
      continue;
    }
    if (k.key_step != 1 || (prev_last && prev_last != k.begin_index - 1)) {
      cmd->movable_keys = true;
      continue;
    }
    if (k.flags & kKeyIncomplete) cmd->movable_keys = true;
    first = std::min(first, k.begin_index);
    int last_abs = k.last_key >= 0 ? k.last_key + k.begin_index : k.last_key;
    // Unsigned comparison, as Redis does, so a negative (open-ended) last key wins.
    last = static_cast<int>(std::max(static_cast<unsigned>(last), static_cast<unsigned>(last_abs)));
    prev_last = last;
  }
  if (first == INT_MAX) {
    cmd->movable_keys = true;
    return;
  }
  cmd->first_key = first;
  cmd->last_key = last;
  cmd->key_step = 1;
}

}  // namespace

bool NameIndex::Insert(std::string_view name, const Command* cmd) {
  if (Find(name) != nullptr) return false;
  if ((size_ + 1) * 2 > slots_.size()) {
    std::vector<Slot> old = std::move(slots_);
    slots_ = std::vector<Slot>(std::max<size_t>(16, old.size() * 2));
    for (Slot& slot : old) {
      if (slot.cmd != nullptr) Place(std::move(slot));
    }
  }
  Place(Slot{ToLower(name), HashIgnoreCase(name), cmd});
  ++size_;
  return true;
}

void NameIndex::Place(Slot slot) {
  size_t mask = slots_.size() - 1;
  size_t i = slot.hash & mask;
  while (slots_[i].cmd != nullptr) i = (i + 1) & mask;
  slots_[i] = std::move(slot);
}

const Command* NameIndex::Find(std::string_view name) const {
  if (slots_.empty()) return nullptr;
  size_t hash = HashIgnoreCase(name);
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.cmd == nullptr) return nullptr;
    if (slot.hash == hash && EqualsIgnoreCase(name, slot.name)) return slot.cmd;
  }
}

const Command* Command::FindSubcommand(std::string_view name) const {
  return subcommand_index.Find(name);
}

CommandTable::CommandTable(Registrar register_all) { register_all(*this); }

std::unique_ptr<Command> CommandTable::Build(const CommandSpec* spec, const Command* parent) {
  auto cmd = std::make_unique<Command>();
  cmd->spec = spec;
  cmd->parent = parent;
  cmd->full_name =
      parent ? parent->full_name + "|" + std::string(spec->name) : std::string(spec->name);
  cmd->id = next_id_++;
  cmd->acl = ImplicitAcl(*spec);
  DeriveLegacyRange(cmd.get());
  for (const CommandSpec& sub : spec->subcommands) {
    auto child = Build(&sub, cmd.get());
    cmd->subcommand_index.Insert(sub.name, child.get());
    cmd->subcommands.push_back(std::move(child));
  }
  return cmd;
}

void CommandTable::Add(CommandSpec spec) {
  specs_.push_back(std::make_unique<CommandSpec>(std::move(spec)));
  auto cmd = Build(specs_.back().get(), nullptr);
  if (!original_index_.Insert(cmd->name(), cmd.get()) || !index_.Insert(cmd->name(), cmd.get())) {
    std::fprintf(stderr, "redlab: command '%s' is registered twice\n", cmd->full_name.c_str());
    std::abort();
  }
  live_.push_back(cmd.get());
  live_names_.push_back(ToLower(cmd->name()));
  commands_.push_back(std::move(cmd));
}

std::optional<std::string> CommandTable::Rename(std::string_view name, std::string_view new_name) {
  const Command* cmd = index_.Find(name);
  if (cmd == nullptr) return "No such command in rename-command";
  // Redis removes the old name, then adds the new one (so a command may keep its own name).
  const Command* owner = new_name.empty() ? nullptr : index_.Find(new_name);
  if (owner != nullptr && owner != cmd) return "Target command name already exists";
  size_t at = static_cast<size_t>(std::find(live_.begin(), live_.end(), cmd) - live_.begin());
  if (new_name.empty()) {
    live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(at));
    live_names_.erase(live_names_.begin() + static_cast<std::ptrdiff_t>(at));
  } else {
    live_names_[at] = ToLower(new_name);
  }
  index_ = NameIndex();
  for (size_t i = 0; i < live_.size(); ++i) index_.Insert(live_names_[i], live_[i]);
  return std::nullopt;
}

void CommandTable::AddHidden(CommandSpec spec) {
  specs_.push_back(std::make_unique<CommandSpec>(std::move(spec)));
  auto cmd = Build(specs_.back().get(), nullptr);
  if (index_.Find(cmd->name()) != nullptr || !hidden_index_.Insert(cmd->name(), cmd.get())) {
    std::fprintf(stderr, "redlab: command '%s' is registered twice\n", cmd->full_name.c_str());
    std::abort();
  }
  hidden_.push_back(std::move(cmd));
}

const Command* CommandTable::Find(std::string_view name) const { return index_.Find(name); }

const Command* CommandTable::FindOriginal(std::string_view name) const {
  return original_index_.Find(name);
}

const Command* CommandTable::ResolveHidden(std::span<const std::string> args) const {
  return args.empty() ? nullptr : hidden_index_.Find(args[0]);
}

const Command* CommandTable::Resolve(std::span<const std::string> args) const {
  if (args.empty()) return nullptr;
  const Command* cmd = Find(args[0]);
  if (cmd == nullptr || cmd->subcommands.empty() || args.size() < 2) return cmd;
  return cmd->FindSubcommand(args[1]);
}

namespace {

constexpr AclCategoryInfo kAclCategories[] = {
    {kAclKeyspace, "@keyspace"},
    {kAclRead, "@read"},
    {kAclWrite, "@write"},
    {kAclSet, "@set"},
    {kAclSortedSet, "@sortedset"},
    {kAclList, "@list"},
    {kAclHash, "@hash"},
    {kAclString, "@string"},
    {kAclBitmap, "@bitmap"},
    {kAclHyperLogLog, "@hyperloglog"},
    {kAclGeo, "@geo"},
    {kAclStream, "@stream"},
    {kAclPubsub, "@pubsub"},
    {kAclAdmin, "@admin"},
    {kAclFast, "@fast"},
    {kAclSlow, "@slow"},
    {kAclBlocking, "@blocking"},
    {kAclDangerous, "@dangerous"},
    {kAclConnection, "@connection"},
    {kAclTransaction, "@transaction"},
    {kAclScripting, "@scripting"},
};

}  // namespace

std::span<const AclCategoryInfo> AclCategories() { return kAclCategories; }

uint32_t AclCategoryByName(std::string_view name) {
  for (const AclCategoryInfo& c : kAclCategories) {
    std::string_view bare = c.name.substr(1);
    if (bare.size() != name.size()) continue;
    bool same = true;
    for (size_t i = 0; i < name.size() && same; ++i) {
      same = std::tolower(static_cast<unsigned char>(name[i])) == bare[i];
    }
    if (same) return c.bit;
  }
  return 0;
}

std::vector<std::string_view> AclCategoryNames(uint32_t acl) {
  std::vector<std::string_view> out;
  for (const AclCategoryInfo& c : kAclCategories) {
    if (acl & c.bit) out.push_back(c.name);
  }
  return out;
}

std::vector<std::string_view> CommandFlagNames(const Command& cmd) {
  static constexpr std::pair<uint32_t, std::string_view> kNames[] = {
      {kCmdWrite, "write"},
      {kCmdReadonly, "readonly"},
      {kCmdDenyOom, "denyoom"},
      {kCmdAdmin, "admin"},
      {kCmdPubsub, "pubsub"},
      {kCmdNoscript, "noscript"},
      {kCmdBlocking, "blocking"},
      {kCmdLoading, "loading"},
      {kCmdStale, "stale"},
      {kCmdSkipMonitor, "skip_monitor"},
      {kCmdSkipSlowlog, "skip_slowlog"},
      {kCmdAsking, "asking"},
      {kCmdFast, "fast"},
      {kCmdNoAuth, "no_auth"},
      {kCmdNoMandatoryKeys, "no_mandatory_keys"},
      {kCmdNoAsyncLoading, "no_async_loading"},
      {kCmdNoMulti, "no_multi"},
  };
  std::vector<std::string_view> out = BitNames(cmd.spec->flags, kNames);
  if (cmd.movable_keys) out.push_back("movablekeys");
  if (cmd.spec->flags & kCmdAllowBusy) out.push_back("allow_busy");
  return out;
}

std::vector<std::string_view> KeySpecFlagNames(uint32_t flags) {
  static constexpr std::pair<uint32_t, std::string_view> kNames[] = {
      {kKeyRO, "RO"},
      {kKeyRW, "RW"},
      {kKeyOW, "OW"},
      {kKeyRM, "RM"},
      {kKeyAccess, "access"},
      {kKeyUpdate, "update"},
      {kKeyInsert, "insert"},
      {kKeyDelete, "delete"},
      {kKeyNotKey, "not_key"},
      {kKeyIncomplete, "incomplete"},
      {kKeyVariableFlags, "variable_flags"},
  };
  return BitNames(flags, kNames);
}

}  // namespace redlab::server
