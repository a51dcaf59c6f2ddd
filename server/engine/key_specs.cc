#include "server/engine/key_specs.h"

#include "server/engine/numbers.h"
#include "server/engine/text.h"

namespace redlab::server::engine {

std::vector<FoundKey> FindKeys(const Command& cmd, std::span<const std::string> args) {
  if (cmd.spec->get_keys != nullptr) return cmd.spec->get_keys(args);
  std::vector<FoundKey> keys;
  int argc = static_cast<int>(args.size());
  for (const KeySpec& spec : cmd.spec->keys) {
    if ((spec.flags & kKeyNotKey) || spec.unknown) continue;
    // begin_search
    int first = 0;
    if (spec.begin_index > 0) {
      first = spec.begin_index;
    } else {
      int start =
          spec.keyword_startfrom > 0 ? spec.keyword_startfrom : argc + spec.keyword_startfrom;
      int step = spec.keyword_startfrom > 0 ? 1 : -1;
      for (int i = start; i > 0 && i < argc; i += step) {
        if (EqualsIgnoreCase(args[static_cast<size_t>(i)], spec.begin_keyword)) {
          first = i + 1;
          break;
        }
      }
      if (first == 0) continue;
    }
    if (first >= argc) continue;
    // find_keys
    int last = 0;
    int step = spec.key_step;
    if (spec.keynum) {
      int64_t count = 0;
      int num_index = first + spec.keynum_index;
      if (num_index >= argc || !ParseInt64(args[static_cast<size_t>(num_index)], &count) ||
          count < 0) {
        continue;
      }
      first = first + spec.first_key;
      last = first + static_cast<int>(count - 1) * step;
    } else if (spec.last_key >= 0) {
      last = first + spec.last_key;
    } else if (spec.limit <= 1) {
      last = argc + spec.last_key;  // -1: the last argument
    } else {
      last = first + ((argc - first) / spec.limit + spec.last_key);
    }
    for (int i = first; i <= last && i < argc; i += step) {
      keys.push_back({static_cast<size_t>(i), spec.flags});
    }
  }
  return keys;
}

}  // namespace redlab::server::engine
