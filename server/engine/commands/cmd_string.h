// Internal to the string command family, which spans cmd_string.cc (reads and writes of whole
// values, with their expiry options) and cmd_string_ops.cc (counters, APPEND, ranges, LCS).
#pragma once

#include <string_view>

#include "server/base/text.h"
#include "server/command/command_table.h"

namespace redlab::server::engine {

// Redis matches option words on C strings (strcasecmp, or byte tests ending in '\0'), so an
// argument is read only up to its first NUL byte: "nx\0junk" is NX.
inline bool OptionIs(std::string_view arg, std::string_view word) {
  size_t nul = arg.find('\0');
  if (nul != std::string_view::npos) arg = arg.substr(0, nul);
  return EqualsIgnoreCase(arg, word);
}

}  // namespace redlab::server::engine
