// Redis 7.0's t_stream.c xreadCommand (XREAD and XREADGROUP), streamReplyWithRange with a
// group, and blocked.c's serveClientsBlockedOnStreamKey: served at once or blocked on the
// engine's blocked keys until an XADD passes the IDs given (or the group's last ID).
#include <unordered_set>

#include "server/engine/commands/cmd_stream.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {

void SignalStreamReady(CommandContext& ctx, std::string_view key) {
  ctx.engine().blocking().SignalStreamReady(ctx.db(), key);
}

size_t ReplyGroupRange(CommandContext& ctx, StreamValue& s, const std::string& key,
                       const std::string& group_name, StreamGroup& group, StreamConsumer* consumer,
                       const StreamId& start, size_t count, bool noack) {
  size_t at = ctx.reply().BeginDeferred();
  size_t n = 0;
  bool propagate_last_id = false;
  int64_t now = ctx.now_ms();
  s.Range(start, StreamId::Max(), false, [&](const StreamValue::Entry& e) {
    if (e.id > group.last_id()) {
      s.AdvanceGroup(group, e.id);
      if (noack) propagate_last_id = true;
    }
    ReplyStreamEntry(ctx, e);
    if (!noack) {
      auto [it, inserted] = group.pel().try_emplace(e.id);
      StreamNack* nack = &it->second;
      // An entry already pending (XGROUP SETID moved the group back) changes hands.
      nack->delivery_time = now;
      nack->delivery_count = 1;
      if (inserted) {
        nack->consumer = consumer;
        consumer->pel.emplace(e.id, nack);
      } else {
        StreamGroup::Assign(e.id, nack, consumer);
      }
      PropagateXClaim(ctx, key, group, group_name, e.id.ToString(), *nack);
    }
    return ++n != count;
  });
  if (propagate_last_id) PropagateGroupId(ctx, key, group, group_name);
  ctx.reply().EndDeferredArray(at, n);
  return n;
}

