// Redis's glob-style pattern matching (stringmatchlen): * ? [abc] [^a] [a-z] and \ escapes.
// Used by KEYS, SCAN MATCH, CONFIG GET, PSUBSCRIBE.
#pragma once

#include <string_view>

namespace redlab::server {

bool GlobMatch(std::string_view pattern, std::string_view text, bool nocase = false);

}  // namespace redlab::server
