#include "server/scripting/redis_api.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "server/scripting/conversions.h"
#include "server/scripting/lua_util.h"
#include "server/scripting/sha1hex.h"

namespace redlab::server::scripting {
namespace {

char kRunStateKey;  // its address keys the run state in the Lua registry

// Redis 7.0.15 reports itself to scripts as this version.
constexpr const char* kRedisVersion = "7.0.15";
constexpr lua_Number kRedisVersionNum = 0x0007000f;

// luaPushError + luaError: raises Redis's error table.
[[noreturn]] void RaiseErrorTable(lua_State* lua, std::string_view error) {
  PushErrorTable(lua, error);
  lua_error(lua);
  __builtin_unreachable();
}

RunState* RequireRunState(lua_State* lua, const char* function) {
  RunState* state = GetRunState(lua);
  if (state == nullptr) {
    RaiseErrorTable(lua, std::string(function) + " can only be called inside a script invocation");
  }
  return state;
}

// %.17g of a number Lua passes to redis.call. An integral value below 1e17 prints as its
// digits, so it takes the integer path (most numbers scripts pass are counts); -0 and the rest
// go through printf.
std::string_view FormatNumber(lua_Number value, char (&buf)[64]) {
  double d = static_cast<double>(value);
  if (d > -1e17 && d < 1e17 && d == std::trunc(d) && !(d == 0 && std::signbit(d))) {
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), static_cast<int64_t>(d));
    return std::string_view(buf, static_cast<size_t>(end - buf));
  }
  int n = std::snprintf(buf, sizeof(buf), "%.17g", d);
  return std::string_view(buf, static_cast<size_t>(n));
}

// luaArgsToRedisArgv: the call's arguments as strings, into *args (whose strings keep their
// capacity from call to call). Numbers are formatted with %.17g (Lua's own conversion would
// lose precision). On failure pushes Redis's error table and returns false.
bool ArgsToStrings(lua_State* lua, std::vector<std::string>* args) {
  int argc = lua_gettop(lua);
  if (argc == 0) {
    PushErrorTable(lua, "Please specify at least one argument for this redis lib call");
    return false;
  }
  args->resize(static_cast<size_t>(argc));
  bool ok = true;
  for (int j = 1; j <= argc; ++j) {
    std::string& arg = (*args)[static_cast<size_t>(j - 1)];
    arg.clear();  // clear + append: cheaper than assign, which allows for aliasing
    int type = lua_type(lua, j);
    if (type == LUA_TSTRING) {
      size_t len = 0;
      const char* s = lua_tolstring(lua, j, &len);
      arg.append(s, len);
    } else if (type == LUA_TNUMBER) {
      char buf[64];
      arg.append(FormatNumber(lua_tonumber(lua, j), buf));
    } else {
      ok = false;
      break;
    }
  }
  lua_pop(lua, argc);
  if (!ok) PushErrorTable(lua, "Lua redis lib command arguments must be strings or integers");
  return ok;
}

// redis.call (raise_error) and redis.pcall; their upvalue is the run slot.
int GenericCall(lua_State* lua, bool raise_error) {
  RunState* state = *static_cast<RunState**>(lua_touserdata(lua, lua_upvalueindex(1)));
  if (state == nullptr) {
    RaiseErrorTable(lua, "redis.call/pcall can only be called inside a script invocation");
  }
  CallBuffers& buffers = *state->buffers;
  if (!ArgsToStrings(lua, &buffers.args)) {
    if (raise_error) lua_error(lua);
    return 1;
  }
  std::string& reply = buffers.reply;
  std::string& error = buffers.error;
  reply.clear();
  error.clear();
  if (!state->host->Call(buffers.args, state->resp, &reply, &error)) {
    PushErrorTable(lua, error);
    // The refusal was already counted in the error statistics.
    lua_pushstring(lua, "ignore_error_stats_update");
    lua_pushboolean(lua, 1);
    lua_settable(lua, -3);
    if (raise_error) lua_error(lua);
    return 1;
  }
  if (raise_error && (reply.empty() || reply[0] != '-')) raise_error = false;
  PushReply(lua, reply);
  if (raise_error) lua_error(lua);
  return 1;
}

int RedisCall(lua_State* lua) { return GenericCall(lua, true); }
int RedisPcall(lua_State* lua) { return GenericCall(lua, false); }

