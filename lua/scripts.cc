#include "lua/scripts.h"

#include <stdexcept>
#include <string>

namespace redlab::lua {

std::string_view ScriptText(std::string_view name) {
  for (const ScriptSource& s : AllScripts()) {
    if (s.name == name) return s.text;
  }
  throw std::out_of_range("no Lua script named " + std::string(name) + " in lua/");
}

}  // namespace redlab::lua
