// OBJECT and MEMORY: how a key's value is stored and what it costs.
#include "server/base/numbers.h"
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"
#include "server/engine/core/help.h"
#include "server/engine/stats/memory_report.h"

namespace redlab::server::engine {
namespace {

bool IsSharedInteger(Engine& engine, const Object& value) {
  return IsSharedIntegerObject(value, engine.config().maxmemory, engine.config().maxmemory_policy);
}

// OBJECT looks keys up without touching their access time; a missing key is a nil reply.
Db::Node* LookupForObject(CommandContext& ctx) {
  Db::Node* node = ctx.db().LookupNoTouchNoNotify(ctx.arg(2));
  if (node == nullptr) ctx.reply().Null();
  return node;
}

void ObjectEncodingCommand(CommandContext& ctx) {
  if (Db::Node* node = LookupForObject(ctx)) ctx.reply().Bulk(node->value.value.EncodingName());
}

void ObjectRefcountCommand(CommandContext& ctx) {
  if (Db::Node* node = LookupForObject(ctx)) {
    ctx.reply().Integer(IsSharedInteger(ctx.engine(), node->value.value) ? kSharedRefcount : 1);
  }
}

void ObjectIdletimeCommand(CommandContext& ctx) {
  Db::Node* node = LookupForObject(ctx);
  if (node == nullptr) return;
  if (ctx.keyspace().access_tracking().lfu) {
    ctx.ReplyError(
        "An LFU maxmemory policy is selected, idle time not tracked. Please note that when "
        "switching between policies at runtime LRU and LFU data will take some time to adjust.");
    return;
  }
  if (IsSharedInteger(ctx.engine(), node->value.value)) {
    // A shared object was created when the server started and is never touched.
    ctx.reply().Integer(ctx.engine().uptime_seconds());
    return;
  }
  ctx.reply().Integer(ctx.keyspace().IdleSeconds(node->value));
}

void ObjectFreqCommand(CommandContext& ctx) {
  Db::Node* node = LookupForObject(ctx);
  if (node == nullptr) return;
  if (!ctx.keyspace().access_tracking().lfu) {
    ctx.ReplyError(
        "An LFU maxmemory policy is not selected, access frequency not tracked. Please note that "
        "when switching between policies at runtime LRU and LFU data will take some time to "
        "adjust.");
    return;
  }
  ctx.reply().Integer(ctx.keyspace().LfuCounter(node->value));
}

constexpr std::string_view kObjectHelp[] = {
    "ENCODING <key>",
    "    Return the kind of internal representation used in order to store the value",
    "    associated with a <key>.",
    "FREQ <key>",
    "    Return the access frequency index of the <key>. The returned integer is",
    "    proportional to the logarithm of the recent access frequency of the key.",
    "IDLETIME <key>",
    "    Return the idle time of the <key>, that is the approximated number of",
    "    seconds elapsed since the last access to the key.",
    "REFCOUNT <key>",
    "    Return the number of references of the value associated with the specified",
    "    <key>.",
};
void ObjectHelpCommand(CommandContext& ctx) { ReplyHelp(ctx, kObjectHelp); }

// MEMORY USAGE: the bytes redlab uses for the key, its entry and its value (all elements are
// measured; SAMPLES is accepted and validated as Redis does).
void MemoryUsageCommand(CommandContext& ctx) {
  for (size_t j = 3; j < ctx.argc(); ++j) {
    if (ctx.ArgIs(j, "samples") && j + 1 < ctx.argc()) {
      int64_t samples = 0;
      if (!ctx.IntArg(j + 1, &samples)) return;
      if (samples < 0) {
        ctx.ReplySyntaxError();
        return;
      }
      ++j;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  Db::Node* node = ctx.db().LookupNoTouchNoNotify(ctx.arg(2));
  if (node == nullptr) {
    ctx.reply().Null();
    return;
  }
  size_t bytes = sizeof(Db::Node) + node->key().size() + sizeof(void*) /* bucket */ +
                 node->value.value.MemoryBytes() - sizeof(Object);
  ctx.reply().Integer(static_cast<int64_t>(bytes));
}

void MemoryDoctorCommand(CommandContext& ctx) {
  ctx.reply().Verbatim(
      "Hi Sam, this instance is empty or is using very little memory, my issues detector can't "
      "be used in these conditions. Please, leave for your mission on Earth and fill it with some "
      "data. The new Sam and I will be back to our programming as soon as I finished rebooting.");
}

// MEMORY STATS: getMemoryOverheadData's figures in Redis's order, its ratios computed in C
// floats as Redis's struct holds them.
void MemoryStatsCommand(CommandContext& ctx) {
  MemoryReport m = ReportMemory(ctx.engine());
  resp::ReplyWriter& r = ctx.reply();
  auto field = [&r](std::string_view name, uint64_t value) {
    r.Bulk(name);
    r.Integer(static_cast<int64_t>(value));
  };
  auto ratio = [&r](std::string_view name, float value) {
    r.Bulk(name);
    r.Double(value);
  };
  auto diff = [&r](std::string_view name, uint64_t a, uint64_t b) {
    r.Bulk(name);
    r.Integer(static_cast<int64_t>(a) - static_cast<int64_t>(b));
  };
  auto part = [](uint64_t a, uint64_t b) {
    return static_cast<float>(a) / static_cast<float>(b);
  };
  r.MapHeader(27 + m.dbs.size());
  field("peak.allocated", m.peak);
  field("total.allocated", m.used);
  field("startup.allocated", m.startup);
  field("replication.backlog", m.backlog);
  field("clients.slaves", m.clients_replicas);
  field("clients.normal", m.clients_normal);
  field("cluster.links", 0);
  field("aof.buffer", 0);
  field("lua.caches", m.lua_caches);
  field("functions.caches", m.functions_caches);
  for (const MemoryReport::DbOverhead& db : m.dbs) {
    r.Bulk("db." + std::to_string(db.db));
    r.MapHeader(3);
    field("overhead.hashtable.main", db.main);
    field("overhead.hashtable.expires", db.expires);
    field("overhead.hashtable.slot-to-keys", 0);
  }
  field("overhead.total", m.overhead);
  field("keys.count", m.keys);
  field("keys.bytes-per-key", m.keys == 0 ? 0 : m.net / m.keys);
  field("dataset.bytes", m.dataset);
  ratio("dataset.percentage", static_cast<float>(m.dataset) * 100 / static_cast<float>(m.net));
  ratio("peak.percentage", static_cast<float>(m.used) * 100 / static_cast<float>(m.peak));
  field("allocator.allocated", m.allocated);
  field("allocator.active", m.active);
  field("allocator.resident", m.resident);
  ratio("allocator-fragmentation.ratio", part(m.active, m.allocated));
  diff("allocator-fragmentation.bytes", m.active, m.allocated);
  ratio("allocator-rss.ratio", part(m.resident, m.active));
  diff("allocator-rss.bytes", m.resident, m.active);
  ratio("rss-overhead.ratio", part(m.rss, m.resident));
  diff("rss-overhead.bytes", m.rss, m.resident);
  ratio("fragmentation", part(m.rss, m.used));
  diff("fragmentation.bytes", m.rss, m.used);
}

void MemoryPurgeCommand(CommandContext& ctx) { ctx.ReplyOk(); }

void MemoryMallocStatsCommand(CommandContext& ctx) {
  ctx.reply().Verbatim("Stats not supported for the current allocator");
}

constexpr std::string_view kMemoryHelp[] = {
    "DOCTOR",
    "    Return memory problems reports.",
    "MALLOC-STATS",
    "    Return internal statistics report from the memory allocator.",
    "PURGE",
    "    Attempt to purge dirty pages for reclamation by the allocator.",
    "STATS",
    "    Return information about the memory usage of the server.",
    "USAGE <key> [SAMPLES <count>]",
    "    Return memory in bytes used by <key> and its value. Nested values are",
    "    sampled up to <count> times (default: 5, 0 means sample all).",
};
void MemoryHelpCommand(CommandContext& ctx) { ReplyHelp(ctx, kMemoryHelp); }

}  // namespace

// The commands of specs/object.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/object.inc"

}  // namespace redlab::server::engine
