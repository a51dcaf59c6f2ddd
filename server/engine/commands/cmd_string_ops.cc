// String commands that compute on a value: INCR, INCRBY, DECR, DECRBY, INCRBYFLOAT, APPEND,
// STRLEN, GETRANGE, SUBSTR, SETRANGE and LCS (Redis's t_string.c). Values edited in place
// (APPEND, SETRANGE) become "raw" strings, as in Redis.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "server/base/numbers.h"
#include "server/command/command_table.h"
#include "server/engine/commands/cmd_string.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {
namespace {

// checkStringLength: whether a string of `size` + `append` bytes stays within
// proto-max-bulk-len; replies Redis's error when it would not (or when the sum overflows).
bool CheckStringLength(CommandContext& ctx, int64_t size, uint64_t append) {
  // Both parts are non-negative, so the unsigned sum cannot wrap; past INT64_MAX it is the
  // overflow Redis checks for, and is refused as too long as well.
  uint64_t total = static_cast<uint64_t>(size) + append;
  if (total > static_cast<uint64_t>(ctx.engine().config().proto_max_bulk_len)) {
    ctx.ReplyError("string exceeds maximum allowed size (proto-max-bulk-len)");
    return false;
  }
  return true;
}

// A string edited in place: Redis unshares it into a raw sds.
void MarkEdited(Object& value) {
  value.set_raw_string(true);
  value.set_float_string(false);
}

// incrDecrCommand. The TTL stays.
void IncrDecr(CommandContext& ctx, int64_t incr) {
  const std::string& key = ctx.arg(1);
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kString, &node)) return;
  int64_t value = 0;
  if (node != nullptr && !ParseInt64(node->value.value.str(), &value)) {
    ctx.ReplyError(err::kNotInteger);
    return;
  }
  if (AddOverflows(value, incr)) {
    ctx.ReplyError(err::kOverflow);
    return;
  }
  value += incr;
  if (node == nullptr) {
    ctx.db().Add(key, Object::FromString(Int64ToString(value)));
  } else {
    // Rewritten in place; the result is a plain integer string again (OBJECT ENCODING int).
    Object& obj = node->value.value;
    obj.str().clear();
    AppendInt64(&obj.str(), value);
    obj.set_raw_string(false);
    obj.set_float_string(false);
  }
  ctx.SignalModifiedKey(key);
  ctx.NotifyKeyspaceEvent(kNotifyString, "incrby", key);
  ctx.MarkDirty();
  ctx.reply().Integer(value);
}

void IncrCommand(CommandContext& ctx) { IncrDecr(ctx, 1); }
void DecrCommand(CommandContext& ctx) { IncrDecr(ctx, -1); }

void IncrByCommand(CommandContext& ctx) {
  int64_t incr = 0;
  if (!ctx.IntArg(2, &incr)) return;
  IncrDecr(ctx, incr);
}

void DecrByCommand(CommandContext& ctx) {
  int64_t decr = 0;
  if (!ctx.IntArg(2, &decr)) return;
  if (decr == INT64_MIN) {  // its negation does not exist
    ctx.ReplyError("decrement would overflow");
    return;
  }
  IncrDecr(ctx, -decr);
}

// Long double arithmetic, printed "%.17Lf" with trailing zeros removed; replicas get the
// result as SET ... KEEPTTL so they never redo the floating point.
void IncrByFloatCommand(CommandContext& ctx) {
  const std::string& key = ctx.arg(1);
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kString, &node)) return;
  long double value = 0;
  long double incr = 0;
  if ((node != nullptr && !ParseLongDouble(node->value.value.str(), &value)) ||
      !ParseLongDouble(ctx.arg(2), &incr)) {
    ctx.ReplyError(err::kNotFloat);
    return;
  }
  value += incr;
  if (std::isnan(value) || std::isinf(value)) {
    ctx.ReplyError("increment would produce NaN or Infinity");
    return;
  }
  Object result = Object::FromString(FormatLongDoubleHuman(value));
  result.set_float_string(true);
  if (node == nullptr) {
    node = ctx.db().Add(key, std::move(result));
  } else {
    node->value.value = std::move(result);
  }
  ctx.SignalModifiedKey(key);
  ctx.NotifyKeyspaceEvent(kNotifyString, "incrbyfloat", key);
  ctx.MarkDirty();
  const std::string& text = node->value.value.str();
  ctx.reply().Bulk(text);
  if (ctx.engine().propagating()) ctx.PropagateAs({"SET", key, text, "KEEPTTL"});
}

