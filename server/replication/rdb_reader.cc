// Reading an RDB snapshot (see rdb.h): what redlab writes, and what a Redis 7.0 master sends at
// a full resync, including the compact encodings Redis uses for small values.
#include <cstdlib>

#include "server/replication/rdb.h"

namespace redlab::server::replication {

std::optional<std::string> ReadRdb(std::string_view data, const RdbReadOptions& options,
                                   RdbAux* aux, const std::function<void(RdbKey&&)>& on_key) {
  try {
    rdb::RdbReader r(data);
    std::string_view magic = r.Bytes(9);
    if (magic.substr(0, 5) != "REDIS") return "not an RDB payload";
    int version = std::atoi(std::string(magic.substr(5)).c_str());
    if (version < 1 || version > rdb::kRdbVersion) {
      return "unsupported RDB version " + std::to_string(version);
    }
    int db = 0;
    int64_t expire_ms = engine::kNoExpire;
    int64_t idle = -1;
    int freq = -1;
    while (true) {
      uint8_t type = r.Byte();
      switch (type) {
        case rdb::kOpExpireTimeMs:
          expire_ms = static_cast<int64_t>(r.LittleEndian(8));
          continue;
        case rdb::kOpExpireTime:
          expire_ms = static_cast<int64_t>(r.LittleEndian(4)) * 1000;
          continue;
        case rdb::kOpIdle:
          idle = static_cast<int64_t>(r.Length());
          continue;
        case rdb::kOpFreq:
          freq = r.Byte();
          continue;
        case rdb::kOpSelectDb:
          db = static_cast<int>(r.Length());
          continue;
        case rdb::kOpResizeDb:
          r.Length();
          r.Length();
          continue;
        case rdb::kOpAux: {
          std::string key = r.String();
          std::string value = r.String();
          if (aux != nullptr) {
            if (key == "repl-id")
              aux->replid = value;
            else if (key == "repl-offset")
              aux->repl_offset = std::atoll(value.c_str());
            else if (key == "repl-stream-db")
              aux->repl_stream_db = std::atoi(value.c_str());
            else if (key == "ctime")
              aux->ctime_s = std::atoll(value.c_str());
          }
          continue;
        }
        case rdb::kOpFunction2:
          r.String();  // a function library: redlab has no FUNCTION support; ignored
          continue;
        case rdb::kOpModuleAux:
          return "module data in RDB is not supported";
        case rdb::kOpEof: {
          if (version >= 5 && !r.done()) {
            size_t body = r.pos();
            uint64_t expected = r.LittleEndian(8);
            // A checksum of 0 means the writer had rdbchecksum off.
            if (options.verify_checksum && expected != 0 &&
                expected != rdb::Crc64(0, data.substr(0, body))) {
              return "RDB checksum mismatch";
            }
          }
          return std::nullopt;
        }
        default: {
          RdbKey k;
          k.db = db;
          k.key = r.String();
          std::optional<engine::Object> value = rdb::DecodeValue(type, r, options.values);
          k.expire_ms = expire_ms;
          k.idle_seconds = idle;
          k.freq = freq;
          expire_ms = engine::kNoExpire;
          idle = -1;
          freq = -1;
          if (!value) continue;  // an empty collection: Redis skips the key
          k.value = std::move(*value);
          on_key(std::move(k));
        }
      }
    }
  } catch (const rdb::RdbCorrupt& c) {
    return "corrupt RDB: " + c.what;
  }
}

}  // namespace redlab::server::replication
