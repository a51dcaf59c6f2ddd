// Finding a command's keys in its arguments from its key specs (COMMAND GETKEYS, and later
// script and replication checks), as Redis's getKeysUsingKeySpecs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "server/engine/command_table.h"

namespace redlab::server::engine {

using FoundKey = KeyRef;

std::vector<FoundKey> FindKeys(const Command& cmd, std::span<const std::string> args);

}  // namespace redlab::server::engine
