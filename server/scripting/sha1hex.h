// The lower-case hex SHA1 of a string: script names (EVAL's sha) and redis.sha1hex.
#pragma once

#include <string>
#include <string_view>

namespace redlab::server::scripting {

std::string Sha1Hex(std::string_view data);

}  // namespace redlab::server::scripting
