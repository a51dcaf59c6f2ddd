// Redis 7.0's t_stream.c consumer-group commands: XGROUP (CREATE, SETID, DESTROY,
// CREATECONSUMER, DELCONSUMER, HELP), XACK, XPENDING, XCLAIM, XAUTOCLAIM, and how their effects
// propagate (streamPropagateXCLAIM, streamPropagateGroupID, streamPropagateConsumerCreation).
#include <algorithm>
#include <climits>

#include "server/engine/commands/cmd_stream.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/help.h"

namespace redlab::server::engine {

void PropagateXClaim(CommandContext& ctx, std::string_view key, const StreamGroup& group,
                     std::string_view group_name, std::string_view id, const StreamNack& nack) {
  ctx.engine().Propagate(
      ctx.client().db(),
      {"XCLAIM", std::string(key), std::string(group_name), nack.consumer->name, "0",
       std::string(id), "TIME", std::to_string(nack.delivery_time), "RETRYCOUNT",
       std::to_string(nack.delivery_count), "FORCE", "JUSTID", "LASTID",
       group.last_id().ToString()});
}

void PropagateGroupId(CommandContext& ctx, std::string_view key, const StreamGroup& group,
                      std::string_view group_name) {
  ctx.engine().Propagate(ctx.client().db(),
                         {"XGROUP", "SETID", std::string(key), std::string(group_name),
                          group.last_id().ToString(), "ENTRIESREAD",
                          std::to_string(group.entries_read())});
}

void PropagateConsumerCreation(CommandContext& ctx, std::string_view key,
                               std::string_view group_name, std::string_view consumer) {
  ctx.engine().Propagate(ctx.client().db(),
                         {"XGROUP", "CREATECONSUMER", std::string(key), std::string(group_name),
                          std::string(consumer)});
}

namespace {

constexpr std::string_view kXGroupHelp[] = {
    "CREATE <key> <groupname> <id|$> [option]",
    "    Create a new consumer group. Options are:",
    "    * MKSTREAM",
    "      Create the empty stream if it does not exist.",
    "    * ENTRIESREAD entries_read",
    "      Set the group's entries_read counter (internal use).",
    "CREATECONSUMER <key> <groupname> <consumer>",
    "    Create a new consumer in the specified group.",
    "DELCONSUMER <key> <groupname> <consumer>",
    "    Remove the specified consumer.",
    "DESTROY <key> <groupname>",
    "    Remove the specified group.",
    "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
    "    Set the current group ID and entries_read counter.",
};

// XPENDING, XCLAIM and XAUTOCLAIM: the group named by argument 2 of the stream at argument 1
// (and that stream in `*stream`), or nullptr once the reply is made: a wrong type's error, or
// NOGROUP for a missing key or group.
StreamGroup* FindGroupOrReply(CommandContext& ctx, StreamValue** stream) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kStream, &node)) return nullptr;
  StreamValue* s = node == nullptr ? nullptr : &node->value.value.stream();
  StreamGroup* group = s == nullptr ? nullptr : s->FindGroup(ctx.arg(2));
  if (group == nullptr) {
    ctx.ReplyError("-NOGROUP No such key '" + ctx.arg(1) + "' or consumer group '" + ctx.arg(2) +
                   "'");
    return nullptr;
  }
  *stream = s;
  return group;
}

