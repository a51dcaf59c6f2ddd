#include "server/scripting/conversions.h"

#include <climits>
#include <cmath>
#include <cstdlib>
#include <string>

#include "server/scripting/lua_util.h"

namespace redlab::server::scripting {
namespace {

// Walks one RESP reply produced by the engine (so well formed) and pushes Lua values. `lua` is
// nullptr while skipping values (attributes), as Redis's parser does with a NULL context.
class ReplyParser {
 public:
  explicit ReplyParser(std::string_view reply)
      : p_(reply.data()), end_(reply.data() + reply.size()) {}

  void Parse(lua_State* lua) {
    if (p_ >= end_) {
      if (lua != nullptr) lua_pushnil(lua);
      return;
    }
    char type = *p_++;
    std::string_view line = Line();
    switch (type) {
      case '+':
        PushOneFieldTable(lua, "ok", [&] { PushString(lua, line); });
        return;
      case '-':
        if (lua == nullptr) return;
        Reserve(lua, 3);
        PushErrorTable(lua, "-" + std::string(line));
        // The command already counted this error in the statistics when it replied it.
        lua_pushstring(lua, "ignore_error_stats_update");
        lua_pushboolean(lua, 1);
        lua_settable(lua, -3);
        return;
      case ':':
        if (lua == nullptr) return;
        Reserve(lua, 1);
        lua_pushnumber(
            lua, static_cast<lua_Number>(std::strtoll(std::string(line).c_str(), nullptr, 10)));
        return;
      case '$':
      case '=': {
        int64_t len = 0;
        if (!NotNullLength(lua, line, &len)) return;
        std::string_view body = Take(static_cast<size_t>(len));
        if (lua == nullptr) return;
        if (type == '$') {
          Reserve(lua, 1);
          PushString(lua, body);
          return;
        }
        Reserve(lua, 5);
        lua_newtable(lua);
        lua_pushstring(lua, "verbatim_string");
        lua_newtable(lua);
        lua_pushstring(lua, "string");
        PushString(lua, body.size() >= 4 ? body.substr(4) : std::string_view());
        lua_settable(lua, -3);
        lua_pushstring(lua, "format");
        PushString(lua, body.substr(0, 3));
        lua_settable(lua, -3);
        lua_settable(lua, -3);
        return;
      }
      case '*':
      case '>': {
        int64_t n = 0;
        if (!NotNullLength(lua, line, &n)) return;
        if (lua != nullptr) {
          Reserve(lua, 2);
          lua_newtable(lua);
        }
        for (int64_t j = 0; j < n; ++j) {
          if (lua != nullptr) lua_pushnumber(lua, static_cast<lua_Number>(j + 1));
          Parse(lua);
          if (lua != nullptr) lua_settable(lua, -3);
        }
        return;
      }
      case '%':
      case '~': {
        int64_t n = ToInt(line);
        if (lua != nullptr) {
          Reserve(lua, 3);
          lua_newtable(lua);
          lua_pushstring(lua, type == '%' ? "map" : "set");
          lua_newtable(lua);
        }
        for (int64_t j = 0; j < n; ++j) {
          Parse(lua);
          if (type == '%') {
            Parse(lua);
          } else if (lua != nullptr) {
            Reserve(lua, 1);
            lua_pushboolean(lua, 1);
          }
          if (lua != nullptr) lua_settable(lua, -3);
        }
        if (lua != nullptr) lua_settable(lua, -3);
        return;
      }
      case '_':
        if (lua == nullptr) return;
        Reserve(lua, 1);
        lua_pushnil(lua);
        return;
      case '#':
        if (lua == nullptr) return;
        Reserve(lua, 1);
        lua_pushboolean(lua, !line.empty() && line[0] == 't');
        return;
      case ',':
        PushOneFieldTable(lua, "double", [&] {
          lua_pushnumber(lua, std::strtod(std::string(line).c_str(), nullptr));
        });
        return;
      case '(':
        PushOneFieldTable(lua, "big_number", [&] { PushString(lua, line); });
        return;
      case '|': {
        // Attributes are not exposed to scripts: skip them, then read the reply they annotate.
        int64_t n = ToInt(line);
        for (int64_t j = 0; j < n; ++j) {
          Parse(nullptr);
          Parse(nullptr);
        }
        Parse(lua);
        return;
      }
      default:
        if (lua != nullptr) lua_pushnil(lua);
        return;
    }
  }

 private:
  // Redis panics when the Lua stack cannot grow while converting a reply; so do we, loudly.
  static void Reserve(lua_State* lua, int n) {
    if (!lua_checkstack(lua, n))
      luaL_error(lua, "lua stack limit reach when parsing redis.call reply");
  }

