// Writing an RDB snapshot (see rdb.h), FUNCTION DUMP's payload, and the checksum every RDB ends
// with.
#include <lzf.h>

#include <array>
#include <charconv>
#include <cstring>

#include "server/replication/rdb.h"

namespace redlab::server::replication {
namespace {

// RDB opcodes and types (rdb.h in Redis).
constexpr uint8_t kOpFunction2 = 0xF5;
constexpr uint8_t kOpAux = 0xFA;
constexpr uint8_t kOpResizeDb = 0xFB;
constexpr uint8_t kOpExpireTimeMs = 0xFC;
constexpr uint8_t kOpSelectDb = 0xFE;
constexpr uint8_t kOpEof = 0xFF;
constexpr uint8_t kTypeString = 0;
constexpr uint8_t kTypeList = 1;
constexpr uint8_t kTypeSet = 2;
constexpr uint8_t kTypeZset2 = 5;  // members with binary double scores
constexpr uint8_t kTypeHash = 4;

const std::array<uint64_t, 256>& Crc64Table() {
  static const std::array<uint64_t, 256> table = [] {
    // The Jones polynomial 0xad93d23594c935a9, bit-reversed for the reflected algorithm.
    constexpr uint64_t kReversedPoly = 0x95ac9329ac4bc9b5ULL;
    std::array<uint64_t, 256> t{};
    for (uint64_t i = 0; i < 256; ++i) {
      uint64_t crc = i;
      for (int bit = 0; bit < 8; ++bit) crc = (crc & 1) ? (crc >> 1) ^ kReversedPoly : crc >> 1;
      t[i] = crc;
    }
    return t;
  }();
  return table;
}

class Writer {
 public:
  void Byte(uint8_t b) { out_.push_back(static_cast<char>(b)); }
  // rdbSaveLen: 6, 14, 32 or 64 bits, the longer forms big-endian.
  void Length(uint64_t len) {
    if (len < (1 << 6)) {
      Byte(static_cast<uint8_t>(len));
    } else if (len < (1 << 14)) {
      Byte(static_cast<uint8_t>(((len >> 8) & 0xFF) | 0x40));
      Byte(static_cast<uint8_t>(len & 0xFF));
    } else if (len <= UINT32_MAX) {
      Byte(0x80);
      for (int shift = 24; shift >= 0; shift -= 8) Byte(static_cast<uint8_t>(len >> shift));
    } else {
      Byte(0x81);
      for (int shift = 56; shift >= 0; shift -= 8) Byte(static_cast<uint8_t>(len >> shift));
    }
  }
  void String(std::string_view s) {
    Length(s.size());
    out_.append(s);
  }
  // rdbSaveRawString with rdbcompression on: a short string that is an integer is saved as one;
  // a longer one LZF-compressed when that saves at least four bytes; else as it is.
  void EncodedString(std::string_view s) {
    if (s.size() <= 11 && IntegerString(s)) return;
    if (s.size() > 20) {
      std::string compressed(s.size() - 4, '\0');
      unsigned int n =
          lzf_compress(s.data(), static_cast<unsigned int>(s.size()), compressed.data(),
                       static_cast<unsigned int>(compressed.size()));
      if (n > 0) {
        Byte(0xC3);  // RDB_ENCVAL << 6 | RDB_ENC_LZF
        Length(n);
        Length(s.size());
        out_.append(compressed.data(), n);
        return;
      }
    }
    String(s);
  }
  void DoubleLE(double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof(bits));
    Int64LE(static_cast<int64_t>(bits));
  }
  void Int64LE(int64_t v) {
    for (int i = 0; i < 8; ++i) Byte(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i)));
  }
  void Aux(std::string_view key, std::string_view value) {
    Byte(kOpAux);
    String(key);
    String(value);
  }
  std::string& out() { return out_; }

 private:
  // rdbTryIntegerEncoding: a string that reads back as the same integer, in 8, 16 or 32 bits.
  bool IntegerString(std::string_view s) {
    int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || std::to_string(v) != s) return false;
    if (v >= INT8_MIN && v <= INT8_MAX) {
      Byte(0xC0);
      Byte(static_cast<uint8_t>(v));
    } else if (v >= INT16_MIN && v <= INT16_MAX) {
      Byte(0xC1);
      for (int i = 0; i < 2; ++i) Byte(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i)));
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
      Byte(0xC2);
      for (int i = 0; i < 4; ++i) Byte(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i)));
    } else {
      return false;
    }
    return true;
  }

  std::string out_;
};

