// Small string helpers shared by the engine (case-insensitive comparison, as strcasecmp).
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace redlab::server {

inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// What Redis sees of an argument it reads as a C string: the bytes before the first NUL.
inline std::string_view CStringPrefix(std::string_view s) { return s.substr(0, s.find('\0')); }

inline std::string ToUpper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

inline std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
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

}  // namespace redlab::server
