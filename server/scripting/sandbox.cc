// Read-only tables emulated on stock Lua 5.1 (see sandbox.h). What this cannot match of Redis's
// patched VM, all only for code that works on the protected tables themselves:
//   - C functions that walk a table with lua_next or raw reads see a protected table's proxy,
//     which is empty: cjson.encode(math) gives "{}" and cmsgpack.pack(string) an empty map where
//     Redis fails to serialise the functions inside; table.foreach(string, f) visits nothing.
//   - a protected table used as another table's metatable (setmetatable(t, string)) provides no
//     metamethods, since metamethods are looked up raw.
// Everything a script can reach through ordinary Lua (reads, writes, pairs/next, rawget/rawset,
// getmetatable/setmetatable, table.insert, #) behaves as in Redis, error texts included.
#include "server/scripting/sandbox.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "server/scripting/lua_cmsgpack.h"
#include "server/scripting/lua_struct.h"
#include "server/scripting/lua_util.h"

extern "C" {
int luaopen_cjson(lua_State* lua);
int luaopen_bit(lua_State* lua);
}

namespace redlab::server::scripting {
namespace {

// Addresses used as keys: in a proxy's metatable, and in the registry.
char kProxyMarker;
char kVisibleMetatable;
char kStringMetatableProxy;
char kRawGlobals;

constexpr const char* kReadonlyError = "Attempt to modify a readonly table";

void PushKey(lua_State* lua, char* key) { lua_pushlightuserdata(lua, key); }

void LoadLibrary(lua_State* lua, const char* name, lua_CFunction open) {
  lua_pushcfunction(lua, open);
  lua_pushstring(lua, name);
  lua_call(lua, 1, 0);
}

// Libraries whose opener returns the module table without setting a global.
void LoadModule(lua_State* lua, const char* name, lua_CFunction open) {
  lua_pushcfunction(lua, open);
  lua_pushstring(lua, name);
  lua_call(lua, 1, 1);
  lua_setglobal(lua, name);
}

// Lua BitOp's argument conversion (barg): the number's low 32 bits, by the 2^52+2^51 trick.
uint32_t BitArgument(lua_State* lua, int index) {
  double n = lua_tonumber(lua, index) + 6755399441055744.0;
  uint64_t bits = 0;
  std::memcpy(&bits, &n, sizeof(bits));
  auto b = static_cast<uint32_t>(bits);
  if (b == 0 && !lua_isnumber(lua, index)) luaL_typerror(lua, index, "number");
  return b;
}

// bit.tohex as Redis 7.0.15 answers it. Debian's lua-bitop negates a count of -2^31 into a
// negative length and crashes in lua_pushlstring; Redis's build gives 8 upper-case digits, as
// its later fix (n = INT32_MIN + 1) makes explicit.
int BitTohex(lua_State* lua) {
  uint32_t b = BitArgument(lua, 1);
  int64_t n = lua_isnone(lua, 2) ? 8 : static_cast<int32_t>(BitArgument(lua, 2));
  const char* digits = "0123456789abcdef";
  if (n < 0) {
    n = -n;
    digits = "0123456789ABCDEF";
  }
  if (n > 8) n = 8;
  char buf[8];
  for (int64_t i = n; --i >= 0;) {
    buf[i] = digits[b & 15];
    b >>= 4;
  }
  lua_pushlstring(lua, buf, static_cast<size_t>(n));
  return 1;
}

// unpack (luaB_unpack) with its count computed in 64 bits. Stock Lua 5.1 tests e - i + 1 <= 0
// to catch the overflow of a range like (-2^31, 2^31 - 1); an optimising compiler drops that test
// (signed overflow cannot happen) and the stock library then pushes billions of values and
// crashes. Redis's build answers "too many results to unpack", as this does.
int Unpack(lua_State* lua) {
  luaL_checktype(lua, 1, LUA_TTABLE);
  int first = luaL_optint(lua, 2, 1);
  int last = luaL_opt(lua, luaL_checkint, 3, luaL_getn(lua, 1));
  if (first > last) return 0;
  int64_t n = static_cast<int64_t>(last) - first + 1;
  if (n >= INT32_MAX || !lua_checkstack(lua, static_cast<int>(n))) {
    return luaL_error(lua, "too many results to unpack");
  }
  for (int64_t i = first; i <= last; ++i) lua_rawgeti(lua, 1, static_cast<int>(i));
  return static_cast<int>(n);
}

bool IsProxy(lua_State* lua, int index) {
  if (lua_type(lua, index) != LUA_TTABLE || !lua_getmetatable(lua, index)) return false;
  PushKey(lua, &kProxyMarker);
  lua_rawget(lua, -2);
  bool proxy = lua_toboolean(lua, -1) != 0;
  lua_pop(lua, 2);
  return proxy;
}

// Replaces the proxy at `index` (a positive index) with the table it stands for.
void Unproxy(lua_State* lua, int index) {
  lua_getmetatable(lua, index);
  lua_pushstring(lua, "__index");
  lua_rawget(lua, -2);
  lua_replace(lua, index);
  lua_pop(lua, 1);
}

// __newindex of every proxy. Raised with the script's position, as the VM raises it.
int ReadonlyNewindex(lua_State* lua) { return luaL_error(lua, kReadonlyError); }

// __index of the globals (luaProtectedTableError).
int NonexistentGlobal(lua_State* lua) {
  if (lua_gettop(lua) != 2) luaL_error(lua, "Wrong number of arguments to luaProtectedTableError");
  if (!lua_isstring(lua, -1) && !lua_isnumber(lua, -1)) {
    luaL_error(lua, "Second argument to luaProtectedTableError must be a string or number");
  }
  const char* name = lua_tostring(lua, -1);
  return luaL_error(lua, "Script attempted to access nonexistent global variable '%s'", name);
}

// Pushes a new proxy for the table at `real` (absolute index); `visible` (absolute index, or 0)
// is what getmetatable returns for it.
void PushProxy(lua_State* lua, int real, int visible) {
  lua_newtable(lua);  // the proxy
  lua_newtable(lua);  // its metatable
  lua_pushstring(lua, "__index");
  lua_pushvalue(lua, real);
  lua_rawset(lua, -3);
  lua_pushstring(lua, "__newindex");
  lua_pushcfunction(lua, ReadonlyNewindex);
  lua_rawset(lua, -3);
  PushKey(lua, &kProxyMarker);
  lua_pushboolean(lua, 1);
  lua_rawset(lua, -3);
  if (visible != 0) {
    PushKey(lua, &kVisibleMetatable);
    lua_pushvalue(lua, visible);
    lua_rawset(lua, -3);
  }
  lua_setmetatable(lua, -2);
}

// Replaces every table value of the table at `real` with its proxy (made once per table, through
// the real -> proxy map at `seen`), recursively.
void ProtectFields(lua_State* lua, int real, int seen) {
  luaL_checkstack(lua, 6, "protecting the globals");
  lua_pushnil(lua);
  while (lua_next(lua, real)) {
    if (lua_type(lua, -1) == LUA_TTABLE) {
      int value = lua_gettop(lua);
      lua_pushvalue(lua, value);
      lua_rawget(lua, seen);
      if (lua_isnil(lua, -1)) {
        lua_pop(lua, 1);
        // Mark it first so a cycle ends here, then protect what it holds.
        lua_pushvalue(lua, value);
        lua_pushboolean(lua, 1);
        lua_rawset(lua, seen);
        ProtectFields(lua, value, seen);
        PushProxy(lua, value, 0);
        lua_pushvalue(lua, value);
        lua_pushvalue(lua, -2);
        lua_rawset(lua, seen);
      }
      if (lua_type(lua, -1) == LUA_TTABLE) {
        // Assigning to an existing field is allowed while lua_next walks the table.
        lua_pushvalue(lua, -3);  // key
        lua_pushvalue(lua, -2);  // proxy
        lua_rawset(lua, real);
      }
      lua_pop(lua, 1);
    }
    lua_pop(lua, 1);
  }
}

// --- Builtins that bypass metatables, made to see through proxies -------------------------

int Rawget(lua_State* lua) {
  luaL_checktype(lua, 1, LUA_TTABLE);
  luaL_checkany(lua, 2);
  if (IsProxy(lua, 1)) Unproxy(lua, 1);
  lua_settop(lua, 2);
  lua_rawget(lua, 1);
  return 1;
}

int Rawset(lua_State* lua) {
  luaL_checktype(lua, 1, LUA_TTABLE);
  luaL_checkany(lua, 2);
  luaL_checkany(lua, 3);
  if (IsProxy(lua, 1)) RaisePlainError(lua, kReadonlyError);
  lua_settop(lua, 3);
  lua_rawset(lua, 1);
  return 1;
}

int Next(lua_State* lua) {
  luaL_checktype(lua, 1, LUA_TTABLE);
  lua_settop(lua, 2);
  if (IsProxy(lua, 1)) Unproxy(lua, 1);
  if (lua_next(lua, 1)) return 2;
  lua_pushnil(lua);
  return 1;
}

int Pairs(lua_State* lua) {
  luaL_checktype(lua, 1, LUA_TTABLE);
  lua_pushvalue(lua, lua_upvalueindex(1));  // our next
  lua_pushvalue(lua, 1);
  lua_pushnil(lua);
  return 3;
}

int Setmetatable(lua_State* lua) {
  int type = lua_type(lua, 2);
  luaL_checktype(lua, 1, LUA_TTABLE);
  luaL_argcheck(lua, type == LUA_TNIL || type == LUA_TTABLE, 2, "nil or table expected");
  if (luaL_getmetafield(lua, 1, "__metatable"))
    luaL_error(lua, "cannot change a protected metatable");
  if (IsProxy(lua, 1)) RaisePlainError(lua, kReadonlyError);
  lua_settop(lua, 2);
  lua_setmetatable(lua, 1);
  return 1;
}

int Getmetatable(lua_State* lua) {
  luaL_checkany(lua, 1);
  if (IsProxy(lua, 1)) {
    lua_getmetatable(lua, 1);
    PushKey(lua, &kVisibleMetatable);
    lua_rawget(lua, -2);
    return 1;
  }
  if (lua_type(lua, 1) == LUA_TSTRING) {
    PushKey(lua, &kStringMetatableProxy);
    lua_rawget(lua, LUA_REGISTRYINDEX);
    return 1;
  }
  if (!lua_getmetatable(lua, 1)) {
    lua_pushnil(lua);
    return 1;
  }
  luaL_getmetafield(lua, 1, "__metatable");
  return 1;
}

// table.insert as Lua 5.1's, refusing to write into a protected table.
int TableInsert(lua_State* lua) {
  luaL_checktype(lua, 1, LUA_TTABLE);
  int e = static_cast<int>(lua_objlen(lua, 1)) + 1;  // first empty element
  int pos;
  switch (lua_gettop(lua)) {
    case 2:
      pos = e;
      break;
    case 3:
      pos = luaL_checkint(lua, 2);
      if (pos > e) e = pos;
      break;
    default:
      return luaL_error(lua, "wrong number of arguments to 'insert'");
  }
  if (IsProxy(lua, 1)) RaisePlainError(lua, kReadonlyError);
  for (int i = e; i > pos; --i) {
    lua_rawgeti(lua, 1, i - 1);
    lua_rawseti(lua, 1, i);
  }
  lua_rawseti(lua, 1, pos);
  return 0;
}

// Redis's VM has no bytecode loader: a precompiled chunk is parsed as source text, and fails.
// A leading space makes stock Lua do the same (it looks for the bytecode signature in the first
// byte only) without changing any message: the lexer skips it and line numbers stay.
struct PrefixedReader {
  int stage = 0;
  std::string_view text;
};

const char* ReadPrefixed(lua_State* lua, void* data, size_t* size) {
  auto* reader = static_cast<PrefixedReader*>(data);
  switch (reader->stage++) {
    case 0:
      *size = 1;
      return " ";
    case 1:
      *size = reader->text.size();
      return reader->text.data();
    default:
      *size = 0;
      return nullptr;
  }
}

int LoadResult(lua_State* lua, int status) {
  if (status == 0) return 1;
  lua_pushnil(lua);
  lua_insert(lua, -2);
  return 2;
}

int Loadstring(lua_State* lua) {
  size_t len = 0;
  const char* s = luaL_checklstring(lua, 1, &len);
  const char* chunkname = luaL_optstring(lua, 2, s);
  PrefixedReader reader{0, std::string_view(s, len)};
  return LoadResult(lua, lua_load(lua, ReadPrefixed, &reader, chunkname));
}

// load(f): the chunk is read piece by piece from f, after the same leading space.
struct FunctionReader {
  bool prefixed = false;
};

const char* ReadFromFunction(lua_State* lua, void* data, size_t* size) {
  auto* reader = static_cast<FunctionReader*>(data);
  if (!reader->prefixed) {
    reader->prefixed = true;
    *size = 1;
    return " ";
  }
  luaL_checkstack(lua, 2, "too many nested functions");
  lua_pushvalue(lua, 1);
  lua_call(lua, 0, 1);
  if (lua_isnil(lua, -1)) {
    *size = 0;
    return nullptr;
  }
  if (lua_isstring(lua, -1)) {
    lua_replace(lua, 3);  // keep the piece alive in the reserved slot
    return lua_tolstring(lua, 3, size);
  }
  luaL_error(lua, "reader function must return a string");
  return nullptr;
}

int Load(lua_State* lua) {
  const char* chunkname = luaL_optstring(lua, 2, "=(load)");
  luaL_checktype(lua, 1, LUA_TFUNCTION);
  lua_settop(lua, 3);  // function, name, and a slot for the piece being read
  FunctionReader reader;
  return LoadResult(lua, lua_load(lua, ReadFromFunction, &reader, chunkname));
}

void SetGlobalFunction(lua_State* lua, const char* name, lua_CFunction f) {
  lua_pushcfunction(lua, f);
  lua_setglobal(lua, name);
}

// Redis's error handler, run by lua_pcall on any error: it turns the error into a table and
// records where in the script it happened (for a C function, its Lua caller). Laid out on the
// same lines as Redis's, since an error inside the handler reports its line.
constexpr const char kErrorHandler[] =
    "local dbg = debug\n"
    "debug = nil\n"
    "function __redis__err__handler(err)\n"
    "  local i = dbg.getinfo(2,'nSl')\n"
    "  if i and i.what == 'C' then\n"
    "    i = dbg.getinfo(3,'nSl')\n"
    "  end\n"
    "  if type(err) ~= 'table' then\n"
    "    err = {err='ERR ' .. tostring(err)}  end  if i then\n"
    "    err['source'] = i.source\n"
    "    err['line'] = i.currentline\n"
    "  end  return err\n"
    "end\n";

}  // namespace

void OpenSandboxLibraries(lua_State* lua, bool deprecated_api) {
  LoadLibrary(lua, "", luaopen_base);
  LoadLibrary(lua, LUA_TABLIBNAME, luaopen_table);
  LoadLibrary(lua, LUA_STRLIBNAME, luaopen_string);
  LoadLibrary(lua, LUA_MATHLIBNAME, luaopen_math);
  LoadLibrary(lua, LUA_DBLIBNAME, luaopen_debug);
  LoadModule(lua, "cjson", luaopen_cjson);
  LoadModule(lua, "struct", OpenStructLibrary);
  LoadModule(lua, "cmsgpack", OpenCmsgpackLibrary);
  LoadModule(lua, "bit", luaopen_bit);
  lua_getglobal(lua, "bit");
  lua_pushcfunction(lua, BitTohex);
  lua_setfield(lua, -2, "tohex");
  lua_pop(lua, 1);

  // Redis 7.0's globals allow list leaves these out; the deprecated ones stay with
  // lua-enable-deprecated-api.
  std::vector<const char*> removed = {"dofile", "loadfile", "print"};
  if (!deprecated_api) removed.insert(removed.end(), {"getfenv", "setfenv", "newproxy"});
  for (const char* name : removed) {
    lua_pushnil(lua);
    lua_setglobal(lua, name);
  }

  SetGlobalFunction(lua, "rawget", Rawget);
  SetGlobalFunction(lua, "unpack", Unpack);
  SetGlobalFunction(lua, "rawset", Rawset);
  SetGlobalFunction(lua, "next", Next);
  lua_pushcfunction(lua, Next);
  lua_pushcclosure(lua, Pairs, 1);
  lua_setglobal(lua, "pairs");
  SetGlobalFunction(lua, "setmetatable", Setmetatable);
  SetGlobalFunction(lua, "getmetatable", Getmetatable);
  SetGlobalFunction(lua, "loadstring", Loadstring);
  SetGlobalFunction(lua, "load", Load);
  lua_getglobal(lua, "table");
  lua_pushcfunction(lua, TableInsert);
  lua_setfield(lua, -2, "insert");
  lua_pop(lua, 1);
}

void InstallErrorHandler(lua_State* lua) {
  if (luaL_loadbuffer(lua, kErrorHandler, sizeof(kErrorHandler) - 1, "@err_handler_def") != 0 ||
      lua_pcall(lua, 0, 0, 0) != 0) {
    std::abort();  // our own code: cannot fail
  }
}

void LockGlobals(lua_State* lua) {
  luaL_checkstack(lua, 10, "locking the globals");
  lua_pushvalue(lua, LUA_GLOBALSINDEX);
  int globals = lua_gettop(lua);

  // Reading a missing global is an error (luaSetErrorMetatable).
  lua_newtable(lua);
  lua_pushstring(lua, "__index");
  lua_pushcfunction(lua, NonexistentGlobal);
  lua_rawset(lua, -3);
  int visible_metatable_real = lua_gettop(lua);
  lua_newtable(lua);
  lua_pushstring(lua, "__index");
  lua_pushcfunction(lua, NonexistentGlobal);
  lua_rawset(lua, -3);
  lua_setmetatable(lua, globals);

  // Proxies for every table reachable from the globals (the globals themselves last).
  lua_newtable(lua);
  int seen = lua_gettop(lua);
  lua_pushvalue(lua, globals);
  lua_pushboolean(lua, 1);
  lua_rawset(lua, seen);
  ProtectFields(lua, globals, seen);
  PushProxy(lua, visible_metatable_real, 0);
  int visible_metatable = lua_gettop(lua);
  PushProxy(lua, globals, visible_metatable);
  int globals_proxy = lua_gettop(lua);
  lua_pushstring(lua, "_G");
  lua_pushvalue(lua, globals_proxy);
  lua_rawset(lua, globals);

  // Strings index the (protected) string table, and getmetatable("") is protected too.
  lua_pushstring(lua, "");
  lua_getmetatable(lua, -1);
  int string_metatable = lua_gettop(lua);
  lua_pushstring(lua, "__index");
  lua_pushstring(lua, "string");
  lua_rawget(lua, globals);
  lua_rawset(lua, string_metatable);
  PushKey(lua, &kStringMetatableProxy);
  PushProxy(lua, string_metatable, 0);
  lua_rawset(lua, LUA_REGISTRYINDEX);
  lua_pop(lua, 2);

  PushKey(lua, &kRawGlobals);
  lua_pushvalue(lua, globals);
  lua_rawset(lua, LUA_REGISTRYINDEX);

  // From now on every chunk and every new coroutine sees the protected globals.
  lua_pushvalue(lua, globals_proxy);
  lua_replace(lua, LUA_GLOBALSINDEX);
  lua_settop(lua, globals - 1);
}

void PushRawGlobals(lua_State* lua) {
  PushKey(lua, &kRawGlobals);
  lua_rawget(lua, LUA_REGISTRYINDEX);
}

void ProtectApiTable(lua_State* lua) {
  luaL_checkstack(lua, 6, "protecting the library API");
  int real = lua_gettop(lua);
  lua_newtable(lua);
  lua_pushstring(lua, "__index");
  lua_pushcfunction(lua, NonexistentGlobal);
  lua_rawset(lua, -3);
  lua_setmetatable(lua, real);
  lua_pushnil(lua);
  while (lua_next(lua, real)) {
    if (lua_type(lua, -1) == LUA_TTABLE) {
      ProtectApiTable(lua);
      // Assigning to an existing field is allowed while lua_next walks the table.
      lua_pushvalue(lua, -2);
      lua_pushvalue(lua, -2);
      lua_rawset(lua, real);
    }
    lua_pop(lua, 1);
  }
  PushProxy(lua, real, 0);
  lua_replace(lua, real);
}

void SetGlobalsSource(lua_State* lua) {
  lua_getmetatable(lua, LUA_GLOBALSINDEX);  // the globals proxy's own metatable
  lua_pushstring(lua, "__index");
  lua_pushvalue(lua, -3);
  lua_rawset(lua, -3);
  lua_pop(lua, 2);
}

}  // namespace redlab::server::scripting
