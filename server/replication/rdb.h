// Redis's RDB snapshot format (version 10, as Redis 7.0 writes it), for full resynchronisation:
// a redlab master sends its dataset as an RDB a real redis-server can load, and a redlab replica
// reads the RDB a real Redis 7.0 master sends (strings with their integer and LZF encodings,
// quicklist/listpack lists, intset and hashtable sets, listpack and hashtable hashes and sorted
// sets). redlab writes plain encodings only; Redis converts them on load.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
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

// Serialises every key of `keyspace` (logically expired ones too, as Redis does). With
// `include_data` false only the header, AUX fields and EOF are written (a replica asking for
// rdb-filter-only).
std::string WriteRdb(engine::Keyspace& keyspace, const RdbAux& aux, bool include_data = true);

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

// Parses a whole RDB file. Calls `on_key` for each key and fills *aux from the AUX fields it
// knows. Returns an error text when the payload is not an RDB redlab can load (a stream or a
// module type, a bad checksum...).
std::optional<std::string> ReadRdb(std::string_view rdb, RdbAux* aux,
                                   const std::function<void(RdbKey&&)>& on_key);

// Decompresses Redis's LZF (lzf_decompress); false when `in` is corrupt or does not expand to
// exactly `out_len` bytes.
bool LzfDecompress(std::string_view in, size_t out_len, std::string* out);

}  // namespace redlab::server::replication
