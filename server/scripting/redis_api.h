// The redis.* table scripts call (call, pcall, log, setresp, set_repl, sha1hex, error_reply...),
// Redis's pcall and math.random replacements, and the per-run state they work with.
#pragma once

#include "server/scripting/interpreter.h"
#include "server/scripting/rand48.h"

struct lua_State;

namespace redlab::server::scripting {

// What the redis.* functions need while a script runs; nullptr between runs.
struct RunState {
  ScriptHost* host = nullptr;
  Rand48* rand = nullptr;
  int resp = 2;  // the protocol of redis.call replies (redis.setresp); a run starts with RESP2
  CallBuffers* buffers = nullptr;
};

// The run state lives in a slot its interpreter owns for the life of the Lua state: a run sets
// the slot (a plain assignment), and the redis.* functions read it. BindRunSlot registers the
// slot once; redis.call and redis.pcall also carry it as an upvalue, the cheapest way to it.
void BindRunSlot(lua_State* lua, RunState** slot);
RunState* GetRunState(lua_State* lua);

// Sets the global `redis` table, replaces `pcall` and math.random/math.randomseed, as Redis's
// luaRegisterRedisAPI and scriptingInit do. Called while the globals are still writable, after
// BindRunSlot(lua, slot).
void RegisterRedisApi(lua_State* lua, RunState** slot);

// Sets redis.log, the LOG_* levels and REDIS_VERSION(_NUM) in the table on top of the stack
// (also part of FUNCTION LOAD's library API).
void RegisterLogAndVersion(lua_State* lua);

}  // namespace redlab::server::scripting
