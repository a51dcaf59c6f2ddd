// How a command is described: once, declaratively, as Redis's src/commands/*.json do. Arity
// errors, COMMAND INFO/DOCS/LIST/GETKEYS, script permissions and (later) replication are all
// derived from these descriptions; nothing else restates them.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace redlab::server {

namespace engine {
class CommandContext;
class Engine;
}  // namespace engine
using CommandProc = void (*)(engine::CommandContext& ctx);
// For the few commands whose flags depend on their arguments (Redis's getCommandFlags: EVAL of a
// script that declares its flags): the flags processCommand checks this invocation against.
using CommandFlagsProc = uint32_t (*)(engine::Engine& engine, std::span<const std::string> args,
                                      uint32_t flags);

// A key found in a command's arguments: its argument index and its key-spec flags.
struct FoundKey {
  size_t index;
  uint32_t flags;
};
// Redis's getkeys_proc, a command's own key finder: used where its key specs cannot tell the keys
// (an "unknown" or incomplete spec: SORT's BY/GET/STORE) or their flags (a spec with
// variable_flags: SET with GET, BITFIELD with only GETs).
using GetKeysProc = std::vector<FoundKey> (*)(std::span<const std::string> args);

// Command flags, with Redis's meaning (server.h, CMD_*). COMMAND INFO prints them by these names.
enum CommandFlag : uint32_t {
  kCmdWrite = 1u << 0,          // may modify the dataset
  kCmdReadonly = 1u << 1,       // only reads keys (never modifies them)
  kCmdDenyOom = 1u << 2,        // may grow memory: refused when over maxmemory
  kCmdAdmin = 1u << 3,          // administrative; also @admin and @dangerous
  kCmdPubsub = 1u << 4,         // pub/sub related
  kCmdNoscript = 1u << 5,       // not allowed inside scripts
  kCmdBlocking = 1u << 6,       // may block the client
  kCmdLoading = 1u << 7,        // allowed while loading the dataset
  kCmdStale = 1u << 8,          // allowed on a replica with a stale dataset
  kCmdSkipMonitor = 1u << 9,    // not shown by MONITOR
  kCmdSkipSlowlog = 1u << 10,   // not logged by SLOWLOG
  kCmdFast = 1u << 11,          // O(1) or O(log N): @fast rather than @slow
  kCmdNoAuth = 1u << 12,        // allowed before authentication
  kCmdMayReplicate = 1u << 13,  // may emit replication traffic (not printed by COMMAND)
  kCmdNoMandatoryKeys = 1u << 14,
  kCmdNoMulti = 1u << 15,         // not allowed inside MULTI
  kCmdAllowBusy = 1u << 16,       // allowed while a script is running too long
  kCmdProtected = 1u << 17,       // refused unless enable-*-command allows it (not printed)
  kCmdNoAsyncLoading = 1u << 18,  // refused while loading a replication stream asynchronously
  // may lazily expire keys it was not given (SCAN, RANDOMKEY): run directly, its DELs are not
  // wrapped in MULTI/EXEC (not printed, as in Redis)
  kCmdTouchesArbitraryKeys = 1u << 19,
  kCmdAsking = 1u << 26,  // accepted after ASKING in cluster mode (RESTORE-ASKING)
  // redlab's own FAULT and TOPOLOGY, served by the node around the engine (EngineHost::
  // RunNodeCommand): hidden from everything that lists or describes commands, refused to users
  // who are not allowed everything, never paused, and their replies are never dropped. Never
  // printed.
  kCmdNodeControl = 1u << 27,

  // redlab's names for what Redis's processCommand and call() decide by comparing command
  // procs (c->cmd->proc == execCommand...). Never printed.
  kCmdNotQueued = 1u << 20,  // runs at once inside MULTI (EXEC DISCARD MULTI WATCH QUIT RESET)
  kCmdEndsMulti = 1u << 21,  // ends a transaction, so OOM never refuses it in MULTI
                             // (EXEC DISCARD QUIT RESET)
  kCmdRunsQueue = 1u << 22,  // EXEC: checked with the flags of the commands it queued
  kCmdSubscribedContext = 1u << 23,  // allowed to a RESP2 client with subscriptions
                                     // ((P|S)SUBSCRIBE, (P|S)UNSUBSCRIBE, PING, QUIT, RESET)
  kCmdRunsScript = 1u << 24,    // EVAL/FCALL family: a tracking client is remembered through the
                                // commands its script runs, not the command itself
  kCmdKeepsCaching = 1u << 25,  // CLIENT's subcommands: CLIENT CACHING yes lasts past them
};