void WriteValue(Writer& w, const engine::Object& value) {
  using engine::ObjectType;
  switch (value.type()) {
    case ObjectType::kString:
      w.Byte(kTypeString);
      break;
    case ObjectType::kList:
      w.Byte(kTypeList);
      break;
    case ObjectType::kSet:
      w.Byte(kTypeSet);
      break;
    case ObjectType::kZset:
      w.Byte(kTypeZset2);
      break;
    case ObjectType::kHash:
      w.Byte(kTypeHash);
      break;
    default:
      break;
  }
}

void WriteLibraries(Writer& w, std::span<const std::string_view> libraries) {
  for (std::string_view code : libraries) {
    w.Byte(kOpFunction2);
    w.EncodedString(code);
  }
}

}  // namespace

uint64_t Crc64(uint64_t crc, std::string_view data) {
  const auto& table = Crc64Table();
  for (char c : data) crc = table[(crc ^ static_cast<uint8_t>(c)) & 0xFF] ^ (crc >> 8);
  return crc;
}

std::string DumpFunctions(std::span<const std::string_view> libraries) {
  Writer w;
  WriteLibraries(w, libraries);
  w.Byte(static_cast<uint8_t>(kRdbVersion & 0xFF));
  w.Byte(static_cast<uint8_t>((kRdbVersion >> 8) & 0xFF));
  uint64_t crc = Crc64(0, w.out());
  w.Int64LE(static_cast<int64_t>(crc));
  return std::move(w.out());
}

std::string WriteRdb(engine::Keyspace& keyspace, const RdbAux& aux, const RdbContents& contents) {
  using engine::ObjectType;
  bool include_data = contents.include_data;
  Writer w;
  w.out().append("REDIS0010");
  w.Aux("redis-ver", "7.0.15");
  w.Aux("redis-bits", std::to_string(sizeof(void*) * 8));
  w.Aux("ctime", std::to_string(aux.ctime_s));
  w.Aux("used-mem", std::to_string(aux.used_mem));
  w.Aux("repl-stream-db", std::to_string(aux.repl_stream_db));
  w.Aux("repl-id", aux.replid);
  w.Aux("repl-offset", std::to_string(aux.repl_offset));
  w.Aux("aof-base", "0");
  if (contents.include_functions) WriteLibraries(w, contents.libraries);
  for (int i = 0; include_data && i < keyspace.num_dbs(); ++i) {
    engine::Db& db = keyspace.db(i);
    if (db.size() == 0) continue;
    w.Byte(kOpSelectDb);
    w.Length(static_cast<uint64_t>(i));
    w.Byte(kOpResizeDb);
    w.Length(db.size());
    w.Length(db.expires_size());
    db.ForEach([&](const engine::Db::Node* n) {
      const engine::Object& value = n->value.value;
      if (n->value.expire_ms != engine::kNoExpire) {
        w.Byte(kOpExpireTimeMs);
        w.Int64LE(n->value.expire_ms);
      }
      WriteValue(w, value);
      w.String(n->key());
      switch (value.type()) {
        case ObjectType::kString:
          w.String(value.str());
          break;
        case ObjectType::kList: {
          const engine::ListValue& list = value.list();
          w.Length(list.size());
          if (!list.empty()) {
            list.ForEach(0, list.size() - 1, false, [&](std::string_view e) { w.String(e); });
          }
          break;
        }
        case ObjectType::kSet:
          w.Length(value.set().size());
          value.set().ForEach([&](std::string_view m) { w.String(m); });
          break;
        case ObjectType::kHash:
          w.Length(value.hash().size());
          value.hash().ForEach([&](std::string_view f, std::string_view v) {
            w.String(f);
            w.String(v);
          });
          break;
        case ObjectType::kZset: {
          // RDB_TYPE_ZSET_2 lists members from the highest score down, as Redis writes them
          // (a loader inserting in that order builds its skiplist without reordering).
          const engine::ZsetValue& zset = value.zset();
          w.Length(zset.size());
          if (zset.size() > 0) {
            for (auto it = zset.AtRank(zset.size() - 1); it.valid(); it.Prev()) {
              w.String(it.member());
              w.DoubleLE(it.score());
            }
          }
          break;
        }
      }
    });
  }
  w.Byte(kOpEof);
  uint64_t crc = Crc64(0, w.out());
  w.Int64LE(static_cast<int64_t>(crc));
  return std::move(w.out());
}

}  // namespace redlab::server::replication