// xgroupCommand: every subcommand of XGROUP, as the one procedure Redis has.
void XGroupCommand(CommandContext& ctx) {
  const std::string& opt = ctx.arg(1);
  auto is = [&](std::string_view name) { return ctx.ArgIs(1, name); };
  bool mkstream = false;
  int64_t entries_read = kInvalidEntriesRead;
  StreamValue* s = nullptr;
  StreamGroup* group = nullptr;
  Db::Node* node = nullptr;
  if (ctx.argc() >= 4) {
    bool create = is("create"), setid = is("setid");
    for (size_t i = 5; i < ctx.argc();) {
      if (create && ctx.ArgIs(i, "mkstream")) {
        mkstream = true;
        ++i;
      } else if ((create || setid) && ctx.ArgIs(i, "entriesread") && i + 1 < ctx.argc()) {
        if (!ctx.IntArg(i + 1, &entries_read)) return;
        if (entries_read < 0 && entries_read != kInvalidEntriesRead) {
          ctx.ReplyError("value for ENTRIESREAD must be positive or -1");
          return;
        }
        i += 2;
      } else {
        ReplySubcommandSyntaxError(ctx);
        return;
      }
    }
    if (!ctx.LookupWrite(ctx.arg(2), ObjectType::kStream, &node)) return;
    if (node != nullptr) s = &node->value.value.stream();
  }
  const std::string& key = ctx.argc() >= 3 ? ctx.arg(2) : opt;
  if (ctx.argc() >= 4 && !mkstream) {
    if (s == nullptr) {
      ctx.ReplyError(
          "The XGROUP subcommand requires the key to exist. Note that for CREATE you may want "
          "to use the MKSTREAM option to create an empty stream automatically.");
      return;
    }
    group = s->FindGroup(ctx.arg(3));
    if (group == nullptr && (is("setid") || is("createconsumer") || is("delconsumer"))) {
      ctx.ReplyError("-NOGROUP No such consumer group '" + ctx.arg(3) + "' for key name '" +
                     key + "'");
      return;
    }
  }
  if (ctx.argc() == 2 && is("help")) {
    ReplyHelp(ctx, kXGroupHelp);
  } else if (is("create") && ctx.argc() >= 5 && ctx.argc() <= 8) {
    StreamId id;
    if (ctx.arg(4) == "$") {
      if (s != nullptr) id = s->last_id();
    } else if (!StreamIdArg(ctx, ctx.arg(4), 0, true, &id, nullptr)) {
      return;
    }
    if (s == nullptr) {
      node = ctx.db().Add(key, Object::NewStream());
      s = &node->value.value.stream();
      ctx.SignalModifiedKey(key);
    }
    if (s->CreateGroup(ctx.arg(3), id, entries_read) != nullptr) {
      ctx.ReplyOk();
      ctx.MarkDirty();
      ctx.NotifyKeyspaceEvent(kNotifyStream, "xgroup-create", key);
    } else {
      ctx.ReplyError("-BUSYGROUP Consumer Group name already exists");
    }
  } else if (is("setid") && (ctx.argc() == 5 || ctx.argc() == 7)) {
    StreamId id;
    if (ctx.arg(4) == "$") {
      id = s->last_id();
    } else if (!StreamIdArg(ctx, ctx.arg(4), 0, false, &id, nullptr)) {
      return;
    }
    group->set_last_id(id);
    group->set_entries_read(entries_read);
    ctx.ReplyOk();
    ctx.MarkDirty();
    ctx.NotifyKeyspaceEvent(kNotifyStream, "xgroup-setid", key);
  } else if (is("destroy") && ctx.argc() == 4) {
    if (group != nullptr) {
      s->DestroyGroup(ctx.arg(3));
      ctx.reply().Integer(1);
      ctx.MarkDirty();
      ctx.NotifyKeyspaceEvent(kNotifyStream, "xgroup-destroy", key);
      // Clients blocked in XREADGROUP on the group get -NOGROUP.
      SignalStreamReady(ctx, key);
    } else {
      ctx.reply().Integer(0);
    }
  } else if (is("createconsumer") && ctx.argc() == 5) {
    bool created = group->CreateConsumer(ctx.arg(4), ctx.now_ms()) != nullptr;
    if (created) {
      ctx.MarkDirty();
      ctx.NotifyKeyspaceEvent(kNotifyStream, "xgroup-createconsumer", key);
    }
    ctx.reply().Integer(created ? 1 : 0);
  } else if (is("delconsumer") && ctx.argc() == 5) {
    int64_t pending = 0;
    if (group->FindConsumer(ctx.arg(4)) != nullptr) {
      pending = static_cast<int64_t>(group->DeleteConsumer(ctx.arg(4)));
      ctx.MarkDirty();
      ctx.NotifyKeyspaceEvent(kNotifyStream, "xgroup-delconsumer", key);
    }
    ctx.reply().Integer(pending);
  } else {
    ReplySubcommandSyntaxError(ctx);
  }
}

void XAckCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kStream, &node)) return;
  StreamGroup* group = node == nullptr ? nullptr : node->value.value.stream().FindGroup(ctx.arg(2));
  if (group == nullptr) {
    ctx.reply().Integer(0);
    return;
  }
  std::vector<StreamId> ids(ctx.argc() - 3);
  for (size_t j = 3; j < ctx.argc(); ++j) {
    if (!StreamIdArg(ctx, ctx.arg(j), 0, true, &ids[j - 3], nullptr)) return;
  }
  int64_t acked = 0;
  for (const StreamId& id : ids) {
    if (group->Ack(id)) {
      ++acked;
      ctx.MarkDirty();
    }
  }
  ctx.reply().Integer(acked);
}

// streamParseIntervalIDOrReply with the exclusive-range adjustment; false after replying.
bool IntervalArg(CommandContext& ctx, size_t i, uint64_t missing_seq, bool start, StreamId* id) {
  std::string_view arg = ctx.arg(i);
  bool ex = arg.size() > 1 && arg[0] == '(';
  if (!StreamIdArg(ctx, ex ? arg.substr(1) : arg, missing_seq, ex, id, nullptr)) return false;
  if (ex && !(start ? id->Increment() : id->Decrement())) {
    ctx.ReplyError(start ? "invalid start ID for the interval" : "invalid end ID for the interval");
    return false;
  }
  return true;
}

void XPendingCommand(CommandContext& ctx) {
  bool justinfo = ctx.argc() == 3;
  if (ctx.argc() != 3 && (ctx.argc() < 6 || ctx.argc() > 9)) {
    ctx.ReplySyntaxError();
    return;
  }
  StreamId start, end;
  int64_t count = 0, minidle = 0;
  const std::string* consumer_name = nullptr;
  if (ctx.argc() >= 6) {
    size_t at = 3;
    if (ctx.ArgIs(3, "idle")) {
      if (!ctx.IntArg(4, &minidle)) return;
      if (ctx.argc() < 8) {
        ctx.ReplySyntaxError();
        return;
      }
      at += 2;
    }
    if (!ctx.IntArg(at + 2, &count)) return;
    if (count < 0) count = 0;
    if (!IntervalArg(ctx, at, 0, true, &start)) return;
    if (!IntervalArg(ctx, at + 1, UINT64_MAX, false, &end)) return;
    if (at + 3 < ctx.argc()) consumer_name = &ctx.arg(at + 3);
  }
  StreamValue* s = nullptr;
  StreamGroup* group = FindGroupOrReply(ctx, &s);
  if (group == nullptr) return;
  resp::ReplyWriter& r = ctx.reply();
  if (justinfo) {
    r.ArrayHeader(4);
    r.Integer(static_cast<int64_t>(group->pel().size()));
    if (group->pel().empty()) {
      r.Null();
      r.Null();
      r.NullArray();
      return;
    }
    r.Bulk(group->pel().begin()->first.ToString());
    r.Bulk(group->pel().rbegin()->first.ToString());
    size_t at = r.BeginDeferred();
    size_t n = 0;
    for (const auto& [name, c] : group->consumers()) {
      if (c.pel.empty()) continue;
      r.ArrayHeader(2);
      r.Bulk(name);
      r.Bulk(std::to_string(c.pel.size()));
      ++n;
    }
    r.EndDeferredArray(at, n);
    return;
  }
  StreamConsumer* consumer = nullptr;
  if (consumer_name != nullptr) {
    consumer = group->FindConsumer(*consumer_name);
    if (consumer == nullptr) {
      r.ArrayHeader(0);
      return;
    }
  }
  int64_t now = ctx.now_ms();
  size_t at = r.BeginDeferred();
  size_t n = 0;
  auto emit = [&](const StreamId& id, const StreamNack& nack) {
    if (minidle != 0 && now - nack.delivery_time < minidle) return;
    ++n;
    --count;
    r.ArrayHeader(4);
    r.Bulk(id.ToString());
    r.Bulk(nack.consumer->name);
    r.Integer(std::max<int64_t>(0, now - nack.delivery_time));
    r.Integer(static_cast<int64_t>(nack.delivery_count));
  };
  if (consumer != nullptr) {
    for (auto it = consumer->pel.lower_bound(start); count != 0 && it != consumer->pel.end() &&
                                                      it->first <= end;
         ++it) {
      emit(it->first, *it->second);
    }
  } else {
    for (auto it = group->pel().lower_bound(start);
         count != 0 && it != group->pel().end() && it->first <= end; ++it) {
      emit(it->first, it->second);
    }
  }
  r.EndDeferredArray(at, n);
}

