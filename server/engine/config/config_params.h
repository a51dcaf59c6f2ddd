// The description of one configuration parameter, as Redis's standardConfig: its name and alias,
// its type and bounds, its flags and the ServerConfig field it lives in. The table of every
// parameter is in config_params.cc; config.cc implements CONFIG GET and SET over it.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/engine/config/config.h"

namespace redlab::server::engine::config_internal {

enum class Kind {
  kBool,           // yes / no
  kInt,            // a decimal integer (string2ll) within [min, max]
  kMemory,         // a memory value ("5mb", memtoull) within [min, max]
  kMemoryPercent,  // a memory value or "N%" (stored as -N), N at most -min
  kOctal,          // an octal number (strtoll base 8), shown in octal
  kEnum,           // one of `choices`, stored as the choice's name
  kString,         // any string, optionally checked
  kCustom,         // its own text form and parser
};

using Check = std::optional<std::string> (*)(std::string_view value, const ServerConfig&);
using Render = std::string (*)(const ServerConfig&);
using Parse = std::optional<std::string> (*)(std::string_view value, ServerConfig*);

struct Param {
  std::string_view name;
  std::string_view alias;
  Kind kind = Kind::kString;
  bool ServerConfig::*bool_field = nullptr;
  int64_t ServerConfig::*int_field = nullptr;
  std::string ServerConfig::*string_field = nullptr;
  int64_t min = 0;
  int64_t max = std::numeric_limits<int64_t>::max();
  std::vector<std::string_view> choices;  // kEnum
  // kBool, kString: refuses a value the type accepts, with Redis's reason (is_valid_fn).
  Check check = nullptr;
  Render render = nullptr;  // kCustom
  Parse parse = nullptr;    // kCustom: returns Redis's error text on failure
  // hz: values outside [clamp_min, clamp_max] are silently brought inside (unused when 0).
  int64_t clamp_min = 0;
  int64_t clamp_max = 0;
  // An unsigned C type in Redis (size_t, unsigned long long...): bounds compare unsigned, so a
  // memory value past 2^63 is out of range rather than negative, and max -1 is ULLONG_MAX.
  bool is_unsigned = false;
  // TLS's settings (applyTlsCfg, applyTLSPort): redlab cannot configure TLS, so changing one
  // fails while TLS is on (tls-port, tls-replication or tls-cluster set).
  bool tls = false;
  bool immutable = false;  // set at startup only ("can't set immutable config")
  // Settable at runtime only as enable-protected-configs allows ("can't set protected config").
  bool protected_config = false;
  bool hidden = false;     // answered when named, never matched by a pattern (CONFIG GET *)
  bool sensitive = false;  // a secret: redacted from SLOWLOG and MONITOR
  // kString: "" stands for Redis's NULL (EMPTY_STRING_IS_NULL): CONFIG REWRITE leaves it out.
  bool empty_is_null = false;

  // Modifiers for the table's one-line entries: a copy with `field` set to `value`.
  template <typename T, typename V>
  Param With(T Param::*field, V value) const {
    Param p = *this;
    p.*field = value;
    return p;
  }
  Param Alias(std::string_view a) const { return With(&Param::alias, a); }
  Param Immutable() const { return With(&Param::immutable, true); }
  Param Protected() const { return With(&Param::protected_config, true); }
  Param Hidden() const { return With(&Param::hidden, true); }
  Param Sensitive() const { return With(&Param::sensitive, true); }
  Param Checked(Check c) const { return With(&Param::check, c); }
  Param Unsigned() const { return With(&Param::is_unsigned, true); }
  Param Tls() const { return With(&Param::tls, true); }
  Param Clamp(int64_t lo, int64_t hi) const {
    return With(&Param::clamp_min, lo).With(&Param::clamp_max, hi);
  }
};

// Every parameter of redis-server 7.0.15, in the order of its static_configs[].
const std::vector<Param>& Params();

// The parameter called `name` or aliased so (any case), or null.
const Param* FindParam(std::string_view name);

// A MULTI_ARG value split as Redis's sdssplitlen on single spaces: "" gives no words, two spaces
// give an empty word between them.
std::vector<std::string_view> SplitArgs(std::string_view value);

// Redis's enum error: "argument(s) must be one of the following: a, b, c".
std::string EnumError(const std::vector<std::string_view>& choices);

}  // namespace redlab::server::engine::config_internal
