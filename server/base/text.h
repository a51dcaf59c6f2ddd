// Small string helpers shared by the engine (case-insensitive comparison, as strcasecmp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace redlab::server {

// tolower/toupper of the C locale, the one Redis runs in (it never sets LC_CTYPE), inlined: only
// ASCII letters change.
constexpr char AsciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }
constexpr char AsciiUpper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; }

inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

// FNV-1a over the lower-cased bytes: with EqualsIgnoreCase, a hash table keyed without regard to
// case (Redis's dictSdsCaseHash) that finds "GET", "get" and "Get" without building a string.
inline size_t HashIgnoreCase(std::string_view s) {
  uint64_t h = 14695981039346656037ull;
  for (char c : s) {
    h ^= static_cast<unsigned char>(AsciiLower(c));
    h *= 1099511628211ull;
  }
  return static_cast<size_t>(h);
}

// What Redis sees of an argument it reads as a C string: the bytes before the first NUL.
inline std::string_view CStringPrefix(std::string_view s) { return s.substr(0, s.find('\0')); }

inline std::string ToUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiUpper(c);
  return out;
}

inline std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiLower(c);
  return out;
}

// sdstrim(s, " \t\r\n"): `s` without its leading and trailing spaces, tabs, CRs and LFs (how
// Redis trims a configuration line).
inline std::string_view TrimSpace(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n";
  size_t start = s.find_first_not_of(kSpace);
  if (start == std::string_view::npos) return {};
  return s.substr(start, s.find_last_not_of(kSpace) - start + 1);
}

// Redis's sdscatrepr: `s` in double quotes with C escapes, non-printable bytes as \xHH (MONITOR).
inline void AppendRepr(std::string* out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '\\':
        *out += "\\\\";
        break;
      case '"':
        *out += "\\\"";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\r':
        *out += "\\r";
        break;
      case '\t':
        *out += "\\t";
        break;
      case '\a':
        *out += "\\a";
        break;
      case '\b':
        *out += "\\b";
        break;
      default:
        if (c >= 0x20 && c <= 0x7e) {
          out->push_back(c);
        } else {
          auto b = static_cast<unsigned char>(c);
          *out += "\\x";
          out->push_back(kHex[b >> 4]);
          out->push_back(kHex[b & 0xf]);
        }
    }
  }
  out->push_back('"');
}

// The names of the bits set in `flags`, in the order of `names` (a table of bit and name, as
// the flag lists of COMMAND INFO, COMMAND DOCS and ACL GETUSER are built).
template <size_t N>
std::vector<std::string_view> BitNames(uint64_t flags,
                                       const std::pair<uint32_t, std::string_view> (&names)[N]) {
  std::vector<std::string_view> out;
  for (const auto& [bit, name] : names) {
    if (flags & bit) out.push_back(name);
  }
  return out;
}

// The name of enumerator `e` in `names`, a table in the enum's order (enumerators 0, 1, 2...),
// or `fallback` past its end. Each table states its size against the enum's last enumerator
// with a static_assert, so an enumerator added without a name fails the build.
template <typename T, typename Enum, size_t N>
constexpr T EnumName(const T (&names)[N], Enum e, T fallback) {
  auto i = static_cast<size_t>(e);
  return i < N ? names[i] : fallback;
}

}  // namespace redlab::server
