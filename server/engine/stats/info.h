// INFO: the sections and field names of Redis 7.0's INFO reply, filled from a node's state.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace redlab::server::engine {

class Engine;

// The INFO text for the requested sections (none: the default set; also "all", "everything"
// and "default"), each "# Name" followed by "field:value" lines, as genRedisInfoString.
std::string GenerateInfo(Engine& engine, const std::vector<std::string_view>& sections);

}  // namespace redlab::server::engine
