// DEBUG subcommands over the data (see debug.h): Redis's exact reply formats; LISTPACK and
// QUICKLIST describe the encoding in the node's log where Redis prints it on its stdout.
#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "server/engine/commands/debug.h"
#include "server/engine/commands/digest.h"
#include "server/engine/core/aof.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"
#include "server/engine/core/help.h"
#include "server/engine/core/persistence.h"
#include "server/engine/core/script_runner.h"
#include "server/rdb/value.h"

namespace redlab::server::engine {
namespace {

// DEBUG looks keys up in the dictionary itself: logically expired keys are still there.
Db::Node* FindRaw(CommandContext& ctx, std::string_view key) {
  Db::Node* found = nullptr;
  ctx.db().ForEachMatching(key, [&](const Db::Node* n) { found = const_cast<Db::Node*>(n); });
  return found;
}

std::string Pointer(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%p", p);
  return buf;
}

}  // namespace

void DebugObject(CommandContext& ctx) {
  Db::Node* node = FindRaw(ctx, ctx.arg(2));
  if (node == nullptr) {
    ctx.ReplyError(err::kNoSuchKey);
    return;
  }
  const Object& value = node->value.value;
  Engine& engine = ctx.engine();
  Keyspace& ks = ctx.keyspace();
  rdb::ValueOptions options = engine.value_options();
  std::string extra;
  if (value.is(ObjectType::kList)) {
    std::vector<rdb::QuicklistNode> nodes =
        rdb::QuicklistLayout(value.list(), options.list_fill, options.list_packed_threshold);
    size_t bytes = 0;
    for (const rdb::QuicklistNode& n : nodes) bytes += n.bytes;
    extra = fmt::format(
        " ql_nodes:{} ql_avg_node:{:.2f} ql_listpack_max:{} ql_compressed:{} "
        "ql_uncompressed_size:{}",
        nodes.size(), static_cast<double>(value.list().size()) / static_cast<double>(nodes.size()),
        options.list_fill, engine.config().list_compress_depth != 0 ? 1 : 0, bytes);
  }
  bool shared =
      IsSharedIntegerObject(value, engine.config().maxmemory, engine.config().maxmemory_policy);
  // The lru field as Redis prints it: a 24-bit clock of seconds, or the LFU minute and counter.
  uint32_t lru = node->value.lru;
  int64_t idle = 0;
  if (shared) {
    // A shared integer was created when the server started and is never touched.
    idle = engine.uptime_seconds();
    lru = static_cast<uint32_t>(engine.start_time_ms() / 1000) & 0xFFFFFF;
  } else if (ks.access_tracking().lfu) {
    // estimateObjectIdleTime reads the LFU data as a clock value, as Redis does.
    int64_t clock = (ks.now_ms() / 1000) & 0xFFFFFF;
    idle = clock >= lru ? clock - lru : clock + (0xFFFFFF - lru);
  } else {
    idle = ks.IdleSeconds(node->value);
    lru &= 0xFFFFFF;
  }
  ctx.reply().Status(fmt::format(
      "Value at:{} refcount:{} encoding:{} serializedlength:{} lru:{} lru_seconds_idle:{}{}",
      Pointer(&node->value.value), shared ? kSharedRefcount : 1, value.EncodingName(),
      rdb::SerializedLength(value, options), lru, idle, extra));
}

void DebugListpack(CommandContext& ctx) {
  Db::Node* node = ctx.db().LookupNoTouchNoNotify(ctx.arg(2));
  if (node == nullptr) {
    ctx.ReplyError(err::kNoSuchKey);
    return;
  }
  if (node->value.value.EncodingName() != "listpack") {
    ctx.ReplyError("Not a listpack encoded object.");
    return;
  }
  rdb::RdbWriter w(false);
  rdb::EncodeValue(w, node->value.value, ctx.engine().value_options());
  if (EngineHost* host = ctx.engine().host()) {
    host->Log(2, fmt::format("DEBUG LISTPACK {}: {} bytes encoded", ctx.arg(2), w.size()));
  }
  ctx.reply().Status("Listpack structure printed on stdout");
}

void DebugQuicklist(CommandContext& ctx) {
  Db::Node* node = ctx.db().LookupNoTouchNoNotify(ctx.arg(2));
  if (node == nullptr) {
    ctx.ReplyError(err::kNoSuchKey);
    return;
  }
  if (!node->value.value.is(ObjectType::kList)) {
    ctx.ReplyError("Not a quicklist encoded object.");
    return;
  }
  rdb::ValueOptions options = ctx.engine().value_options();
  const ListValue& list = node->value.value.list();
  std::vector<rdb::QuicklistNode> nodes =
      rdb::QuicklistLayout(list, options.list_fill, options.list_packed_threshold);
  if (EngineHost* host = ctx.engine().host()) {
    std::string repr =
        fmt::format("{{count : {}}} {{len : {}}} {{fill : {}}} {{compress : {}}}", list.size(),
                    nodes.size(), options.list_fill, ctx.engine().config().list_compress_depth);
    for (size_t i = 0; i < nodes.size(); ++i) {
      repr += fmt::format(" {{node {}: count {} sz {} container {}}}", i, nodes[i].count,
                          nodes[i].bytes, nodes[i].plain ? "PLAIN" : "PACKED");
    }
    host->Log(2, repr);
  }
  ctx.reply().Status("Quicklist structure printed on stdout");
}

void DebugDigest(CommandContext& ctx) { ctx.reply().Status(DatasetDigest(ctx.keyspace())); }

void DebugDigestValue(CommandContext& ctx) {
  ctx.reply().ArrayHeader(ctx.argc() - 2);
  for (size_t j = 2; j < ctx.argc(); ++j) {
    Db::Node* node = FindRaw(ctx, ctx.arg(j));
    ctx.reply().Status(node != nullptr ? ValueDigest(node->value) : std::string(40, '0'));
  }
}

// DEBUG RELOAD: save the snapshot, empty the dataset and load the snapshot back (TTLs and all).
void DebugReload(CommandContext& ctx) {
  bool flush = true, save = true, merge = false;
  for (size_t j = 2; j < ctx.argc(); ++j) {
    if (ctx.ArgIs(j, "merge")) {
      merge = true;
    } else if (ctx.ArgIs(j, "noflush")) {
      flush = false;
    } else if (ctx.ArgIs(j, "nosave")) {
      save = false;
    } else {
      ctx.ReplyError("DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.");
      return;
    }
  }
  Engine& engine = ctx.engine();
  if (save && !engine.persistence().Save()) {
    ctx.ReplyError("-ERR");
    return;
  }
  if (flush) {  // emptyData: the keys and the function libraries
    engine.signals().Flushed(-1);
    ctx.keyspace().FlushAll();
    engine.scripts().functions().Clear();
  }
  if (auto error = engine.persistence().Load(merge)) {
    if (EngineHost* host = engine.host()) host->LogWarning(*error);
    ctx.ReplyError("Error trying to load the RDB dump");
    return;
  }
  if (EngineHost* host = engine.host()) host->LogWarning("DB reloaded by DEBUG RELOAD");
  ctx.ReplyOk();
}

// DEBUG LOADAOF: the data emptied and loaded again from the files of the AOF manifest (Redis
// exits when that fails; redlab answers an error and keeps what it could load).
void DebugLoadAof(CommandContext& ctx) {
  if (auto error = ctx.engine().aof().Reload()) {
    if (EngineHost* host = ctx.engine().host()) host->LogWarning(*error);
    ctx.ReplyError(*error);
    return;
  }
  ctx.ReplyOk();
}

// DEBUG POPULATE: <count> string keys "<prefix>:<n>" = "value:<n>" (cut or zero-padded to
// <size>), skipping existing keys. Not propagated: replicas do not get them.
void DebugPopulate(CommandContext& ctx) {
  // getPositiveLongFromObjectOrReply: one message for garbage and for negatives.
  constexpr std::string_view kNotPositive = "value is out of range, must be positive";
  int64_t count = 0;
  if (!ctx.IntArg(2, &count, kNotPositive)) return;
  if (count < 0) {
    ctx.ReplyError(kNotPositive);
    return;
  }
  int64_t size = 0;
  if (ctx.argc() == 5) {
    if (!ctx.IntArg(4, &size, kNotPositive)) return;
    if (size < 0) {
      ctx.ReplyError(kNotPositive);
      return;
    }
  }
  std::string_view prefix = ctx.argc() >= 4 ? std::string_view(ctx.arg(3)) : "key";
  prefix = prefix.substr(0, prefix.find('\0'));
  Db& db = ctx.db();
  for (int64_t j = 0; j < count; ++j) {
    std::string key = fmt::format("{}:{}", prefix, j);
    if (db.LookupWrite(key) != nullptr) continue;
    std::string value = fmt::format("value:{}", j);
    if (size != 0) value.resize(static_cast<size_t>(size), '\0');
    db.Add(key, Object::FromString(std::move(value)));
    ctx.SignalModifiedKey(key);
  }
  ctx.ReplyOk();
}

// DEBUG PROTOCOL <type>: one reply of each RESP type, as the client's protocol writes it.
void DebugProtocol(CommandContext& ctx) {
  resp::ReplyWriter& r = ctx.reply();
  auto is = [&](std::string_view type) { return ctx.ArgIs(2, type); };
  if (is("string")) {
    r.Bulk("Hello World");
  } else if (is("integer")) {
    r.Integer(12345);
  } else if (is("double")) {
    r.Double(3.141);
  } else if (is("bignum")) {
    r.BigNumber("1234567999999999999999999999999999999");
  } else if (is("null")) {
    r.Null();
  } else if (is("array")) {
    r.ArrayHeader(3);
    for (int j = 0; j < 3; ++j) r.Integer(j);
  } else if (is("set")) {
    r.SetHeader(3);
    for (int j = 0; j < 3; ++j) r.Integer(j);
  } else if (is("map")) {
    r.MapHeader(3);
    for (int j = 0; j < 3; ++j) {
      r.Integer(j);
      r.Bool(j == 1);
    }
  } else if (is("attrib")) {
    if (r.protocol() >= 3) {
      r.Raw("|1\r\n");  // an attribute: metadata before the real reply
      r.Bulk("key-popularity");
      r.ArrayHeader(2);
      r.Bulk("key:123");
      r.Integer(90);
    }
    r.Bulk("Some real reply following the attribute");
  } else if (is("push")) {
    if (r.protocol() < 3) {
      ctx.ReplyError("RESP2 is not supported by this command");
      return;
    }
    r.PushHeader(2);
    r.Bulk("server-cpu-usage");
    r.Integer(42);
    r.Bulk("Some real reply following the push reply");
  } else if (is("true")) {
    r.Bool(true);
  } else if (is("false")) {
    r.Bool(false);
  } else if (is("verbatim")) {
    r.Verbatim("This is a verbatim\nstring", "txt");
  } else {
    ctx.ReplyError(
        "Wrong protocol type name. Please use one of the following: "
        "string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false");
  }
}

}  // namespace redlab::server::engine
