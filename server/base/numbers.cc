#include "server/base/numbers.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace redlab::server {
namespace {

// Redis's MAX_LONG_DOUBLE_CHARS: the buffer string2ld copies into.
constexpr size_t kMaxLongDoubleChars = 5 * 1024;

}  // namespace

bool ParseInt64(std::string_view s, int64_t* out) {
  // Longer than "-9223372036854775808" cannot be valid (Redis's LONG_STR_SIZE check).
  if (s.empty() || s.size() >= 21) return false;
  if (s.size() == 1 && s[0] == '0') {
    *out = 0;
    return true;
  }
  size_t i = 0;
  bool negative = false;
  if (s[0] == '-') {
    negative = true;
    if (++i == s.size()) return false;
  }
  if (s[i] < '1' || s[i] > '9') return false;
  uint64_t v = static_cast<uint64_t>(s[i++] - '0');
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    uint64_t digit = static_cast<uint64_t>(s[i] - '0');
    if (v > UINT64_MAX / 10) return false;
    v *= 10;
    if (v > UINT64_MAX - digit) return false;
    v += digit;
  }
  if (negative) {
    if (v > static_cast<uint64_t>(INT64_MAX) + 1) return false;
    *out = static_cast<int64_t>(0 - v);
  } else {
    if (v > static_cast<uint64_t>(INT64_MAX)) return false;
    *out = static_cast<int64_t>(v);
  }
  return true;
}

bool ParseDouble(std::string_view s, double* out) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  // strtod needs a terminated string; long inputs (rare) take a heap copy.
  char small[128];
  std::string large;
  const char* buf = small;
  if (s.size() < sizeof(small)) {
    std::memcpy(small, s.data(), s.size());
    small[s.size()] = '\0';
  } else {
    large.assign(s);
    buf = large.c_str();
  }
  errno = 0;
  char* end = nullptr;
  double value = std::strtod(buf, &end);
  if (static_cast<size_t>(end - buf) != s.size()) return false;
  if (errno == ERANGE &&
      (value == HUGE_VAL || value == -HUGE_VAL || std::fpclassify(value) == FP_ZERO)) {
    return false;
  }
  if (std::isnan(value)) return false;
  *out = value;
  return true;
}

bool ParseLongDouble(std::string_view s, long double* out) {
  if (s.empty() || s.size() >= kMaxLongDoubleChars) return false;
  char buf[kMaxLongDoubleChars];
  std::memcpy(buf, s.data(), s.size());
  buf[s.size()] = '\0';
  errno = 0;
  char* end = nullptr;
  long double value = std::strtold(buf, &end);
  if (std::isspace(static_cast<unsigned char>(buf[0])) || *end != '\0' ||
      static_cast<size_t>(end - buf) != s.size()) {
    return false;
  }
  if (errno == ERANGE &&
      (value == HUGE_VALL || value == -HUGE_VALL || std::fpclassify(value) == FP_ZERO)) {
    return false;
  }
  if (errno == EINVAL || std::isnan(value)) return false;
  *out = value;
  return true;
}

std::string FormatLongDoubleHuman(long double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[kMaxLongDoubleChars];
  int len = std::snprintf(buf, sizeof(buf), "%.17Lf", value);
  if (len <= 0 || static_cast<size_t>(len) + 1 > sizeof(buf)) return std::string();
  if (std::memchr(buf, '.', static_cast<size_t>(len)) != nullptr) {
    char* p = buf + len - 1;
    while (*p == '0') {
      --p;
      --len;
    }
    if (*p == '.') --len;
  }
  if (len == 2 && buf[0] == '-' && buf[1] == '0') {
    buf[0] = '0';
    len = 1;
  }
  return std::string(buf, static_cast<size_t>(len));
}

std::string FormatLongDoubleAuto(long double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[kMaxLongDoubleChars];
  int len = std::snprintf(buf, sizeof(buf), "%.17Lg", value);
  return std::string(buf, static_cast<size_t>(len));
}

void AppendInt64(std::string* out, int64_t value) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  out->append(buf, static_cast<size_t>(end - buf));
}

std::string Int64ToString(int64_t value) {
  std::string s;
  AppendInt64(&s, value);
  return s;
}

}  // namespace redlab::server
