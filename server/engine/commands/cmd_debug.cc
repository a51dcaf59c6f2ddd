// DEBUG: the subcommands Redis's own test suite and client test harnesses rely on (the ones that
// inspect or reload data are in debug_data.cc). DEBUG is protected, as in Redis 7.0: refused
// unless enable-debug-command allows it (checked by the engine before the command runs).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "server/base/glob.h"
#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/commands/debug.h"
#include "server/engine/config/config.h"
#include "server/engine/config/config_rewrite.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/help.h"

namespace redlab::server::engine {
namespace {

// Redis 7.0.15's DEBUG HELP, line for line (it lists what Redis has, not only what redlab runs).
constexpr std::string_view kDebugHelp[] = {
    "AOF-FLUSH-SLEEP <microsec>",
    "    Server will sleep before flushing the AOF, this is used for testing.",
    "ASSERT",
    "    Crash by assertion failed.",
    "CHANGE-REPL-ID",
    "    Change the replication IDs of the instance.",
    "    Dangerous: should be used only for testing the replication subsystem.",
    "CONFIG-REWRITE-FORCE-ALL",
    "    Like CONFIG REWRITE but writes all configuration options, including",
    "    keywords not listed in original configuration file or default values.",
    "CRASH-AND-RECOVER [<milliseconds>]",
    "    Hard crash and restart after a <milliseconds> delay (default 0).",
    "DIGEST",
    "    Output a hex signature representing the current DB content.",
    "DIGEST-VALUE <key> [<key> ...]",
    "    Output a hex signature of the values of all the specified keys.",
    "ERROR <string>",
    "    Return a Redis protocol error with <string> as message. Useful for clients",
    "    unit tests to simulate Redis errors.",
    "LEAK <string>",
    "    Create a memory leak of the input string.",
    "LOG <message>",
    "    Write <message> to the server log.",
    "HTSTATS <dbid>",
    "    Return hash table statistics of the specified Redis database.",
    "HTSTATS-KEY <key>",
    "    Like HTSTATS but for the hash table stored at <key>'s value.",
    "LOADAOF",
    "    Flush the AOF buffers on disk and reload the AOF in memory.",
    "REPLICATE <string>",
    "    Replicates the provided string to replicas, allowing data divergence.",
    "MALLCTL <key> [<val>]",
    "    Get or set a malloc tuning integer.",
    "MALLCTL-STR <key> [<val>]",
    "    Get or set a malloc tuning string.",
    "OBJECT <key>",
    "    Show low level info about `key` and associated value.",
    "DROP-CLUSTER-PACKET-FILTER <packet-type>",
    "    Drop all packets that match the filtered type. Set to -1 allow all packets.",
    "OOM",
    "    Crash the server simulating an out-of-memory error.",
    "PANIC",
    "    Crash the server simulating a panic.",
    "POPULATE <count> [<prefix>] [<size>]",
    "    Create <count> string keys named key:<num>. If <prefix> is specified then",
    "    it is used instead of the 'key' prefix. These are not propagated to",
    "    replicas. Cluster slots are not respected so keys not belonging to the",
    "    current node can be created in cluster mode.",
    "PROTOCOL <type>",
    "    Reply with a test value of the specified type. <type> can be: string,",
    "    integer, double, bignum, null, array, set, map, attrib, push, verbatim,",
    "    true, false.",
    "RELOAD [option ...]",
    "    Save the RDB on disk and reload it back to memory. Valid <option> values:",
    "    * MERGE: conflicting keys will be loaded from RDB.",
    "    * NOFLUSH: the existing database will not be removed before load, but",
    "      conflicting keys will generate an exception and kill the server.",
    "    * NOSAVE: the database will be loaded from an existing RDB file.",
    "    Examples:",
    "    * DEBUG RELOAD: verify that the server is able to persist, flush and reload",
    "      the database.",
    "    * DEBUG RELOAD NOSAVE: replace the current database with the contents of an",
    "      existing RDB file.",
    "    * DEBUG RELOAD NOSAVE NOFLUSH MERGE: add the contents of an existing RDB",
    "      file to the database.",
    "RESTART [<milliseconds>]",
    "    Graceful restart: save config, db, restart after a <milliseconds> delay (default 0).",
    "SDSLEN <key>",
    "    Show low level SDS string info representing `key` and value.",
    "SEGFAULT",
    "    Crash the server with sigsegv.",
    "SET-ACTIVE-EXPIRE <0|1>",
    "    Setting it to 0 disables expiring keys in background when they are not",
    "    accessed (otherwise the Redis behavior). Setting it to 1 reenables back the",
    "    default.",
    "QUICKLIST-PACKED-THRESHOLD <size>",
    "    Sets the threshold for elements to be inserted as plain vs packed nodes",
    "    Default value is 1GB, allows values up to 4GB. Setting to 0 restores to default.",
    "SET-SKIP-CHECKSUM-VALIDATION <0|1>",
    "    Enables or disables checksum checks for RDB files and RESTORE's payload.",
    "SLEEP <seconds>",
    "    Stop the server for <seconds>. Decimals allowed.",
    "STRINGMATCH-TEST",
    "    Run a fuzz tester against the stringmatchlen() function.",
    "STRUCTSIZE",
    "    Return the size of different Redis core C structures.",
    "LISTPACK <key>",
    "    Show low level info about the listpack encoding of <key>.",
    "QUICKLIST <key> [<0|1>]",
    "    Show low level info about the quicklist encoding of <key>.",
    "    The optional argument (0 by default) sets the level of detail",
    "CLIENT-EVICTION",
    "    Show low level client eviction pools info (maxmemory-clients).",
    "PAUSE-CRON <0|1>",
    "    Stop periodic cron job processing.",
    "REPLYBUFFER PEAK-RESET-TIME <NEVER||RESET|time>",
    "    Sets the time (in milliseconds) to wait between client reply buffer peak resets.",
    "    In case NEVER is provided the last observed peak will never be reset",
    "    In case RESET is provided the peak reset time will be restored to the default value",
    "REPLYBUFFER RESIZING <0|1>",
    "    Enable or disable the reply buffer resize cron job",
    "CLUSTERLINK KILL <to|from|all> <node-id>",
    "    Kills the link based on the direction to/from (both) with the provided node.",
};

// Subcommands Redis 7.0 has and redlab does not run (crashes and restarts, allocator and
// hash-table internals, cluster links): a plain "not supported" rather
// than Redis's "unknown subcommand", which would wrongly suggest a typo.
constexpr std::string_view kUnsupported[] = {
    "assert",
    "crash-and-recover",
    "leak",
    "htstats",
    "htstats-key",
    "mallctl",
    "mallctl-str",
    "drop-cluster-packet-filter",
    "oom",
    "panic",
    "restart",
    "sdslen",
    "segfault",
    "structsize",
};

// DEBUG SLEEP <seconds>: the node's thread stops, as Redis's does, so every client of the node
// waits. The argument is read as strtod reads it: garbage is 0, a negative time does not sleep.
// Real time, not the node's clock: this stalls the process, whatever time the node believes.
void DebugSleep(CommandContext& ctx) {
  double seconds = std::strtod(ctx.arg(2).c_str(), nullptr);
  if (std::isfinite(seconds) && seconds > 0) {
    // Redis converts to whole microseconds; cap at a day rather than overflow on absurd values.
    double us = std::min(seconds * 1e6, 86400.0 * 1e6);
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(us)));
  }
  ctx.ReplyOk();
}

