// Bitmap commands on string values: SETBIT, GETBIT, BITCOUNT, BITPOS and BITOP (Redis's
// bitops.c). BITFIELD is in cmd_bitfield.cc. A string written bit by bit becomes "raw", as Redis
// unshares and edits it in place.
#include "server/engine/commands/cmd_bitmap.h"

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "server/base/numbers.h"
#include "server/data/bitmap.h"
#include "server/engine/commands/cmd_string.h"
#include "server/engine/commands/lookup.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {
namespace {

constexpr std::string_view kBitValueError = "bit is not an integer or out of range";

void SetBitCommand(CommandContext& ctx) {
  const std::string& key = ctx.arg(1);
  uint64_t offset = 0;
  if (!BitOffsetArg(ctx, 2, 0, &offset)) return;
  int64_t on = 0;
  if (!ctx.IntArg(3, &on, kBitValueError)) return;
  if (on & ~int64_t{1}) {
    ctx.ReplyError(kBitValueError);
    return;
  }
  bool grown = false;
  Db::Node* node = StringForBits(ctx, key, offset, &grown);
  if (node == nullptr) return;
  auto& byte = reinterpret_cast<unsigned char&>(node->value.value.str()[offset >> 3]);
  unsigned mask = 1u << (7 - (offset & 7));
  bool was_set = (byte & mask) != 0;
  // Only a real change (or a created or lengthened string) counts, and is propagated.
  if (grown || was_set != (on != 0)) {
    byte = static_cast<unsigned char>(on ? (byte | mask) : (byte & ~mask));
    ctx.SignalModifiedKey(key);
    ctx.NotifyKeyspaceEvent(kNotifyString, "setbit", key);
    ctx.MarkDirty();
  }
  ctx.reply().Integer(was_set ? 1 : 0);
}

void GetBitCommand(CommandContext& ctx) {
  uint64_t offset = 0;
  if (!BitOffsetArg(ctx, 2, 0, &offset)) return;
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kString, &node)) return;
  ctx.reply().Integer(
      node ? static_cast<int64_t>(bitmap::GetUnsigned(node->value.value.str(), offset, 1)) : 0);
}

// The optional BYTE|BIT unit of BITCOUNT and BITPOS; false after a syntax error.
bool UnitArg(CommandContext& ctx, size_t i, bool* in_bits) {
  if (OptionIs(ctx.arg(i), "bit")) {
    *in_bits = true;
  } else if (OptionIs(ctx.arg(i), "byte")) {
    *in_bits = false;
  } else {
    ctx.ReplySyntaxError();
    return false;
  }
  return true;
}

// A [start, end] range of BITCOUNT or BITPOS resolved against a string of `length` bytes, as
// byte indexes, with masks for the bits of the first and last byte outside a BIT range.
struct BitRange {
  int64_t start = 0;
  int64_t end = 0;
  unsigned char first_outside = 0;  // bits of the first byte before the range
  unsigned char last_outside = 0;   // bits of the last byte after the range
};

// Negative indexes count from the end; the range is clamped to the string.
BitRange ResolveRange(int64_t start, int64_t end, int64_t length, bool in_bits) {
  int64_t total = in_bits ? length * 8 : length;
  if (start < 0) start += total;
  if (end < 0) end += total;
  if (start < 0) start = 0;
  if (end < 0) end = 0;
  if (end >= total) end = total - 1;
  BitRange r{start, end};
  if (in_bits && start <= end) {
    r.first_outside = static_cast<unsigned char>(~((1u << (8 - (start & 7))) - 1));
    r.last_outside = static_cast<unsigned char>((1u << (7 - (end & 7))) - 1);
    r.start = start >> 3;
    r.end = end >> 3;
  }
  return r;
}

// BITCOUNT key [start end [BYTE|BIT]]. A missing key answers 0 before the range is even read.
void BitCountCommand(CommandContext& ctx) {
  Db::Node* node = ReadOrReply(ctx, ctx.arg(1), ObjectType::kString, IfMissing::kZero);
  if (node == nullptr) return;
  std::string_view s = node->value.value.str();
  int64_t length = static_cast<int64_t>(s.size());
  BitRange r;
  if (ctx.argc() == 4 || ctx.argc() == 5) {
    int64_t start = 0, end = 0;
    if (!ctx.IntArg(2, &start) || !ctx.IntArg(3, &end)) return;
    if (start < 0 && end < 0 && start > end) {
      ctx.reply().Integer(0);
      return;
    }
    bool in_bits = false;
    if (ctx.argc() == 5 && !UnitArg(ctx, 4, &in_bits)) return;
    r = ResolveRange(start, end, length, in_bits);
  } else if (ctx.argc() == 2) {
    r.end = length - 1;
  } else {
    ctx.ReplySyntaxError();
    return;
  }
  if (r.start > r.end) {
    ctx.reply().Integer(0);
    return;
  }
  uint64_t count = bitmap::PopCount(
      s.substr(static_cast<size_t>(r.start), static_cast<size_t>(r.end - r.start + 1)));
  // Bits of the edge bytes outside a BIT range were counted too: take them back.
  auto first = static_cast<unsigned char>(s[static_cast<size_t>(r.start)]);
  auto last = static_cast<unsigned char>(s[static_cast<size_t>(r.end)]);
  count -=
      static_cast<uint64_t>(std::popcount(static_cast<unsigned char>(first & r.first_outside)));
  count -= static_cast<uint64_t>(std::popcount(static_cast<unsigned char>(last & r.last_outside)));
  ctx.reply().Integer(static_cast<int64_t>(count));
}

