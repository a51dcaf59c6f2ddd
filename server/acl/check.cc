#include "server/acl/check.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "server/command/key_specs.h"

namespace redlab::server::acl {
namespace {

using server::Command;
using server::FoundKey;

// doesCommandHaveKeys: a keys procedure, or a key spec that names real keys.
bool HasKeys(const Command& cmd) {
  if (cmd.spec->get_keys != nullptr) return true;
  return std::any_of(cmd.spec->keys.begin(), cmd.spec->keys.end(),
                     [](const server::KeySpec& k) { return !(k.flags & server::kKeyNotKey); });
}

// ACLSelectorCheckCmd. The keys are found once for all the selectors of a user.
CheckResult CheckSelector(const Selector& selector, const Command& cmd,
                          std::span<const std::string> args,
                          std::optional<std::vector<FoundKey>>* keys) {
  if (!selector.AllowsCommand(cmd, args)) return {Verdict::kCommand, 0};
  if (!selector.all_keys() && HasKeys(cmd)) {
    if (!keys->has_value()) *keys = server::FindKeys(cmd, args);
    for (const FoundKey& key : **keys) {
      if (!selector.AllowsKey(args[key.index], key.flags)) return {Verdict::kKey, key.index};
    }
  }
  if (!selector.all_channels()) {
    ChannelArgs channels = CheckedChannels(cmd);
    if (channels.first != 0) {
      size_t end = channels.count == 0 ? args.size()
                                       : std::min(args.size(), channels.first + channels.count);
      for (size_t i = channels.first; i < end; ++i) {
        if (!ChannelListAllows(selector.channels(), args[i], channels.patterns)) {
          return {Verdict::kChannel, i};
        }
      }
    }
  }
  return {};
}

}  // namespace

ChannelArgs CheckedChannels(const Command& cmd) {
  if (cmd.parent != nullptr) return {};
  std::string_view name = cmd.name();
  if (name == "publish" || name == "spublish") return {1, 1, false};
  if (name == "subscribe" || name == "ssubscribe") return {1, 0, false};
  if (name == "psubscribe") return {1, 0, true};
  return {};
}

CheckResult CheckCommand(const User& user, const Command& cmd, std::span<const std::string> args) {
  CheckResult relevant{Verdict::kCommand, 0};
  std::optional<std::vector<FoundKey>> keys;
  for (const Selector& selector : user.selectors()) {
    CheckResult result = CheckSelector(selector, cmd, args, &keys);
    if (result.allowed()) return result;
    if (result.verdict > relevant.verdict ||
        (result.verdict == relevant.verdict && result.arg_index > relevant.arg_index)) {
      relevant = result;
    }
  }
  return relevant;
}

bool HasUnrestrictedKeyAccess(const User& user, const Command& cmd,
                              std::span<const std::string> args) {
  std::optional<std::vector<FoundKey>> keys;
  for (const Selector& selector : user.selectors()) {
    if (!CheckSelector(selector, cmd, args, &keys).allowed()) continue;
    if (selector.all_keys()) return true;
    for (const KeyPattern& pattern : selector.keys()) {
      if ((pattern.permissions & kKeyRead) && pattern.pattern == "*") return true;
    }
  }
  return false;
}

}  // namespace redlab::server::acl