void AppendCommand(CommandContext& ctx) {
  const std::string& key = ctx.arg(1);
  const std::string& tail = ctx.arg(2);
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kString, &node)) return;
  size_t length = tail.size();
  if (node == nullptr) {
    ctx.db().Add(key, Object::FromString(tail));  // a new key is encoded as SET would
  } else {
    Object& obj = node->value.value;
    if (!CheckStringLength(ctx, static_cast<int64_t>(obj.str().size()), tail.size())) return;
    obj.str().append(tail);
    MarkEdited(obj);  // even when appending nothing
    length = obj.str().size();
  }
  ctx.SignalModifiedKey(key);
  ctx.NotifyKeyspaceEvent(kNotifyString, "append", key);
  ctx.MarkDirty();
  ctx.reply().Integer(static_cast<int64_t>(length));
}

void StrLenCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kString, &node)) return;
  ctx.reply().Integer(node ? static_cast<int64_t>(node->value.value.str().size()) : 0);
}

// GETRANGE and SUBSTR. Both indexes are parsed before the key is looked at.
void GetRangeCommand(CommandContext& ctx) {
  int64_t start = 0;
  int64_t end = 0;
  if (!ctx.IntArg(2, &start) || !ctx.IntArg(3, &end)) return;
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kString, &node)) return;
  if (node == nullptr || (start < 0 && end < 0 && start > end)) {
    ctx.reply().Bulk("");
    return;
  }
  const std::string& s = node->value.value.str();
  int64_t length = static_cast<int64_t>(s.size());
  if (start < 0) start += length;
  if (end < 0) end += length;
  if (start < 0) start = 0;
  if (end < 0) end = 0;
  if (end >= length) end = length - 1;
  if (start > end || length == 0) {
    ctx.reply().Bulk("");
  } else {
    ctx.reply().Bulk(std::string_view(s).substr(static_cast<size_t>(start),
                                                static_cast<size_t>(end - start + 1)));
  }
}

void SetRangeCommand(CommandContext& ctx) {
  const std::string& key = ctx.arg(1);
  const std::string& patch = ctx.arg(3);
  int64_t offset = 0;
  if (!ctx.IntArg(2, &offset)) return;
  if (offset < 0) {
    ctx.ReplyError("offset is out of range");
    return;
  }
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kString, &node)) return;
  if (patch.empty()) {
    // Nothing to write: no key is created and nothing changes.
    ctx.reply().Integer(node ? static_cast<int64_t>(node->value.value.str().size()) : 0);
    return;
  }
  if (!CheckStringLength(ctx, offset, patch.size())) return;
  size_t end = static_cast<size_t>(offset) + patch.size();
  if (node == nullptr) node = ctx.db().Add(key, Object::FromString(std::string()));
  Object& obj = node->value.value;
  std::string& s = obj.str();
  if (s.size() < end) s.resize(end, '\0');  // the gap reads as zero bytes
  std::memcpy(s.data() + offset, patch.data(), patch.size());
  MarkEdited(obj);
  ctx.SignalModifiedKey(key);
  ctx.NotifyKeyspaceEvent(kNotifyString, "setrange", key);
  ctx.MarkDirty();
  ctx.reply().Integer(static_cast<int64_t>(s.size()));
}