// BITPOS key bit [start [end [BYTE|BIT]]]: the search goes in up to three parts, as Redis's does:
// the first byte of a BIT range (bits before it masked out), the whole bytes, and the last byte
// (bits after it masked out). Without an explicit end, the string reads as followed by zeros.
void BitPosCommand(CommandContext& ctx) {
  int64_t bit = 0;
  if (!ctx.IntArg(2, &bit)) return;
  if (bit != 0 && bit != 1) {
    ctx.ReplyError("The bit argument must be 1 or 0.");
    return;
  }
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kString, &node)) return;
  if (node == nullptr) {
    ctx.reply().Integer(bit ? -1 : 0);  // a missing key is an endless run of zeros
    return;
  }
  std::string_view s = node->value.value.str();
  int64_t length = static_cast<int64_t>(s.size());
  bool end_given = false;
  BitRange r;
  if (ctx.argc() >= 4 && ctx.argc() <= 6) {
    int64_t start = 0, end = 0;
    if (!ctx.IntArg(3, &start)) return;
    bool in_bits = false;
    if (ctx.argc() == 6 && !UnitArg(ctx, 5, &in_bits)) return;
    if (ctx.argc() >= 5) {
      if (!ctx.IntArg(4, &end)) return;
      end_given = true;
    } else {
      end = length - 1;
    }
    r = ResolveRange(start, end, length, in_bits);
  } else if (ctx.argc() == 3) {
    r.end = length - 1;
  } else {
    ctx.ReplySyntaxError();
    return;
  }
  if (r.start > r.end) {
    ctx.reply().Integer(-1);  // an empty range holds neither a 0 nor a 1
    return;
  }
  // One edge byte with the bits outside the range forced to the value not searched for.
  auto masked = [&](int64_t index, unsigned char outside) {
    auto byte = static_cast<unsigned char>(s[static_cast<size_t>(index)]);
    return static_cast<char>(bit ? (byte & ~outside) : (byte | outside));
  };
  int64_t start = r.start;
  int64_t bytes = r.end - r.start + 1;
  int64_t pos = -1;
  bool done = false;
  if (r.first_outside != 0) {
    char c = masked(start, r.first_outside);
    if (r.last_outside != 0 && bytes == 1) {
      auto b = static_cast<unsigned char>(c);
      c = static_cast<char>(bit ? (b & ~r.last_outside) : (b | r.last_outside));
    }
    pos = bitmap::FirstBit(std::string_view(&c, 1), static_cast<int>(bit));
    done = bytes == 1 || (pos != -1 && pos != 8);
    if (!done) {
      ++start;
      --bytes;
    }
  }
  if (!done) {
    int64_t whole = bytes - (r.last_outside != 0 ? 1 : 0);
    if (whole > 0) {
      pos = bitmap::FirstBit(s.substr(static_cast<size_t>(start), static_cast<size_t>(whole)),
                             static_cast<int>(bit));
      done = bytes == whole || (pos != -1 && pos != whole * 8);
      if (!done) {
        start += whole;
        bytes -= whole;
      }
    }
  }
  if (!done) {
    char c = masked(r.end, r.last_outside);
    pos = bitmap::FirstBit(std::string_view(&c, 1), static_cast<int>(bit));
  }
  // With an explicit end the bits after the range are not zeros: no 0 found means -1.
  if (end_given && bit == 0 && pos == bytes * 8) {
    ctx.reply().Integer(-1);
    return;
  }
  if (pos != -1) pos += start * 8;
  ctx.reply().Integer(pos);
}

enum class BitOp { kAnd, kOr, kXor, kNot };

