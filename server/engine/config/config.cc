// CONFIG GET and CONFIG SET over the parameter table of config_params.cc, with Redis's
// matching, error precedence and all-or-nothing semantics (configGetCommand, configSetCommand).
#include "server/engine/config/config.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "server/base/glob.h"
#include "server/base/numbers.h"
#include "server/base/open_files.h"
#include "server/base/text.h"
#include "server/engine/config/config_params.h"

namespace redlab::server::engine {
namespace {

using config_internal::Kind;
using config_internal::Param;
using config_internal::FindParam;
using config_internal::Params;

std::string Render(const Param& p, const ServerConfig& c) {
  switch (p.kind) {
    case Kind::kBool:
      return c.*p.bool_field ? "yes" : "no";
    case Kind::kMemoryPercent:
      if (c.*p.int_field < 0) return Int64ToString(-(c.*p.int_field)) + "%";
      return Int64ToString(c.*p.int_field);
    case Kind::kInt:
      return Int64ToString(c.*p.int_field);
    case Kind::kMemory:
      return std::to_string(static_cast<uint64_t>(c.*p.int_field));
    case Kind::kOctal: {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%llo", static_cast<unsigned long long>(c.*p.int_field));
      return buf;
    }
    case Kind::kEnum:
    case Kind::kString:
      return c.*p.string_field;
    case Kind::kCustom:
      return p.render(c);
  }
  return {};
}

// numericParseString: the number a value stands for, or Redis's reason for refusing it.
std::optional<std::string> ParseNumber(const Param& p, std::string_view value, int64_t* v) {
  switch (p.kind) {
    case Kind::kMemory:
      if (ParseMemory(value, v)) return std::nullopt;
      return "argument must be a memory value";
    case Kind::kMemoryPercent:
      if (ParseMemory(value, v)) return std::nullopt;
      // "N%" is stored as -N.
      if (value.size() > 1 && value.back() == '%' &&
          ParseInt64(value.substr(0, value.size() - 1), v) && *v >= 0) {
        *v = -*v;
        return std::nullopt;
      }
      return "argument must be a memory or percent value";
    case Kind::kOctal: {
      std::string text(value);
      char* end = nullptr;
      errno = 0;
      *v = std::strtoll(text.c_str(), &end, 8);
      if (errno == 0 && *end == '\0') return std::nullopt;
      return "argument couldn't be parsed as an octal number";
    }
    default:
      if (ParseInt64(value, v)) return std::nullopt;
      return "argument couldn't be parsed into an integer";
  }
}

// numericBoundaryCheck, for the bounds and number forms of `p`.
std::optional<std::string> CheckBounds(const Param& p, int64_t v) {
  if (p.kind == Kind::kMemoryPercent && v < 0) {
    if (v >= p.min) return std::nullopt;
    return "percentage argument must be less or equal to " + Int64ToString(-p.min);
  }
  if (p.is_unsigned ? static_cast<uint64_t>(v) >= static_cast<uint64_t>(p.min) &&
                          static_cast<uint64_t>(v) <= static_cast<uint64_t>(p.max)
                    : v >= p.min && v <= p.max) {
    return std::nullopt;
  }
  if (p.kind == Kind::kOctal) {
    char buf[96];
    std::snprintf(buf, sizeof(buf), "argument must be between %llo and %llo inclusive",
                  static_cast<unsigned long long>(p.min), static_cast<unsigned long long>(p.max));
    return buf;
  }
  if (p.is_unsigned) {
    return "argument must be between " + std::to_string(static_cast<uint64_t>(p.min)) + " and " +
           std::to_string(static_cast<uint64_t>(p.max)) + " inclusive";
  }
  return "argument must be between " + Int64ToString(p.min) + " and " + Int64ToString(p.max) +
         " inclusive";
}

// Validates and converts `value` for `p`; on error returns Redis's reason text.
std::optional<std::string> Apply(const Param& p, std::string_view value, ServerConfig* c) {
  switch (p.kind) {
    case Kind::kBool: {
      bool yes = EqualsIgnoreCase(value, "yes");
      if (!yes && !EqualsIgnoreCase(value, "no")) return "argument must be 'yes' or 'no'";
      if (p.check != nullptr) {
        if (auto err = p.check(value, *c)) return err;
      }
      c->*p.bool_field = yes;
      return std::nullopt;
    }
    case Kind::kInt:
    case Kind::kMemory:
    case Kind::kMemoryPercent:
    case Kind::kOctal: {
      int64_t v = 0;
      if (auto err = ParseNumber(p, value, &v)) return err;
      if (auto err = CheckBounds(p, v)) return err;
      if (p.clamp_max > 0 && v > p.clamp_max) v = p.clamp_max;
      if (p.clamp_min > 0 && v < p.clamp_min) v = p.clamp_min;
      c->*p.int_field = v;
      return std::nullopt;
    }
    case Kind::kEnum:
      for (std::string_view choice : p.choices) {
        if (EqualsIgnoreCase(choice, value)) {
          c->*p.string_field = std::string(choice);
          return std::nullopt;
        }
      }
      return config_internal::EnumError(p.choices);
    case Kind::kString:
      if (p.check != nullptr) {
        if (auto err = p.check(value, *c)) return err;
      }
      c->*p.string_field = std::string(value);
      return std::nullopt;
    case Kind::kCustom:
      return p.parse(value, c);
  }
  return std::nullopt;
}

}  // namespace

bool ParseMemory(std::string_view s, int64_t* out) {
  // memtoull: digits followed by an optional unit b, k, kb, m, mb, g, gb (any case).
  if (!s.empty() && s[0] == '-') return false;
  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
  std::string_view unit = s.substr(digits);
  uint64_t mul = 1;
  if (unit.empty() || EqualsIgnoreCase(unit, "b")) {
    mul = 1;
  } else if (EqualsIgnoreCase(unit, "k")) {
    mul = 1000;
  } else if (EqualsIgnoreCase(unit, "kb")) {
    mul = 1024;
  } else if (EqualsIgnoreCase(unit, "m")) {
    mul = 1000 * 1000;
  } else if (EqualsIgnoreCase(unit, "mb")) {
    mul = 1024 * 1024;
  } else if (EqualsIgnoreCase(unit, "g")) {
    mul = 1000ULL * 1000 * 1000;
  } else if (EqualsIgnoreCase(unit, "gb")) {
    mul = 1024ULL * 1024 * 1024;
  } else {
    return false;
  }
  if (digits >= 128) return false;
  // strtoull: no digits is 0, too many saturate; the product wraps, as in Redis.
  uint64_t v = 0;
  for (size_t i = 0; i < digits; ++i) {
    uint64_t d = static_cast<uint64_t>(s[i] - '0');
    v = v > (UINT64_MAX - d) / 10 ? UINT64_MAX : v * 10 + d;
  }
  *out = static_cast<int64_t>(v * mul);
  return true;
}

bool ConfigRegistry::IsSensitive(std::string_view name) {
  const Param* p = FindParam(name);
  return p != nullptr && p->sensitive;
}

std::vector<std::pair<std::string, std::string>> ConfigRegistry::Get(
    const std::vector<std::string_view>& patterns) const {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string_view> seen;
  for (std::string_view pattern : patterns) {
    // A name without glob characters is looked up directly and answered under the name given,
    // as Redis's configGetCommand does.
    if (pattern.find_first_of("[*?") == std::string_view::npos) {
      const Param* p = FindParam(pattern);
      if (p != nullptr && !seen.count(pattern)) {
        seen.insert(pattern);
        out.emplace_back(std::string(pattern), Render(*p, *config_));
      }
      continue;
    }
    for (const Param& p : Params()) {
      if (p.hidden) continue;  // hidden parameters answer only when named exactly
      for (std::string_view name : {p.name, p.alias}) {
        if (name.empty() || seen.count(name)) continue;
        if (GlobMatch(pattern, name, /*nocase=*/true)) {
          seen.insert(name);
          out.emplace_back(std::string(name), Render(p, *config_));
        }
      }
    }
  }
  return out;
}

std::optional<std::string> ConfigRegistry::Set(
    const std::vector<std::pair<std::string_view, std::string_view>>& pairs, bool startup,
    bool allow_protected) {
  std::vector<const Param*> params;
  // Redis registers an alias as a config of its own: a parameter named twice is a duplicate,
  // but named once and once by its alias it is simply set twice (the last value wins).
  std::vector<std::pair<const Param*, bool>> named;  // parameter, named by its alias
  for (const auto& [name, value] : pairs) {
    const Param* p = FindParam(name);
    if (p == nullptr) {
      return "Unknown option or number of arguments for CONFIG SET - '" + std::string(name) + "'";
    }
    if (p->immutable && !startup) {
      return "CONFIG SET failed (possibly related to argument '" + std::string(name) +
             "') - can't set immutable config";
    }
    if (p->protected_config && !startup && !allow_protected) {
      return "CONFIG SET failed (possibly related to argument '" + std::string(name) +
             "') - can't set protected config";
    }
    std::pair<const Param*, bool> key{p, !EqualsIgnoreCase(p->name, name)};
    if (std::find(named.begin(), named.end(), key) != named.end()) {
      return "CONFIG SET failed (possibly related to argument '" + std::string(name) +
             "') - duplicate parameter";
    }
    named.push_back(key);
    params.push_back(p);
  }
  ServerConfig updated = *config_;
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (auto err = Apply(*params[i], pairs[i].second, &updated)) {
      // A refused value is reported under the parameter's own (lower-case) name, or its alias's.
      std::string_view shown = named[i].second ? params[i]->alias : params[i]->name;
      return "CONFIG SET failed (possibly related to argument '" + std::string(shown) + "') - " +
             *err;
    }
  }
  // applyTlsCfg and applyTLSPort run for TLS settings that changed; tlsConfigure fails here as
  // in a Redis without certificates (redlab has no TLS), so TLS can only stay off.
  if (updated.tls_port != 0 || updated.tls_replication || updated.tls_cluster) {
    for (const Param* p : params) {
      if (p->tls && Render(*p, *config_) != Render(*p, updated)) {
        return "CONFIG SET failed (possibly related to argument '" + std::string(p->name) +
               "') - Unable to update TLS configuration. Check server logs.";
      }
    }
  }
  // updateMaxclients: a larger maxclients raises the open-file limit, or is refused with the
  // number the system can serve (at startup adjustOpenFilesLimit reduces it instead).
  if (!startup && updated.maxclients != config_->maxclients) {
    std::vector<OpenFilesLine> log;
    int64_t possible = AdjustOpenFilesLimit(updated.maxclients, &log);
    if (possible != updated.maxclients) {
      return "CONFIG SET failed (possibly related to argument 'maxclients') - The operating "
             "system is not able to handle the specified number of clients, try with " +
             std::to_string(possible);
    }
  }
  *config_ = std::move(updated);
  return std::nullopt;
}

}  // namespace redlab::server::engine
