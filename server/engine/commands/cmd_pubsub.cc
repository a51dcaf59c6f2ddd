// Pub/sub commands: (P|S)SUBSCRIBE, (P|S)UNSUBSCRIBE, PUBLISH, SPUBLISH, PUBSUB.
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/help.h"

namespace redlab::server::engine {
namespace {

// The subscription count Redis reports: channels plus patterns, or shard channels alone.
int64_t SubscriptionCount(const Client& c, bool shard) {
  const auto& s = c.pubsub();
  return shard ? static_cast<int64_t>(s.shard_channels.size())
               : static_cast<int64_t>(s.channels.size() + s.patterns.size());
}

// [kind, name (or nil), count], a push in RESP3.
void ReplySubscription(CommandContext& ctx, std::string_view kind, const std::string* name,
                       bool shard) {
  resp::ReplyWriter& r = ctx.reply();
  size_t start = ctx.client().reply_buffer().size();
  r.PushHeader(3);
  r.Bulk(kind);
  if (name != nullptr) {
    r.Bulk(*name);
  } else {
    r.Null();
  }
  r.Integer(SubscriptionCount(ctx.client(), shard));
  ctx.client().MarkPushed(start);  // confirmations go out even under CLIENT REPLY OFF
}

void Subscribe(CommandContext& ctx, PubSubKind kind) {
  bool shard = kind == PubSubKind::kShard;
  // A client that must get one reply per command cannot subscribe; for SUBSCRIBE (not the newer
  // SSUBSCRIBE) Redis keeps allowing it inside a transaction, for backward compatibility.
  if (ctx.client().deny_blocking() && (shard || !ctx.client().in_multi())) {
    ctx.ReplyError(shard ? "SSUBSCRIBE isn't allowed for a DENY BLOCKING client"
                         : "SUBSCRIBE isn't allowed for a DENY BLOCKING client");
    return;
  }
  for (size_t i = 1; i < ctx.argc(); ++i) {
    ctx.engine().messaging().Subscribe(&ctx.client(), ctx.arg(i), kind);
    ReplySubscription(ctx, shard ? "ssubscribe" : "subscribe", &ctx.arg(i), shard);
  }
}

void Unsubscribe(CommandContext& ctx, PubSubKind kind) {
  bool shard = kind == PubSubKind::kShard;
  std::string_view label = shard ? "sunsubscribe" : "unsubscribe";
  if (ctx.argc() == 1) {
    auto& mine = shard ? ctx.client().pubsub().shard_channels : ctx.client().pubsub().channels;
    std::vector<std::string> all = mine;
    for (const std::string& ch : all) {
      ctx.engine().messaging().Unsubscribe(&ctx.client(), ch, kind);
      ReplySubscription(ctx, label, &ch, shard);
    }
    if (all.empty()) ReplySubscription(ctx, label, nullptr, shard);
    return;
  }
  for (size_t i = 1; i < ctx.argc(); ++i) {
    ctx.engine().messaging().Unsubscribe(&ctx.client(), ctx.arg(i), kind);
    ReplySubscription(ctx, label, &ctx.arg(i), shard);
  }
}

void SubscribeCommand(CommandContext& ctx) { Subscribe(ctx, PubSubKind::kChannel); }
void SSubscribeCommand(CommandContext& ctx) { Subscribe(ctx, PubSubKind::kShard); }
void UnsubscribeCommand(CommandContext& ctx) { Unsubscribe(ctx, PubSubKind::kChannel); }
void SUnsubscribeCommand(CommandContext& ctx) { Unsubscribe(ctx, PubSubKind::kShard); }

void PSubscribeCommand(CommandContext& ctx) {
  if (ctx.client().deny_blocking() && !ctx.client().in_multi()) {
    ctx.ReplyError("PSUBSCRIBE isn't allowed for a DENY BLOCKING client");
    return;
  }
  for (size_t i = 1; i < ctx.argc(); ++i) {
    ctx.engine().messaging().SubscribePattern(&ctx.client(), ctx.arg(i));
    ReplySubscription(ctx, "psubscribe", &ctx.arg(i), false);
  }
}

void PUnsubscribeCommand(CommandContext& ctx) {
  if (ctx.argc() == 1) {
    std::vector<std::string> all = ctx.client().pubsub().patterns;
    for (const std::string& p : all) {
      ctx.engine().messaging().UnsubscribePattern(&ctx.client(), p);
      ReplySubscription(ctx, "punsubscribe", &p, false);
    }
    if (all.empty()) ReplySubscription(ctx, "punsubscribe", nullptr, false);
    return;
  }
  for (size_t i = 1; i < ctx.argc(); ++i) {
    ctx.engine().messaging().UnsubscribePattern(&ctx.client(), ctx.arg(i));
    ReplySubscription(ctx, "punsubscribe", &ctx.arg(i), false);
  }
}

void PublishCommand(CommandContext& ctx) {
  int64_t receivers =
      ctx.engine().messaging().Publish(ctx.arg(1), ctx.arg(2), PubSubKind::kChannel);
  ctx.ForcePropagation();  // replicas deliver it to their own subscribers, as Redis does
  ctx.reply().Integer(receivers);
}

void SPublishCommand(CommandContext& ctx) {
  int64_t receivers = ctx.engine().messaging().Publish(ctx.arg(1), ctx.arg(2), PubSubKind::kShard);
  ctx.ForcePropagation();
  ctx.reply().Integer(receivers);
}

void ReplyChannels(CommandContext& ctx, PubSubKind kind) {
  std::optional<std::string_view> pattern;
  if (ctx.argc() > 2) pattern = ctx.arg(2);
  auto names = ctx.engine().messaging().pubsub().Channels(pattern, kind);
  ctx.reply().ArrayHeader(names.size());
  for (std::string_view n : names) ctx.reply().Bulk(n);
}

void ReplyNumSub(CommandContext& ctx, PubSubKind kind) {
  // A flat array of name, count pairs, in RESP3 too, as Redis 7.0 replies.
  ctx.reply().ArrayHeader(2 * (ctx.argc() - 2));
  for (size_t i = 2; i < ctx.argc(); ++i) {
    ctx.reply().Bulk(ctx.arg(i));
    ctx.reply().Integer(ctx.engine().messaging().pubsub().NumSubscribers(ctx.arg(i), kind));
  }
}

void PubsubChannelsCommand(CommandContext& ctx) {
  if (ctx.argc() > 3) {
    ReplySubcommandSyntaxError(ctx);
    return;
  }
  ReplyChannels(ctx, PubSubKind::kChannel);
}
void PubsubShardChannelsCommand(CommandContext& ctx) {
  if (ctx.argc() > 3) {
    ReplySubcommandSyntaxError(ctx);
    return;
  }
  ReplyChannels(ctx, PubSubKind::kShard);
}
void PubsubNumSubCommand(CommandContext& ctx) { ReplyNumSub(ctx, PubSubKind::kChannel); }
void PubsubShardNumSubCommand(CommandContext& ctx) { ReplyNumSub(ctx, PubSubKind::kShard); }
void PubsubNumPatCommand(CommandContext& ctx) {
  ctx.reply().Integer(ctx.engine().messaging().pubsub().NumPatterns());
}

constexpr std::string_view kPubsubHelp[] = {
    "CHANNELS [<pattern>]",
    "    Return the currently active channels matching a <pattern> (default: '*').",
    "NUMPAT",
    "    Return number of subscriptions to patterns.",
    "NUMSUB [<channel> ...]",
    "    Return the number of subscribers for the specified channels, excluding",
    "    pattern subscriptions(default: no channels).",
    "SHARDCHANNELS [<pattern>]",
    "    Return the currently active shard level channels matching a <pattern> (default: '*').",
    "SHARDNUMSUB [<shardchannel> ...]",
    "    Return the number of subscribers for the specified shard level channel(s)",
};
void PubsubHelpCommand(CommandContext& ctx) { ReplyHelp(ctx, kPubsubHelp); }

}  // namespace

// The commands of specs/pubsub.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/pubsub.inc"

}  // namespace redlab::server::engine
