// libFuzzer target for Redis's RESTORE (cluster.c restoreCommand, rdb.c rdbLoadObject and the
// sanitizers of ziplist.c, listpack.c, intset.c, t_stream.c): the kind of input behind several
// Redis CVEs. The first byte picks sanitize-dump-payload (yes or no); the rest is a DUMP
// payload's type and value, to which the harness appends RDB version 10 and a valid CRC64, so
// the fuzzer gets past the footer. A value RESTORE accepts is then read, changed, dumped and
// restored again, as a client would use it. One engine serves every input (building one per
// input would cost most of the time); the keys are deleted after each.
//
//   cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang -DREDLAB_FUZZ=ON
//   cmake --build build-fuzz --target restore_fuzz
//   build-fuzz/bin/restore_fuzz tools/fuzz/corpus/restore -max_total_time=300
#include <cstddef>
#include <cstdint>
#include <string>

#include "server/rdb/format.h"
#include "tools/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  static redlab::fuzz::FuzzEngine f{redlab::fuzz::ServerConfig()};
  f.Run({"CONFIG", "SET", "sanitize-dump-payload", (data[0] & 1) != 0 ? "yes" : "no"});
  std::string payload(reinterpret_cast<const char*>(data) + 1, size - 1);
  payload.push_back(10);  // RDB version, little-endian
  payload.push_back(0);
  uint64_t crc = redlab::server::rdb::Crc64(0, payload);
  for (int i = 0; i < 8; ++i) payload.push_back(static_cast<char>(crc >> (8 * i)));

  std::string reply = f.Run({"RESTORE", "k", "0", payload, "REPLACE"});
  if (reply != "+OK\r\n") return 0;
  // Every read of every type (WRONGTYPE for the others is cheap), then changes and a round trip.
  for (auto& args : std::vector<std::vector<std::string>>{
           {"TYPE", "k"},
           {"OBJECT", "ENCODING", "k"},
           {"STRLEN", "k"},
           {"GETRANGE", "k", "0", "-1"},
           {"PFCOUNT", "k"},
           {"LRANGE", "k", "0", "-1"},
           {"LINDEX", "k", "-1"},
           {"HGETALL", "k"},
           {"HRANDFIELD", "k", "-5", "WITHVALUES"},
           {"SMEMBERS", "k"},
           {"SISMEMBER", "k", "1"},
           {"ZRANGE", "k", "0", "-1", "WITHSCORES"},
           {"ZRANGEBYLEX", "k", "-", "+"},
           {"ZSCORE", "k", "a"},
           {"XRANGE", "k", "-", "+"},
           {"XREVRANGE", "k", "+", "-", "COUNT", "3"},
           {"XLEN", "k"},
           {"SORT", "k", "ALPHA"},
           {"APPEND", "k", "x"},
           {"PFADD", "k", "a", "b"},
           {"RPUSH", "k", "x"},
           {"LPOP", "k"},
           {"HSET", "k", "f", "v"},
           {"HDEL", "k", "f"},
           {"SADD", "k", "x", "1"},
           {"SPOP", "k"},
           {"ZADD", "k", "1", "x"},
           {"ZPOPMIN", "k"},
           {"XADD", "k", "*", "f", "v"},
           {"XTRIM", "k", "MAXLEN", "2"},
       }) {
    f.Run(args);
  }
  std::string dump = f.Run({"DUMP", "k"});
  // "$<len>\r\n<payload>\r\n": restore what was dumped under another name.
  size_t header = dump.find("\r\n");
  if (dump.size() > 2 && dump[0] == '$' && header != std::string::npos && dump.size() >= header + 4) {
    f.Run({"RESTORE", "k2", "0", dump.substr(header + 2, dump.size() - header - 4)});
  }
  f.Run({"DEL", "k", "k2"});
  return 0;
}
