// Number parsing and formatting with Redis's exact rules (string2ll, string2d, string2ld,
// ld2string), so that what is accepted, refused and printed matches redis-server byte for byte.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace redlab::server {

// Parses a signed 64-bit decimal exactly as Redis's string2ll: no spaces, no '+', no leading
// zeros (except "0"), "-0" rejected.
bool ParseInt64(std::string_view s, int64_t* out);

// string2d / getDoubleFromObject: strtod over the whole string, no leading space, no NaN, and
// no overflow to ±HUGE_VAL (but "inf" spelled out is accepted).
bool ParseDouble(std::string_view s, double* out);

// string2ld: as ParseDouble with long double precision (INCRBYFLOAT, HINCRBYFLOAT).
bool ParseLongDouble(std::string_view s, long double* out);

// ld2string in LD_STR_HUMAN mode: "%.17Lf" with trailing zeros (and a bare '.') removed, "-0"
// printed as "0". Used for the results of INCRBYFLOAT and HINCRBYFLOAT.
std::string FormatLongDoubleHuman(long double value);

// ld2string in LD_STR_AUTO mode ("%.17Lg").
std::string FormatLongDoubleAuto(long double value);

// Appends the decimal form of `value` (no allocation beyond the string's growth).
void AppendInt64(std::string* out, int64_t value);
std::string Int64ToString(int64_t value);

// Whether a + b leaves int64: INCRBY's and HINCRBY's "increment or decrement would overflow".
inline bool AddOverflows(int64_t a, int64_t b) {
  int64_t sum;
  return __builtin_add_overflow(a, b, &sum);
}

// Redis's string2l on the full string (used where Redis parses into a C long; same as int64 here).
inline bool ParseLong(std::string_view s, int64_t* out) { return ParseInt64(s, out); }

}  // namespace redlab::server
