#include "server/scripting/lua_cmsgpack.h"

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "server/scripting/conversions.h"
#include "server/scripting/lua_util.h"

namespace redlab::server::scripting {
namespace {

constexpr int kMaxNesting = 16;  // deeper tables are encoded as nil (survives cycles)

void AppendBigEndian(std::string* out, uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

void EncodeBytes(std::string* out, std::string_view s) {
  size_t len = s.size();
  if (len < 32) {
    out->push_back(static_cast<char>(0xa0 | (len & 0xff)));  // fix str
  } else if (len <= 0xff) {
    out->push_back(static_cast<char>(0xd9));  // str 8
    AppendBigEndian(out, len, 1);
  } else if (len <= 0xffff) {
    out->push_back(static_cast<char>(0xda));  // str 16
    AppendBigEndian(out, len, 2);
  } else {
    out->push_back(static_cast<char>(0xdb));  // str 32
    AppendBigEndian(out, len, 4);
  }
  out->append(s);
}

void EncodeDouble(std::string* out, double d) {
  float f = static_cast<float>(d);
  if (d == static_cast<double>(f)) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    out->push_back(static_cast<char>(0xca));
    AppendBigEndian(out, bits, 4);
  } else {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    out->push_back(static_cast<char>(0xcb));
    AppendBigEndian(out, bits, 8);
  }
}

void EncodeInt(std::string* out, int64_t n) {
  uint64_t u = static_cast<uint64_t>(n);
  if (n >= 0) {
    if (n <= 127) {
      out->push_back(static_cast<char>(n & 0x7f));  // positive fixnum
    } else if (n <= 0xff) {
      out->push_back(static_cast<char>(0xcc));
      AppendBigEndian(out, u, 1);
    } else if (n <= 0xffff) {
      out->push_back(static_cast<char>(0xcd));
      AppendBigEndian(out, u, 2);
    } else if (n <= 0xffffffffLL) {
      out->push_back(static_cast<char>(0xce));
      AppendBigEndian(out, u, 4);
    } else {
      out->push_back(static_cast<char>(0xcf));
      AppendBigEndian(out, u, 8);
    }
  } else {
    if (n >= -32) {
      out->push_back(static_cast<char>(static_cast<signed char>(n)));  // negative fixnum
    } else if (n >= -128) {
      out->push_back(static_cast<char>(0xd0));
      AppendBigEndian(out, u, 1);
    } else if (n >= -32768) {
      out->push_back(static_cast<char>(0xd1));
      AppendBigEndian(out, u, 2);
    } else if (n >= -2147483648LL) {
      out->push_back(static_cast<char>(0xd2));
      AppendBigEndian(out, u, 4);
    } else {
      out->push_back(static_cast<char>(0xd3));
      AppendBigEndian(out, u, 8);
    }
  }
}

void EncodeContainerHeader(std::string* out, uint64_t n, uint8_t fix, uint8_t b16, uint8_t b32) {
  if (n <= 15) {
    out->push_back(static_cast<char>(fix | (n & 0xf)));
  } else if (n <= 65535) {
    out->push_back(static_cast<char>(b16));
    AppendBigEndian(out, n, 2);
  } else {
    out->push_back(static_cast<char>(b32));
    AppendBigEndian(out, n, 4);
  }
}

// Whether the table on top of the stack has exactly the keys 1..N.
bool TableIsArray(lua_State* lua) {
  int count = 0;
  int max = 0;
  int top = lua_gettop(lua);
  luaL_checkstack(lua, 2, "in function table_is_an_array");
  lua_pushnil(lua);
  while (lua_next(lua, -2)) {
    lua_pop(lua, 1);
    lua_Number n;
    if (lua_type(lua, -1) != LUA_TNUMBER || (n = lua_tonumber(lua, -1)) <= 0 || std::isinf(n) ||
        static_cast<double>(LuaNumberToInt(n)) != n) {
      lua_settop(lua, top);
      return false;
    }
    int key = LuaNumberToInt(n);
    max = key > max ? key : max;
    ++count;
  }
  lua_settop(lua, top);
  return max == count;
}

void EncodeValue(lua_State* lua, std::string* out, int level);

void EncodeTable(lua_State* lua, std::string* out, int level) {
  if (TableIsArray(lua)) {
    size_t len = lua_objlen(lua, -1);
    EncodeContainerHeader(out, len, 0x90, 0xdc, 0xdd);
    luaL_checkstack(lua, 1, "in function mp_encode_lua_table_as_array");
    for (size_t j = 1; j <= len; ++j) {
      lua_pushnumber(lua, static_cast<lua_Number>(j));
      lua_gettable(lua, -2);
      EncodeValue(lua, out, level + 1);
    }
    return;
  }
  luaL_checkstack(lua, 3, "in function mp_encode_lua_table_as_map");
  size_t len = 0;
  lua_pushnil(lua);
  while (lua_next(lua, -2)) {
    lua_pop(lua, 1);
    ++len;
  }
  EncodeContainerHeader(out, len, 0x80, 0xde, 0xdf);
  lua_pushnil(lua);
  while (lua_next(lua, -2)) {
    lua_pushvalue(lua, -2);
    EncodeValue(lua, out, level + 1);  // the key
    EncodeValue(lua, out, level + 1);  // the value
  }
}

// Encodes the value on top of the stack and pops it.
void EncodeValue(lua_State* lua, std::string* out, int level) {
  int type = lua_type(lua, -1);
  if (type == LUA_TTABLE && level == kMaxNesting) type = LUA_TNIL;
  switch (type) {
    case LUA_TSTRING:
      EncodeBytes(out, ToStringView(lua, -1));
      break;
    case LUA_TBOOLEAN:
      out->push_back(static_cast<char>(lua_toboolean(lua, -1) ? 0xc3 : 0xc2));
      break;
    case LUA_TNUMBER: {
      lua_Number n = lua_tonumber(lua, -1);
      if (!std::isinf(n) && static_cast<double>(LuaNumberToInt64(n)) == n) {
        EncodeInt(out, static_cast<int64_t>(lua_tointeger(lua, -1)));
      } else {
        EncodeDouble(out, n);
      }
      break;
    }
    case LUA_TTABLE:
      EncodeTable(lua, out, level);
      break;
    default:
      out->push_back(static_cast<char>(0xc0));
  }
  lua_pop(lua, 1);
}

int Pack(lua_State* lua) {
  int nargs = lua_gettop(lua);
  if (nargs == 0) return luaL_argerror(lua, 0, "MessagePack pack needs input.");
  if (!lua_checkstack(lua, nargs))
    return luaL_argerror(lua, 0, "Too many arguments for MessagePack pack.");
  std::string out;
  for (int i = 1; i <= nargs; ++i) {
    luaL_checkstack(lua, 1, "in function mp_check");
    lua_pushvalue(lua, i);
    EncodeValue(lua, &out, 0);
  }
  PushString(lua, out);
  return 1;
}

// ---------------------------------------------------------------------------------------------

enum class CursorError { kNone, kEof, kBadFormat };

struct Cursor {
  const unsigned char* p;
  size_t left;
  CursorError err = CursorError::kNone;