// ACL categories set explicitly by a command description; @read/@write/@admin/@dangerous/
// @pubsub/@fast/@slow/@blocking are derived from flags, as Redis's setImplicitACLCategories.
enum AclCategory : uint32_t {
  kAclKeyspace = 1u << 0,
  kAclRead = 1u << 1,
  kAclWrite = 1u << 2,
  kAclSet = 1u << 3,
  kAclSortedSet = 1u << 4,
  kAclList = 1u << 5,
  kAclHash = 1u << 6,
  kAclString = 1u << 7,
  kAclBitmap = 1u << 8,
  kAclHyperLogLog = 1u << 9,
  kAclGeo = 1u << 10,
  kAclStream = 1u << 11,
  kAclPubsub = 1u << 12,
  kAclAdmin = 1u << 13,
  kAclFast = 1u << 14,
  kAclSlow = 1u << 15,
  kAclBlocking = 1u << 16,
  kAclDangerous = 1u << 17,
  kAclConnection = 1u << 18,
  kAclTransaction = 1u << 19,
  kAclScripting = 1u << 20,
};

// Key-spec flags (Redis's CMD_KEY_*), printed by COMMAND INFO in this order.
enum KeySpecFlag : uint32_t {
  kKeyRO = 1u << 0,      // read only
  kKeyRW = 1u << 1,      // read and modify
  kKeyOW = 1u << 2,      // overwrite without reading
  kKeyRM = 1u << 3,      // delete
  kKeyAccess = 1u << 4,  // returns user data
  kKeyUpdate = 1u << 5,  // updates existing data
  kKeyInsert = 1u << 6,  // adds data
  kKeyDelete = 1u << 7,  // removes data
  kKeyNotKey = 1u << 8,  // a name, not a key (e.g. a channel)
  kKeyIncomplete = 1u << 9,
  kKeyVariableFlags = 1u << 10,
};

// Where a command's keys are, as a Redis 7 key spec: a start (an argument index, or the
// argument after a keyword) and then either a range or a count read from an argument.
struct KeySpec {
  uint32_t flags = 0;
  // Redis's "unknown" begin_search and find_keys: the keys cannot be told from the arguments
  // (SORT's BY and GET patterns, its STORE anywhere); the command finds them itself.
  bool unknown = false;
  // begin_search
  int begin_index = 0;             // > 0: keys start at this argument index
  std::string_view begin_keyword;  // else: after this keyword...
  int keyword_startfrom = 0;       // ...searched from this index (negative: from the end)
  // find_keys
  bool keynum = false;  // true: the number of keys is in argument begin+keynum_index
  int last_key = 0;     // range: last key relative to the first (-1: the last argument)
  int key_step = 1;
  int limit = 0;  // range: with last_key -1, take 1/limit of the remaining arguments
  int keynum_index = 0;
  int first_key = 1;  // keynum: first key relative to begin
  std::string_view notes;
};

struct CommandSpec {
  std::string_view name;  // lower case, as COMMAND prints it; for subcommands just the sub name
  int arity = 0;          // N: exactly N arguments including the name; -N: at least N
  uint32_t flags = 0;     // CommandFlag bits
  uint32_t acl = 0;       // explicit AclCategory bits
  std::vector<KeySpec> keys;
  CommandProc proc = nullptr;
  CommandFlagsProc flags_proc = nullptr;  // null: the flags above, whatever the arguments
  GetKeysProc get_keys = nullptr;         // null: the key specs tell the keys and their flags
  // For COMMAND DOCS.
  std::string_view group;
  std::string_view since;
  std::string_view summary;
  std::string_view complexity;
  std::vector<std::string_view> tips;
  std::vector<CommandSpec> subcommands;
};

inline KeySpec UnknownKeys(uint32_t flags, std::string_view notes) {
  KeySpec k;
  k.flags = flags;
  k.unknown = true;
  k.notes = notes;
  return k;
}

// Key-spec shorthands for the common shapes.
inline KeySpec KeyAt(int index, uint32_t flags) {
  KeySpec k;
  k.flags = flags;
  k.begin_index = index;
  return k;
}
inline KeySpec KeyRange(int index, int last_key, int step, uint32_t flags, int limit = 0) {
  KeySpec k = KeyAt(index, flags);
  k.last_key = last_key;
  k.key_step = step;
  k.limit = limit;
  return k;
}

}  // namespace redlab::server