// One entry claimed: [id, fields] or just the ID.
void ReplyClaimed(CommandContext& ctx, const StreamValue& s, const StreamId& id, bool justid) {
  if (justid) {
    ctx.reply().Bulk(id.ToString());
    return;
  }
  s.Range(id, id, false, [&](const StreamValue::Entry& e) {
    ReplyStreamEntry(ctx, e);
    return false;
  });
}

// The consumer claiming, looked up (or created) on first use.
StreamConsumer* Claimer(CommandContext& ctx, StreamGroup& group, StreamConsumer*& consumer) {
  if (consumer != nullptr) return consumer;
  bool created = false;
  consumer = group.LookupOrCreateConsumer(ctx.arg(3), ctx.now_ms(), &created);
  if (created) {
    ctx.MarkDirty();
    ctx.NotifyKeyspaceEvent(kNotifyStream, "xgroup-createconsumer", ctx.arg(1));
  }
  return consumer;
}

void XClaimCommand(CommandContext& ctx) {
  StreamValue* s = nullptr;
  StreamGroup* group = FindGroupOrReply(ctx, &s);
  if (group == nullptr) return;
  int64_t minidle = 0;
  if (!ctx.IntArg(4, &minidle, "Invalid min-idle-time argument for XCLAIM")) return;
  if (minidle < 0) minidle = 0;
  std::vector<StreamId> ids;
  size_t j = 5;
  for (; j < ctx.argc(); ++j) {
    StreamId id;
    if (!ParseStreamId(ctx.arg(j), 0, true, &id)) break;
    ids.push_back(id);
  }
  size_t last_id_arg = j;  // the IDs are arguments 5 .. last_id_arg - 1
  int64_t now = ctx.now_ms();
  int64_t retrycount = -1, deliverytime = -1;
  bool force = false, justid = false;
  StreamId last_id;
  for (; j < ctx.argc(); ++j) {
    bool more = j + 1 < ctx.argc();
    if (ctx.ArgIs(j, "force")) {
      force = true;
    } else if (ctx.ArgIs(j, "justid")) {
      justid = true;
    } else if (ctx.ArgIs(j, "idle") && more) {
      ++j;
      if (!ctx.IntArg(j, &deliverytime, "Invalid IDLE option argument for XCLAIM")) return;
      deliverytime = now - deliverytime;
    } else if (ctx.ArgIs(j, "time") && more) {
      ++j;
      if (!ctx.IntArg(j, &deliverytime, "Invalid TIME option argument for XCLAIM")) return;
    } else if (ctx.ArgIs(j, "retrycount") && more) {
      ++j;
      if (!ctx.IntArg(j, &retrycount, "Invalid RETRYCOUNT option argument for XCLAIM")) return;
    } else if (ctx.ArgIs(j, "lastid") && more) {
      ++j;
      if (!StreamIdArg(ctx, ctx.arg(j), 0, true, &last_id, nullptr)) return;
    } else {
      ctx.ReplyError("Unrecognized XCLAIM option '" + ctx.arg(j) + "'");
      return;
    }
  }
  bool propagate_last_id = false;
  if (last_id > group->last_id()) {
    group->set_last_id(last_id);
    propagate_last_id = true;
  }
  if (deliverytime == -1 || deliverytime < 0 || deliverytime > now) deliverytime = now;
  StreamConsumer* consumer = nullptr;
  size_t at = ctx.reply().BeginDeferred();
  size_t n = 0;
  for (size_t k = 5; k < last_id_arg; ++k) {
    const StreamId& id = ids[k - 5];
    auto it = group->pel().find(id);
    if (!s->Contains(id)) {
      if (it != group->pel().end()) {
        // An entry deleted meanwhile leaves the PEL; the replicas see the same XCLAIM.
        PropagateXClaim(ctx, ctx.arg(1), *group, ctx.arg(2), ctx.arg(k), it->second);
        propagate_last_id = false;
        ctx.MarkDirty();
        group->Ack(id);
      }
      continue;
    }
    if (force && it == group->pel().end()) {
      it = group->pel().try_emplace(id).first;
      it->second.consumer = nullptr;
    }
    if (it == group->pel().end()) continue;
    StreamNack& nack = it->second;
    if (nack.consumer != nullptr && minidle != 0 && now - nack.delivery_time < minidle) continue;
    Claimer(ctx, *group, consumer);
    nack.delivery_time = deliverytime;
    if (retrycount >= 0) {
      nack.delivery_count = static_cast<uint64_t>(retrycount);
    } else if (!justid) {
      ++nack.delivery_count;
    }
    StreamGroup::Assign(id, &nack, consumer);
    ReplyClaimed(ctx, *s, id, justid);
    ++n;
    PropagateXClaim(ctx, ctx.arg(1), *group, ctx.arg(2), ctx.arg(k), nack);
    propagate_last_id = false;
    ctx.MarkDirty();
  }
  if (propagate_last_id) {
    PropagateGroupId(ctx, ctx.arg(1), *group, ctx.arg(2));
    ctx.MarkDirty();
  }
  ctx.reply().EndDeferredArray(at, n);
  ctx.PreventPropagation();
}

