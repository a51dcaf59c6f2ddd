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
    ctx.engine().pubsub().Subscribe(&ctx.client(), ctx.arg(i), kind);
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
      ctx.engine().pubsub().Unsubscribe(&ctx.client(), ch, kind);
      ReplySubscription(ctx, label, &ch, shard);
    }
    if (all.empty()) ReplySubscription(ctx, label, nullptr, shard);
    return;
  }
  for (size_t i = 1; i < ctx.argc(); ++i) {
    ctx.engine().pubsub().Unsubscribe(&ctx.client(), ctx.arg(i), kind);
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
    ctx.engine().pubsub().SubscribePattern(&ctx.client(), ctx.arg(i));
    ReplySubscription(ctx, "psubscribe", &ctx.arg(i), false);
  }
}

void PUnsubscribeCommand(CommandContext& ctx) {
  if (ctx.argc() == 1) {
    std::vector<std::string> all = ctx.client().pubsub().patterns;
    for (const std::string& p : all) {
      ctx.engine().pubsub().UnsubscribePattern(&ctx.client(), p);
      ReplySubscription(ctx, "punsubscribe", &p, false);
    }
    if (all.empty()) ReplySubscription(ctx, "punsubscribe", nullptr, false);
    return;
  }
  for (size_t i = 1; i < ctx.argc(); ++i) {
    ctx.engine().pubsub().UnsubscribePattern(&ctx.client(), ctx.arg(i));
    ReplySubscription(ctx, "punsubscribe", &ctx.arg(i), false);
  }
}

void PublishCommand(CommandContext& ctx) {
  int64_t receivers = ctx.engine().pubsub().Publish(ctx.arg(1), ctx.arg(2), PubSubKind::kChannel);
  ctx.ForcePropagation();  // replicas deliver it to their own subscribers, as Redis does
  ctx.reply().Integer(receivers);
}

void SPublishCommand(CommandContext& ctx) {
  int64_t receivers = ctx.engine().pubsub().Publish(ctx.arg(1), ctx.arg(2), PubSubKind::kShard);
  ctx.ForcePropagation();
  ctx.reply().Integer(receivers);
}

void ReplyChannels(CommandContext& ctx, PubSubKind kind) {
  std::optional<std::string_view> pattern;
  if (ctx.argc() > 2) pattern = ctx.arg(2);
  auto names = ctx.engine().pubsub().Channels(pattern, kind);
  ctx.reply().ArrayHeader(names.size());
  for (std::string_view n : names) ctx.reply().Bulk(n);
}

