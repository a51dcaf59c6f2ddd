// What the list command files (cmd_list.cc, cmd_list_blocking.cc) share: the LEFT/RIGHT
// argument, LMOVE's two halves, the events of a pop, and the pops of several elements answered with
// their key.
#pragma once

#include <string>

#include "server/data/list_value.h"
#include "server/engine/core/context.h"

namespace redlab::server::engine {

// getListPositionFromObjectOrReply: LEFT or RIGHT, else a syntax error.
bool ListEndArg(CommandContext& ctx, size_t i, ListValue::End* end);
// The name of an end as Redis propagates it in a served BLMOVE ("left", "right").
std::string_view ListEndName(ListValue::End end);

// lmoveGenericCommand for LMOVE, RPOPLPUSH and the non-blocking path of BLMOVE and BRPOPLPUSH
// (which propagate as LMOVE and RPOPLPUSH).
void ListMove(CommandContext& ctx, ListValue::End from, ListValue::End to);
// lmoveHandlePush: pushes `value` at `to` of `destination` (`dst`, or a new list when null),
// signals it and replies the value.
void ListPushMoved(CommandContext& ctx, const std::string& destination, Db::Node* dst,
                   ListValue::End to, const std::string& value);

// After a pop of `node` (the list at `key`): its "lpop"/"rpop" event, then the deletion of a list
// left empty with its "del" event, as listElementsRemoved.
void ListPopped(CommandContext& ctx, Db::Node* node, const std::string& key, ListValue::End end);

// listPopRangeAndReplyWithKey: pops up to `count` elements at `end` of `key` (a non-empty
// list) and replies [key, [elements]]; deletes the key when emptied, signals it, counts the
// changes.
void ListPopRangeWithKey(CommandContext& ctx, const std::string& key, Db::Node* node,
                         ListValue::End end, int64_t count);

}  // namespace redlab::server::engine
