// Finding a command's keys in its arguments (COMMAND GETKEYS, the ACL key checks), as Redis's
// getKeysFromCommandWithSpecs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "server/command/command_table.h"

namespace redlab::server {

// A command's keys and their flags, as Redis's getKeysFromCommandWithSpecs finds them: by its key
// specs, or by its own key finder (get_keys) where the specs cannot tell the keys or their flags.
// None when the arguments do not fit (a syntax error of the command).
std::vector<FoundKey> FindKeys(const Command& cmd, std::span<const std::string> args);

}  // namespace redlab::server