// LCS: the longest common subsequence of two strings, by the dynamic programming table Redis
// builds; with IDX, the matching ranges from the end of the strings backwards.
void LcsCommand(CommandContext& ctx) {
  Db::Node* na = ctx.db().LookupRead(ctx.arg(1));
  Db::Node* nb = ctx.db().LookupRead(ctx.arg(2));
  if ((na && !na->value.value.is(ObjectType::kString)) ||
      (nb && !nb->value.value.is(ObjectType::kString))) {
    ctx.ReplyError("The specified keys must contain string values");
    return;
  }
  bool get_idx = false, get_len = false, with_match_len = false;
  int64_t min_match_len = 0;
  for (size_t j = 3; j < ctx.argc(); ++j) {
    std::string_view opt = ctx.arg(j);
    if (OptionIs(opt, "idx")) {
      get_idx = true;
    } else if (OptionIs(opt, "len")) {
      get_len = true;
    } else if (OptionIs(opt, "withmatchlen")) {
      with_match_len = true;
    } else if (OptionIs(opt, "minmatchlen") && j + 1 < ctx.argc()) {
      if (!ctx.IntArg(++j, &min_match_len)) return;
      if (min_match_len < 0) min_match_len = 0;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  if (get_idx && get_len) {
    ctx.ReplyError("If you want both the length and indexes, please just use IDX.");
    return;
  }
  std::string_view a = na ? std::string_view(na->value.value.str()) : std::string_view();
  std::string_view b = nb ? std::string_view(nb->value.value.str()) : std::string_view();
  if (a.size() >= UINT32_MAX - 1 || b.size() >= UINT32_MAX - 1) {
    ctx.ReplyError("String too long for LCS");
    return;
  }
  uint32_t alen = static_cast<uint32_t>(a.size());
  uint32_t blen = static_cast<uint32_t>(b.size());
  uint64_t cells = (uint64_t{alen} + 1) * (uint64_t{blen} + 1);
  if (cells * sizeof(uint32_t) > static_cast<uint64_t>(ctx.engine().config().proto_max_bulk_len)) {
    ctx.ReplyError("Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len");
    return;
  }
  std::unique_ptr<uint32_t[]> table(new (std::nothrow) uint32_t[cells]);
  if (!table) {
    ctx.ReplyError("Insufficient memory, failed allocating transient memory for LCS");
    return;
  }
  // T(i, j): the LCS length of a[0..i) and b[0..j).
  auto T = [&](uint32_t i, uint32_t j) -> uint32_t& { return table[uint64_t{i} * (blen + 1) + j]; };
  for (uint32_t i = 0; i <= alen; ++i) {
    for (uint32_t j = 0; j <= blen; ++j) {
      if (i == 0 || j == 0) {
        T(i, j) = 0;
      } else if (a[i - 1] == b[j - 1]) {
        T(i, j) = T(i - 1, j - 1) + 1;
      } else {
        T(i, j) = std::max(T(i - 1, j), T(i, j - 1));
      }
    }
  }
  uint32_t total = T(alen, blen);
  resp::ReplyWriter& r = ctx.reply();
  if (get_len) {
    r.Integer(total);
    return;
  }

  // Walk back from the end, collecting the subsequence and, for IDX, each run of contiguous
  // matches once it ends (the order Redis reports them in).
  std::string result(total, '\0');
  size_t matches_at = 0;
  size_t ranges = 0;
  if (get_idx) {
    r.MapHeader(2);
    r.Bulk("matches");
    matches_at = r.BeginDeferred();
  }
  uint32_t a_start = alen, a_end = 0, b_start = 0, b_end = 0;  // a_start == alen: no open run
  uint32_t idx = total;
  uint32_t i = alen, j = blen;
  while (i > 0 && j > 0) {
    bool emit = false;
    if (a[i - 1] == b[j - 1]) {
      result[idx - 1] = a[i - 1];
      if (a_start == alen) {
        a_start = a_end = i - 1;
        b_start = b_end = j - 1;
      } else if (a_start == i && b_start == j) {
        --a_start;  // the run extends backwards
        --b_start;
      } else {
        emit = true;
      }
      if (a_start == 0 || b_start == 0) emit = true;
      --idx;
      --i;
      --j;
    } else {
      if (T(i - 1, j) > T(i, j - 1)) {
        --i;
      } else {
        --j;
      }
      if (a_start != alen) emit = true;
    }
    if (emit) {
      uint32_t match_len = a_end - a_start + 1;
      if (get_idx && (min_match_len == 0 || match_len >= min_match_len)) {
        r.ArrayHeader(with_match_len ? 3 : 2);
        r.ArrayHeader(2);
        r.Integer(a_start);
        r.Integer(a_end);
        r.ArrayHeader(2);
        r.Integer(b_start);
        r.Integer(b_end);
        if (with_match_len) r.Integer(match_len);
        ++ranges;
      }
      a_start = alen;
    }
  }
  if (get_idx) {
    r.EndDeferredArray(matches_at, ranges);
    r.Bulk("len");
    r.Integer(total);
  } else {
    r.Bulk(result);
  }
}

}  // namespace

// The commands of specs/string_ops.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/string_ops.inc"

}  // namespace redlab::server::engine