// BITOP AND|OR|XOR|NOT destkey key [key ...]: missing keys and the ends of shorter strings read
// as zeros; an empty result deletes the destination.
void BitOpCommand(CommandContext& ctx) {
  BitOp op;
  if (OptionIs(ctx.arg(1), "and")) {
    op = BitOp::kAnd;
  } else if (OptionIs(ctx.arg(1), "or")) {
    op = BitOp::kOr;
  } else if (OptionIs(ctx.arg(1), "xor")) {
    op = BitOp::kXor;
  } else if (OptionIs(ctx.arg(1), "not")) {
    op = BitOp::kNot;
  } else {
    ctx.ReplySyntaxError();
    return;
  }
  if (op == BitOp::kNot && ctx.argc() != 4) {
    ctx.ReplyError("BITOP NOT must be called with a single source key.");
    return;
  }
  std::vector<std::string_view> sources;
  size_t max_len = 0;
  for (size_t i = 3; i < ctx.argc(); ++i) {
    Db::Node* node = nullptr;
    if (!ctx.LookupRead(ctx.arg(i), ObjectType::kString, &node)) return;
    sources.push_back(node ? std::string_view(node->value.value.str()) : std::string_view());
    max_len = std::max(max_len, sources.back().size());
  }
  const std::string& dest = ctx.arg(2);
  if (max_len == 0) {
    if (ctx.db().Delete(dest)) {
      ctx.SignalModifiedKey(dest);
      ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", dest);
      ctx.MarkDirty();
    }
    ctx.reply().Integer(0);
    return;
  }
  std::string result(max_len, '\0');
  auto* out = reinterpret_cast<unsigned char*>(result.data());
  std::string_view first = sources[0];
  std::copy(first.begin(), first.end(), result.begin());
  if (op == BitOp::kNot) {
    for (size_t j = 0; j < max_len; ++j) out[j] = static_cast<unsigned char>(~out[j]);
  }
  for (size_t i = 1; i < sources.size(); ++i) {
    auto* in = reinterpret_cast<const unsigned char*>(sources[i].data());
    size_t n = sources[i].size();
    switch (op) {
      case BitOp::kAnd:
        for (size_t j = 0; j < n; ++j) out[j] &= in[j];
        std::fill(result.begin() + static_cast<std::ptrdiff_t>(n), result.end(), '\0');
        break;
      case BitOp::kOr:
        for (size_t j = 0; j < n; ++j) out[j] |= in[j];
        break;
      case BitOp::kXor:
        for (size_t j = 0; j < n; ++j) out[j] ^= in[j];
        break;
      case BitOp::kNot:
        break;
    }
  }
  // setKey: the destination is replaced whatever it held, TTL included, by a raw string.
  ctx.db().LookupWrite(dest);
  Object value = Object::FromString(std::move(result));
  value.set_raw_string(true);
  ctx.db().Set(dest, std::move(value));
  ctx.SignalModifiedKey(dest);
  ctx.NotifyKeyspaceEvent(kNotifyString, "set", dest);
  ctx.MarkDirty();
  ctx.reply().Integer(static_cast<int64_t>(max_len));
}

}  // namespace

bool BitOffsetArg(CommandContext& ctx, size_t i, int field_bits, uint64_t* offset) {
  constexpr std::string_view kError = "bit offset is not an integer or out of range";
  std::string_view arg = ctx.arg(i);
  bool fields = field_bits > 0 && !arg.empty() && arg[0] == '#';
  int64_t value = 0;
  if (!ParseInt64(fields ? arg.substr(1) : arg, &value)) {
    ctx.ReplyError(kError);
    return false;
  }
  // Redis multiplies in a C long long; the product wraps the same way here.
  if (fields)
    value = static_cast<int64_t>(static_cast<uint64_t>(value) * static_cast<uint64_t>(field_bits));
  bool obey = ctx.client().repl_role() == Client::ReplRole::kMaster;
  if (value < 0 || (!obey && (value >> 3) >= ctx.engine().config().proto_max_bulk_len)) {
    ctx.ReplyError(kError);
    return false;
  }
  *offset = static_cast<uint64_t>(value);
  return true;
}

Db::Node* StringForBits(CommandContext& ctx, std::string_view key, uint64_t max_bit, bool* grown) {
  size_t bytes = static_cast<size_t>(max_bit >> 3) + 1;
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(key, ObjectType::kString, &node)) return nullptr;
  *grown = false;
  if (node == nullptr) {
    node = ctx.db().Add(key, Object::FromString(std::string(bytes, '\0')));
    *grown = true;
  } else if (node->value.value.str().size() < bytes) {
    node->value.value.str().resize(bytes, '\0');
    *grown = true;
  }
  node->value.value.set_raw_string(true);
  node->value.value.set_float_string(false);
  return node;
}

// The commands of specs/bitmap.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/bitmap.inc"

}  // namespace redlab::server::engine
