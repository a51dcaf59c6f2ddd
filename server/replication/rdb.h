// Redis's RDB snapshot format (version 10, as Redis 7.0 writes it), for full resynchronisation:
// a redlab master sends its dataset as an RDB a real redis-server can load, and a redlab replica
// reads the RDB a real Redis 7.0 master sends (strings with their integer and LZF encodings,
// quicklist/listpack lists, intset and hashtable sets, listpack and hashtable hashes and sorted
// sets). redlab writes plain encodings only; Redis converts them on load.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/engine/keyspace.h"

namespace redlab::server::replication {

// Redis's crc64 (Jones polynomial, reflected), which ends every RDB.
uint64_t Crc64(uint64_t crc, std::string_view data);

// The replication facts an RDB made for a replica carries in its AUX fields.
struct RdbAux {
  std::string replid;
  int64_t repl_offset = 0;
  int repl_stream_db = 0;
  int64_t ctime_s = 0;
  int64_t used_mem = 0;
};

// The RDB version redlab writes (Redis 7.0's RDB_VERSION).
inline constexpr int kRdbVersion = 10;

// What goes into an RDB besides its header and AUX fields: function libraries (their code,
// shebang included, as FUNCTION LIST WITHCODE gives it) and the keys. A replica asking for
// rdb-filter-only gets neither, or only the functions.
struct RdbContents {
  std::span<const std::string_view> libraries;
  bool include_functions = true;
  bool include_data = true;
};

// Serialises the libraries and every key of `keyspace` (logically expired ones too, as Redis
// does).
std::string WriteRdb(engine::Keyspace& keyspace, const RdbAux& aux, const RdbContents& contents);

// FUNCTION DUMP's payload (functionDumpCommand): each library's code after the FUNCTION2 opcode,
// then the RDB version (two bytes, little-endian) and the CRC64 of all that. Strings are encoded
// as Redis's rdbSaveRawString does (LZF-compressed when that saves at least 4 bytes), so the
// payload is Redis's byte for byte.
std::string DumpFunctions(std::span<const std::string_view> libraries);

// A library's code read from an RDB or a FUNCTION DUMP payload; returns an error text to stop
// reading with (the library could not be created).
using LibraryCallback = std::function<std::optional<std::string>(std::string&& code)>;

// FUNCTION RESTORE: checks the payload's version and checksum, then passes each library to
// `on_library` in order. Returns Redis's error text when the payload is refused or a library
// fails.
std::optional<std::string> ReadFunctionsPayload(std::string_view payload,
                                                const LibraryCallback& on_library);

// One key read from an RDB, in a neutral shape the loader turns into values.
struct RdbKey {
  int db = 0;
  std::string key;
  engine::ObjectType type = engine::ObjectType::kString;
  int64_t expire_ms = engine::kNoExpire;
  std::string str;                    // a string's value
  std::vector<std::string> elements;  // list and set members; hash field, value, field, value...;
                                      // sorted set member, score, member, score... (scores as
                                      // text, as ZADD takes them)
};

// Parses a whole RDB file. Calls `on_key` for each key, `on_library` (when given) for each
// function library, and fills *aux from the AUX fields it knows. Returns an error text when the
// payload is not an RDB redlab can load (a stream or a module type, a bad checksum, a library
// `on_library` refused...).
std::optional<std::string> ReadRdb(std::string_view rdb, RdbAux* aux,
                                   const std::function<void(RdbKey&&)>& on_key,
                                   const LibraryCallback& on_library = nullptr);

// Decompresses Redis's LZF (lzf_decompress); false when `in` is corrupt or does not expand to
// exactly `out_len` bytes.
bool LzfDecompress(std::string_view in, size_t out_len, std::string* out);

}  // namespace redlab::server::replication
