#include "server/acl/user.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <algorithm>

#include "server/base/hex.h"
#include "server/base/text.h"
#include "server/resp/parser.h"

namespace redlab::server::acl {
namespace {

using server::EqualsIgnoreCase;

constexpr size_t kHashLength = SHA256_DIGEST_LENGTH * 2;

// ACLCheckPasswordHash: exactly 64 lower-case hex digits.
bool ValidHash(std::string_view hash) {
  return hash.size() == kHashLength && std::all_of(hash.begin(), hash.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// Splits a selector's "( ... )" body into rules as Redis's sdssplitargs does; unbalanced quotes
// give no rules at all (an empty selector), as in Redis.
std::vector<std::string> SplitSelectorRules(std::string_view body) {
  std::vector<std::string> rules;
  resp::ArgList args;
  if (!resp::SplitInlineArgs(body, &args)) return rules;
  for (const std::string& arg : args.span()) rules.push_back(arg);
  return rules;
}

}  // namespace

std::string HashPassword(std::string_view password) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(password.data()), password.size(), digest);
  return HexOf(digest);
}

namespace {

// The hash a password rule names: of the password after `plain` ('>' adds, '<' removes), or the
// hash itself after '#' / '!'; false for a hash that is not 64 lowercase hex digits. Passwords
// are binary-safe: the whole rule counts, NUL bytes included.
bool RuleHash(std::string_view rule, char plain, std::string* hash) {
  if (rule[0] == plain) {
    *hash = HashPassword(rule.substr(1));
  } else if (ValidHash(rule.substr(1))) {
    *hash = std::string(rule.substr(1));
  } else {
    return false;
  }
  return true;
}

}  // namespace

User::User(std::string name, const server::CommandTable& table, bool all_channels)
    : name_(std::move(name)), table_(&table) {
  selectors_.emplace_back(table, /*root=*/true, all_channels);
  Refresh();
}

void User::Refresh() {
  unrestricted_ = std::any_of(selectors_.begin(), selectors_.end(), [](const Selector& s) {
    return s.all_commands() && s.all_keys() && s.all_channels();
  });
}

std::optional<RuleError> User::Apply(std::string_view rule, bool all_channels) {
  std::optional<RuleError> error;
  std::string_view word = server::CStringPrefix(rule);
  if (rule.empty()) {
    return std::nullopt;  // an empty rule does nothing
  } else if (EqualsIgnoreCase(word, "on")) {
    flags_ = (flags_ | kEnabled) & ~kDisabled;
  } else if (EqualsIgnoreCase(word, "off")) {
    flags_ = (flags_ | kDisabled) & ~kEnabled;
  } else if (EqualsIgnoreCase(word, "skip-sanitize-payload")) {
    flags_ = (flags_ | kSkipSanitizePayload) & ~kSanitizePayload;
  } else if (EqualsIgnoreCase(word, "sanitize-payload")) {
    flags_ = (flags_ | kSanitizePayload) & ~kSkipSanitizePayload;
  } else if (EqualsIgnoreCase(word, "nopass")) {
    flags_ |= kNoPass;
    passwords_.clear();
  } else if (EqualsIgnoreCase(word, "resetpass")) {
    flags_ &= ~kNoPass;
    passwords_.clear();
  } else if (rule[0] == '>' || rule[0] == '#') {
    std::string hash;
    if (!RuleHash(rule, '>', &hash)) return RuleError::kBadHash;
    if (std::find(passwords_.begin(), passwords_.end(), hash) == passwords_.end()) {
      passwords_.push_back(std::move(hash));
    }
    flags_ &= ~kNoPass;
  } else if (rule[0] == '<' || rule[0] == '!') {
    std::string hash;
    if (!RuleHash(rule, '<', &hash)) return RuleError::kBadHash;
    auto it = std::find(passwords_.begin(), passwords_.end(), hash);
    if (it == passwords_.end()) return RuleError::kNoSuchPassword;
    passwords_.erase(it);
  } else if (rule[0] == '(' && rule.back() == ')') {
    Selector selector(*table_, /*root=*/false, all_channels);
    for (const std::string& inner : SplitSelectorRules(rule.substr(1, rule.size() - 2))) {
      if (auto inner_error = selector.Apply(inner)) return inner_error;
    }
    selectors_.push_back(std::move(selector));
  } else if (EqualsIgnoreCase(word, "clearselectors")) {
    selectors_.erase(selectors_.begin() + 1, selectors_.end());
  } else if (EqualsIgnoreCase(word, "reset")) {
    for (std::string_view step : {"resetpass", "resetkeys", "resetchannels"}) Apply(step, false);
    if (all_channels) Apply("allchannels", false);
    for (std::string_view step : {"off", "sanitize-payload", "clearselectors", "-@all"}) {
      Apply(step, false);
    }
  } else {
    error = selectors_[0].Apply(rule);
  }
  Refresh();
  return error;
}

bool User::CheckPassword(std::string_view password) const {
  if (disabled()) return false;
  if (nopass()) return true;
  std::string hash = HashPassword(password);
  // Compared in constant time, so that timing tells nothing about the stored hashes.
  return std::any_of(passwords_.begin(), passwords_.end(), [&](const std::string& stored) {
    return CRYPTO_memcmp(stored.data(), hash.data(), kHashLength) == 0;
  });
}

void User::CopyRulesFrom(const User& other) {
  flags_ = other.flags_;
  passwords_ = other.passwords_;
  selectors_ = other.selectors_;
  unrestricted_ = other.unrestricted_;
}

std::vector<std::string_view> User::FlagNames() const {
  static constexpr std::pair<uint32_t, std::string_view> kNames[] = {
      {kEnabled, "on"},
      {kDisabled, "off"},
      {kNoPass, "nopass"},
      {kSkipSanitizePayload, "skip-sanitize-payload"},
      {kSanitizePayload, "sanitize-payload"},
  };
  return BitNames(flags_, kNames);
}

std::string User::Describe() const {
  std::string out;
  for (std::string_view flag : FlagNames()) {
    out += flag;
    out += ' ';
  }
  for (const std::string& hash : passwords_) out += '#' + hash + ' ';
  out += selectors_[0].Describe();
  for (size_t i = 1; i < selectors_.size(); ++i) out += " (" + selectors_[i].Describe() + ")";
  return out;
}

}  // namespace redlab::server::acl
