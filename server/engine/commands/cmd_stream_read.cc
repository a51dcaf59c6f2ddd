// Redis 7.0's t_stream.c xreadCommand and blocked.c's serveClientsBlockedOnStreamKey: XREAD,
// served at once or blocked on the engine's blocked keys until an XADD passes the IDs given.
#include <unordered_set>

#include "server/engine/commands/cmd_stream.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {

void SignalStreamReady(CommandContext& ctx, std::string_view key) {
  ctx.engine().SignalStreamReady(ctx.db(), key);
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

// Serves a client blocked in XREAD from `key`, whose last ID passed the client's.
void ServeXRead(CommandContext& ctx, const std::string& key) {
  const Client::BlockState& block = ctx.client().block();
  StreamId after;
  for (size_t i = 0; i < block.keys.size(); ++i) {
    if (block.keys[i].key == key) after = block.stream_ids[i];
  }
  const StreamValue& s = ctx.db().LookupQuiet(key)->value.value.stream();
  if (ctx.reply().protocol() == 2) {
    ctx.reply().ArrayHeader(1);
  } else {
    ctx.reply().MapHeader(1);
  }
  ReplyKeyEntries(ctx, key, s, after, block.count);
}

void XReadCommand(CommandContext& ctx) {
  int64_t deadline = -1;  // -1: no BLOCK
  int64_t count = 0;
  size_t streams_arg = 0;
  for (size_t i = 1; i < ctx.argc(); ++i) {
    bool more = i + 1 < ctx.argc();
    if (ctx.ArgIs(i, "block") && more) {
      if (ctx.client().is_script()) {
        ctx.ReplyError(ctx.arg(0) + " command is not allowed with BLOCK option from scripts");
        return;
      }
      ++i;
      if (!ctx.TimeoutArg(i, /*seconds=*/false, &deadline)) return;
    } else if (ctx.ArgIs(i, "count") && more) {
      ++i;
      if (!ctx.IntArg(i, &count)) return;
      if (count < 0) count = 0;
    } else if (ctx.ArgIs(i, "streams") && more) {
      streams_arg = i + 1;
      if ((ctx.argc() - streams_arg) % 2 != 0) {
        ctx.ReplyError(
            "Unbalanced XREAD list of streams: for each stream key an ID or '$' must be "
            "specified.");
        return;
      }
      break;
    } else if (ctx.ArgIs(i, "group") && i + 2 < ctx.argc()) {
      ctx.ReplyError("The GROUP option is only supported by XREADGROUP. You called XREAD instead.");
      return;
    } else if (ctx.ArgIs(i, "noack")) {
      ctx.ReplyError("The NOACK option is only supported by XREADGROUP. You called XREAD instead.");
      return;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  if (streams_arg == 0) {
    ctx.ReplySyntaxError();
    return;
  }
  size_t n = (ctx.argc() - streams_arg) / 2;
  std::vector<StreamId> ids(n);
  for (size_t i = 0; i < n; ++i) {
    const std::string& key = ctx.arg(streams_arg + i);
    const std::string& arg = ctx.arg(streams_arg + n + i);
    Db::Node* node = nullptr;
    if (!ctx.LookupRead(key, ObjectType::kStream, &node)) return;
    if (arg == "$") {
      ids[i] = node == nullptr ? StreamId{} : node->value.value.stream().last_id();
    } else if (arg == ">") {
      ctx.ReplyError(
          "The > ID can be specified only when calling XREADGROUP using the GROUP <group> "
          "<consumer> option.");
      return;
    } else if (!StreamIdArg(ctx, arg, 0, true, &ids[i], nullptr)) {
      return;
    }
  }
  // Served at once when any stream has an entry above its ID.
  size_t at = ctx.reply().BeginDeferred();
  size_t served = 0;
  for (size_t i = 0; i < n; ++i) {
    Db::Node* node = ctx.db().LookupQuiet(ctx.arg(streams_arg + i));
    if (node == nullptr || !node->value.value.is(ObjectType::kStream)) continue;
    const StreamValue& s = node->value.value.stream();
    if (s.length() == 0 || !(s.LastValidId() > ids[i])) continue;
    ++served;
    ReplyKeyEntries(ctx, ctx.arg(streams_arg + i), s, ids[i], count);
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
  ctx.engine().BlockForKeys(ctx, Client::BlockKind::kStream, ctx.args().subspan(streams_arg, n),
                            deadline);
}

}  // namespace

void RegisterStreamReadCommands(CommandTable& table) {
  KeySpec streams;
  streams.flags = kKeyRO | kKeyAccess;
  streams.begin_keyword = "STREAMS";
  streams.keyword_startfrom = 1;
  streams.last_key = -1;
  streams.limit = 2;
  table.Add({.name = "xread",
             .arity = -4,
             .flags = kCmdBlocking | kCmdReadonly,
             .acl = kAclStream,
             .keys = {streams},
             .proc = XReadCommand,
             .group = "stream",
             .since = "5.0.0",
             .summary = "Return never seen elements in multiple streams, with IDs greater than "
                        "the ones reported by the caller for each stream. Can block.",
             .complexity = "For each stream mentioned: O(N) with N being the number of elements "
                           "being returned, it means that XREAD-ing with a fixed COUNT is O(1). "
                           "Note that when the BLOCK option is used, XADD will pay O(M) time in "
                           "order to serve the M clients blocked on the stream getting new "
                           "data."});
}

}  // namespace redlab::server::engine