// atoi(): Redis stores these switches so; any text that does not read as a non-zero int is 0.
int AtoiArg(CommandContext& ctx, size_t i) {
  return static_cast<int>(std::strtol(ctx.arg(i).c_str(), nullptr, 10));
}

void DebugLog(CommandContext& ctx) {
  std::string_view message = ctx.arg(2);
  if (EngineHost* host = ctx.engine().host()) {
    host->LogWarning("DEBUG LOG: " + std::string(message.substr(0, message.find('\0'))));
  }
  ctx.ReplyOk();
}

void DebugQuicklistPackedThreshold(CommandContext& ctx) {
  int64_t size = 0;
  if (!ParseMemory(ctx.arg(2), &size) || size < 0 || size > (int64_t{1} << 32) - (1 << 20)) {
    ctx.ReplyError("argument must be a memory value bigger than 1 and smaller than 4gb");
    return;
  }
  ctx.engine().debug_settings().SetQuicklistPackedThreshold(size == 0 ? size_t{1} << 30
                                                                      : static_cast<size_t>(size));
  ctx.ReplyOk();
}

// DEBUG ERROR <text>: the text as an error reply, code included ("-" + text).
void DebugError(CommandContext& ctx) { ctx.ReplyError("-" + ctx.arg(2)); }

// DEBUG REPLICATE <command...>: sent to replicas without running here (data may diverge).
void DebugReplicate(CommandContext& ctx) {
  ctx.engine().Propagate(ctx.client().db(),
                         std::vector<std::string>(ctx.args().begin() + 2, ctx.args().end()));
  ctx.ReplyOk();
}

void DebugChangeReplId(CommandContext& ctx) {
  if (EngineHost* host = ctx.engine().host()) {
    host->LogWarning("Changing replication IDs after receiving DEBUG change-repl-id");
  }
  ctx.engine().replication().ResetReplicationIds();
  ctx.ReplyOk();
}

// stringmatchlen_fuzz_test: random patterns against random strings; it passes by not crashing.
void DebugStringmatchTest(CommandContext& ctx) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_int_distribution<int> len(0, 31);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int i = 0; i < 1000000; ++i) {
    std::string pattern(static_cast<size_t>(len(rng)), '\0');
    std::string text(static_cast<size_t>(len(rng)), '\0');
    for (char& c : pattern) c = static_cast<char>(byte(rng));
    for (char& c : text) c = static_cast<char>(byte(rng));
    GlobMatch(pattern, text);
  }
  ctx.reply().Status("Apparently Redis did not crash: test passed");
}

