// Redis 7.0's t_stream.c xinfoCommand and xinfoReplyWithStreamInfo: XINFO STREAM (and FULL),
// GROUPS, CONSUMERS and HELP.
#include <algorithm>

#include "server/engine/commands/cmd_stream.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/help.h"

namespace redlab::server::engine {
namespace {

constexpr std::string_view kXInfoHelp[] = {
    "CONSUMERS <key> <groupname>",
    "    Show consumers of <groupname>.",
    "GROUPS <key>",
    "    Show the stream consumer groups.",
    "STREAM <key> [FULL [COUNT <count>]",
    "    Show information about the stream.",
};

void ReplyLag(CommandContext& ctx, const StreamValue& s, const StreamGroup& group) {
  int64_t lag = 0;
  if (s.GroupLag(group, &lag)) {
    ctx.reply().Integer(lag);
  } else {
    ctx.reply().Null();
  }
}

void ReplyEntriesRead(CommandContext& ctx, const StreamGroup& group) {
  if (group.entries_read() != kInvalidEntriesRead) {
    ctx.reply().Integer(group.entries_read());
  } else {
    ctx.reply().Null();
  }
}

// The first or last entry, or a null when there is none.
void ReplyEdgeEntry(CommandContext& ctx, const StreamValue& s, bool last) {
  StreamValue::Entry e;
  if (last ? s.Last(&e) : s.First(&e)) {
    ReplyStreamEntry(ctx, e);
  } else {
    ctx.reply().Null();
  }
}

// XINFO STREAM FULL's "pending" of a group or a consumer: at most `count` entries of `pel` (0:
// all), each replied by `entry(id, nack)`.
template <typename Pel, typename Entry>
void ReplyPendingUpTo(resp::ReplyWriter& r, const Pel& pel, int64_t count, Entry entry) {
  size_t n = 0;
  size_t at = r.BeginDeferred();
  for (const auto& [id, nack] : pel) {
    if (count != 0 && static_cast<int64_t>(n) >= count) break;
    entry(id, nack);
    ++n;
  }
  r.EndDeferredArray(at, n);
}

void ReplyFullGroups(CommandContext& ctx, const StreamValue& s, int64_t count) {
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(s.groups().size());
  for (const auto& [name, group] : s.groups()) {
    r.MapHeader(7);
    r.Bulk("name");
    r.Bulk(name);
    r.Bulk("last-delivered-id");
    r.Bulk(group.last_id().ToString());
    r.Bulk("entries-read");
    ReplyEntriesRead(ctx, group);
    r.Bulk("lag");
    ReplyLag(ctx, s, group);
    r.Bulk("pel-count");
    r.Integer(static_cast<int64_t>(group.pel().size()));
    r.Bulk("pending");
    ReplyPendingUpTo(r, group.pel(), count, [&](const StreamId& id, const auto& nack) {
      r.ArrayHeader(4);
      r.Bulk(id.ToString());
      r.Bulk(nack.consumer->name);
      r.Integer(nack.delivery_time);
      r.Integer(static_cast<int64_t>(nack.delivery_count));
    });
    r.Bulk("consumers");
    r.ArrayHeader(group.consumers().size());
    for (const auto& [cname, consumer] : group.consumers()) {
      r.MapHeader(4);
      r.Bulk("name");
      r.Bulk(cname);
      r.Bulk("seen-time");
      r.Integer(consumer.seen_time);
      r.Bulk("pel-count");
      r.Integer(static_cast<int64_t>(consumer.pel.size()));
      r.Bulk("pending");
      ReplyPendingUpTo(r, consumer.pel, count, [&](const StreamId& id, const auto* nack) {
        r.ArrayHeader(3);
        r.Bulk(id.ToString());
        r.Integer(nack->delivery_time);
        r.Integer(static_cast<int64_t>(nack->delivery_count));
      });
    }
  }
}

void ReplyStreamInfo(CommandContext& ctx, const StreamValue& s) {
  bool full = true;
  int64_t count = 10;
  size_t optc = ctx.argc() - 3;
  if (optc == 0) {
    full = false;
  } else {
    if ((optc != 1 && optc != 3) || !ctx.ArgIs(3, "full")) {
      ReplySubcommandSyntaxError(ctx);
      return;
    }
    if (optc == 3) {
      if (!ctx.ArgIs(4, "count")) {
        ReplySubcommandSyntaxError(ctx);
        return;
      }
      if (!ctx.IntArg(5, &count)) return;
      if (count < 0) count = 10;
    }
  }
  resp::ReplyWriter& r = ctx.reply();
  r.MapHeader(full ? 9 : 10);
  r.Bulk("length");
  r.Integer(static_cast<int64_t>(s.length()));
  r.Bulk("radix-tree-keys");
  r.Integer(static_cast<int64_t>(s.node_count()));
  r.Bulk("radix-tree-nodes");
  r.Integer(static_cast<int64_t>(s.RaxNodeCount()));
  r.Bulk("last-generated-id");
  r.Bulk(s.last_id().ToString());
  r.Bulk("max-deleted-entry-id");
  r.Bulk(s.max_deleted_id().ToString());
  r.Bulk("entries-added");
  r.Integer(static_cast<int64_t>(s.entries_added()));
  r.Bulk("recorded-first-entry-id");
  r.Bulk(s.first_id().ToString());
  if (!full) {
    r.Bulk("groups");
    r.Integer(static_cast<int64_t>(s.groups().size()));
    r.Bulk("first-entry");
    ReplyEdgeEntry(ctx, s, false);
    r.Bulk("last-entry");
    ReplyEdgeEntry(ctx, s, true);
    return;
  }
  r.Bulk("entries");
  ReplyStreamRange(ctx, s, {}, StreamId::Max(), static_cast<size_t>(count), false);
  r.Bulk("groups");
  ReplyFullGroups(ctx, s, count);
}

void XInfoCommand(CommandContext& ctx) {
  if (ctx.ArgIs(1, "help")) {
    if (ctx.argc() != 2) {
      ReplySubcommandSyntaxError(ctx);
      return;
    }
    ReplyHelp(ctx, kXInfoHelp);
    return;
  }
  if (ctx.argc() < 3) {
    ReplySubcommandSyntaxError(ctx);
    return;
  }
  const std::string& key = ctx.arg(2);
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(key, ObjectType::kStream, &node)) return;
  if (node == nullptr) {
    ctx.ReplyError("no such key");
    return;
  }
  const StreamValue& s = node->value.value.stream();
  resp::ReplyWriter& r = ctx.reply();
  if (ctx.ArgIs(1, "consumers") && ctx.argc() == 4) {
    auto it = s.groups().find(ctx.arg(3));
    if (it == s.groups().end()) {
      ctx.ReplyError("-NOGROUP No such consumer group '" + ctx.arg(3) + "' for key name '" +
                     key + "'");
      return;
    }
    int64_t now = ctx.now_ms();
    r.ArrayHeader(it->second.consumers().size());
    for (const auto& [name, consumer] : it->second.consumers()) {
      r.MapHeader(3);
      r.Bulk("name");
      r.Bulk(name);
      r.Bulk("pending");
      r.Integer(static_cast<int64_t>(consumer.pel.size()));
      r.Bulk("idle");
      r.Integer(std::max<int64_t>(0, now - consumer.seen_time));
    }
  } else if (ctx.ArgIs(1, "groups") && ctx.argc() == 3) {
    r.ArrayHeader(s.groups().size());
    for (const auto& [name, group] : s.groups()) {
      r.MapHeader(6);
      r.Bulk("name");
      r.Bulk(name);
      r.Bulk("consumers");
      r.Integer(static_cast<int64_t>(group.consumers().size()));
      r.Bulk("pending");
      r.Integer(static_cast<int64_t>(group.pel().size()));
      r.Bulk("last-delivered-id");
      r.Bulk(group.last_id().ToString());
      r.Bulk("entries-read");
      ReplyEntriesRead(ctx, group);
      r.Bulk("lag");
      ReplyLag(ctx, s, group);
    }
  } else if (ctx.ArgIs(1, "stream")) {
    ReplyStreamInfo(ctx, s);
  } else {
    ReplySubcommandSyntaxError(ctx);
  }
}

}  // namespace

// The commands of specs/stream_info.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/stream_info.inc"

}  // namespace redlab::server::engine
