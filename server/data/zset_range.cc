#include "server/data/zset_range.h"

#include <cmath>
#include <cstdlib>

namespace redlab::server {
namespace {

using Kind = LexBound::Kind;

// One bound of zslParseRange: strtod over a C string that must be consumed to its end.
bool ParseScoreBound(const char* s, double* value, bool* exclusive) {
  *exclusive = false;
  if (s[0] == '(') {
    *exclusive = true;
    ++s;
  }
  char* end = nullptr;
  *value = std::strtod(s, &end);
  return *end == '\0' && !std::isnan(*value);
}

bool ParseLexBound(std::string_view s, LexBound* out) {
  // Redis reads item[0] and item[1] of a NUL-terminated string: an empty item is refused, and
  // "-" / "+" must end there (or at a NUL byte).
  if (s.empty()) return false;
  switch (s[0]) {
    case '-':
    case '+':
      if (s.size() > 1 && s[1] != '\0') return false;
      out->kind = s[0] == '-' ? Kind::kMinusInfinity : Kind::kPlusInfinity;
      out->exclusive = true;
      out->value.clear();
      return true;
    case '(':
    case '[':
      out->kind = Kind::kValue;
      out->exclusive = s[0] == '(';
      out->value.assign(s.substr(1));
      return true;
    default:
      return false;
  }
}

// sdscmplex between two bounds: equal infinities compare equal.
int CompareBounds(const LexBound& a, const LexBound& b) {
  if (a.kind != Kind::kValue && a.kind == b.kind) return 0;
  if (a.kind == Kind::kMinusInfinity || b.kind == Kind::kPlusInfinity) return -1;
  if (a.kind == Kind::kPlusInfinity || b.kind == Kind::kMinusInfinity) return 1;
  return std::string_view(a.value).compare(b.value);
}

}  // namespace

bool ParseScoreRange(const std::string& min, const std::string& max, ScoreRange* out) {
  return ParseScoreBound(min.c_str(), &out->min, &out->min_exclusive) &&
         ParseScoreBound(max.c_str(), &out->max, &out->max_exclusive);
}

int CompareLex(std::string_view value, const LexBound& bound) {
  switch (bound.kind) {
    case Kind::kMinusInfinity:
      return 1;
    case Kind::kPlusInfinity:
      return -1;
    case Kind::kValue:
      break;
  }
  int cmp = value.compare(bound.value);
  return cmp < 0 ? -1 : (cmp > 0 ? 1 : 0);
}

bool LexRange::Empty() const {
  int cmp = CompareBounds(min, max);
  return cmp > 0 || (cmp == 0 && (min.exclusive || max.exclusive));
}

bool ParseLexRange(std::string_view min, std::string_view max, LexRange* out) {
  return ParseLexBound(min, &out->min) && ParseLexBound(max, &out->max);
}

}  // namespace redlab::server
