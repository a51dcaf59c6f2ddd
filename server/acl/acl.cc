#include "server/acl/acl.h"

#include <algorithm>
#include <cctype>

#include "server/base/text.h"
#include "server/resp/parser.h"

namespace redlab::server::acl {
namespace {

using server::CStringPrefix;

std::string_view Trim(std::string_view s, std::string_view chars) {
  size_t begin = s.find_first_not_of(chars);
  if (begin == std::string_view::npos) return {};
  size_t end = s.find_last_not_of(chars);
  return s.substr(begin, end - begin + 1);
}

// sdssplitlen with a one-byte separator: consecutive separators give empty pieces.
std::vector<std::string> Split(std::string_view s, char separator) {
  std::vector<std::string> pieces;
  if (s.empty()) return pieces;
  size_t start = 0;
  while (true) {
    size_t at = s.find(separator, start);
    if (at == std::string_view::npos) {
      pieces.emplace_back(s.substr(start));
      return pieces;
    }
    pieces.emplace_back(s.substr(start, at - start));
    start = at + 1;
  }
}

std::string RuleErrorMessage(std::string_view rule, RuleError error) {
  return "Error in ACL SETUSER modifier '" + std::string(CStringPrefix(rule)) +
         "': " + std::string(RuleErrorText(error));
}

}  // namespace

bool MergeSelectorRules(std::span<const std::string> args, std::vector<std::string>* merged,
                        size_t* unmatched) {
  merged->clear();
  std::string selector;
  bool open = false;
  size_t open_index = 0;
  for (size_t j = 0; j < args.size(); ++j) {
    const std::string& arg = args[j];
    // A "(" that does not close in the same argument starts (or restarts) a selector.
    if (!arg.empty() && arg[0] == '(' && arg.back() != ')') {
      selector = arg;
      open = true;
      open_index = j;
      continue;
    }
    if (open) {
      selector += ' ';
      selector += CStringPrefix(arg);
      if (!arg.empty() && arg.back() == ')') {
        open = false;
        merged->push_back(std::move(selector));
        selector.clear();
      }
      continue;
    }
    merged->push_back(arg);
  }
  if (open) *unmatched = open_index;
  return !open;
}

Acl::Acl(const server::CommandTable& table) : table_(&table) {
  auto user = MakeDefaultUser(/*all_channels=*/false);
  default_ = user.get();
  users_.emplace("default", std::move(user));
}

std::unique_ptr<User> Acl::MakeDefaultUser(bool all_channels) const {
  auto user = std::make_unique<User>("default", *table_, all_channels);
  for (std::string_view rule : {"+@all", "~*", "&*", "on", "nopass"}) user->Apply(rule, false);
  return user;
}

User* Acl::Find(std::string_view name) const {
  auto it = users_.find(name);
  return it == users_.end() ? nullptr : it->second.get();
}

void Acl::SetDefaultPassword(std::string_view password) {
  default_->Apply("resetpass", false);
  if (password.empty()) {
    default_->Apply("nopass", false);
  } else {
    default_->Apply(">" + std::string(password), false);
  }
}

std::optional<User> Acl::Stage(std::string_view name, std::span<const std::string> rules,
                               bool all_channels, std::string* error) const {
  std::vector<std::string> merged;
  size_t unmatched = 0;
  if (!MergeSelectorRules(rules, &merged, &unmatched)) {
    *error = "Unmatched parenthesis in acl selector starting at '" +
             std::string(CStringPrefix(rules[unmatched])) + "'.";
    return std::nullopt;
  }
  User staged(std::string(name), *table_, all_channels);
  if (const User* existing = Find(name)) staged.CopyRulesFrom(*existing);
  for (const std::string& rule : merged) {
    if (auto rule_error = staged.Apply(rule, all_channels)) {
      *error = RuleErrorMessage(rule, *rule_error);
      return std::nullopt;
    }
  }
  return staged;
}

void Acl::Commit(std::string_view name, const User& staged) {
  User* user = Find(name);
  if (user == nullptr) {
    auto created = std::make_unique<User>(std::string(name), *table_, false);
    user = created.get();
    users_.emplace(std::string(name), std::move(created));
  }
  user->CopyRulesFrom(staged);
}

std::unique_ptr<User> Acl::Remove(std::string_view name) {
  auto it = users_.find(name);
  if (it == users_.end() || it->second.get() == default_) return nullptr;
  std::unique_ptr<User> user = std::move(it->second);
  users_.erase(it);
  return user;
}

std::optional<std::string> Acl::ParseFile(std::string_view text, std::string_view filename,
                                          bool all_channels, Users* users) const {
  users->clear();
  std::string errors;
  std::string file(filename);
  // Redis reads the file as a C string: nothing after a NUL byte counts.
  std::vector<std::string> lines = Split(CStringPrefix(text), '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string line_number = std::to_string(i + 1);
    std::string_view line = Trim(lines[i], " \t\r\n");
    if (line.empty()) continue;
    std::vector<std::string> argv = Split(line, ' ');
    if (argv[0] != "user" || argv.size() < 2) {
      errors +=
          file + ":" + line_number + " should start with user keyword followed by the username. ";
      continue;
    }
    if (HasSpacesOrNul(argv[1])) {
      errors += "'" + file + ":" + line_number + ": username '" +
                std::string(CStringPrefix(argv[1])) + "' contains invalid characters. ";
      continue;
    }
    if (users->count(argv[1])) {
      errors += "WARNING: Duplicate user '" + std::string(CStringPrefix(argv[1])) +
                "' found on line " + line_number + ". ";
      continue;
    }
    auto user = std::make_unique<User>(argv[1], *table_, all_channels);
    std::vector<std::string> merged;
    size_t unmatched = 0;
    if (!MergeSelectorRules(std::span(argv).subspan(2), &merged, &unmatched)) {
      errors += file + ":" + line_number + ": Unmatched parenthesis in selector definition.";
      merged.clear();
    }
    bool syntax_error = false;
    for (const std::string& rule : merged) {
      std::string_view trimmed = Trim(rule, "\t\r\n");
      auto error = user->Apply(trimmed, all_channels);
      if (!error) continue;
      if (*error == RuleError::kUnknownName) {
        // An unknown command is shown, as it holds nothing secret.
        errors += file + ":" + line_number + ": Error in applying operation '" +
                  std::string(CStringPrefix(trimmed)) + "': " + std::string(RuleErrorText(*error)) +
                  ". ";
      } else if (!syntax_error) {
        // Other errors may concern passwords: only the first one of a line is told, by kind.
        errors += file + ":" + line_number + ": " + std::string(RuleErrorText(*error)) + ". ";
        syntax_error = true;
      }
    }
    users->emplace(argv[1], std::move(user));
  }
  if (errors.empty()) return std::nullopt;
  return errors +
         "WARNING: ACL errors detected, no change to the previously active ACL rules was "
         "performed";
}

std::vector<std::unique_ptr<User>> Acl::Install(Users users) {
  auto loaded_default = users.find("default");
  if (loaded_default != users.end()) {
    default_->CopyRulesFrom(*loaded_default->second);
  } else {
    default_->CopyRulesFrom(*MakeDefaultUser(false));
  }
  auto current_default = users_.find("default");
  users["default"] = std::move(current_default->second);
  users_.erase(current_default);
  std::vector<std::unique_ptr<User>> replaced;
  for (auto& [name, user] : users_) replaced.push_back(std::move(user));
  users_ = std::move(users);
  return replaced;
}

std::vector<std::string> Acl::DescribeUsers() const {
  std::vector<std::string> lines;
  lines.reserve(users_.size());
  for (const auto& [name, user] : users_) lines.push_back("user " + name + " " + user->Describe());
  return lines;
}

std::string Acl::Serialize() const {
  std::string out;
  for (const std::string& line : DescribeUsers()) out += line + "\n";
  return out;
}

std::optional<std::string> Acl::LoadConfiguredUsers(std::span<const std::string> lines,
                                                    bool all_channels) {
  // Every directive is checked before any applies, as Redis checks them while reading its
  // configuration (unknown commands aside, which it only finds when it loads them).
  struct Directive {
    std::string name;
    std::vector<std::string> rules;
  };
  std::vector<Directive> directives;
  for (const std::string& line : lines) {
    resp::ArgList args;
    if (!resp::SplitInlineArgs(line, &args) || args.empty()) {
      return "Error in user declaration '" + line + "': Syntax error";
    }
    Directive directive{args[0], {}};
    std::vector<std::string> rules(args.span().begin() + 1, args.span().end());
    size_t unmatched = 0;
    if (!MergeSelectorRules(rules, &directive.rules, &unmatched)) {
      return "Error in user declaration '" + rules[unmatched] + "': Syntax error";
    }
    for (const Directive& earlier : directives) {
      if (earlier.name == directive.name) {
        return "Error in user declaration '" + directive.name +
               "': Duplicate user found. A user can only be defined once in config files";
      }
    }
    User probe(directive.name, *table_, all_channels);
    for (const std::string& rule : directive.rules) {
      auto error = probe.Apply(rule, all_channels);
      if (error && *error != RuleError::kUnknownName) {
        return "Error in user declaration '" + rule + "': " + std::string(RuleErrorText(*error));
      }
    }
    directives.push_back(std::move(directive));
  }
  for (const Directive& directive : directives) {
    if (HasSpacesOrNul(directive.name)) return std::string("Spaces not allowed in ACL usernames");
    User* user = Find(directive.name);
    if (user == nullptr) {
      auto created = std::make_unique<User>(directive.name, *table_, all_channels);
      user = created.get();
      users_.emplace(directive.name, std::move(created));
    } else {
      user->Apply("reset", all_channels);  // only the default user can exist already
    }
    for (const std::string& rule : directive.rules) {
      if (auto error = user->Apply(rule, all_channels)) {
        return "Error loading ACL rule '" + rule + "' for the user named '" + directive.name +
               "': " + std::string(RuleErrorText(*error));
      }
    }
  }
  return std::nullopt;
}

}  // namespace redlab::server::acl
