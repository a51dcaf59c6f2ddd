// The Lua 5.1 C API as the scripting library uses it, plus small helpers. redlab links Debian's
// C++ build of Lua 5.1 (liblua5.1-c++): a Lua error unwinds as a C++ exception, so C++ objects
// living in the frames it crosses are destroyed properly (with the C build, lua_error's longjmp
// would skip their destructors).
#pragma once

#include <initializer_list>
#include <lua.hpp>
#include <string>
#include <string_view>

namespace redlab::server::scripting {

inline void PushString(lua_State* lua, std::string_view s) {
  lua_pushlstring(lua, s.data(), s.size());
}

// The string at `index` (which must be a string or a number; numbers are converted in place).
inline std::string_view ToStringView(lua_State* lua, int index) {
  size_t len = 0;
  const char* s = lua_tolstring(lua, index, &len);
  return s == nullptr ? std::string_view() : std::string_view(s, len);
}

// Sets each function as a field of the table on top of the stack, in the order given (as
// luaL_register does into an open table).
inline void SetFunctions(lua_State* lua, std::initializer_list<luaL_Reg> functions) {
  for (const luaL_Reg& f : functions) {
    lua_pushcfunction(lua, f.func);
    lua_setfield(lua, -2, f.name);
  }
}

// A named number to set in a table.
struct LuaConstant {
  const char* name;
  lua_Number value;
};

// Sets each number as a field of the table on top of the stack, in the order given.
inline void SetNumbers(lua_State* lua, std::initializer_list<LuaConstant> numbers) {
  for (const LuaConstant& n : numbers) {
    lua_pushnumber(lua, n.value);
    lua_setfield(lua, -2, n.name);
  }
}

// Raises `message` as a Lua error without position information, as an error raised by the VM
// inside a C function does (luaG_runerror with a C function running).
[[noreturn]] inline void RaisePlainError(lua_State* lua, std::string_view message) {
  PushString(lua, message);
  lua_error(lua);
  __builtin_unreachable();
}

}  // namespace redlab::server::scripting
