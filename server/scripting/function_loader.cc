// The functions state's load phase (Redis's function_lua.c): the library API that FUNCTION LOAD's
// code sees as its only globals (redis.register_function, redis.log and the version fields),
// redis.register_function with its positional and named forms, and the timeout of a load.
#include <strings.h>

#include <string>

#include "server/base/monotonic.h"
#include "server/scripting/conversions.h"
#include "server/scripting/interpreter.h"
#include "server/scripting/lua_util.h"
#include "server/scripting/redis_api.h"
#include "server/scripting/sandbox.h"
#include "server/scripting/script_cache.h"

namespace redlab::server::scripting {
namespace {

// Registry keys, named as Redis names them.
constexpr const char* kLibraryApi = "__LIBRARY_API__";
char kLoadStateKey;  // its address keys the load in progress

// What redis.register_function needs while a library loads; absent otherwise.
struct LoadState {
  const Interpreter::Registrar* registrar;
  int64_t start_ms;
  int64_t timeout_ms;  // 0: none
};

void SetLoadState(lua_State* lua, LoadState* state) {
  lua_pushlightuserdata(lua, &kLoadStateKey);
  if (state != nullptr) {
    lua_pushlightuserdata(lua, state);
  } else {
    lua_pushnil(lua);
  }
  lua_rawset(lua, LUA_REGISTRYINDEX);
}

LoadState* GetLoadState(lua_State* lua) {
  lua_pushlightuserdata(lua, &kLoadStateKey);
  lua_rawget(lua, LUA_REGISTRYINDEX);
  auto* state = static_cast<LoadState*>(lua_touserdata(lua, -1));
  lua_pop(lua, 1);
  return state;
}

[[noreturn]] void RaiseErrorTable(lua_State* lua, std::string_view error) {
  PushErrorTable(lua, error);
  lua_error(lua);
  __builtin_unreachable();
}

// Stops a load running past its timeout (luaEngineLoadHook). From then on the hook runs at every
// line, so the error cannot be outlived.
void LoadHook(lua_State* lua, lua_Debug* ar) {
  LoadState* state = GetLoadState(lua);
  if (state == nullptr || state->timeout_ms <= 0) return;
  if (MonotonicMs() - state->start_ms <= state->timeout_ms) return;
  lua_sethook(lua, LoadHook, LUA_MASKLINE, 0);
  RaiseErrorTable(lua, "FUNCTION LOAD timeout");
}

// The flags table on top of the stack (luaRegisterFunctionReadFlags): its array part, each a
// flag name in any case.
bool ReadFlags(lua_State* lua, uint64_t* flags) {
  uint64_t result = 0;
  for (int j = 1;; ++j) {
    lua_pushnumber(lua, j);
    lua_gettable(lua, -2);
    if (lua_isnil(lua, -1)) {
      lua_pop(lua, 1);
      break;
    }
    if (!lua_isstring(lua, -1)) {
      lua_pop(lua, 1);
      return false;
    }
    const char* name = lua_tostring(lua, -1);
    bool found = false;
    for (const ScriptFlagName& f : kScriptFlagNames) {
      if (strcasecmp(std::string(f.name).c_str(), name) == 0) {
        result |= f.flag;
        found = true;
        break;
      }
    }
    lua_pop(lua, 1);
    if (!found) return false;
  }
  *flags = result;
  return true;
}

// Reads the arguments of redis.register_function; on failure releases what it took and returns
// the error.
const char* ReadNamedArgs(lua_State* lua, Interpreter::RegisteredFunction* f) {
  if (!lua_istable(lua, 1)) {
    return "calling redis.register_function with a single argument is only applicable to Lua "
           "table (representing named arguments).";
  }
  bool has_name = false;
  bool has_callback = false;
  const char* error = nullptr;
  lua_pushnil(lua);
  while (lua_next(lua, -2)) {
    if (!lua_isstring(lua, -2)) {
      error = "named argument key given to redis.register_function is not a string";
      break;
    }
    const char* key = lua_tostring(lua, -2);
    if (strcasecmp(key, "function_name") == 0) {
      if (!lua_isstring(lua, -1)) {
        error = "function_name argument given to redis.register_function must be a string";
        break;
      }
      f->name = ToStringView(lua, -1);
      has_name = true;
    } else if (strcasecmp(key, "description") == 0) {
      if (!lua_isstring(lua, -1)) {
        error = "description argument given to redis.register_function must be a string";
        break;
      }
      f->description = std::string(ToStringView(lua, -1));
    } else if (strcasecmp(key, "callback") == 0) {
      if (!lua_isfunction(lua, -1)) {
        error = "callback argument given to redis.register_function must be a function";
        break;
      }
      f->ref = luaL_ref(lua, LUA_REGISTRYINDEX);  // pops the value
      has_callback = true;
      continue;
    } else if (strcasecmp(key, "flags") == 0) {
      if (!lua_istable(lua, -1)) {
        error =
            "flags argument to redis.register_function must be a table representing function "
            "flags";
        break;
      }
      if (!ReadFlags(lua, &f->flags)) {
        error = "unknown flag given";
        break;
      }
    } else {
      error = "unknown argument given to redis.register_function";
      break;
    }
    lua_pop(lua, 1);
  }
  if (error == nullptr && !has_name)
    error = "redis.register_function must get a function name argument";
  if (error == nullptr && !has_callback)
    error = "redis.register_function must get a callback argument";
  if (error != nullptr && has_callback) luaL_unref(lua, LUA_REGISTRYINDEX, f->ref);
  return error;
}

const char* ReadPositionalArgs(lua_State* lua, Interpreter::RegisteredFunction* f) {
  if (!lua_isstring(lua, 1)) return "first argument to redis.register_function must be a string";
  if (!lua_isfunction(lua, 2))
    return "second argument to redis.register_function must be a function";
  f->name = ToStringView(lua, 1);
  f->ref = luaL_ref(lua, LUA_REGISTRYINDEX);  // pops the function
  return nullptr;
}

int RegisterFunction(lua_State* lua) {
  LoadState* state = GetLoadState(lua);
  if (state == nullptr) {
    RaiseErrorTable(lua, "redis.register_function can only be called on FUNCTION LOAD command");
  }
  int argc = lua_gettop(lua);
  if (argc < 1 || argc > 2)
    RaiseErrorTable(lua, "wrong number of arguments to redis.register_function");
  Interpreter::RegisteredFunction f;
  const char* error = argc == 1 ? ReadNamedArgs(lua, &f) : ReadPositionalArgs(lua, &f);
  if (error != nullptr) RaiseErrorTable(lua, error);
  int ref = f.ref;
  std::optional<std::string> refused = (*state->registrar)(std::move(f));
  if (refused) {
    luaL_unref(lua, LUA_REGISTRYINDEX, ref);
    RaiseErrorTable(lua, *refused);
  }
  return 0;
}

// luaExtractErrorInformation's message: a string error gets the ERR code, an error table gives
// its `err`.
std::string LoadErrorMessage(lua_State* lua) {
  std::string message = "(null)";  // what Redis's %s prints for an error without a message
  if (lua_isstring(lua, -1)) {
    message = "ERR " + std::string(ToStringView(lua, -1));
  } else if (lua_istable(lua, -1)) {
    lua_getfield(lua, -1, "err");
    if (lua_isstring(lua, -1)) message = ToStringView(lua, -1);
    lua_pop(lua, 1);
  }
  return message;
}

}  // namespace

void Interpreter::OpenLibraryApi() {
  lua_newtable(lua_);  // the globals of a load
  lua_pushstring(lua_, "redis");
  lua_newtable(lua_);
  lua_pushstring(lua_, "register_function");
  lua_pushcfunction(lua_, RegisterFunction);
  lua_rawset(lua_, -3);
  RegisterLogAndVersion(lua_);
  lua_rawset(lua_, -3);
  ProtectApiTable(lua_);
  lua_setfield(lua_, LUA_REGISTRYINDEX, kLibraryApi);
}

bool Interpreter::LoadLibrary(std::string_view code, int64_t timeout_ms, const Registrar& registrar,
                              std::string* error) {
  lua_State* lua = lua_;
  int base = lua_gettop(lua);
  lua_getfield(lua, LUA_REGISTRYINDEX, kLibraryApi);
  SetGlobalsSource(lua);
  bool ok = false;
  if (luaL_loadbuffer(lua, code.data(), code.size(), "@user_function") != 0) {
    *error = "Error compiling function: " + std::string(ToStringView(lua, -1));
  } else {
    LoadState state{&registrar, MonotonicMs(), timeout_ms};
    SetLoadState(lua, &state);
    lua_sethook(lua, LoadHook, LUA_MASKCOUNT, kHookInstructions);
    if (lua_pcall(lua, 0, 0, 0) != 0) {
      *error = "Error registering functions: " + LoadErrorMessage(lua);
    } else {
      ok = true;
    }
    lua_sethook(lua, nullptr, 0, 0);
    SetLoadState(lua, nullptr);
  }
  PushRawGlobals(lua);
  SetGlobalsSource(lua);
  lua_settop(lua, base);
  return ok;
}

void Interpreter::Release(int ref) { luaL_unref(lua_, LUA_REGISTRYINDEX, ref); }

}  // namespace redlab::server::scripting
