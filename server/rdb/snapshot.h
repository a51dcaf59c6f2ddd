// Redis's RDB snapshot file (version 10, as Redis 7.0 writes it): what SAVE, BGSAVE and DEBUG
// RELOAD write and read, what a redlab master sends a replica at a full resynchronisation, and
// what a redlab replica loads from a real Redis 7.0 master. Values are encoded by server/rdb/
// exactly as Redis encodes them; this is the framing around them (header, AUX fields, databases,
// expiry and access opcodes, checksum).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/data/keyspace.h"
#include "server/rdb/format.h"
#include "server/rdb/value.h"

namespace redlab::server::rdb {

// The replication facts an RDB carries in its AUX fields.
struct RdbAux {
  std::string replid;
  int64_t repl_offset = 0;
  int repl_stream_db = 0;
  int64_t ctime_s = 0;
  int64_t used_mem = 0;
};

struct RdbWriteOptions {
  rdb::ValueOptions values;
  // The function libraries (their code, shebang included, as FUNCTION LIST WITHCODE gives it),
  // written before the keys unless include_functions is false.
  std::vector<std::string_view> libraries;
  bool include_functions = true;
  // false: no keys (a replica asking for rdb-filter-only).
  bool include_data = true;
  bool save_lru = false;  // an IDLE opcode before each key (an LRU maxmemory policy)
  bool save_lfu = false;  // a FREQ opcode before each key (an LFU maxmemory policy)
  bool checksum = true;   // rdbchecksum; off, the checksum is written as 0
};

// Serialises the libraries and every key of `keyspace` (logically expired ones too, as Redis
// does).
std::string WriteRdb(Keyspace& keyspace, const RdbAux& aux, const RdbWriteOptions& options);

// FUNCTION DUMP's payload (functionDumpCommand): each library's code after the FUNCTION2 opcode,
// then the RDB version (two bytes, little-endian) and the CRC64 of all that, strings encoded as
// rdbSaveRawString does: Redis's payload byte for byte.
std::string DumpFunctions(std::span<const std::string_view> libraries);

// A library's code read from an RDB or a FUNCTION DUMP payload; returns an error text to stop
// reading with (the library could not be created).
using LibraryCallback = std::function<std::optional<std::string>(std::string&& code)>;

// FUNCTION RESTORE: checks the payload's version and checksum, then passes each library to
// `on_library` in order. Returns Redis's error text when the payload is refused or a library
// fails.
std::optional<std::string> ReadFunctionsPayload(std::string_view payload,
                                                const LibraryCallback& on_library);

// One key read from an RDB.
struct RdbKey {
  int db = 0;
  std::string key;
  server::Object value;
  int64_t expire_ms = server::kNoExpire;
  int64_t idle_seconds = -1;  // from an IDLE opcode, if any
  int freq = -1;              // from a FREQ opcode, if any
};

struct RdbReadOptions {
  rdb::ValueOptions values;
  bool verify_checksum = true;  // off with DEBUG SET-SKIP-CHECKSUM-VALIDATION 1
};

// Parses a whole RDB file. Calls `on_key` for each key (empty collections are skipped, as Redis
// skips them), `on_library` (when given) for each function library, and fills *aux from the AUX
// fields it knows. Returns an error text when the payload is not an RDB redlab can load (a
// stream or a module type, a bad checksum, a library `on_library` refused...).
std::optional<std::string> ReadRdb(std::string_view rdb, const RdbReadOptions& options, RdbAux* aux,
                                   const std::function<void(RdbKey&&)>& on_key,
                                   const LibraryCallback& on_library = nullptr);

}  // namespace redlab::server::rdb
