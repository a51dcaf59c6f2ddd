// Redis's lookupKeyReadOrReply / lookupKeyWriteOrReply (db.c): a command's key looked up for
// reading or writing, with the reply a missing key gets sent by the lookup itself.
#pragma once

#include <string_view>

#include "server/data/keyspace.h"
#include "server/engine/core/context.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {

// What a command answers when its key does not exist.
enum class IfMissing { kZero, kNull, kEmptyArray, kNoSuchKey, kOk };

inline void ReplyMissing(CommandContext& ctx, IfMissing missing) {
  switch (missing) {
    case IfMissing::kZero:
      ctx.reply().Integer(0);
      return;
    case IfMissing::kNull:
      ctx.reply().Null();
      return;
    case IfMissing::kEmptyArray:
      ctx.reply().EmptyArray();
      return;
    case IfMissing::kNoSuchKey:
      ctx.ReplyError(err::kNoSuchKey);
      return;
    case IfMissing::kOk:
      ctx.ReplyOk();
      return;
  }
}

// The key's node looked up for writing (LookupWrite) or reading (LookupRead) as `type`, or
// nullptr with the reply sent: the wrong-type error, or `missing` when there is no such key.
inline Db::Node* LookupOrReply(CommandContext& ctx, bool write, std::string_view key,
                               ObjectType type, IfMissing missing) {
  Db::Node* node = nullptr;
  bool typed = write ? ctx.LookupWrite(key, type, &node) : ctx.LookupRead(key, type, &node);
  if (!typed) return nullptr;
  if (node == nullptr) ReplyMissing(ctx, missing);
  return node;
}

inline Db::Node* ReadOrReply(CommandContext& ctx, std::string_view key, ObjectType type,
                             IfMissing missing) {
  return LookupOrReply(ctx, /*write=*/false, key, type, missing);
}

inline Db::Node* WriteOrReply(CommandContext& ctx, std::string_view key, ObjectType type,
                              IfMissing missing) {
  return LookupOrReply(ctx, /*write=*/true, key, type, missing);
}

}  // namespace redlab::server::engine
