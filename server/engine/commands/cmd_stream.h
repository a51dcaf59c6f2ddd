// Redis 7.0's t_stream.c: what the stream command files share (ID arguments, entry replies).
#pragma once

#include <string>
#include <string_view>

#include "server/command/command_table.h"
#include "server/data/stream.h"
#include "server/engine/core/context.h"

namespace redlab::server::engine {

inline constexpr std::string_view kStreamIdError =
    "Invalid stream ID specified as stream command argument";

// A stream ID argument, or false after replying kStreamIdError.
bool StreamIdArg(CommandContext& ctx, std::string_view arg, uint64_t missing_seq, bool strict,
                 StreamId* id, bool* seq_given);
// One entry as [id, [field, value...]].
void ReplyStreamEntry(CommandContext& ctx, const StreamValue::Entry& e);
// streamReplyWithRange without a group: the entries start..end (at most count, 0: all) as an
// array; how many.
size_t ReplyStreamRange(CommandContext& ctx, const StreamValue& s, const StreamId& start,
                        const StreamId& end, size_t count, bool rev);
StreamNodeLimits StreamLimits(CommandContext& ctx);
// signalKeyAsReady for a stream that got new entries (XADD): clients blocked in XREAD on it.
void SignalStreamReady(CommandContext& ctx, std::string_view key);

// streamReplyWithRange with a group and consumer: the entries from `start` (at most count, 0:
// all) as an array, moving the group's last ID and read counter, adding them to the PELs
// (unless `noack`) and propagating that as XCLAIMs (or XGROUP SETID under NOACK); how many.
size_t ReplyGroupRange(CommandContext& ctx, StreamValue& s, const std::string& key,
                       const std::string& group_name, StreamGroup& group,
                       StreamConsumer* consumer, const StreamId& start, size_t count,
                       bool noack);
// streamPropagateXCLAIM: XCLAIM <key> <group> <consumer> 0 <id> TIME <ms> RETRYCOUNT <n> FORCE
// JUSTID LASTID <group last ID>.
void PropagateXClaim(CommandContext& ctx, std::string_view key, const StreamGroup& group,
                     std::string_view group_name, std::string_view id, const StreamNack& nack);
// streamPropagateGroupID: XGROUP SETID <key> <group> <last ID> ENTRIESREAD <n>.
void PropagateGroupId(CommandContext& ctx, std::string_view key, const StreamGroup& group,
                      std::string_view group_name);
// streamPropagateConsumerCreation: XGROUP CREATECONSUMER <key> <group> <consumer>.
void PropagateConsumerCreation(CommandContext& ctx, std::string_view key,
                               std::string_view group_name, std::string_view consumer);

}  // namespace redlab::server::engine
