// What the sorted-set command files (cmd_zset*.cc) share: the listpack limits from the
// configuration and the reply shape of a member with its score.
#pragma once

#include <string_view>

#include "server/command/command.h"
#include "server/data/zset_value.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {

inline ZsetLimits ZsetLimitsOf(CommandContext& ctx) {
  const ServerConfig& config = ctx.engine().config();
  return {static_cast<size_t>(config.zset_max_listpack_entries),
          static_cast<size_t>(config.zset_max_listpack_value)};
}

// A member and its score in a WITHSCORES reply: two flat elements in RESP2, a [member, score]
// pair in RESP3 (the caller counts the outer array accordingly: see ScoredArrayLength).
inline void ReplyScoredMember(resp::ReplyWriter& r, std::string_view member, double score) {
  if (r.protocol() >= 3) r.ArrayHeader(2);
  r.Bulk(member);
  r.Double(score);
}

// The outer length of a reply of `n` scored members.
inline size_t ScoredArrayLength(const resp::ReplyWriter& r, size_t n) {
  return r.protocol() >= 3 ? n : n * 2;
}

}  // namespace redlab::server::engine
