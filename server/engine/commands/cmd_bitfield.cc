// BITFIELD and BITFIELD_RO (Redis's bitops.c): GET, SET and INCRBY on signed or unsigned
// integers of 1 to 64 bits (u64 excepted) at any bit offset of a string, with OVERFLOW WRAP, SAT
// or FAIL. Every operation is parsed before the key is touched; they then run in order.
#include <algorithm>
#include <string>
#include <vector>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/data/bitmap.h"
#include "server/engine/commands/cmd_bitmap.h"
#include "server/engine/commands/cmd_string.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {
namespace {

enum class FieldOp { kGet, kSet, kIncrBy };

struct FieldOperation {
  FieldOp op;
  uint64_t offset;
  int64_t value;  // SET's value or INCRBY's increment
  bitmap::Overflow overflow;
  int bits;
  bool is_signed;
};

// getBitfieldTypeFromArgument: i1..i64 or u1..u63 (a u64 could not be replied as an integer).
// Redis reads the width as a C string, so it stops at a NUL byte.
bool FieldTypeArg(CommandContext& ctx, size_t i, bool* is_signed, int* bits) {
  constexpr std::string_view kError =
      "Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 "
      "is.";
  std::string_view arg = ctx.arg(i);
  arg = arg.substr(0, arg.find('\0'));
  int64_t width = 0;
  bool ok = !arg.empty() && (arg[0] == 'i' || arg[0] == 'u') && ParseInt64(arg.substr(1), &width);
  *is_signed = ok && arg[0] == 'i';
  if (!ok || width < 1 || width > (*is_signed ? 64 : 63)) {
    ctx.ReplyError(kError);
    return false;
  }
  *bits = static_cast<int>(width);
  return true;
}

// Parses the operations from argument 2; false after replying the first error.
bool ParseOperations(CommandContext& ctx, std::vector<FieldOperation>* ops, bool* read_only,
                     uint64_t* highest_write_bit) {
  bitmap::Overflow overflow = bitmap::Overflow::kWrap;
  for (size_t j = 2; j < ctx.argc(); ++j) {
    size_t more = ctx.argc() - j - 1;
    std::string_view name = ctx.arg(j);
    FieldOp op;
    if (OptionIs(name, "get") && more >= 2) {
      op = FieldOp::kGet;
    } else if (OptionIs(name, "set") && more >= 3) {
      op = FieldOp::kSet;
    } else if (OptionIs(name, "incrby") && more >= 3) {
      op = FieldOp::kIncrBy;
    } else if (OptionIs(name, "overflow") && more >= 1) {
      std::string_view type = ctx.arg(++j);
      if (OptionIs(type, "wrap")) {
        overflow = bitmap::Overflow::kWrap;
      } else if (OptionIs(type, "sat")) {
        overflow = bitmap::Overflow::kSat;
      } else if (OptionIs(type, "fail")) {
        overflow = bitmap::Overflow::kFail;
      } else {
        ctx.ReplyError("Invalid OVERFLOW type specified");
        return false;
      }
      continue;
    } else {
      ctx.ReplySyntaxError();
      return false;
    }
    FieldOperation f{op, 0, 0, overflow, 0, false};
    if (!FieldTypeArg(ctx, j + 1, &f.is_signed, &f.bits)) return false;
    if (!BitOffsetArg(ctx, j + 2, f.bits, &f.offset)) return false;
    if (op != FieldOp::kGet) {
      *read_only = false;
      *highest_write_bit =
          std::max(*highest_write_bit, f.offset + static_cast<uint64_t>(f.bits) - 1);
      if (!ctx.IntArg(j + 3, &f.value)) return false;
    }
    ops->push_back(f);
    j += op == FieldOp::kGet ? 2 : 3;
  }
  return true;
}

enum class WriteResult { kRefused, kUnchanged, kChanged };

// Runs one SET or INCRBY on `s` and replies its result (nil when OVERFLOW FAIL refused it).
WriteResult Write(CommandContext& ctx, std::string& s, const FieldOperation& f) {
  auto* bytes = reinterpret_cast<unsigned char*>(s.data());
  uint64_t old_bits = 0, new_bits = 0;
  int64_t reply = 0;
  bool refused = false;
  if (f.is_signed) {
    int64_t old_value = bitmap::GetSigned(s, f.offset, f.bits);
    int64_t limit = 0;
    int64_t new_value;
    if (f.op == FieldOp::kIncrBy) {
      int overflow = bitmap::CheckSignedOverflow(old_value, f.value, f.bits, f.overflow, &limit);
      new_value = overflow ? limit
                           : static_cast<int64_t>(static_cast<uint64_t>(old_value) +
                                                  static_cast<uint64_t>(f.value));
      refused = overflow != 0 && f.overflow == bitmap::Overflow::kFail;
      reply = new_value;
    } else {
      int overflow = bitmap::CheckSignedOverflow(f.value, 0, f.bits, f.overflow, &limit);
      new_value = overflow ? limit : f.value;
      refused = overflow != 0 && f.overflow == bitmap::Overflow::kFail;
      reply = old_value;
    }
    old_bits = static_cast<uint64_t>(old_value);
    new_bits = static_cast<uint64_t>(new_value);
  } else {
    uint64_t old_value = bitmap::GetUnsigned(s, f.offset, f.bits);
    uint64_t limit = 0;
    uint64_t new_value;
    if (f.op == FieldOp::kIncrBy) {
      int overflow = bitmap::CheckUnsignedOverflow(old_value, f.value, f.bits, f.overflow, &limit);
      new_value = overflow ? limit : old_value + static_cast<uint64_t>(f.value);
      refused = overflow != 0 && f.overflow == bitmap::Overflow::kFail;
      reply = static_cast<int64_t>(new_value);
    } else {
      int overflow = bitmap::CheckUnsignedOverflow(static_cast<uint64_t>(f.value), 0, f.bits,
                                                   f.overflow, &limit);
      new_value = overflow ? limit : static_cast<uint64_t>(f.value);
      refused = overflow != 0 && f.overflow == bitmap::Overflow::kFail;
      reply = static_cast<int64_t>(old_value);
    }
    old_bits = old_value;
    new_bits = new_value;
  }
  if (refused) {
    ctx.reply().Null();
    return WriteResult::kRefused;
  }
  ctx.reply().Integer(reply);
  bitmap::SetBits(bytes, f.offset, f.bits, new_bits);
  return old_bits != new_bits ? WriteResult::kChanged : WriteResult::kUnchanged;
}

void BitField(CommandContext& ctx, bool read_only_command) {
  std::vector<FieldOperation> ops;
  bool read_only = true;
  uint64_t highest_write_bit = 0;
  if (!ParseOperations(ctx, &ops, &read_only, &highest_write_bit)) return;
  const std::string& key = ctx.arg(1);
  Db::Node* node = nullptr;
  bool grown = false;
  if (read_only) {
    if (!ctx.LookupRead(key, ObjectType::kString, &node)) return;
  } else {
    if (read_only_command) {
      ctx.ReplyError("BITFIELD_RO only supports the GET subcommand");
      return;
    }
    // The string is made long enough for every write first (even writes OVERFLOW FAIL refuses:
    // the key is then created, as in Redis, without counting as a change).
    node = StringForBits(ctx, key, highest_write_bit, &grown);
    if (node == nullptr) return;
  }
  ctx.reply().ArrayHeader(ops.size());
  uint64_t changes = 0;
  for (const FieldOperation& f : ops) {
    if (f.op == FieldOp::kGet) {
      std::string_view s = node ? std::string_view(node->value.value.str()) : std::string_view();
      ctx.reply().Integer(f.is_signed
                              ? bitmap::GetSigned(s, f.offset, f.bits)
                              : static_cast<int64_t>(bitmap::GetUnsigned(s, f.offset, f.bits)));
      continue;
    }
    WriteResult result = Write(ctx, node->value.value.str(), f);
    // A created or lengthened string counts every write performed as a change.
    if (result == WriteResult::kChanged || (grown && result == WriteResult::kUnchanged)) {
      ++changes;
    }
  }
  if (changes > 0) {
    ctx.SignalModifiedKey(key);
    ctx.NotifyKeyspaceEvent(kNotifyString, "setbit", key);
    ctx.MarkDirty(changes);
  }
}

void BitFieldCommand(CommandContext& ctx) { BitField(ctx, false); }

// bitfieldGetKeys: only GETs (and OVERFLOWs) read the key; anything else may write it.
std::vector<FoundKey> BitFieldKeys(std::span<const std::string> args) {
  bool read_only = true;
  for (size_t i = 2; i < args.size(); ++i) {
    size_t more = args.size() - i - 1;
    std::string_view op = CStringPrefix(args[i]);  // strcasecmp sees a C string
    if (EqualsIgnoreCase(op, "get") && more >= 2) {
      i += 2;
    } else if ((EqualsIgnoreCase(op, "set") || EqualsIgnoreCase(op, "incrby")) && more >= 3) {
      read_only = false;
      break;
    } else if (EqualsIgnoreCase(op, "overflow") && more >= 1) {
      i += 1;
    } else {
      read_only = false;  // a syntax error: safer to assume a write
      break;
    }
  }
  if (read_only) return {{1, kKeyRO | kKeyAccess}};
  return {{1, kKeyRW | kKeyAccess | kKeyUpdate}};
}
void BitFieldRoCommand(CommandContext& ctx) { BitField(ctx, true); }

}  // namespace

// The commands of specs/bitfield.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/bitfield.inc"

}  // namespace redlab::server::engine
