// Redis's `cmsgpack` Lua library (lua-cmsgpack 0.4.0): MessagePack encoding of Lua values with
// cmsgpack.pack, and decoding with unpack, unpack_one and unpack_limit, written here to produce
// the same bytes, values and errors as Redis on x86-64.
#pragma once

struct lua_State;

namespace redlab::server::scripting {

// Pushes the `cmsgpack` module table (luaopen_cmsgpack).
int OpenCmsgpackLibrary(lua_State* lua);

}  // namespace redlab::server::scripting