  bool Need(size_t n) {
    if (left < n) {
      err = CursorError::kEof;
      return false;
    }
    return true;
  }
  void Consume(size_t n) {
    p += n;
    left -= n;
  }
  uint64_t BigEndian(size_t offset, int bytes) const {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | p[offset + static_cast<size_t>(i)];
    return v;
  }
};

// lua_pushunsigned of 64-bit builds: lua_pushinteger, so values over INT64_MAX wrap negative.
void PushUnsigned(lua_State* lua, uint64_t n) {
  lua_pushinteger(lua, static_cast<lua_Integer>(static_cast<int64_t>(n)));
}

void DecodeValue(lua_State* lua, Cursor* c);

void DecodeArray(lua_State* lua, Cursor* c, size_t len) {
  int index = 1;
  lua_newtable(lua);
  luaL_checkstack(lua, 1, "in function mp_decode_to_lua_array");
  while (len--) {
    lua_pushnumber(lua, index++);
    DecodeValue(lua, c);
    if (c->err != CursorError::kNone) return;
    lua_settable(lua, -3);
  }
}

void DecodeMap(lua_State* lua, Cursor* c, size_t len) {
  lua_newtable(lua);
  while (len--) {
    DecodeValue(lua, c);
    if (c->err != CursorError::kNone) return;
    DecodeValue(lua, c);
    if (c->err != CursorError::kNone) return;
    lua_settable(lua, -3);
  }
}

void PushBytes(lua_State* lua, Cursor* c, size_t header, size_t len) {
  if (!c->Need(header + len)) return;
  lua_pushlstring(lua, reinterpret_cast<const char*>(c->p + header), len);
  c->Consume(header + len);
}

void DecodeValue(lua_State* lua, Cursor* c) {
  if (!c->Need(1)) return;
  luaL_checkstack(lua, 1,
                  "too many return values at once; use unpack_one or unpack_limit instead.");
  unsigned char type = c->p[0];
  switch (type) {
    case 0xcc:  // uint 8
      if (!c->Need(2)) return;
      PushUnsigned(lua, c->p[1]);
      c->Consume(2);
      return;
    case 0xd0:  // int 8
      if (!c->Need(2)) return;
      lua_pushinteger(lua, static_cast<signed char>(c->p[1]));
      c->Consume(2);
      return;
    case 0xcd:  // uint 16
      if (!c->Need(3)) return;
      PushUnsigned(lua, c->BigEndian(1, 2));
      c->Consume(3);
      return;
    case 0xd1:  // int 16
      if (!c->Need(3)) return;
      lua_pushinteger(lua, static_cast<int16_t>(c->BigEndian(1, 2)));
      c->Consume(3);
      return;
    case 0xce:  // uint 32
      if (!c->Need(5)) return;
      PushUnsigned(lua, c->BigEndian(1, 4));
      c->Consume(5);
      return;
    case 0xd2:  // int 32
      if (!c->Need(5)) return;
      lua_pushinteger(lua, static_cast<int32_t>(c->BigEndian(1, 4)));
      c->Consume(5);
      return;
    case 0xcf:  // uint 64
      if (!c->Need(9)) return;
      PushUnsigned(lua, c->BigEndian(1, 8));
      c->Consume(9);
      return;
    case 0xd3:  // int 64
      if (!c->Need(9)) return;
      lua_pushnumber(lua, static_cast<lua_Number>(static_cast<int64_t>(c->BigEndian(1, 8))));
      c->Consume(9);
      return;
    case 0xc0:
      lua_pushnil(lua);
      c->Consume(1);
      return;
    case 0xc3:
      lua_pushboolean(lua, 1);
      c->Consume(1);
      return;
    case 0xc2:
      lua_pushboolean(lua, 0);
      c->Consume(1);
      return;
    case 0xca: {  // float
      if (!c->Need(5)) return;
      uint32_t bits = static_cast<uint32_t>(c->BigEndian(1, 4));
      float f;
      std::memcpy(&f, &bits, 4);
      lua_pushnumber(lua, f);
      c->Consume(5);
      return;
    }
    case 0xcb: {  // double
      if (!c->Need(9)) return;
      uint64_t bits = c->BigEndian(1, 8);
      double d;
      std::memcpy(&d, &bits, 8);
      lua_pushnumber(lua, d);
      c->Consume(9);
      return;
    }
    case 0xd9:  // str 8
      if (!c->Need(2)) return;
      PushBytes(lua, c, 2, c->p[1]);
      return;
    case 0xda:  // str 16
      if (!c->Need(3)) return;
      PushBytes(lua, c, 3, c->BigEndian(1, 2));
      return;
    case 0xdb: {  // str 32
      if (!c->Need(5)) return;
      size_t len = c->BigEndian(1, 4);
      c->Consume(5);
      PushBytes(lua, c, 0, len);
      return;
    }
    case 0xdc:    // array 16
    case 0xde: {  // map 16
      if (!c->Need(3)) return;
      size_t len = c->BigEndian(1, 2);
      c->Consume(3);
      type == 0xdc ? DecodeArray(lua, c, len) : DecodeMap(lua, c, len);
      return;
    }
    case 0xdd:    // array 32
    case 0xdf: {  // map 32
      if (!c->Need(5)) return;
      size_t len = c->BigEndian(1, 4);
      c->Consume(5);
      type == 0xdd ? DecodeArray(lua, c, len) : DecodeMap(lua, c, len);
      return;
    }
    default:
      if ((type & 0x80) == 0) {  // positive fixnum
        PushUnsigned(lua, type);
        c->Consume(1);
      } else if ((type & 0xe0) == 0xe0) {  // negative fixnum
        lua_pushinteger(lua, static_cast<signed char>(type));
        c->Consume(1);
      } else if ((type & 0xe0) == 0xa0) {  // fix str
        PushBytes(lua, c, 1, type & 0x1f);
      } else if ((type & 0xf0) == 0x90) {  // fix array
        c->Consume(1);
        DecodeArray(lua, c, type & 0xf);
      } else if ((type & 0xf0) == 0x80) {  // fix map
        c->Consume(1);
        DecodeMap(lua, c, type & 0xf);
      } else {
        c->err = CursorError::kBadFormat;
      }
  }
}

int UnpackFull(lua_State* lua, lua_Integer limit, lua_Integer offset) {
  size_t len = 0;
  const char* s = luaL_checklstring(lua, 1, &len);
  bool decode_all = limit == 0 && offset == 0;
  if (offset < 0 || limit < 0) {
    // (Redis prints the input length where it means the limit.)
    return luaL_error(lua, "Invalid request to unpack with offset of %d and limit of %d.",
                      static_cast<int>(offset), static_cast<int>(len));
  }
  if (static_cast<size_t>(offset) > len) {
    return luaL_error(lua, "Start offset %d greater than input length %d.",
                      static_cast<int>(offset), static_cast<int>(len));
  }
  if (decode_all) limit = INT_MAX;
  Cursor c{reinterpret_cast<const unsigned char*>(s) + offset, len - static_cast<size_t>(offset)};
  int count = 0;
  for (; c.left > 0 && count < limit; ++count) {
    DecodeValue(lua, &c);
    if (c.err == CursorError::kEof) return luaL_error(lua, "Missing bytes in input.");
    if (c.err == CursorError::kBadFormat) return luaL_error(lua, "Bad data format in input.");
  }
  if (!decode_all) {
    luaL_checkstack(lua, 1, "in function mp_unpack_full");
    // The next offset to read from, or -1 when the whole input was read.
    size_t next = len - c.left;
    lua_pushinteger(lua, c.left == 0 ? -1 : static_cast<lua_Integer>(next));
    lua_insert(lua, 2);
    ++count;
  }
  return count;
}

int Unpack(lua_State* lua) { return UnpackFull(lua, 0, 0); }

int UnpackOne(lua_State* lua) {
  lua_Integer offset = luaL_optinteger(lua, 2, 0);
  lua_pop(lua, lua_gettop(lua) - 1);
  return UnpackFull(lua, 1, offset);
}

int UnpackLimit(lua_State* lua) {
  lua_Integer limit = luaL_checkinteger(lua, 2);
  lua_Integer offset = luaL_optinteger(lua, 3, 0);
  lua_pop(lua, lua_gettop(lua) - 1);
  return UnpackFull(lua, limit, offset);
}

}  // namespace

int OpenCmsgpackLibrary(lua_State* lua) {
  lua_newtable(lua);
  SetFunctions(lua, {{"pack", Pack},
                     {"unpack", Unpack},
                     {"unpack_one", UnpackOne},
                     {"unpack_limit", UnpackLimit}});
  lua_pushliteral(lua, "cmsgpack");
  lua_setfield(lua, -2, "_NAME");
  lua_pushliteral(lua, "lua-cmsgpack 0.4.0");
  lua_setfield(lua, -2, "_VERSION");
  lua_pushliteral(lua, "Copyright (C) 2012, Salvatore Sanfilippo");
  lua_setfield(lua, -2, "_COPYRIGHT");
  lua_pushliteral(lua, "MessagePack C implementation for Lua");
  lua_setfield(lua, -2, "_DESCRIPTION");
  return 1;
}

}  // namespace redlab::server::scripting
