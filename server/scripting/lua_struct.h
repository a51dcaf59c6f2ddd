// Redis's `struct` Lua library (Roberto Ierusalimschy's struct 1.4 as Redis ships it, with its
// overflow fixes): struct.pack, struct.unpack and struct.size, written here to produce the same
// bytes and errors as Redis on x86-64.
#pragma once

struct lua_State;

namespace redlab::server::scripting {

// Pushes the `struct` module table (luaopen_struct).
int OpenStructLibrary(lua_State* lua);

}  // namespace redlab::server::scripting