void ReplyNumSub(CommandContext& ctx, PubSubKind kind) {
  // A flat array of name, count pairs, in RESP3 too, as Redis 7.0 replies.
  ctx.reply().ArrayHeader(2 * (ctx.argc() - 2));
  for (size_t i = 2; i < ctx.argc(); ++i) {
    ctx.reply().Bulk(ctx.arg(i));
    ctx.reply().Integer(ctx.engine().pubsub().NumSubscribers(ctx.arg(i), kind));
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
  ctx.reply().Integer(ctx.engine().pubsub().NumPatterns());
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

void RegisterPubSubCommands(CommandTable& table) {
  constexpr uint32_t kSub = kCmdPubsub | kCmdNoscript | kCmdLoading | kCmdStale;
  constexpr uint32_t kPub = kCmdPubsub | kCmdLoading | kCmdStale | kCmdFast | kCmdMayReplicate;
  KeySpec shard_range = KeyRange(1, -1, 1, kKeyNotKey);
  table.Add({.name = "subscribe",
             .arity = -2,
             .flags = kSub | kCmdSubscribedContext,
             .proc = SubscribeCommand,
             .group = "pubsub",
             .since = "2.0.0",
             .summary = "Listen for messages published to the given channels",
             .complexity = "O(N) where N is the number of channels to subscribe to."});
  table.Add(
      {.name = "unsubscribe",
       .arity = -1,
       .flags = kSub | kCmdSubscribedContext,
       .proc = UnsubscribeCommand,
       .group = "pubsub",
       .since = "2.0.0",
       .summary = "Stop listening for messages posted to the given channels",
       .complexity = "O(N) where N is the number of clients already subscribed to a channel."});
  table.Add({.name = "psubscribe",
             .arity = -2,
             .flags = kSub | kCmdSubscribedContext,
             .proc = PSubscribeCommand,
             .group = "pubsub",
             .since = "2.0.0",
             .summary = "Listen for messages published to channels matching the given patterns",
             .complexity =
                 "O(N) where N is the number of patterns the client is already subscribed to."});
  table.Add(
      {.name = "punsubscribe",
       .arity = -1,
       .flags = kSub | kCmdSubscribedContext,
       .proc = PUnsubscribeCommand,
       .group = "pubsub",
       .since = "2.0.0",
       .summary = "Stop listening for messages posted to channels matching the given patterns",
       .complexity = "O(N+M) where N is the number of patterns the client is already "
                     "subscribed and M is the number of total patterns subscribed in the "
                     "system (by any client)."});
  table.Add({.name = "ssubscribe",
             .arity = -2,
             .flags = kSub | kCmdSubscribedContext,
             .keys = {shard_range},
             .proc = SSubscribeCommand,
             .group = "pubsub",
             .since = "7.0.0",
             .summary = "Listen for messages published to the given shard channels",
             .complexity = "O(N) where N is the number of shard channels to subscribe to."});
  table.Add({.name = "sunsubscribe",
             .arity = -1,
             .flags = kSub | kCmdSubscribedContext,
             .keys = {shard_range},
             .proc = SUnsubscribeCommand,
             .group = "pubsub",
             .since = "7.0.0",
             .summary = "Stop listening for messages posted to the given shard channels",
             .complexity =
                 "O(N) where N is the number of clients already subscribed to a shard channel."});
  table.Add({.name = "publish",
             .arity = 3,
             .flags = kPub,
             .proc = PublishCommand,
             .group = "pubsub",
             .since = "2.0.0",
             .summary = "Post a message to a channel",
             .complexity =
                 "O(N+M) where N is the number of clients subscribed to the receiving "
                 "channel and M is the total number of subscribed patterns (by any client)."});
  table.Add(
      {.name = "spublish",
       .arity = 3,
       .flags = kPub,
       .keys = {KeyAt(1, kKeyNotKey)},
       .proc = SPublishCommand,
       .group = "pubsub",
       .since = "7.0.0",
       .summary = "Post a message to a shard channel",
       .complexity =
           "O(N) where N is the number of clients subscribed to the receiving shard channel."});

  constexpr uint32_t kIntro = kCmdPubsub | kCmdLoading | kCmdStale;
  CommandSpec pubsub{.name = "pubsub",
                     .arity = -2,
                     .group = "pubsub",
                     .since = "2.8.0",
                     .summary = "A container for Pub/Sub commands",
                     .complexity = "Depends on subcommand."};
  pubsub.subcommands = {
      {.name = "channels",
       .arity = -2,
       .flags = kIntro,
       .proc = PubsubChannelsCommand,
       .group = "pubsub",
       .since = "2.8.0",
       .summary = "List active channels",
       .complexity = "O(N) where N is the number of active channels, and assuming constant time "
                     "pattern matching (relatively short channels and patterns)"},
      {.name = "numsub",
       .arity = -2,
       .flags = kIntro,
       .proc = PubsubNumSubCommand,
       .group = "pubsub",
       .since = "2.8.0",
       .summary = "Get the count of subscribers for channels",
       .complexity = "O(N) for the NUMSUB subcommand, where N is the number of requested channels"},
      {.name = "numpat",
       .arity = 2,
       .flags = kIntro,
       .proc = PubsubNumPatCommand,
       .group = "pubsub",
       .since = "2.8.0",
       .summary = "Get the count of unique patterns pattern subscriptions",
       .complexity = "O(1)"},
      {.name = "shardchannels",
       .arity = -2,
       .flags = kIntro,
       .proc = PubsubShardChannelsCommand,
       .group = "pubsub",
       .since = "7.0.0",
       .summary = "List active shard channels",
       .complexity = "O(N) where N is the number of active shard channels, and assuming constant "
                     "time pattern matching (relatively short shard channels)."},
      {.name = "shardnumsub",
       .arity = -2,
       .flags = kIntro,
       .proc = PubsubShardNumSubCommand,
       .group = "pubsub",
       .since = "7.0.0",
       .summary = "Get the count of subscribers for shard channels",
       .complexity = "O(N) for the SHARDNUMSUB subcommand, where N is the number of requested "
                     "shard channels"},
      {.name = "help",
       .arity = 2,
       .flags = kCmdLoading | kCmdStale,
       .proc = PubsubHelpCommand,
       .group = "pubsub",
       .since = "6.2.0",
       .summary = "Show helpful text about the different subcommands",
       .complexity = "O(1)"},
  };
  table.Add(std::move(pubsub));
}

}  // namespace redlab::server::engine
