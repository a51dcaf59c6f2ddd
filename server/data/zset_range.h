// The intervals the sorted-set range commands take: score ranges ("(1.5", "-inf", "+inf"), as
// Redis's zslParseRange reads them, and member ranges for the BYLEX forms ("[a", "(a", "-",
// "+"), as zslParseLexRange reads them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace redlab::server {

struct ScoreRange {
  double min = 0;
  double max = 0;
  bool min_exclusive = false;
  bool max_exclusive = false;

  bool GteMin(double v) const { return min_exclusive ? v > min : v >= min; }
  bool LteMax(double v) const { return max_exclusive ? v < max : v <= max; }
  // A range no score can be in (zslIsInRange's first test).
  bool Empty() const { return min > max || (min == max && (min_exclusive || max_exclusive)); }
};

// zslParseRange: strtod over each bound (a leading '(' makes it exclusive), refusing trailing
// characters and NaN. Like Redis it reads the arguments as C strings: leading spaces, hex and
// an empty bound (0) are accepted, and parsing stops at a NUL byte.
bool ParseScoreRange(const std::string& min, const std::string& max, ScoreRange* out);

struct LexBound {
  enum class Kind : uint8_t { kMinusInfinity, kValue, kPlusInfinity };
  Kind kind = Kind::kValue;
  bool exclusive = false;
  std::string value;  // for kValue
};

// Compares a member with a bound (sdscmplex): "-" is below every string, "+" above.
int CompareLex(std::string_view value, const LexBound& bound);

struct LexRange {
  LexBound min;
  LexBound max;

  bool GteMin(std::string_view v) const {
    int cmp = CompareLex(v, min);
    return min.exclusive ? cmp > 0 : cmp >= 0;
  }
  bool LteMax(std::string_view v) const {
    int cmp = CompareLex(v, max);
    return max.exclusive ? cmp < 0 : cmp <= 0;
  }
  // A range no member can be in (zslIsInLexRange's first test).
  bool Empty() const;
};

// zslParseLexRange: each bound is "-", "+", or '[' / '(' followed by the (possibly empty)
// string; anything else is refused.
bool ParseLexRange(std::string_view min, std::string_view max, LexRange* out);

}  // namespace redlab::server
