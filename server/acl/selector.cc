#include "server/acl/selector.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <iterator>

#include "server/base/glob.h"
#include "server/base/text.h"

namespace redlab::server::acl {
namespace {

using server::Command;
using server::CStringPrefix;
using server::EqualsIgnoreCase;

// Visits every command and, after each, its subcommands, in the table's order (Redis walks its
// command dictionary, whose order is random: redlab's is the registration order).
template <typename Fn>
void ForEachCommand(const std::vector<std::unique_ptr<Command>>& commands, Fn&& fn) {
  for (const auto& cmd : commands) {
    fn(*cmd);
    ForEachCommand(cmd->subcommands, fn);
  }
}

void AppendPattern(std::string* out, const KeyPattern& key) {
  switch (key.permissions) {
    case kKeyRead:
      *out += "%R~";
      break;
    case kKeyWrite:
      *out += "%W~";
      break;
    default:
      *out += '~';
  }
  *out += key.pattern;
}

}  // namespace

bool HasSpacesOrNul(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) {
    return c == '\0' || std::isspace(static_cast<unsigned char>(c));
  });
}

std::string_view RuleErrorText(RuleError error) {
  // In RuleError's order.
  static constexpr std::string_view kTexts[] = {
      "Syntax error",
      "Unknown command or category name in ACL",
      "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not "
      "have any effect. Try 'resetkeys' to start with an empty list of patterns",
      "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not "
      "have any effect. Try 'resetchannels' to start with an empty list of channels",
      "The password you are trying to remove from the user does not exist",
      "The password hash must be exactly 64 characters and contain only lowercase hexadecimal "
      "characters",
      "Allowing first-arg of a subcommand is not supported",
  };
  static_assert(std::size(kTexts) == static_cast<size_t>(RuleError::kFirstArgOfSubcommand) + 1);
  return EnumName(kTexts, error, std::string_view("Wrong format"));
}

bool ChannelListAllows(std::span<const std::string> patterns, std::string_view channel,
                       bool is_pattern) {
  for (const std::string& pattern : patterns) {
    // A PSUBSCRIBE pattern is compared as a C string, as Redis's strcmp does.
    if (is_pattern ? pattern == CStringPrefix(channel) : server::GlobMatch(pattern, channel)) {
      return true;
    }
  }
  return false;
}

// By original names, as Redis's ACLLookupCommand looks in orig_commands (rename-command aside).
const Command* LookupCommandForRule(const server::CommandTable& table, std::string_view name) {
  size_t bar = name.find('|');
  if (bar == std::string_view::npos) return name.empty() ? nullptr : table.FindOriginal(name);
  std::string_view sub = name.substr(bar + 1);
  if (sub.find('|') != std::string_view::npos) return nullptr;  // one level of subcommands only
  const Command* base = table.FindOriginal(name.substr(0, bar));
  if (base == nullptr || base->subcommands.empty()) return nullptr;
  return base->FindSubcommand(sub);
}

Selector::Selector(const server::CommandTable& table, bool root, bool all_channels)
    : table_(&table),
      root_(root),
      all_channels_(all_channels),
      bits_((table.total_ids() + 1 + 63) / 64, 0) {}

void Selector::SetBit(size_t id, bool value) {
  if (value) {
    bits_[id / 64] |= uint64_t{1} << (id % 64);
  } else {
    bits_[id / 64] &= ~(uint64_t{1} << (id % 64));
    // A command taken away: the selector no longer allows everything.
    all_commands_ = false;
  }
}

void Selector::ChangePermission(const Command& cmd, bool allow) {
  SetBit(cmd.id, allow);
  first_args_.erase(cmd.id);
  for (const auto& sub : cmd.subcommands) SetBit(sub->id, allow);
}

void Selector::SetCategory(uint32_t category, bool allow) {
  // A container in the category brings all its subcommands along, whatever their own
  // categories (CLIENT is @slow: +@slow allows CLIENT ID), as Redis does.
  ForEachCommand(table_->originals(), [&](const Command& cmd) {
    if (cmd.acl & category) ChangePermission(cmd, allow);
  });
}

void Selector::CountCategory(uint32_t category, size_t* on, size_t* off) const {
  *on = *off = 0;
  ForEachCommand(table_->originals(), [&](const Command& cmd) {
    if (!(cmd.acl & category)) return;
    if (Bit(cmd.id)) {
      ++*on;
    } else {
      ++*off;
    }
  });
}

void Selector::SetAllCommands(bool allow) {
  std::fill(bits_.begin(), bits_.end(), allow ? ~uint64_t{0} : 0);
  all_commands_ = allow;
  first_args_.clear();
}