  // A status, double or big number reaches Lua as a table of one field: {name = value}.
  template <typename PushValue>
  static void PushOneFieldTable(lua_State* lua, const char* name, PushValue push_value) {
    if (lua == nullptr) return;
    Reserve(lua, 3);
    lua_newtable(lua);
    lua_pushstring(lua, name);
    push_value();
    lua_settable(lua, -3);
  }

  // The length of a bulk string or aggregate. A null one (RESP2's negative length) reaches Lua
  // as false, and the answer is false.
  static bool NotNullLength(lua_State* lua, std::string_view line, int64_t* n) {
    *n = ToInt(line);
    if (*n >= 0) return true;
    if (lua != nullptr) {
      Reserve(lua, 1);
      lua_pushboolean(lua, 0);
    }
    return false;
  }

  std::string_view Line() {
    const char* start = p_;
    while (p_ + 1 < end_ && !(p_[0] == '\r' && p_[1] == '\n')) ++p_;
    std::string_view line(start, static_cast<size_t>(p_ - start));
    p_ = p_ + 2 <= end_ ? p_ + 2 : end_;
    return line;
  }

  std::string_view Take(size_t n) {
    size_t available = static_cast<size_t>(end_ - p_);
    if (n > available) n = available;
    std::string_view body(p_, n);
    p_ += n;
    p_ = p_ + 2 <= end_ ? p_ + 2 : end_;  // the CRLF after the body
    return body;
  }

  static int64_t ToInt(std::string_view s) {
    return std::strtoll(std::string(s).c_str(), nullptr, 10);
  }

  const char* p_;
  const char* end_;
};

// Redis reads some Lua strings through C string functions (sdsnew(lua_tostring())), which stop at
// the first NUL byte.
std::string_view UntilNul(std::string_view s) {
  size_t nul = s.find('\0');
  return nul == std::string_view::npos ? s : s.substr(0, nul);
}

std::string MapCrLf(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c == '\r' || c == '\n') c = ' ';
  }
  return out;
}

// Looks up table[field] without metamethods; leaves the value on the stack.
int RawField(lua_State* lua, const char* field) {
  lua_pushstring(lua, field);
  lua_rawget(lua, -2);
  return lua_type(lua, -1);
}

}  // namespace

int64_t LuaNumberToInt64(double number) {
  // x86-64's cvttsd2si yields the "integer indefinite" value for NaN and out-of-range inputs.
  if (std::isnan(number) || number >= 9223372036854775808.0 || number < -9223372036854775808.0) {
    return INT64_MIN;
  }
  return static_cast<int64_t>(number);
}

int LuaNumberToInt(double number) {
  if (std::isnan(number) || number >= 2147483648.0 || number <= -2147483649.0) return INT_MIN;
  return static_cast<int>(number);
}

uint64_t LuaNumberToUint64(double number) {
  if (number < 9223372036854775808.0 || std::isnan(number)) {
    return static_cast<uint64_t>(LuaNumberToInt64(number));
  }
  return static_cast<uint64_t>(LuaNumberToInt64(number - 9223372036854775808.0)) ^
         0x8000000000000000ULL;
}

void PushReply(lua_State* lua, std::string_view reply) { ReplyParser(reply).Parse(lua); }

void PushErrorTable(lua_State* lua, std::string_view error) {
  std::string_view code = "ERR";
  std::string_view message = error;
  if (!error.empty() && error[0] == '-') {
    size_t space = error.find(' ');
    if (space == std::string_view::npos) {
      message = error.substr(1);
    } else {
      code = error.substr(1, space - 1);
      message = error.substr(space + 1);
    }
  }
  // sdstrim(msg, "\r\n") trims both ends.
  while (!message.empty() && (message.front() == '\r' || message.front() == '\n'))
    message.remove_prefix(1);
  while (!message.empty() && (message.back() == '\r' || message.back() == '\n'))
    message.remove_suffix(1);
  std::string text;
  text.reserve(code.size() + 1 + message.size());
  text.append(code);
  text.push_back(' ');
  text.append(message);
  lua_newtable(lua);
  lua_pushstring(lua, "err");
  // lua_pushstring: a NUL byte ends the message, as in Redis.
  lua_pushstring(lua, text.c_str());
  lua_settable(lua, -3);
}

void WriteFormattedError(resp::ReplyWriter& out, std::string_view text, bool count_in_stats) {
  while (!text.empty() && (text.front() == '\r' || text.front() == '\n')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == '\r' || text.back() == '\n')) text.remove_suffix(1);
  if (count_in_stats) {
    out.Error(text);
    return;
  }
  std::string line =
      text.empty() || text[0] != '-' ? "-ERR " + std::string(text) : std::string(text);
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '\r' || line[i] == '\n') line[i] = ' ';
  }
  line.append("\r\n");
  out.UncountedError(line);
}

