// The Lua scripts of lua/, compiled into the program at build time (cmake/EmbedLua.cmake): the
// client sends them by EVALSHA and falls back to EVAL, and never reads a script file at run time.
#pragma once

#include <string_view>
#include <vector>

namespace redlab::lua {

struct ScriptSource {
  std::string_view name;  // the file name without ".lua", e.g. "lock_acquire"
  std::string_view text;  // the file's bytes, as EVAL sends them
};

// Every script of lua/, sorted by name.
const std::vector<ScriptSource>& AllScripts();

// The text of the script called `name`; throws std::out_of_range when there is none.
std::string_view ScriptText(std::string_view name);

}  // namespace redlab::lua