void XAutoClaimCommand(CommandContext& ctx) {
  int64_t minidle = 0;
  if (!ctx.IntArg(4, &minidle, "Invalid min-idle-time argument for XAUTOCLAIM")) return;
  if (minidle < 0) minidle = 0;
  StreamId start;
  if (!IntervalArg(ctx, 5, 0, true, &start)) return;
  int64_t count = 100;
  bool justid = false;
  constexpr int64_t kAttemptsFactor = 10;
  for (size_t j = 6; j < ctx.argc(); ++j) {
    if (ctx.ArgIs(j, "count") && j + 1 < ctx.argc()) {
      int64_t max_count = LONG_MAX / std::max<int64_t>(sizeof(StreamId), kAttemptsFactor);
      if (!ctx.IntArg(j + 1, &count, "COUNT must be > 0")) return;
      if (count < 1 || count > max_count) {
        ctx.ReplyError("COUNT must be > 0");
        return;
      }
      ++j;
    } else if (ctx.ArgIs(j, "justid")) {
      justid = true;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  StreamValue* s = nullptr;
  StreamGroup* group = FindGroupOrReply(ctx, &s);
  if (group == nullptr) return;
  resp::ReplyWriter& r = ctx.reply();
  int64_t attempts = count * kAttemptsFactor;
  int64_t now = ctx.now_ms();
  StreamConsumer* consumer = nullptr;
  std::vector<StreamId> deleted;
  std::vector<StreamId> claimed;
  auto it = group->pel().lower_bound(start);
  while (attempts-- != 0 && count != 0 && it != group->pel().end()) {
    StreamId id = it->first;
    StreamNack& nack = it->second;
    if (!s->Contains(id)) {
      PropagateXClaim(ctx, ctx.arg(1), *group, ctx.arg(2), id.ToString(), nack);
      ctx.MarkDirty();
      ++it;
      group->Ack(id);
      deleted.push_back(id);
      --count;
      continue;
    }
    if (minidle != 0 && now - nack.delivery_time < minidle) {
      ++it;
      continue;
    }
    Claimer(ctx, *group, consumer);
    nack.delivery_time = now;
    if (!justid) ++nack.delivery_count;
    StreamGroup::Assign(id, &nack, consumer);
    claimed.push_back(id);
    --count;
    PropagateXClaim(ctx, ctx.arg(1), *group, ctx.arg(2), id.ToString(), nack);
    ctx.MarkDirty();
    ++it;
  }
  // The cursor: the next entry of the PEL, 0-0 at its end.
  StreamId next;
  if (it != group->pel().end()) next = it->first;
  r.ArrayHeader(3);
  r.Bulk(next.ToString());
  r.ArrayHeader(claimed.size());
  for (const StreamId& id : claimed) ReplyClaimed(ctx, *s, id, justid);
  r.ArrayHeader(deleted.size());
  for (const StreamId& id : deleted) r.Bulk(id.ToString());
  ctx.PreventPropagation();
}

}  // namespace

// The commands of specs/stream_group.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/stream_group.inc"

}  // namespace redlab::server::engine