std::optional<RuleError> Selector::Apply(std::string_view rule) {
  // Keywords are compared as C strings (strcasecmp): bytes after a NUL do not count.
  std::string_view word = CStringPrefix(rule);
  if (EqualsIgnoreCase(word, "allkeys") || EqualsIgnoreCase(word, "~*")) {
    all_keys_ = true;
    keys_.clear();
  } else if (EqualsIgnoreCase(word, "resetkeys")) {
    all_keys_ = false;
    keys_.clear();
  } else if (EqualsIgnoreCase(word, "allchannels") || EqualsIgnoreCase(word, "&*")) {
    all_channels_ = true;
    channels_.clear();
  } else if (EqualsIgnoreCase(word, "resetchannels")) {
    all_channels_ = false;
    channels_.clear();
  } else if (EqualsIgnoreCase(word, "allcommands") || EqualsIgnoreCase(word, "+@all")) {
    SetAllCommands(true);
  } else if (EqualsIgnoreCase(word, "nocommands") || EqualsIgnoreCase(word, "-@all")) {
    SetAllCommands(false);
  } else if (!rule.empty() && (rule[0] == '~' || rule[0] == '%')) {
    return AddKeyPattern(rule);
  } else if (!rule.empty() && rule[0] == '&') {
    return AddChannel(rule);
  } else if (word.size() >= 1 && word[0] == '+' && (word.size() < 2 || word[1] != '@')) {
    return AllowCommandRule(word.substr(1));
  } else if (word.size() >= 1 && word[0] == '-' && (word.size() < 2 || word[1] != '@')) {
    const Command* cmd = LookupCommandForRule(*table_, word.substr(1));
    if (cmd == nullptr) return RuleError::kUnknownName;
    ChangePermission(*cmd, false);
  } else if (word.size() >= 2 && (word[0] == '+' || word[0] == '-') && word[1] == '@') {
    uint32_t category = server::AclCategoryByName(word.substr(2));
    if (category == 0) return RuleError::kUnknownName;
    SetCategory(category, word[0] == '+');
  } else {
    return RuleError::kSyntax;
  }
  return std::nullopt;
}

std::optional<RuleError> Selector::AddKeyPattern(std::string_view rule) {
  if (all_keys_) return RuleError::kPatternAfterAllKeys;
  uint8_t permissions = 0;
  size_t offset = 1;
  if (rule[0] == '%') {
    // %R~, %W~, %RW~ (or %WR~); each letter once.
    for (; offset < rule.size(); ++offset) {
      char c = static_cast<char>(std::toupper(static_cast<unsigned char>(rule[offset])));
      if (c == 'R' && !(permissions & kKeyRead)) {
        permissions |= kKeyRead;
      } else if (c == 'W' && !(permissions & kKeyWrite)) {
        permissions |= kKeyWrite;
      } else if (rule[offset] == '~') {
        ++offset;
        break;
      } else {
        return RuleError::kSyntax;
      }
    }
  } else {
    permissions = kKeyReadWrite;
  }
  std::string_view pattern = rule.substr(std::min(offset, rule.size()));
  if (HasSpacesOrNul(pattern)) return RuleError::kSyntax;
  // The same pattern twice adds the new permissions to the old entry.
  auto it = std::find_if(keys_.begin(), keys_.end(),
                         [&](const KeyPattern& k) { return k.pattern == pattern; });
  if (it != keys_.end()) {
    it->permissions |= permissions;
  } else {
    keys_.push_back({std::string(pattern), permissions});
  }
  return std::nullopt;
}

std::optional<RuleError> Selector::AddChannel(std::string_view rule) {
  if (all_channels_) return RuleError::kChannelAfterAll;
  std::string_view pattern = rule.substr(1);
  if (HasSpacesOrNul(pattern)) return RuleError::kSyntax;
  if (std::find(channels_.begin(), channels_.end(), pattern) == channels_.end()) {
    channels_.emplace_back(pattern);
  }
  return std::nullopt;
}

std::optional<RuleError> Selector::AllowCommandRule(std::string_view name) {
  size_t bar = name.rfind('|');
  if (bar == std::string_view::npos) {
    const Command* cmd = LookupCommandForRule(*table_, name);
    if (cmd == nullptr) return RuleError::kUnknownName;
    ChangePermission(*cmd, true);
    return std::nullopt;
  }
  const Command* base = LookupCommandForRule(*table_, name.substr(0, bar));
  if (base == nullptr) return RuleError::kUnknownName;
  if (base->parent != nullptr) return RuleError::kFirstArgOfSubcommand;
  std::string_view first_arg = name.substr(bar + 1);
  if (first_arg.empty()) return RuleError::kSyntax;
  if (!base->subcommands.empty()) {
    const Command* sub = LookupCommandForRule(*table_, name);
    if (sub == nullptr) return RuleError::kUnknownName;
    ChangePermission(*sub, true);
    return std::nullopt;
  }
  // A first argument of a command without subcommands (+select|0): Redis keeps this, deprecated,
  // to allow one form of an otherwise denied command.
  std::vector<std::string>& allowed = first_args_[base->id];
  bool known = std::any_of(allowed.begin(), allowed.end(),
                           [&](const std::string& a) { return EqualsIgnoreCase(a, first_arg); });
  if (!known) allowed.emplace_back(first_arg);
  return std::nullopt;
}