namespace {

// Without COUNT a blocked XREAD is served at most this many entries (XREAD_BLOCKED_DEFAULT_COUNT).
constexpr int64_t kBlockedDefaultCount = 1000;

// [key, [entries above `after`]], as an element of XREAD's reply.
void ReplyKeyEntries(CommandContext& ctx, std::string_view key, const StreamValue& s,
                     StreamId after, int64_t count) {
  if (ctx.reply().protocol() == 2) ctx.reply().ArrayHeader(2);
  ctx.reply().Bulk(key);
  after.Increment();
  ReplyStreamRange(ctx, s, after, StreamId::Max(), static_cast<size_t>(count), false);
}

// streamReplyWithRangeFromConsumerPEL: the consumer's own pending entries from `start` (those
// deleted since as [id, nil]), each counted as delivered again.
size_t ReplyConsumerHistory(CommandContext& ctx, const StreamValue& s, StreamConsumer& consumer,
                            const StreamId& start, size_t count) {
  size_t at = ctx.reply().BeginDeferred();
  size_t n = 0;
  int64_t now = ctx.now_ms();
  for (auto it = consumer.pel.lower_bound(start); it != consumer.pel.end(); ++it) {
    if (count != 0 && n >= count) break;
    bool found = false;
    s.Range(it->first, it->first, false, [&](const StreamValue::Entry& e) {
      ReplyStreamEntry(ctx, e);
      found = true;
      return false;
    });
    if (!found) {
      ctx.reply().ArrayHeader(2);
      ctx.reply().Bulk(it->first.ToString());
      ctx.reply().NullArray();
    } else {
      it->second->delivery_time = now;
      ++it->second->delivery_count;
    }
    ++n;
  }
  ctx.reply().EndDeferredArray(at, n);
  return n;
}

// The consumer of a group reading now (created, and its creation propagated under NOACK).
StreamConsumer* ReadingConsumer(CommandContext& ctx, const std::string& key,
                                const std::string& group_name, StreamGroup& group,
                                const std::string& consumer_name, bool noack) {
  bool created = false;
  StreamConsumer* consumer = group.LookupOrCreateConsumer(consumer_name, ctx.now_ms(), &created);
  if (created) {
    ctx.MarkDirty();
    ctx.NotifyKeyspaceEvent(kNotifyStream, "xgroup-createconsumer", key);
    if (noack) PropagateConsumerCreation(ctx, key, group_name, consumer_name);
  }
  return consumer;
}

// Serves a client blocked in XREAD or XREADGROUP from `key`, whose last ID passed the client's
// (or whose group is gone: -NOGROUP).
void ServeXRead(CommandContext& ctx, const std::string& key) {
  const Client::BlockState& block = ctx.client().block();
  StreamValue& s = ctx.db().LookupQuiet(key)->value.value.stream();
  StreamGroup* group = nullptr;
  StreamId after;
  if (!block.xread_group.empty()) {
    group = s.FindGroup(block.xread_group);
    if (group == nullptr) {
      ctx.ReplyError("-NOGROUP the consumer group this client was blocked on no longer exists");
      return;
    }
    after = group->last_id();
  } else {
    for (size_t i = 0; i < block.keys.size(); ++i) {
      if (block.keys[i].key == key) after = block.stream_ids[i];
    }
  }
  if (ctx.reply().protocol() == 2) {
    ctx.reply().ArrayHeader(1);
  } else {
    ctx.reply().MapHeader(1);
  }
  if (group == nullptr) {
    ReplyKeyEntries(ctx, key, s, after, block.count);
    return;
  }
  std::string group_name = block.xread_group;
  bool noack = block.xread_noack;
  StreamConsumer* consumer =
      ReadingConsumer(ctx, key, group_name, *group, block.xread_consumer, noack);
  if (ctx.reply().protocol() == 2) ctx.reply().ArrayHeader(2);
  ctx.reply().Bulk(key);
  after.Increment();
  ReplyGroupRange(ctx, s, key, group_name, *group, consumer, after,
                  static_cast<size_t>(block.count), noack);
}

void XReadGeneric(CommandContext& ctx, bool xreadgroup) {
  int64_t deadline = -1;  // -1: no BLOCK
  int64_t count = 0;
  size_t streams_arg = 0;
  bool noack = false;
  const std::string* group_name = nullptr;
  const std::string* consumer_name = nullptr;
  for (size_t i = 1; i < ctx.argc(); ++i) {
    size_t more = ctx.argc() - i - 1;
    if (ctx.ArgIs(i, "block") && more > 0) {
      if (ctx.client().is_script()) {
        ctx.ReplyError(ctx.arg(0) + " command is not allowed with BLOCK option from scripts");
        return;
      }
      ++i;
      if (!ctx.TimeoutArg(i, /*seconds=*/false, &deadline)) return;
    } else if (ctx.ArgIs(i, "count") && more > 0) {
      ++i;
      if (!ctx.IntArg(i, &count)) return;
      if (count < 0) count = 0;
    } else if (ctx.ArgIs(i, "streams") && more > 0) {
      streams_arg = i + 1;
      if ((ctx.argc() - streams_arg) % 2 != 0) {
        ctx.ReplyError(
            "Unbalanced XREAD list of streams: for each stream key an ID or '$' must be "
            "specified.");
        return;
      }
      break;
    } else if (ctx.ArgIs(i, "group") && more >= 2) {
      if (!xreadgroup) {
        ctx.ReplyError(
            "The GROUP option is only supported by XREADGROUP. You called XREAD instead.");
        return;
      }
      group_name = &ctx.arg(i + 1);
      consumer_name = &ctx.arg(i + 2);
      i += 2;
    } else if (ctx.ArgIs(i, "noack")) {
      if (!xreadgroup) {
        ctx.ReplyError(
            "The NOACK option is only supported by XREADGROUP. You called XREAD instead.");
        return;
      }
      noack = true;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  if (streams_arg == 0) {
    ctx.ReplySyntaxError();
    return;
  }
  if (xreadgroup && group_name == nullptr) {
    ctx.ReplyError("Missing GROUP option for XREADGROUP");
    return;
  }
  size_t n = (ctx.argc() - streams_arg) / 2;
  std::vector<StreamId> ids(n);
  for (size_t i = 0; i < n; ++i) {
    const std::string& key = ctx.arg(streams_arg + i);
    const std::string& arg = ctx.arg(streams_arg + n + i);
    Db::Node* node = nullptr;
    if (!ctx.LookupRead(key, ObjectType::kStream, &node)) return;
    if (group_name != nullptr &&
        (node == nullptr || node->value.value.stream().FindGroup(*group_name) == nullptr)) {
      ctx.ReplyError("-NOGROUP No such key '" + key + "' or consumer group '" + *group_name +
                     "' in XREADGROUP with GROUP option");
      return;
    }
    if (arg == "$") {
      if (xreadgroup) {
        ctx.ReplyError(
            "The $ ID is meaningless in the context of XREADGROUP: you want to read the "
            "history of this consumer by specifying a proper ID, or use the > ID to get new "
            "messages. The $ ID would just return an empty result set.");
        return;
      }
      ids[i] = node == nullptr ? StreamId{} : node->value.value.stream().last_id();
    } else if (arg == ">") {
      if (!xreadgroup) {
        ctx.ReplyError(
            "The > ID can be specified only when calling XREADGROUP using the GROUP <group> "
            "<consumer> option.");
        return;
      }
      ids[i] = StreamId::Max();  // the group's last ID, resolved when served
    } else if (!StreamIdArg(ctx, arg, 0, true, &ids[i], nullptr)) {
      return;
    }
  }
  // Served at once when any stream has an entry above its ID (a group's history at once).
  size_t at = 0;
  size_t served = 0;
  for (size_t i = 0; i < n; ++i) {
    const std::string& key = ctx.arg(streams_arg + i);
    Db::Node* node = ctx.db().LookupRead(key);
    if (node == nullptr) continue;
    StreamValue& s = node->value.value.stream();
    StreamGroup* group = group_name != nullptr ? s.FindGroup(*group_name) : nullptr;
    StreamId gt = ids[i];
    bool serve = false, history = false;
    if (group != nullptr) {
      if (gt != StreamId::Max()) {
        serve = history = true;
      } else if (s.length() != 0 && s.LastValidId() > group->last_id()) {
        serve = true;
        gt = group->last_id();
      }
    } else if (s.length() != 0 && s.LastValidId() > gt) {
      serve = true;
    }
    if (!serve) continue;
    if (++served == 1) at = ctx.reply().BeginDeferred();
    if (group == nullptr) {
      ReplyKeyEntries(ctx, key, s, gt, count);
      continue;
    }
    StreamId start = gt;
    start.Increment();
    if (ctx.reply().protocol() == 2) ctx.reply().ArrayHeader(2);
    ctx.reply().Bulk(key);
    StreamConsumer* consumer =
        ReadingConsumer(ctx, key, *group_name, *group, *consumer_name, noack);
    if (history) {
      ReplyConsumerHistory(ctx, s, *consumer, start, static_cast<size_t>(count));
    } else {
      ReplyGroupRange(ctx, s, key, *group_name, *group, consumer, start, static_cast<size_t>(count),
                      noack);
    }
    ctx.MarkDirty();
  }
  ctx.PreventPropagation();
  if (served != 0) {
    if (ctx.reply().protocol() == 2) {
      ctx.reply().EndDeferredArray(at, served);
    } else {
      ctx.reply().EndDeferredMap(at, served);
    }
    return;
  }
  if (deadline == -1 || !ctx.may_block()) {
    ctx.reply().NullArray();
    return;
  }
  // Blocked: the IDs (with $ resolved) by key, the first of a key given twice.
  Client::BlockState& block = ctx.client().block();
  std::unordered_set<std::string_view> seen;
  block.stream_ids.clear();
  for (size_t i = 0; i < n; ++i) {
    if (seen.insert(ctx.arg(streams_arg + i)).second) block.stream_ids.push_back(ids[i]);
  }
  block.serve = ServeXRead;
  block.count = count != 0 ? count : kBlockedDefaultCount;
  if (group_name != nullptr) {
    block.xread_group = *group_name;
    block.xread_consumer = *consumer_name;
    block.xread_noack = noack;
  }
  ctx.engine().blocking().BlockForKeys(ctx, Client::BlockKind::kStream,
                                       ctx.args().subspan(streams_arg, n), deadline);
}

void XReadCommand(CommandContext& ctx) { XReadGeneric(ctx, false); }
void XReadGroupCommand(CommandContext& ctx) { XReadGeneric(ctx, true); }

}  // namespace

// The commands of specs/stream_read.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/stream_read.inc"

}  // namespace redlab::server::engine
