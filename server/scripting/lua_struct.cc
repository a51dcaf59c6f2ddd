// Format letters (as in Redis):
//   > big endian, < little endian, ![n] alignment (default the maximum, 8), x one byte of padding,
//   b/B signed/unsigned char, h/H short, l/L long, T size_t, i/I[n] int of n bytes (default 4,
//   at most 32), f float, d double, c[n] n chars (pack: n == 0 means the whole string; unpack:
//   the previous number read), s zero-terminated string, ' ' ignored.
#include "server/scripting/lua_struct.h"

#include <cctype>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>

#include "server/scripting/conversions.h"
#include "server/scripting/lua_util.h"

namespace redlab::server::scripting {
namespace {

constexpr int kBig = 0;
constexpr int kLittle = 1;
constexpr int kNative = kLittle;  // x86-64
constexpr int kMaxIntSize = 32;
constexpr int kMaxAlign = 8;  // offsetof(struct { char c; double d; }, d)

struct Header {
  int endian = kNative;
  int align = 1;
};

bool IsPowerOf2(int x) { return x > 0 && (x & (x - 1)) == 0; }

int GetNum(lua_State* lua, const char** fmt, int default_value) {
  if (!std::isdigit(static_cast<unsigned char>(**fmt))) return default_value;
  int a = 0;
  do {
    if (a > (INT_MAX / 10) || a * 10 > (INT_MAX - (**fmt - '0')))
      luaL_error(lua, "integral size overflow");
    a = a * 10 + *((*fmt)++) - '0';
  } while (std::isdigit(static_cast<unsigned char>(**fmt)));
  return a;
}

size_t OptSize(lua_State* lua, char opt, const char** fmt) {
  switch (opt) {
    case 'B':
    case 'b':
      return 1;
    case 'H':
    case 'h':
      return 2;
    case 'L':
    case 'l':
    case 'T':
    case 'd':
      return 8;
    case 'f':
      return 4;
    case 'x':
      return 1;
    case 'c':
      return static_cast<size_t>(GetNum(lua, fmt, 1));
    case 'i':
    case 'I': {
      int size = GetNum(lua, fmt, 4);
      if (size > kMaxIntSize) {
        luaL_error(lua, "integral size %d is larger than limit of %d", size, kMaxIntSize);
      }
      return static_cast<size_t>(size);
    }
    default:
      return 0;  // the other options need no alignment
  }
}

// Bytes of padding needed to align an item of `size` bytes at offset `len`.
size_t ToAlign(size_t len, const Header& h, int opt, size_t size) {
  if (size == 0 || opt == 'c') return 0;
  if (size > static_cast<size_t>(h.align)) size = static_cast<size_t>(h.align);
  return (size - (len & (size - 1))) & (size - 1);
}

void ControlOptions(lua_State* lua, int opt, const char** fmt, Header* h) {
  switch (opt) {
    case ' ':
      return;
    case '>':
      h->endian = kBig;
      return;
    case '<':
      h->endian = kLittle;
      return;
    case '!': {
      int a = GetNum(lua, fmt, kMaxAlign);
      if (!IsPowerOf2(a)) luaL_error(lua, "alignment %d is not a power of 2", a);
      h->align = a;
      return;
    }
    default: {
      const char* msg = lua_pushfstring(lua, "invalid format option '%c'", opt);
      luaL_argerror(lua, 1, msg);
    }
  }
}

void PutInteger(lua_State* lua, std::string* out, int arg, int endian, int size) {
  lua_Number n = luaL_checknumber(lua, arg);
  uint64_t value = n < 0 ? static_cast<uint64_t>(LuaNumberToInt64(n)) : LuaNumberToUint64(n);
  char buff[kMaxIntSize];
  if (endian == kLittle) {
    for (int i = 0; i < size; ++i) {
      buff[i] = static_cast<char>(value & 0xff);
      value >>= 8;
    }
  } else {
    for (int i = size - 1; i >= 0; --i) {
      buff[i] = static_cast<char>(value & 0xff);
      value >>= 8;
    }
  }
  out->append(buff, static_cast<size_t>(size));
}

void CorrectBytes(char* b, int size, int endian) {
  if (endian == kNative) return;
  int i = 0;
  while (i < --size) {
    char temp = b[i];
    b[i++] = b[size];
    b[size] = temp;
  }
}

// The integer options (b B h H l L T i I) all as 'i', any other option as itself: the
// switches of Pack and Unpack treat the integers alike (their size and sign come from the
// option itself).
int OptionKind(int opt) {
  return opt != '\0' && std::strchr("bBhHlLTiI", opt) != nullptr ? 'i' : opt;
}

// Appends n as a T (float for 'f', double for 'd') in the byte order `endian`.
template <typename T>
void PutFloat(std::string* out, lua_Number n, int endian) {
  T value = static_cast<T>(n);
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  CorrectBytes(bytes, sizeof(T), endian);
  out->append(bytes, sizeof(T));
}

// Pushes the T (float for 'f', double for 'd') stored at p in the byte order `endian`.
template <typename T>
void PushFloat(lua_State* lua, const char* p, int endian) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  CorrectBytes(reinterpret_cast<char*>(&value), sizeof(T), endian);
  lua_pushnumber(lua, value);
}

int Pack(lua_State* lua) {
  const char* fmt = luaL_checkstring(lua, 1);
  // Redis's struct pushes a nil to separate the arguments from its buffer: the first missing
  // argument then reads as nil ("number expected, got nil"), not as no value.
  lua_pushnil(lua);
  Header h;
  int arg = 2;
  size_t total = 0;
  std::string out;
  while (*fmt != '\0') {
    int opt = *fmt++;
    size_t size = OptSize(lua, static_cast<char>(opt), &fmt);
    size_t pad = ToAlign(total, h, opt, size);
    total += pad;
    out.append(pad, '\0');
    switch (OptionKind(opt)) {
      case 'i':
        PutInteger(lua, &out, arg++, h.endian, static_cast<int>(size));
        break;
      case 'x':
        out.push_back('\0');
        break;
      case 'f':
        PutFloat<float>(&out, luaL_checknumber(lua, arg++), h.endian);
        break;
      case 'd':
        PutFloat<double>(&out, luaL_checknumber(lua, arg++), h.endian);
        break;
      case 'c':
      case 's': {
        size_t len = 0;
        const char* s = luaL_checklstring(lua, arg++, &len);
        if (size == 0) size = len;
        // (The argument number reported is the next one, as in Redis.)
        luaL_argcheck(lua, len >= size, arg, "string too short");
        out.append(s, size);
        if (opt == 's') {
          out.push_back('\0');
          ++size;
        }
        break;
      }
      default:
        ControlOptions(lua, opt, &fmt, &h);
    }
    total += size;
  }
  PushString(lua, out);
  return 1;
}

lua_Number GetInteger(const char* buff, int endian, bool is_signed, int size) {
  uint64_t l = 0;
  if (endian == kBig) {
    for (int i = 0; i < size; ++i) {
      l <<= 8;
      l |= static_cast<unsigned char>(buff[i]);
    }
  } else {
    for (int i = size - 1; i >= 0; --i) {
      l <<= 8;
      l |= static_cast<unsigned char>(buff[i]);
    }
  }
  if (!is_signed) return static_cast<lua_Number>(l);
  // x86-64 shifts by the count modulo 64 (sizes over 8 bytes).
  uint64_t mask = ~uint64_t{0} << ((size * 8 - 1) & 63);
  if (l & mask) l |= mask;  // sign extension
  return static_cast<lua_Number>(static_cast<int64_t>(l));
}

int Unpack(lua_State* lua) {
  Header h;
  const char* fmt = luaL_checkstring(lua, 1);
  size_t ld = 0;
  const char* data = luaL_checklstring(lua, 2, &ld);
  size_t pos = static_cast<size_t>(luaL_optinteger(lua, 3, 1));
  luaL_argcheck(lua, pos > 0, 3, "offset must be 1 or greater");
  --pos;      // 0-based from here
  int n = 0;  // results pushed
  lua_settop(lua, 2);
  while (*fmt) {
    int opt = *fmt++;
    size_t size = OptSize(lua, static_cast<char>(opt), &fmt);
    pos += ToAlign(pos, h, opt, size);
    luaL_argcheck(lua, size <= ld && pos <= ld - size, 2, "data string too short");
    luaL_checkstack(lua, 2, "too many results");
    switch (OptionKind(opt)) {
      case 'i': {
        bool is_signed = std::islower(opt) != 0;
        lua_pushnumber(lua, GetInteger(data + pos, h.endian, is_signed, static_cast<int>(size)));
        ++n;
        break;
      }
      case 'x':
        break;
      case 'f':
        PushFloat<float>(lua, data + pos, h.endian);
        ++n;
        break;
      case 'd':
        PushFloat<double>(lua, data + pos, h.endian);
        ++n;
        break;
      case 'c': {
        if (size == 0) {
          // The length is the number read just before.
          if (n == 0 || !lua_isnumber(lua, -1))
            luaL_error(lua, "format 'c0' needs a previous size");
          size = LuaNumberToUint64(lua_tonumber(lua, -1));
          lua_pop(lua, 1);
          --n;
          luaL_argcheck(lua, size <= ld && pos <= ld - size, 2, "data string too short");
        }
        lua_pushlstring(lua, data + pos, size);
        ++n;
        break;
      }
      case 's': {
        const char* e = static_cast<const char*>(std::memchr(data + pos, '\0', ld - pos));
        if (e == nullptr) luaL_error(lua, "unfinished string in data");
        size = static_cast<size_t>(e - (data + pos)) + 1;
        lua_pushlstring(lua, data + pos, size - 1);
        ++n;
        break;
      }
      default:
        ControlOptions(lua, opt, &fmt, &h);
    }
    pos += size;
  }
  lua_pushinteger(lua, static_cast<lua_Integer>(pos + 1));  // the next position
  return n + 1;
}

int Size(lua_State* lua) {
  Header h;
  const char* fmt = luaL_checkstring(lua, 1);
  size_t pos = 0;
  while (*fmt) {
    int opt = *fmt++;
    size_t size = OptSize(lua, static_cast<char>(opt), &fmt);
    pos += ToAlign(pos, h, opt, size);
    if (opt == 's') {
      luaL_argerror(lua, 1, "option 's' has no fixed size");
    } else if (opt == 'c' && size == 0) {
      luaL_argerror(lua, 1, "option 'c0' has no fixed size");
    }
    if (!std::isalnum(opt)) ControlOptions(lua, opt, &fmt, &h);
    pos += size;
  }
  lua_pushinteger(lua, static_cast<lua_Integer>(pos));
  return 1;
}

}  // namespace

int OpenStructLibrary(lua_State* lua) {
  lua_newtable(lua);
  SetFunctions(lua, {{"pack", Pack}, {"unpack", Unpack}, {"size", Size}});
  return 1;
}

}  // namespace redlab::server::scripting
