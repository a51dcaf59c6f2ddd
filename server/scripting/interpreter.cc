#include "server/scripting/interpreter.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "server/scripting/conversions.h"
#include "server/scripting/lua_util.h"
#include "server/scripting/redis_api.h"
#include "server/scripting/sandbox.h"

namespace redlab::server::scripting {
namespace {

// Redis steps the Lua garbage collector every this many runs, by this many steps.
constexpr int kGcCyclePeriod = 50;

// Where the functions state keeps Redis's error handler (REGISTRY_ERROR_HANDLER_NAME).
constexpr const char* kFunctionErrorHandler = "__ERROR_HANDLER__";

// The count hook of busy-script detection (luaMaskCountHook).
void CountHook(lua_State* lua, lua_Debug* ar) {
  RunState* state = GetRunState(lua);
  if (state == nullptr || !state->host->Interrupt()) return;
  // From now on the hook runs at every line, so a pcall cannot swallow the kill for good.
  lua_sethook(lua, CountHook, LUA_MASKLINE, 0);
  PushErrorTable(lua, "Script killed by user with SCRIPT KILL...");
  lua_error(lua);
}

// Pushes the array of `values`.
void PushArray(lua_State* lua, std::span<const std::string> values) {
  lua_createtable(lua, static_cast<int>(values.size()), 0);
  for (size_t j = 0; j < values.size(); ++j) {
    PushString(lua, values[j]);
    lua_rawseti(lua, -2, static_cast<int>(j + 1));
  }
}

// Sets t[name] = the array of `values`, in the table on top of the stack; `name_ref` is the
// registry reference of the name string.
void SetArray(lua_State* lua, int name_ref, std::span<const std::string> values) {
  lua_rawgeti(lua, LUA_REGISTRYINDEX, name_ref);
  PushArray(lua, values);
  lua_rawset(lua, -3);
}

// A registry reference to the string `s`.
int RefString(lua_State* lua, const char* s) {
  lua_pushstring(lua, s);
  return luaL_ref(lua, LUA_REGISTRYINDEX);
}

// The error reply of a failed run (the error value is on top of the stack).
void WriteRunError(lua_State* lua, std::string_view sha, resp::ReplyWriter& reply) {
  if (!lua_istable(lua, -1)) {
    // The handler itself failed ("error in error handling"), or did not run.
    std::string message =
        lua_isstring(lua, -1) ? std::string(ToStringView(lua, -1)) : "execution failure";
    if (message.size() > 100) message.resize(100);
    WriteFormattedError(reply, "Error running script " + std::string(sha) + ", " + message, true);
    return;
  }
  lua_getfield(lua, -1, "err");
  bool has_message = lua_isstring(lua, -1);
  std::string message = has_message ? std::string(ToStringView(lua, -1)) : std::string();
  lua_pop(lua, 1);
  lua_getfield(lua, -1, "source");
  bool has_source = lua_isstring(lua, -1);
  std::string source = has_source ? std::string(ToStringView(lua, -1)) : std::string();
  lua_pop(lua, 1);
  lua_getfield(lua, -1, "line");
  bool has_line = lua_isstring(lua, -1);
  std::string line = has_line ? std::string(ToStringView(lua, -1)) : std::string();
  lua_pop(lua, 1);
  lua_getfield(lua, -1, "ignore_error_stats_update");
  bool ignore_stats = lua_isboolean(lua, -1) && lua_toboolean(lua, -1);
  lua_pop(lua, 1);
  if (!has_message) {
    // Redis 7.0.15 crashes formatting an error table without `err` (a NULL %s); answer an
    // ordinary error instead.
    message = "ERR unknown error";
  }
  std::string text = "-" + message;
  if (has_line && has_source)
    text += " script: " + std::string(sha) + ", on " + source + ":" + line + ".";
  WriteFormattedError(reply, text, !ignore_stats);
}

// Writes the outcome of a run to the reply, in protected mode (see Interpreter::Execute).
struct Conversion {
  bool failed;  // the value is the error of a failed run
  std::string_view sha;
  int script_resp;
  resp::ReplyWriter* reply;
};

int ConvertResult(lua_State* lua) {
  auto* conversion = static_cast<Conversion*>(lua_touserdata(lua, 1));
  if (conversion->failed) {
    WriteRunError(lua, conversion->sha, *conversion->reply);
  } else {
    WriteReply(lua, conversion->script_resp, *conversion->reply);
  }
  return 0;
}

// luaL_newstate's panic function: an error outside any protected call ends the process.
int Panic(lua_State* lua) {
  std::fprintf(stderr, "PANIC: unprotected error in call to Lua API (%s)\n", lua_tostring(lua, -1));
  return 0;
}

}  // namespace

Interpreter::Interpreter(Mode mode, Rand48* rand, bool deprecated_api)
    : mode_(mode), deprecated_api_(deprecated_api), rand_(rand != nullptr ? rand : &own_rand_) {
  Open();
}

Interpreter::~Interpreter() { Close(); }

void Interpreter::Open() {
  lua_ = lua_newstate(&LuaAllocator::Alloc, &allocator_);
  if (lua_ == nullptr) std::abort();
  lua_atpanic(lua_, Panic);
  OpenSandboxLibraries(lua_, deprecated_api_);
  BindRunSlot(lua_, &run_slot_);
  RegisterRedisApi(lua_, &run_slot_);
  InstallErrorHandler(lua_);
  lua_getglobal(lua_, "__redis__err__handler");
  error_handler_ref_ = luaL_ref(lua_, LUA_REGISTRYINDEX);
  keys_name_ref_ = RefString(lua_, "KEYS");
  argv_name_ref_ = RefString(lua_, "ARGV");
  lua_pushcfunction(lua_, ConvertResult);
  convert_result_ref_ = luaL_ref(lua_, LUA_REGISTRYINDEX);
  if (mode_ == Mode::kFunctions) {
    // Functions find the handler in the registry, not among their globals.
    lua_getglobal(lua_, "__redis__err__handler");
    lua_setfield(lua_, LUA_REGISTRYINDEX, kFunctionErrorHandler);
    lua_pushnil(lua_);
    lua_setglobal(lua_, "__redis__err__handler");
    OpenLibraryApi();
  }
  LockGlobals(lua_);
}

void Interpreter::Close() {
  if (lua_ != nullptr) lua_close(lua_);
  lua_ = nullptr;
}

void Interpreter::Reset() {
  Close();
  Open();
  gc_count_ = 0;
}

bool Interpreter::Define(std::string_view name, std::string_view body, std::string* error) {
  if (luaL_loadbuffer(lua_, body.data(), body.size(), "@user_script") != 0) {
    *error = "Error compiling script (new function): " + std::string(ToStringView(lua_, -1));
    lua_pop(lua_, 1);
    return false;
  }
  PushString(lua_, name);
  lua_insert(lua_, -2);
  lua_rawset(lua_, LUA_REGISTRYINDEX);
  return true;
}

bool Interpreter::Defined(std::string_view name) const {
  PushString(lua_, name);
  lua_rawget(lua_, LUA_REGISTRYINDEX);
  bool defined = lua_isfunction(lua_, -1);
  lua_pop(lua_, 1);
  return defined;
}

void Interpreter::Execute(const Run& run, ScriptHost& host, resp::ReplyWriter& reply) {
  lua_State* lua = lua_;
  int base = lua_gettop(lua);
  RunState state;
  state.host = &host;
  state.rand = rand_;
  state.buffers = &call_buffers_;
  // Set before the hook: any instruction may run the hook, and it needs the run state.
  run_slot_ = &state;
  if (run.interrupt_hook) lua_sethook(lua, CountHook, LUA_MASKCOUNT, kHookInstructions);

  int err;
  if (mode_ == Mode::kEval) {
    PushRawGlobals(lua);
    SetArray(lua, keys_name_ref_, run.keys);
    SetArray(lua, argv_name_ref_, run.args);
    lua_pop(lua, 1);
    // The global __redis__err__handler, which the locked globals keep as it was at Open().
    lua_rawgeti(lua, LUA_REGISTRYINDEX, error_handler_ref_);
    PushString(lua, run.function);
    lua_rawget(lua, LUA_REGISTRYINDEX);
    err = lua_pcall(lua, 0, 1, -2);
  } else {
    // A function gets the keys and the arguments as its two arguments.
    lua_getfield(lua, LUA_REGISTRYINDEX, kFunctionErrorHandler);
    lua_rawgeti(lua, LUA_REGISTRYINDEX, run.function_ref);
    PushArray(lua, run.keys);
    PushArray(lua, run.args);
    err = lua_pcall(lua, 2, 1, -4);
  }

  if (++gc_count_ == kGcCyclePeriod) {
    lua_gc(lua, LUA_GCSTEP, kGcCyclePeriod);
    gc_count_ = 0;
  }
  if (err == 0 && !lua_istable(lua, -1)) {
    // nil, a number, a string or a boolean: nothing in the conversion can fail.
    WriteReply(lua, state.resp, reply);
    Finish(run.interrupt_hook, base);
    return;
  }
  // A table is read through metamethods that may fail: read it in protected mode.
  size_t reply_start = reply.buffer()->size();
  Conversion conversion{err != 0, run.sha, state.resp, &reply};
  lua_rawgeti(lua, LUA_REGISTRYINDEX, convert_result_ref_);
  lua_pushlightuserdata(lua, &conversion);
  lua_pushvalue(lua, -3);  // the result, or the error
  if (lua_pcall(lua, 2, 0, 0) != 0) {
    // Redis itself crashes here; answer an error instead.
    std::string message =
        lua_isstring(lua, -1) ? std::string(ToStringView(lua, -1)) : "execution failure";
    if (message.size() > 100) message.resize(100);
    reply.buffer()->resize(reply_start);
    WriteFormattedError(reply, "Error running script " + std::string(run.sha) + ", " + message,
                        true);
  }
  Finish(run.interrupt_hook, base);
}

void Interpreter::Finish(bool interrupt_hook, int base) {
  if (interrupt_hook) lua_sethook(lua_, nullptr, 0, 0);
  run_slot_ = nullptr;
  lua_settop(lua_, base);
}

size_t Interpreter::UsedMemory() const {
  return static_cast<size_t>(lua_gc(lua_, LUA_GCCOUNT, 0)) * 1024;
}

}  // namespace redlab::server::scripting
