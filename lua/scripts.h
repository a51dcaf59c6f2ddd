// The Lua scripts of lua/, compiled into the program at build time (cmake/EmbedLua.cmake): the
// client sends them by EVALSHA and falls back to EVAL, and never reads a script file at run time.
#pragma once

#include <string_view>
#include <vector>

namespace redlab::lua {

struct ScriptSource {
  std::string_view name;  // the file name without ".lua", e.g. "lock_acquire"
  std::string_view text;  // the file's bytes, fragments in place, as EVAL sends them
  // The fragments the file includes itself (`--@include NAME` lines), in order.
  std::vector<std::string_view> fragments;
};

// Every script of lua/, sorted by name.
const std::vector<ScriptSource>& AllScripts();

// Every fragment of lua/fragments/, sorted by name: blocks that several scripts share, each
// written once and pasted into a script at build time in place of a line `--@include NAME`. A
// fragment is not a script (it defines a local function for its includer to call); its text here
// has its own includes in place, as it stands in its includers.
const std::vector<ScriptSource>& AllFragments();

// The text of the script called `name`; throws std::out_of_range when there is none.
std::string_view ScriptText(std::string_view name);

}  // namespace redlab::lua
