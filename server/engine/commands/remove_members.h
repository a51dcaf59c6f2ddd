// What HDEL and SREM share (t_hash.c hdelCommand, t_set.c sremCommand): members removed one by
// one, the key deleted as soon as its collection is empty, then one signal and notification.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "server/data/keyspace.h"
#include "server/engine/core/context.h"
#include "server/engine/pubsub/notify.h"

namespace redlab::server::engine {

// Removes the members named from argument 2 on from `collection`, the value at `node`, with
// remove(member) (true when it was there). An emptied collection's key is deleted at once: the
// members left cannot be there. When any went: the key is signalled, `event` of `event_class`
// notified (and "del" for a deleted key) and each removal counted as a change. Answers how many
// went.
template <typename Collection, typename Remove>
void RemoveMembersAndReply(CommandContext& ctx, Db::Node* node, Collection& collection,
                           Remove remove, uint32_t event_class, std::string_view event) {
  const std::string& key = ctx.arg(1);
  int64_t removed = 0;
  bool key_removed = false;
  for (size_t i = 2; i < ctx.argc(); ++i) {
    if (!remove(collection, ctx.arg(i))) continue;
    ++removed;
    if (collection.empty()) {
      ctx.db().Delete(node);
      key_removed = true;
      break;
    }
  }
  if (removed > 0) {
    ctx.SignalModifiedKey(key);
    ctx.NotifyKeyspaceEvent(event_class, event, key);
    if (key_removed) ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", key);
    ctx.MarkDirty(static_cast<uint64_t>(removed));
  }
  ctx.reply().Integer(removed);
}

}  // namespace redlab::server::engine
