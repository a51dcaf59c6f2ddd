// libFuzzer target for Redis's RDB loader (rdb.c rdbLoadRio): an RDB file as a replica receives
// it or DEBUG RELOAD reads it. The harness overwrites the last 8 bytes with the CRC64 of the rest,
// so the fuzzer's files pass the checksum, and re-encodes every value the reader accepts.
//
//   build-fuzz/bin/rdb_fuzz tools/fuzz/corpus/rdb -max_total_time=300
#include <cstddef>
#include <cstdint>
#include <string>

#include "server/rdb/format.h"
#include "server/rdb/snapshot.h"
#include "server/rdb/value.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace rdb = redlab::server::rdb;
  std::string file(reinterpret_cast<const char*>(data), size);
  if (file.size() >= 9) {
    uint64_t crc = rdb::Crc64(0, std::string_view(file).substr(0, file.size() - 8));
    for (int i = 0; i < 8; ++i) file[file.size() - 8 + i] = static_cast<char>(crc >> (8 * i));
  }
  rdb::RdbReadOptions options;
  rdb::RdbAux aux;
  size_t bytes = 0;
  rdb::ReadRdb(
      file, options, &aux,
      [&](rdb::RdbKey&& key) {
        bytes += rdb::CreateDumpPayload(key.value, options.values).size();
        bytes += rdb::SerializedLength(key.value, options.values);
      },
      [&](std::string&& code) -> std::optional<std::string> {
        bytes += code.size();
        return std::nullopt;
      });
  return bytes == SIZE_MAX ? 1 : 0;  // keeps `bytes` live
}