void WriteReply(lua_State* lua, int script_resp, resp::ReplyWriter& out) {
  if (!lua_checkstack(lua, 4)) {
    out.Error("reached lua stack limit");
    lua_pop(lua, 1);
    return;
  }
  switch (lua_type(lua, -1)) {
    case LUA_TSTRING:
      out.Bulk(ToStringView(lua, -1));
      break;
    case LUA_TBOOLEAN:
      if (script_resp == 2) {
        if (lua_toboolean(lua, -1)) {
          out.Integer(1);
        } else {
          out.Null();
        }
      } else {
        out.Bool(lua_toboolean(lua, -1) != 0);
      }
      break;
    case LUA_TNUMBER:
      out.Integer(LuaNumberToInt64(lua_tonumber(lua, -1)));
      break;
    case LUA_TTABLE: {
      // {err=...}: an error reply, with its statistics flag.
      if (RawField(lua, "err") == LUA_TSTRING) {
        lua_pop(lua, 1);
        lua_getfield(lua, -1, "err");
        std::string message(ToStringView(lua, -1));
        lua_pop(lua, 1);
        lua_getfield(lua, -1, "ignore_error_stats_update");
        bool ignore_stats = lua_isboolean(lua, -1) && lua_toboolean(lua, -1);
        lua_pop(lua, 1);
        // "-%s" through a C format: the message ends at a NUL byte.
        WriteFormattedError(out, "-" + std::string(UntilNul(message)), !ignore_stats);
        lua_pop(lua, 1);
        return;
      }
      lua_pop(lua, 1);
      if (RawField(lua, "ok") == LUA_TSTRING) {
        out.Status(MapCrLf(UntilNul(ToStringView(lua, -1))));
        lua_pop(lua, 2);
        return;
      }
      lua_pop(lua, 1);
      if (RawField(lua, "double") == LUA_TNUMBER) {
        out.Double(lua_tonumber(lua, -1));
        lua_pop(lua, 2);
        return;
      }
      lua_pop(lua, 1);
      if (RawField(lua, "big_number") == LUA_TSTRING) {
        out.BigNumber(MapCrLf(ToStringView(lua, -1)));
        lua_pop(lua, 2);
        return;
      }
      lua_pop(lua, 1);
      if (RawField(lua, "verbatim_string") == LUA_TTABLE) {
        if (RawField(lua, "format") == LUA_TSTRING) {
          // Redis copies three bytes of the format; a shorter Lua string goes on with its NUL.
          std::string format(UntilNul(ToStringView(lua, -1)));
          format.resize(3, '\0');
          lua_pushstring(lua, "string");
          lua_rawget(lua, -3);
          if (lua_type(lua, -1) == LUA_TSTRING) {
            out.Verbatim(ToStringView(lua, -1), format);
            lua_pop(lua, 4);
            return;
          }
          lua_pop(lua, 1);
        }
        lua_pop(lua, 1);
      }
      lua_pop(lua, 1);
      if (RawField(lua, "map") == LUA_TTABLE) {
        size_t position = out.BeginDeferred();
        size_t pairs = 0;
        lua_pushnil(lua);
        while (lua_next(lua, -2)) {
          lua_pushvalue(lua, -2);
          WriteReply(lua, script_resp, out);  // the key
          WriteReply(lua, script_resp, out);  // the value
          ++pairs;
        }
        out.EndDeferredMap(position, pairs);
        lua_pop(lua, 2);
        return;
      }
      lua_pop(lua, 1);
      if (RawField(lua, "set") == LUA_TTABLE) {
        size_t position = out.BeginDeferred();
        size_t n = 0;
        lua_pushnil(lua);
        while (lua_next(lua, -2)) {
          lua_pop(lua, 1);
          lua_pushvalue(lua, -1);
          WriteReply(lua, script_resp, out);
          ++n;
        }
        out.EndDeferredSet(position, n);
        lua_pop(lua, 2);
        return;
      }
      lua_pop(lua, 1);
      // An array: elements 1, 2, ... up to the first nil.
      size_t position = out.BeginDeferred();
      size_t n = 0;
      for (int j = 1;; ++j) {
        lua_pushnumber(lua, j);
        lua_rawget(lua, -2);
        if (lua_type(lua, -1) == LUA_TNIL) {
          lua_pop(lua, 1);
          break;
        }
        WriteReply(lua, script_resp, out);
        ++n;
      }
      out.EndDeferredArray(position, n);
      break;
    }
    default:
      out.Null();
  }
  lua_pop(lua, 1);
}

}  // namespace redlab::server::scripting
