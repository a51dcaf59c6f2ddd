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

  // Modifiers for the table's one-line entries.
  Param Alias(std::string_view a) const {
    Param p = *this;
    p.alias = a;
    return p;
  }
  Param Immutable() const {
    Param p = *this;
    p.immutable = true;
    return p;
  }
  Param Protected() const {
    Param p = *this;
    p.protected_config = true;
    return p;
  }
  Param Hidden() const {
    Param p = *this;
    p.hidden = true;
    return p;
  }
  Param Sensitive() const {
    Param p = *this;
    p.sensitive = true;
    return p;
  }
  Param Checked(Check c) const {
    Param p = *this;
    p.check = c;
    return p;
  }
  Param Unsigned() const {
    Param p = *this;
    p.is_unsigned = true;
    return p;
  }
  Param Tls() const {
    Param p = *this;
    p.tls = true;
    return p;
  }
  Param Clamp(int64_t lo, int64_t hi) const {
    Param p = *this;
    p.clamp_min = lo;
    p.clamp_max = hi;
    return p;
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
