// The byte-level pieces of Redis's RDB format (rdb.h, rdb.c, crc64.c, lzf): type and opcode
// numbers, lengths, strings with their integer and LZF encodings, binary doubles, and the
// checksum. Shared by values (DUMP/RESTORE), snapshot files (SAVE, DEBUG RELOAD) and
// replication's full resynchronisation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace redlab::server::rdb {

// Redis 7.0 writes RDB version 10; RESTORE refuses payloads of a later version.
inline constexpr int kRdbVersion = 10;

// Value types (RDB_TYPE_*) and opcodes (RDB_OPCODE_*), numbered as Redis numbers them.
enum : uint8_t {
  kTypeString = 0,
  kTypeList = 1,
  kTypeSet = 2,
  kTypeZset = 3,  // scores as text
  kTypeHash = 4,
  kTypeZset2 = 5,  // scores as binary doubles
  kTypeModule = 6,
  kTypeModule2 = 7,
  kTypeHashZipmap = 9,
  kTypeListZiplist = 10,
  kTypeSetIntset = 11,
  kTypeZsetZiplist = 12,
  kTypeHashZiplist = 13,
  kTypeListQuicklist = 14,
  kTypeStreamListpacks = 15,
  kTypeHashListpack = 16,
  kTypeZsetListpack = 17,
  kTypeListQuicklist2 = 18,
  kTypeStreamListpacks2 = 19,
  kOpFunction2 = 0xF5,
  kOpFunction = 0xF6,  // Redis 7.0's release candidates: name, engine and code apart
  kOpModuleAux = 0xF7,
  kOpIdle = 0xF8,
  kOpFreq = 0xF9,
  kOpAux = 0xFA,
  kOpResizeDb = 0xFB,
  kOpExpireTimeMs = 0xFC,
  kOpExpireTime = 0xFD,
  kOpSelectDb = 0xFE,
  kOpEof = 0xFF,
};

// Redis's crc64 (Jones polynomial, reflected), which ends every RDB file and DUMP payload.
uint64_t Crc64(uint64_t crc, std::string_view data);

// LZF as Redis uses it: `in` compressed into at most `max_out` bytes, or nullopt when it does
// not fit (lzf_compress returning 0).
std::optional<std::string> LzfCompress(std::string_view in, size_t max_out);
// lzf_decompress; false when `in` is corrupt or does not expand to exactly `out_len` bytes.
bool LzfDecompress(std::string_view in, size_t out_len, std::string* out);

// How strings are written (rdbSaveRawString): integers of up to 32 bits in their encoded forms,
// longer strings LZF-compressed when rdbcompression is on and that saves at least 4 bytes.
class RdbWriter {
 public:
  explicit RdbWriter(bool compress = true) : compress_(compress) {}

  void Byte(uint8_t b) { out_.push_back(static_cast<char>(b)); }
  void Raw(std::string_view bytes) { out_.append(bytes); }
  // rdbSaveLen: 6, 14, 32 or 64 bits, the longer forms big-endian.
  void Length(uint64_t len);
  // rdbSaveRawString.
  void String(std::string_view s);
  // A string written as is, with no integer or LZF form (AUX values Redis writes so).
  void PlainString(std::string_view s);
  void Int64LE(int64_t v);
  void DoubleLE(double d);

  std::string& out() { return out_; }
  size_t size() const { return out_.size(); }

 private:
  std::string out_;
  bool compress_;
};

// Thrown by RdbReader (and the value decoders) on malformed input; caught where a payload or
// file is read, never past it.
struct RdbCorrupt {
  std::string what;
};

class RdbReader {
 public:
  explicit RdbReader(std::string_view data) : data_(data) {}

  bool done() const { return pos_ >= data_.size(); }
  size_t pos() const { return pos_; }

  uint8_t Byte();
  std::string_view Bytes(size_t n);
  uint64_t LittleEndian(size_t n);
  // rdbLoadLen; *encoded tells the special string encodings (11xxxxxx) apart.
  uint64_t Length(bool* encoded = nullptr);
  // rdbGenericLoadStringObject: plain, integer-encoded or LZF-compressed.
  std::string String();
  double BinaryDouble();
  // rdbLoadDoubleValue: the old text form (a length byte, 253-255 for nan/inf/-inf).
  double TextDouble();

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

}  // namespace redlab::server::rdb