bool Selector::AllowsCommand(const Command& cmd, std::span<const std::string> args) const {
  if (all_commands_ || cmd.has(server::kCmdNoAuth) || Bit(cmd.id)) return true;
  if (args.size() < 2) return false;
  auto it = first_args_.find(cmd.id);
  if (it == first_args_.end()) return false;
  size_t index = cmd.parent != nullptr ? 2 : 1;
  if (index >= args.size()) return false;
  std::string_view given = CStringPrefix(args[index]);
  return std::any_of(it->second.begin(), it->second.end(), [&](const std::string& allowed) {
    return EqualsIgnoreCase(CStringPrefix(allowed), given);
  });
}

bool Selector::AllowsKey(std::string_view key, uint32_t key_spec_flags) const {
  if (all_keys_) return true;
  uint8_t needed = 0;
  if (key_spec_flags & server::kKeyAccess) needed |= kKeyRead;
  if (key_spec_flags & (server::kKeyInsert | server::kKeyDelete | server::kKeyUpdate)) {
    needed |= kKeyWrite;
  }
  return std::any_of(keys_.begin(), keys_.end(), [&](const KeyPattern& k) {
    return (k.permissions & needed) == needed && server::GlobMatch(k.pattern, key);
  });
}

void Selector::DescribeSingleCommands(Selector& fake, std::string* rules,
                                      const std::vector<std::unique_ptr<Command>>& commands) const {
  for (const auto& cmd : commands) {
    bool mine = Bit(cmd->id);
    if (mine != fake.Bit(cmd->id)) {
      *rules += mine ? '+' : '-';
      *rules += cmd->full_name;
      *rules += ' ';
      fake.ChangePermission(*cmd, mine);
    }
    DescribeSingleCommands(fake, rules, cmd->subcommands);
    auto it = first_args_.find(cmd->id);
    if (!mine && it != first_args_.end()) {
      for (const std::string& arg : it->second) {
        *rules += '+' + cmd->full_name + '|' + arg + ' ';
      }
    }
  }
}

std::string Selector::DescribeCommands() const {
  // The rules are found by applying them to a fake selector as they are chosen, until its bits
  // are this selector's. The reserved bit tells whether to start from +@all (and subtract) or
  // from -@all (and add).
  const size_t future_bit = table_->total_ids();
  const bool additive = !Bit(future_bit);
  std::string rules = additive ? "-@all " : "+@all ";
  Selector fake(*table_, false, false);
  fake.SetAllCommands(!additive);
  // Categories by best fit: each round takes the category with more commands in common with the
  // selector than different, and the fewest differences (ties: the most in common); `remaining`
  // tracks what the chosen categories have not covered yet.
  Selector remaining(*table_, false, false);
  remaining.bits_ = bits_;
  std::span<const server::AclCategoryInfo> categories = server::AclCategories();
  std::vector<bool> applied(categories.size(), false);
  while (true) {
    int best = -1;
    size_t min_diff = INT_MAX;
    size_t max_same = 0;
    for (size_t j = 0; j < categories.size(); ++j) {
      if (applied[j]) continue;
      size_t on = 0, off = 0;
      remaining.CountCategory(categories[j].bit, &on, &off);
      size_t diff = additive ? off : on;
      size_t same = additive ? on : off;
      if (same > diff && (diff < min_diff || (diff == min_diff && same > max_same))) {
        best = static_cast<int>(j);
        min_diff = diff;
        max_same = same;
      }
    }
    if (best < 0) break;
    const server::AclCategoryInfo& category = categories[static_cast<size_t>(best)];
    fake.SetCategory(category.bit, additive);
    remaining.SetCategory(category.bit, !additive);
    rules += additive ? '+' : '-';
    rules += category.name;  // "@string"
    rules += ' ';
    applied[static_cast<size_t>(best)] = true;
  }
  DescribeSingleCommands(fake, &rules, table_->originals());
  rules.pop_back();  // the trailing space
  return rules;
}

std::string Selector::DescribeKeys() const {
  if (all_keys_) return "~*";
  std::string out;
  for (const KeyPattern& key : keys_) {
    if (!out.empty()) out += ' ';
    AppendPattern(&out, key);
  }
  return out;
}

std::string Selector::DescribeChannels() const {
  if (all_channels_) return "&*";
  std::string out;
  for (const std::string& channel : channels_) {
    if (!out.empty()) out += ' ';
    out += '&';
    out += channel;
  }
  return out;
}

std::string Selector::Describe() const {
  std::string out;
  if (all_keys_) {
    out += "~* ";
  } else {
    for (const KeyPattern& key : keys_) {
      AppendPattern(&out, key);
      out += ' ';
    }
  }
  if (all_channels_) {
    out += "&* ";
  } else {
    out += "resetchannels ";
    for (const std::string& channel : channels_) out += '&' + channel + ' ';
  }
  out += DescribeCommands();
  return out;
}

}  // namespace redlab::server::acl
