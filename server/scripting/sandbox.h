// The environment scripts run in, as Redis 7.0 builds it: the libraries (base, table, string,
// math, cjson, bit, struct, cmsgpack), the globals Redis leaves (no dofile, loadfile, print,
// getfenv, setfenv, newproxy, debug), Redis's error handler, and read-only globals.
//
// Redis patches its Lua VM so that tables can be flagged read-only; stock Lua 5.1 cannot, so the
// read-only tables are emulated here. Each protected table (the globals, and every library table
// reachable from them) is replaced by an empty proxy whose metatable reads through to the real
// table and refuses writes with Redis's "Attempt to modify a readonly table". The builtins that
// bypass metatables (rawset, rawget, next/pairs, setmetatable, getmetatable, table.insert) are
// replaced by versions that see through proxies and refuse to write into them, and loadstring/load
// refuse precompiled chunks the way Redis's VM does (it parses them as text). What cannot be
// matched is listed in sandbox.cc.
#pragma once

struct lua_State;

namespace redlab::server::scripting {

// Loads the libraries and trims the globals (before the redis API is registered); with
// `deprecated_api` (lua-enable-deprecated-api) getfenv, setfenv and newproxy stay.
void OpenSandboxLibraries(lua_State* lua, bool deprecated_api = false);

// Defines __redis__err__handler and removes `debug` (after the redis API is registered).
void InstallErrorHandler(lua_State* lua);

// Makes the globals and every table reachable from them read-only, and installs the
// "nonexistent global variable" error. After this, writes to globals must go through
// RawGlobals().
void LockGlobals(lua_State* lua);

// Pushes the real globals table (writable; for KEYS and ARGV).
void PushRawGlobals(lua_State* lua);

// Replaces the table on top of the stack, and every table it holds, by read-only proxies whose
// missing fields are an error ("Script attempted to access nonexistent global variable"), as
// Redis protects FUNCTION LOAD's library API (luaSetErrorMetatable and
// luaSetTableProtectionRecursively).
void ProtectApiTable(lua_State* lua);

// After LockGlobals: makes the globals read through the table on top of the stack (popped)
// instead of the real globals. The functions state swaps the library API in for a load and
// the real globals back after it, as Redis swaps the __index of its globals' metatable.
void SetGlobalsSource(lua_State* lua);

}  // namespace redlab::server::scripting
