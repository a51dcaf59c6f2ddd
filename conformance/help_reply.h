// The replies to the container commands' HELP subcommand (Redis's addReplyHelp): an array of
// status lines, the first naming the command.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {

// The first line of `command`'s HELP reply ("SCRIPT <subcommand> ...").
inline std::string HelpHeader(std::string_view command) {
  return std::string(command) + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:";
}

// Expects `help` to be an array of `size` lines with `lines` (index, text) among them.
inline void ExpectHelp(const Reply& help, size_t size,
                       const std::vector<std::pair<size_t, std::string>>& lines) {
  ASSERT_EQ(help.type, Reply::Type::kArray) << help;
  ASSERT_EQ(help.elements.size(), size);
  for (const auto& [index, text] : lines) {
    EXPECT_EQ(help.elements[index], Status(text)) << "line " << index;
  }
}

}  // namespace redlab::conformance
