// Reading an RDB snapshot (see rdb.h): what redlab writes, and what a Redis 7.0 master sends at
// a full resync, including the compact encodings Redis uses for small values.
#include <cstdlib>

#include "server/rdb/snapshot.h"

namespace redlab::server::rdb {
namespace {

// One library after its opcode (rdbFunctionLoad), as the code FUNCTION LOAD takes.
std::string ReadLibrary(rdb::RdbReader& r, uint8_t type) {
  if (type == rdb::kOpFunction2) return r.String();
  std::string name = r.String();
  std::string engine = r.String();
  if (r.Length() != 0) r.String();  // a description, which the code format has no place for
  std::string code = r.String();
  return "#!" + engine + " name=" + name + "\n" + code;
}

}  // namespace

std::optional<std::string> ReadFunctionsPayload(std::string_view payload,
                                                const LibraryCallback& on_library) {
  // verifyDumpPayload: the version (at most ours) and the CRC64 of all before it.
  if (payload.size() < 10) return "DUMP payload version or checksum are wrong";
  std::string_view footer = payload.substr(payload.size() - 10);
  int version = static_cast<uint8_t>(footer[0]) | (static_cast<uint8_t>(footer[1]) << 8);
  uint64_t crc = 0;
  for (int i = 0; i < 8; ++i) {
    crc |= static_cast<uint64_t>(static_cast<uint8_t>(footer[2 + i])) << (8 * i);
  }
  if (version > rdb::kRdbVersion || crc != rdb::Crc64(0, payload.substr(0, payload.size() - 8))) {
    return "DUMP payload version or checksum are wrong";
  }
  rdb::RdbReader r(payload.substr(0, payload.size() - 10));
  while (!r.done()) {
    uint8_t type = r.Byte();
    if (type != rdb::kOpFunction && type != rdb::kOpFunction2) {
      return "given type is not a function";
    }
    std::string code;
    try {
      code = ReadLibrary(r, type);
    } catch (const rdb::RdbCorrupt&) {
      return "Failed loading library payload";
    }
    if (auto error = on_library(std::move(code))) return error;
  }
  return std::nullopt;
}

std::optional<std::string> ReadRdb(std::string_view data, const RdbReadOptions& options,
                                   RdbAux* aux, const std::function<void(RdbKey&&)>& on_key,
                                   const LibraryCallback& on_library) {
  try {
    rdb::RdbReader r(data);
    std::string_view magic = r.Bytes(9);
    if (magic.substr(0, 5) != "REDIS") return "not an RDB payload";
    int version = std::atoi(std::string(magic.substr(5)).c_str());
    if (version < 1 || version > rdb::kRdbVersion) {
      return "unsupported RDB version " + std::to_string(version);
    }
    int db = 0;
    int64_t expire_ms = server::kNoExpire;
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
        case rdb::kOpFunction:
        case rdb::kOpFunction2: {
          std::string code = ReadLibrary(r, type);
          if (on_library) {
            if (auto error = on_library(std::move(code))) {
              return "Failed loading library, " + *error;
            }
          }
          continue;
        }
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
          std::optional<server::Object> value = rdb::DecodeValue(type, r, options.values);
          k.expire_ms = expire_ms;
          k.idle_seconds = idle;
          k.freq = freq;
          expire_ms = server::kNoExpire;
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

}  // namespace redlab::server::rdb
