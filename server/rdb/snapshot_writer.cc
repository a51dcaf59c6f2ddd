// Writing an RDB snapshot and FUNCTION DUMP's payload (see rdb.h).
#include <string>

#include "server/rdb/snapshot.h"

namespace redlab::server::rdb {
namespace {

void Aux(rdb::RdbWriter& w, std::string_view key, std::string_view value) {
  w.Byte(rdb::kOpAux);
  w.String(key);
  w.String(value);
}

void WriteLibraries(rdb::RdbWriter& w, std::span<const std::string_view> libraries) {
  for (std::string_view code : libraries) {
    w.Byte(rdb::kOpFunction2);
    w.String(code);
  }
}

}  // namespace

std::string DumpFunctions(std::span<const std::string_view> libraries) {
  rdb::RdbWriter w;
  WriteLibraries(w, libraries);
  w.Byte(static_cast<uint8_t>(rdb::kRdbVersion & 0xFF));
  w.Byte(static_cast<uint8_t>((rdb::kRdbVersion >> 8) & 0xFF));
  w.Int64LE(static_cast<int64_t>(rdb::Crc64(0, w.out())));
  return std::move(w.out());
}

std::string WriteRdb(server::Keyspace& keyspace, const RdbAux& aux,
                     const RdbWriteOptions& options) {
  rdb::RdbWriter w(options.values.compress);
  w.Raw("REDIS0010");
  Aux(w, "redis-ver", "7.0.15");
  Aux(w, "redis-bits", std::to_string(sizeof(void*) * 8));
  Aux(w, "ctime", std::to_string(aux.ctime_s));
  Aux(w, "used-mem", std::to_string(aux.used_mem));
  Aux(w, "repl-stream-db", std::to_string(aux.repl_stream_db));
  Aux(w, "repl-id", aux.replid);
  Aux(w, "repl-offset", std::to_string(aux.repl_offset));
  Aux(w, "aof-base", "0");
  if (options.include_functions) WriteLibraries(w, options.libraries);
  for (int i = 0; options.include_data && i < keyspace.num_dbs(); ++i) {
    server::Db& db = keyspace.db(i);
    if (db.size() == 0) continue;
    w.Byte(rdb::kOpSelectDb);
    w.Length(static_cast<uint64_t>(i));
    w.Byte(rdb::kOpResizeDb);
    w.Length(db.size());
    w.Length(db.expires_size());
    db.ForEach([&](const server::Db::Node* n) {
      if (n->value.expire_ms != server::kNoExpire) {
        w.Byte(rdb::kOpExpireTimeMs);
        w.Int64LE(n->value.expire_ms);
      }
      if (options.save_lru) {
        w.Byte(rdb::kOpIdle);
        w.Length(static_cast<uint64_t>(keyspace.IdleSeconds(n->value)));
      }
      if (options.save_lfu) {
        w.Byte(rdb::kOpFreq);
        w.Byte(keyspace.LfuCounter(n->value));
      }
      w.Byte(rdb::ValueType(n->value.value));
      w.String(n->key());
      rdb::EncodeValue(w, n->value.value, options.values);
    });
  }
  w.Byte(rdb::kOpEof);
  uint64_t crc = options.checksum ? rdb::Crc64(0, w.out()) : 0;
  w.Int64LE(static_cast<int64_t>(crc));
  return std::move(w.out());
}

}  // namespace redlab::server::rdb