void DebugReplyBuffer(CommandContext& ctx) {
  DebugSettings& settings = ctx.engine().debug_settings();
  if (ctx.ArgIs(2, "peak-reset-time")) {
    if (ctx.ArgIs(3, "never")) {
      settings.SetReplyBufferPeakResetTime(-1);
    } else if (ctx.ArgIs(3, "reset")) {
      settings.SetReplyBufferPeakResetTime(5000);
    } else {
      int64_t ms = 0;
      if (!ctx.IntArg(3, &ms)) return;
      settings.SetReplyBufferPeakResetTime(ms);
    }
  } else if (ctx.ArgIs(2, "resizing")) {
    settings.SetReplyBufferResizing(AtoiArg(ctx, 3) != 0);
  } else {
    ReplySubcommandSyntaxError(ctx);
    return;
  }
  ctx.ReplyOk();
}

void DebugCommand(CommandContext& ctx) {
  size_t argc = ctx.argc();
  DebugSettings& settings = ctx.engine().debug_settings();
  auto is = [&](std::string_view name) { return ctx.ArgIs(1, name); };
  if (argc == 2 && is("help")) {
    ReplyHelp(ctx, kDebugHelp);
  } else if (argc == 3 && is("sleep")) {
    DebugSleep(ctx);
  } else if (argc == 3 && is("set-active-expire")) {
    ctx.keyspace().set_active_expire_enabled(AtoiArg(ctx, 2) != 0);
    ctx.ReplyOk();
  } else if (argc == 3 && is("log")) {
    DebugLog(ctx);
  } else if (is("loadaof")) {
    DebugLoadAof(ctx);
  } else if (is("reload")) {
    DebugReload(ctx);
  } else if (argc == 3 && is("object")) {
    DebugObject(ctx);
  } else if (argc == 3 && is("listpack")) {
    DebugListpack(ctx);
  } else if ((argc == 3 || argc == 4) && is("quicklist")) {
    DebugQuicklist(ctx);
  } else if (argc >= 3 && argc <= 5 && is("populate")) {
    DebugPopulate(ctx);
  } else if (argc == 2 && is("config-rewrite-force-all")) {
    if (auto error = RewriteNodeConfigFile(ctx.engine(), /*force_all=*/true)) {
      ctx.ReplyError("CONFIG-REWRITE-FORCE-ALL failed: " + *error);
    } else {
      ctx.ReplyOk();
    }
  } else if (argc == 2 && is("digest")) {
    DebugDigest(ctx);
  } else if (argc >= 2 && is("digest-value")) {
    DebugDigestValue(ctx);
  } else if (argc == 3 && is("protocol")) {
    DebugProtocol(ctx);
  } else if (argc == 3 && is("quicklist-packed-threshold")) {
    DebugQuicklistPackedThreshold(ctx);
  } else if (argc == 3 && is("set-skip-checksum-validation")) {
    settings.SetSkipChecksumValidation(AtoiArg(ctx, 2) != 0);
    ctx.ReplyOk();
  } else if (argc == 3 && is("aof-flush-sleep")) {
    ctx.ReplyOk();  // redlab has no append-only file to delay
  } else if (argc >= 3 && is("replicate")) {
    DebugReplicate(ctx);
  } else if (argc == 3 && is("error")) {
    DebugError(ctx);
  } else if (argc == 2 && is("change-repl-id")) {
    DebugChangeReplId(ctx);
  } else if (argc == 2 && is("stringmatch-test")) {
    DebugStringmatchTest(ctx);
  } else if (argc == 3 && is("set-disable-deny-scripts")) {
    settings.SetDisableDenyScripts(AtoiArg(ctx, 2) != 0);
    ctx.ReplyOk();
  } else if (argc == 2 && is("client-eviction")) {
    ctx.ReplyError("maxmemory-clients is disabled.");  // redlab has no maxmemory-clients
  } else if (argc == 3 && is("pause-cron")) {
    settings.SetPauseCron(AtoiArg(ctx, 2) != 0);
    ctx.ReplyOk();
  } else if (argc == 4 && is("replybuffer")) {
    DebugReplyBuffer(ctx);
  } else if (argc == 5 && is("clusterlink") && ctx.ArgIs(2, "kill")) {
    ctx.ReplyError("Debug option only available for cluster mode enabled setup!");
  } else {
    for (std::string_view name : kUnsupported) {
      if (is(name)) {
        ctx.ReplyError("DEBUG " + ToUpper(ctx.arg(1)) + " is not supported by redlab");
        return;
      }
    }
    ReplySubcommandSyntaxError(ctx);
  }
}

}  // namespace

// The commands of specs/debug.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/debug.inc"

}  // namespace redlab::server::engine
