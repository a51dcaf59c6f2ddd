// Finding a command's keys in its arguments from its key specs (COMMAND GETKEYS, and later
// script and replication checks), as Redis's getKeysUsingKeySpecs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "server/engine/command_table.h"

namespace redlab::server::engine {

// The keys the key specs find (Redis's getKeysUsingKeySpecs); none when the arguments do not
// fit the specs (a syntax error of the command) or a spec is incomplete.
std::vector<FoundKey> FindKeys(const Command& cmd, std::span<const std::string> args);
// The keys as Redis's getKeysFromCommandWithSpecs finds them: by the command's keys_proc when it
// has one (its key flags vary with the arguments), else by its key specs.
std::vector<FoundKey> FindKeysWithFlags(const Command& cmd, std::span<const std::string> args);

}  // namespace redlab::server::engine
