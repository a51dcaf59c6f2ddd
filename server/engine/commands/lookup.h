// Redis's lookupKeyReadOrReply / lookupKeyWriteOrReply (db.c): a command's key looked up for
// reading or writing, with the reply a missing key gets sent by the lookup itself.
#pragma once

#include <span>
#include <string>
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

// The first of `keys` that exists, looked up for writing as `type` (LMPOP, BLPOP, BZPOPMIN...:
// an emptied collection does not exist). False after replying WRONGTYPE for a key met before
// it; *node stays nullptr when none exists.
inline bool FirstExistingKey(CommandContext& ctx, std::span<const std::string> keys,
                             ObjectType type, const std::string** key, Db::Node** node) {
  for (const std::string& k : keys) {
    if (!ctx.LookupWrite(k, type, node)) return false;
    if (*node != nullptr) {
      *key = &k;
      return true;
    }
  }
  return true;
}

}  // namespace redlab::server::engine