// Redis's replacement of the global pcall: an error table raised inside (by redis.call, or
// error({err=...})) comes back as its message string, as in Redis before 7.0.
int Pcall(lua_State* lua) {
  int argc = lua_gettop(lua);
  if (argc == 0) {
    // Redis calls lua_pcall with -1 arguments here, which calls the `true` it just pushed.
    lua_pushboolean(lua, 0);
    lua_pushstring(lua, "attempt to call a boolean value");
    return 2;
  }
  lua_pushboolean(lua, 1);  // the result placeholder
  lua_insert(lua, 1);
  if (lua_pcall(lua, argc - 1, LUA_MULTRET, 0) != 0) {
    lua_remove(lua, 1);
    if (lua_istable(lua, -1)) {
      lua_getfield(lua, -1, "err");
      // Without a string `err` the looked-up value stays on the stack, as in Redis.
      if (lua_isstring(lua, -1)) lua_replace(lua, -2);
    }
    lua_pushboolean(lua, 0);
    lua_insert(lua, 1);
  }
  return lua_gettop(lua);
}

int Sha1hexCommand(lua_State* lua) {
  if (lua_gettop(lua) != 1) RaiseErrorTable(lua, "wrong number of arguments");
  size_t len = 0;
  const char* s = lua_tolstring(lua, 1, &len);
  std::string digest = Sha1Hex(s == nullptr ? std::string_view() : std::string_view(s, len));
  PushString(lua, digest);
  return 1;
}

// redis.error_reply / redis.status_reply: a bad argument is not raised, the error table is
// returned instead.
bool CheckSingleString(lua_State* lua) {
  if (lua_gettop(lua) != 1 || lua_type(lua, -1) != LUA_TSTRING) {
    PushErrorTable(lua, "wrong number or type of arguments");
    return false;
  }
  return true;
}

int ErrorReplyCommand(lua_State* lua) {
  if (!CheckSingleString(lua)) return 1;
  std::string text = lua_tostring(lua, -1);  // as a C string: ends at a NUL byte
  if (text.empty() || text[0] != '-') text = "-" + text;
  PushErrorTable(lua, text);
  return 1;
}

int StatusReplyCommand(lua_State* lua) {
  if (!CheckSingleString(lua)) return 1;
  lua_newtable(lua);
  lua_pushstring(lua, "ok");
  lua_pushvalue(lua, -3);
  lua_settable(lua, -3);
  return 1;
}

int SetReplCommand(lua_State* lua) {
  RunState* state = RequireRunState(lua, "redis.set_repl");
  if (lua_gettop(lua) != 1) RaiseErrorTable(lua, "redis.set_repl() requires two arguments.");
  int flags = LuaNumberToInt(lua_tonumber(lua, -1));
  if ((flags & ~kReplAll) != 0) {
    RaiseErrorTable(
        lua, "Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
  }
  state->host->SetRepl(flags);
  return 0;
}

int AclCheckCmdCommand(lua_State* lua) {
  RunState* state = RequireRunState(lua, "redis.acl_check_cmd");
  std::vector<std::string> args;
  if (!ArgsToStrings(lua, &args)) lua_error(lua);
  std::optional<bool> allowed = state->host->AclCheckCommand(args);
  if (!allowed) RaiseErrorTable(lua, "Invalid command passed to redis.acl_check_cmd()");
  lua_pushboolean(lua, *allowed ? 1 : 0);
  return 1;
}

int LogCommand(lua_State* lua) {
  int argc = lua_gettop(lua);
  if (argc < 2) RaiseErrorTable(lua, "redis.log() requires two arguments or more.");
  if (!lua_isnumber(lua, -argc))
    RaiseErrorTable(lua, "First argument must be a number (log level).");
  int level = LuaNumberToInt(lua_tonumber(lua, -argc));
  if (level < kLogDebug || level > kLogWarning) RaiseErrorTable(lua, "Invalid debug level.");
  std::string text;
  for (int j = 1; j < argc; ++j) {
    size_t len = 0;
    const char* s = lua_tolstring(lua, -argc + j, &len);
    if (s == nullptr) continue;
    if (j != 1) text.push_back(' ');
    text.append(s, len);
  }
  // Logging outside a run is harmless; there is no host to log to then.
  if (RunState* state = GetRunState(lua)) state->host->Log(level, text);
  return 0;
}

int SetRespCommand(lua_State* lua) {
  RunState* state = RequireRunState(lua, "redis.setresp");
  int argc = lua_gettop(lua);
  if (argc != 1) RaiseErrorTable(lua, "redis.setresp() requires one argument.");
  int resp = LuaNumberToInt(lua_tonumber(lua, -argc));
  if (resp != 2 && resp != 3) RaiseErrorTable(lua, "RESP version must be 2 or 3.");
  state->resp = resp;
  return 0;
}

// Outside the debugger (SCRIPT DEBUG), breakpoint() returns false and debug() does nothing.
int BreakpointCommand(lua_State* lua) {
  lua_pushboolean(lua, 0);
  return 1;
}
int DebugCommand(lua_State* lua) { return 0; }
// Deprecated since Redis 7.0 (scripts always replicate their effects): always true.
int ReplicateCommandsCommand(lua_State* lua) {
  lua_pushboolean(lua, 1);
  return 1;
}

// math.random as Lua 5.1's own, with Redis's rand48 in place of the C library's rand().
int MathRandom(lua_State* lua) {
  RunState* state = GetRunState(lua);
  if (state == nullptr)
    return luaL_error(lua, "math.random can only be called inside a script invocation");
  // The `%' avoids the (rare) case of r==1.
  lua_Number r = static_cast<lua_Number>(state->rand->Next() % Rand48::kMax) /
                 static_cast<lua_Number>(Rand48::kMax);
  switch (lua_gettop(lua)) {
    case 0:
      lua_pushnumber(lua, r);
      break;
    case 1: {
      int u = luaL_checkint(lua, 1);
      luaL_argcheck(lua, 1 <= u, 1, "interval is empty");
      lua_pushnumber(lua, std::floor(r * u) + 1);
      break;
    }
    case 2: {
      int l = luaL_checkint(lua, 1);
      int u = luaL_checkint(lua, 2);
      luaL_argcheck(lua, l <= u, 2, "interval is empty");
      lua_pushnumber(lua, std::floor(r * (u - l + 1)) + l);
      break;
    }
    default:
      return luaL_error(lua, "wrong number of arguments");
  }
  return 1;
}

int MathRandomseed(lua_State* lua) {
  RunState* state = GetRunState(lua);
  if (state == nullptr)
    return luaL_error(lua, "math.randomseed can only be called inside a script invocation");
  state->rand->Seed(luaL_checkint(lua, 1));
  return 0;
}

}  // namespace

