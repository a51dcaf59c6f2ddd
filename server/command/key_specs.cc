#include "server/command/key_specs.h"

#include <algorithm>
#include <optional>

#include "server/base/numbers.h"
#include "server/base/text.h"

namespace redlab::server {
namespace {

// Redis's getKeysUsingKeySpecs; nullopt where it fails (invalid_spec): an "unknown" spec, key
// positions outside the arguments, an incomplete spec.
std::optional<std::vector<FoundKey>> KeysFromSpecs(const Command& cmd,
                                                   std::span<const std::string> args) {
  std::vector<FoundKey> keys;
  int argc = static_cast<int>(args.size());
  for (const KeySpec& spec : cmd.spec->keys) {
    if (spec.flags & kKeyNotKey) continue;
    if (spec.unknown) return std::nullopt;
    // begin_search. A keyword is searched up to, not including, the last argument (searching
    // forward) or the first one after the name (backward), as Redis does.
    int first = 0;
    if (spec.begin_index > 0) {
      first = spec.begin_index;
    } else {
      bool forward = spec.keyword_startfrom > 0;
      int start = forward ? spec.keyword_startfrom : argc + spec.keyword_startfrom;
      int end = forward ? argc - 1 : 1;
      for (int i = start; i != end && i >= 1 && i < argc; i += forward ? 1 : -1) {
        if (EqualsIgnoreCase(args[static_cast<size_t>(i)], spec.begin_keyword)) {
          first = i + 1;
          break;
        }
      }
      if (first == 0) continue;  // no keyword: this spec has no keys
    }
    // find_keys
    int last = 0;
    int step = spec.key_step;
    if (spec.keynum) {
      int64_t count = 0;
      int num_index = first + spec.keynum_index;
      if (num_index >= argc || !ParseInt64(args[static_cast<size_t>(num_index)], &count) ||
          count < 0) {
        return std::nullopt;
      }
      first = first + spec.first_key;
      last = first + static_cast<int>(count) - 1;
    } else if (spec.last_key >= 0) {
      last = first + spec.last_key;
    } else if (spec.limit <= 1) {
      last = argc + spec.last_key;  // -1: the last argument
    } else {
      last = first + ((argc - first) / spec.limit + spec.last_key);
    }
    // Bounds outside the arguments are a syntax error of the command.
    if (last >= argc || last < first || first >= argc) return std::nullopt;
    for (int i = first; i <= last; i += step) keys.push_back({static_cast<size_t>(i), spec.flags});
    if (spec.flags & kKeyIncomplete) return std::nullopt;
  }
  return keys;
}

}  // namespace

std::vector<FoundKey> FindKeys(const Command& cmd, std::span<const std::string> args) {
  // Specs whose flags vary with the arguments leave the flags to the command's finder.
  bool variable_flags = std::any_of(cmd.spec->keys.begin(), cmd.spec->keys.end(),
                                    [](const KeySpec& k) { return k.flags & kKeyVariableFlags; });
  if (variable_flags && cmd.spec->get_keys != nullptr) return cmd.spec->get_keys(args);
  if (std::optional<std::vector<FoundKey>> keys = KeysFromSpecs(cmd, args)) return *keys;
  // The specs cannot tell: the command's own key finder (Redis's getkeys_proc), if it has one.
  if (cmd.spec->get_keys != nullptr) return cmd.spec->get_keys(args);
  return {};
}

}  // namespace redlab::server
