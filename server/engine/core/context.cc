#include "server/engine/core/context.h"

#include <cmath>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {

Keyspace& CommandContext::keyspace() { return engine_.keyspace(); }
Db& CommandContext::db() { return engine_.keyspace().db(client_.db()); }
int64_t CommandContext::now_ms() { return engine_.keyspace().now_ms(); }

bool CommandContext::IntArg(size_t i, int64_t* out) { return IntArg(i, out, err::kNotInteger); }

bool CommandContext::IntArg(size_t i, int64_t* out, std::string_view error) {
  if (ParseInt64(args_[i], out)) return true;
  reply_.Error(error);
  return false;
}

bool CommandContext::RangeIntArg(size_t i, int64_t min, int64_t max, int64_t* out) {
  if (!IntArg(i, out)) return false;
  if (*out < min || *out > max) {
    reply_.Error("value is out of range, value must between " + Int64ToString(min) + " and " +
                 Int64ToString(max));
    return false;
  }
  return true;
}

bool CommandContext::TimeoutArg(size_t i, bool seconds, int64_t* deadline_ms) {
  int64_t ms = 0;
  if (seconds) {
    long double value = 0;
    if (!ParseLongDouble(args_[i], &value)) {
      reply_.Error("timeout is not a float or out of range");
      return false;
    }
    // Rounded up to the millisecond. Redis converts out-of-range values (1e16 seconds, inf)
    // as x86 does, to INT64_MIN: "negative".
    long double scaled = std::ceil(value * 1000.0L);
    ms = scaled >= -9223372036854775808.0L && scaled < 9223372036854775808.0L
             ? static_cast<int64_t>(scaled)
             : INT64_MIN;
  } else if (!ParseInt64(args_[i], &ms)) {
    reply_.Error("timeout is not an integer or out of range");
    return false;
  }
  if (ms < 0) {
    reply_.Error("timeout is negative");
    return false;
  }
  // Redis 7.0 adds the time without an overflow check: a deadline too far away wraps around to
  // a negative one, which the engine never reaches (the client waits forever).
  if (ms > 0)
    ms = static_cast<int64_t>(static_cast<uint64_t>(ms) + static_cast<uint64_t>(now_ms()));
  *deadline_ms = ms;
  return true;
}

bool CommandContext::DoubleArg(size_t i, double* out) {
  if (ParseDouble(args_[i], out)) return true;
  reply_.Error(err::kNotFloat);
  return false;
}

bool CommandContext::LongDoubleArg(size_t i, long double* out) {
  if (ParseLongDouble(args_[i], out)) return true;
  reply_.Error(err::kNotFloat);
  return false;
}

bool CommandContext::ArgIs(size_t i, std::string_view word) const {
  return i < args_.size() && EqualsIgnoreCase(args_[i], word);
}

bool CommandContext::LookupRead(std::string_view key, ObjectType type, Db::Node** node) {
  *node = db().LookupRead(key);
  if (*node != nullptr && !(*node)->value.value.is(type)) {
    ReplyWrongType();
    return false;
  }
  return true;
}

bool CommandContext::LookupWrite(std::string_view key, ObjectType type, Db::Node** node) {
  *node = db().LookupWrite(key);
  if (*node != nullptr && !(*node)->value.value.is(type)) {
    ReplyWrongType();
    return false;
  }
  return true;
}

void CommandContext::MarkDirty(uint64_t changes) { engine_.stats().AddDirty(changes); }

void CommandContext::SignalModifiedKey(std::string_view key) {
  engine_.signals().ModifiedKey(client_.db(), key, &client_);
}

void CommandContext::ReplyWrongType() { reply_.Error(err::kWrongType); }
void CommandContext::ReplySyntaxError() { reply_.Error(err::kSyntax); }

}  // namespace redlab::server::engine