void BindRunSlot(lua_State* lua, RunState** slot) {
  lua_pushlightuserdata(lua, &kRunStateKey);
  lua_pushlightuserdata(lua, slot);
  lua_rawset(lua, LUA_REGISTRYINDEX);
}

RunState* GetRunState(lua_State* lua) {
  lua_pushlightuserdata(lua, &kRunStateKey);
  lua_rawget(lua, LUA_REGISTRYINDEX);
  auto* slot = static_cast<RunState**>(lua_touserdata(lua, -1));
  lua_pop(lua, 1);
  return slot == nullptr ? nullptr : *slot;
}

void RegisterLogAndVersion(lua_State* lua) {
  SetFunctions(lua, {{"log", LogCommand}});
  SetNumbers(lua, {{"LOG_DEBUG", kLogDebug},
                   {"LOG_VERBOSE", kLogVerbose},
                   {"LOG_NOTICE", kLogNotice},
                   {"LOG_WARNING", kLogWarning},
                   {"REDIS_VERSION_NUM", kRedisVersionNum}});
  lua_pushstring(lua, "REDIS_VERSION");
  lua_pushstring(lua, kRedisVersion);
  lua_settable(lua, -3);
}

void RegisterRedisApi(lua_State* lua, RunState** slot) {
  lua_pushcfunction(lua, Pcall);
  lua_setglobal(lua, "pcall");

  lua_newtable(lua);
  struct {
    const char* name;
    lua_CFunction function;
  } const calls[] = {{"call", RedisCall}, {"pcall", RedisPcall}};
  for (const auto& call : calls) {
    lua_pushstring(lua, call.name);
    lua_pushlightuserdata(lua, slot);
    lua_pushcclosure(lua, call.function, 1);
    lua_settable(lua, -3);
  }
  RegisterLogAndVersion(lua);
  SetFunctions(lua, {{"setresp", SetRespCommand},
                     {"sha1hex", Sha1hexCommand},
                     {"error_reply", ErrorReplyCommand},
                     {"status_reply", StatusReplyCommand},
                     {"set_repl", SetReplCommand}});
  SetNumbers(lua, {{"REPL_NONE", kReplNone},
                   {"REPL_AOF", kReplAof},
                   {"REPL_SLAVE", kReplReplica},
                   {"REPL_REPLICA", kReplReplica},
                   {"REPL_ALL", kReplAll}});
  SetFunctions(lua, {{"acl_check_cmd", AclCheckCmdCommand},
                     {"breakpoint", BreakpointCommand},
                     {"debug", DebugCommand},
                     {"replicate_commands", ReplicateCommandsCommand}});
  lua_setglobal(lua, "redis");

  lua_getglobal(lua, "math");
  SetFunctions(lua, {{"random", MathRandom}, {"randomseed", MathRandomseed}});
  lua_pop(lua, 1);
}

}  // namespace redlab::server::scripting
