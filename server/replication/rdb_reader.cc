// Reading an RDB snapshot (see rdb.h): what a Redis 7.0 master sends at a full resync, including
// the compact encodings Redis uses for small values (listpacks, intsets, integer strings, LZF).
#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "server/replication/rdb.h"

namespace redlab::server::replication {
namespace {

using engine::ObjectType;

// Opcodes and types, as numbered in Redis's rdb.h.
enum : uint8_t {
  kTypeString = 0,
  kTypeList = 1,
  kTypeSet = 2,
  kTypeZset = 3,
  kTypeHash = 4,
  kTypeZset2 = 5,
  kTypeSetIntset = 11,
  kTypeListQuicklist2 = 18,
  kTypeHashListpack = 16,
  kTypeZsetListpack = 17,
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

struct Corrupt {
  std::string what;
};

// Formats a double as ZADD reads it back exactly.
std::string ScoreText(double d) {
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  return fmt::format("{:.17g}", d);
}

class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}

  bool done() const { return pos_ >= data_.size(); }
  size_t pos() const { return pos_; }

  uint8_t Byte() {
    Need(1);
    return static_cast<uint8_t>(data_[pos_++]);
  }
  std::string_view Bytes(size_t n) {
    Need(n);
    std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  uint64_t LittleEndian(size_t n) {
    std::string_view b = Bytes(n);
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i)
      v |= static_cast<uint64_t>(static_cast<uint8_t>(b[i])) << (8 * i);
    return v;
  }

  // rdbLoadLen; *encoded tells the special string encodings (11xxxxxx) apart.
  uint64_t Length(bool* encoded = nullptr) {
    if (encoded != nullptr) *encoded = false;
    uint8_t b = Byte();
    switch (b >> 6) {
      case 0:
        return b & 0x3F;
      case 1:
        return (static_cast<uint64_t>(b & 0x3F) << 8) | Byte();
      case 2: {
        size_t n = b == 0x80 ? 4 : b == 0x81 ? 8 : 0;
        if (n == 0) throw Corrupt{"unknown length encoding"};
        std::string_view raw = Bytes(n);
        uint64_t v = 0;
        for (char c : raw) v = (v << 8) | static_cast<uint8_t>(c);
        return v;
      }
      default:
        if (encoded == nullptr) throw Corrupt{"unexpected encoded length"};
        *encoded = true;
        return b & 0x3F;
    }
  }

  // rdbGenericLoadStringObject: plain, integer-encoded or LZF-compressed.
  std::string String() {
    bool encoded = false;
    uint64_t len = Length(&encoded);
    if (!encoded) return std::string(Bytes(len));
    switch (len) {
      case 0:
        return std::to_string(static_cast<int8_t>(Byte()));
      case 1:
        return std::to_string(static_cast<int16_t>(LittleEndian(2)));
      case 2:
        return std::to_string(static_cast<int32_t>(LittleEndian(4)));
      case 3: {
        uint64_t clen = Length();
        uint64_t ulen = Length();
        std::string out;
        if (!LzfDecompress(Bytes(clen), ulen, &out)) throw Corrupt{"bad LZF string"};
        return out;
      }
      default:
        throw Corrupt{"unknown string encoding"};
    }
  }

  double BinaryDouble() {
    uint64_t bits = LittleEndian(8);
    double d;
    std::memcpy(&d, &bits, sizeof(d));
    return d;
  }

 private:
  void Need(size_t n) const {
    if (data_.size() - pos_ < n) throw Corrupt{"truncated"};
  }
  std::string_view data_;
  size_t pos_ = 0;
};

// A listpack's elements, as strings (integers formatted as Redis's lpGet does).
std::vector<std::string> ListpackElements(std::string_view lp) {
  Reader r(lp);
  r.LittleEndian(4);  // total bytes
  r.LittleEndian(2);  // element count (may saturate; the terminator is what counts)
  std::vector<std::string> out;
  while (true) {
    uint8_t b = r.Byte();
    if (b == 0xFF) break;
    size_t entry_len = 0;  // encoding byte(s) + data, for the back-length that follows
    if ((b & 0x80) == 0) {
      out.push_back(std::to_string(b & 0x7F));
      entry_len = 1;
    } else if ((b & 0xC0) == 0x80) {
      size_t n = b & 0x3F;
      out.emplace_back(r.Bytes(n));
      entry_len = 1 + n;
    } else if ((b & 0xE0) == 0xC0) {
      int64_t v = (static_cast<int64_t>(b & 0x1F) << 8) | r.Byte();
      if (v >= (1 << 12)) v -= (1 << 13);
      out.push_back(std::to_string(v));
      entry_len = 2;
    } else if ((b & 0xF0) == 0xE0) {
      size_t n = (static_cast<size_t>(b & 0x0F) << 8) | r.Byte();
      out.emplace_back(r.Bytes(n));
      entry_len = 2 + n;
    } else {
      switch (b) {
        case 0xF0: {
          size_t n = r.LittleEndian(4);
          out.emplace_back(r.Bytes(n));
          entry_len = 5 + n;
          break;
        }
        case 0xF1:
          out.push_back(std::to_string(static_cast<int16_t>(r.LittleEndian(2))));
          entry_len = 3;
          break;
        case 0xF2: {
          int64_t v = static_cast<int64_t>(r.LittleEndian(3));
          if (v >= (1 << 23)) v -= (1 << 24);
          out.push_back(std::to_string(v));
          entry_len = 4;
          break;
        }
        case 0xF3:
          out.push_back(std::to_string(static_cast<int32_t>(r.LittleEndian(4))));
          entry_len = 5;
          break;
        case 0xF4:
          out.push_back(std::to_string(static_cast<int64_t>(r.LittleEndian(8))));
          entry_len = 9;
          break;
        default:
          throw Corrupt{"bad listpack entry"};
      }
    }
    // The back-length: one byte per 7 bits of entry_len.
    size_t backlen = entry_len < 128         ? 1
                     : entry_len < 16384     ? 2
                     : entry_len < 2097152   ? 3
                     : entry_len < 268435456 ? 4
                                             : 5;
    r.Bytes(backlen);
  }
  return out;
}

std::vector<std::string> IntsetElements(std::string_view blob) {
  Reader r(blob);
  uint32_t width = static_cast<uint32_t>(r.LittleEndian(4));
  uint32_t count = static_cast<uint32_t>(r.LittleEndian(4));
  if (width != 2 && width != 4 && width != 8) throw Corrupt{"bad intset"};
  std::vector<std::string> out;
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t raw = r.LittleEndian(width);
    int64_t v = width == 2   ? static_cast<int16_t>(raw)
                : width == 4 ? static_cast<int32_t>(raw)
                             : static_cast<int64_t>(raw);
    out.push_back(std::to_string(v));
  }
  return out;
}

void ReadValue(Reader& r, uint8_t type, RdbKey* k) {
  switch (type) {
    case kTypeString:
      k->type = ObjectType::kString;
      k->str = r.String();
      return;
    case kTypeList:
    case kTypeSet: {
      k->type = type == kTypeList ? ObjectType::kList : ObjectType::kSet;
      uint64_t n = r.Length();
      for (uint64_t i = 0; i < n; ++i) k->elements.push_back(r.String());
      return;
    }
    case kTypeHash: {
      k->type = ObjectType::kHash;
      uint64_t n = r.Length();
      for (uint64_t i = 0; i < n * 2; ++i) k->elements.push_back(r.String());
      return;
    }
    case kTypeZset:
    case kTypeZset2: {
      k->type = ObjectType::kZset;
      uint64_t n = r.Length();
      for (uint64_t i = 0; i < n; ++i) {
        k->elements.push_back(r.String());
        if (type == kTypeZset2) {
          k->elements.push_back(ScoreText(r.BinaryDouble()));
        } else {
          // The old text form: a length byte then the digits (253-255 mean nan/inf/-inf).
          uint8_t len = r.Byte();
          if (len == 253)
            k->elements.push_back("nan");
          else if (len == 254)
            k->elements.push_back("inf");
          else if (len == 255)
            k->elements.push_back("-inf");
          else
            k->elements.emplace_back(r.Bytes(len));
        }
      }
      return;
    }
    case kTypeSetIntset:
      k->type = ObjectType::kSet;
      k->elements = IntsetElements(r.String());
      return;
    case kTypeHashListpack:
      k->type = ObjectType::kHash;
      k->elements = ListpackElements(r.String());
      return;
    case kTypeZsetListpack:
      k->type = ObjectType::kZset;
      k->elements = ListpackElements(r.String());
      return;
    case kTypeListQuicklist2: {
      k->type = ObjectType::kList;
      uint64_t nodes = r.Length();
      for (uint64_t i = 0; i < nodes; ++i) {
        uint64_t container = r.Length();
        std::string blob = r.String();
        if (container == 1) {  // QUICKLIST_NODE_CONTAINER_PLAIN: one large element
          k->elements.push_back(std::move(blob));
        } else {
          for (std::string& e : ListpackElements(blob)) k->elements.push_back(std::move(e));
        }
      }
      return;
    }
    default:
      throw Corrupt{"unsupported value type " + std::to_string(type) +
                    " (streams, modules and pre-7.0 ziplist encodings are not loaded)"};
  }
}

}  // namespace

bool LzfDecompress(std::string_view in, size_t out_len, std::string* out) {
  out->clear();
  out->reserve(out_len);
  size_t ip = 0;
  while (ip < in.size()) {
    size_t ctrl = static_cast<uint8_t>(in[ip++]);
    if (ctrl < 32) {  // a literal run of ctrl + 1 bytes
      size_t n = ctrl + 1;
      if (ip + n > in.size() || out->size() + n > out_len) return false;
      out->append(in.substr(ip, n));
      ip += n;
      continue;
    }
    size_t len = ctrl >> 5;  // a back reference
    if (len == 7) {
      if (ip >= in.size()) return false;
      len += static_cast<uint8_t>(in[ip++]);
    }
    if (ip >= in.size()) return false;
    size_t distance = ((ctrl & 0x1F) << 8) + static_cast<uint8_t>(in[ip++]) + 1;
    len += 2;
    if (distance > out->size() || out->size() + len > out_len) return false;
    size_t ref = out->size() - distance;
    for (size_t i = 0; i < len; ++i) out->push_back((*out)[ref + i]);  // may overlap itself
  }
  return out->size() == out_len;
}

namespace {

// One library after its opcode (rdbFunctionLoad), as the code FUNCTION LOAD takes.
std::string ReadLibrary(Reader& r, uint8_t type) {
  if (type == kOpFunction2) return r.String();
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
  for (int i = 0; i < 8; ++i)
    crc |= static_cast<uint64_t>(static_cast<uint8_t>(footer[2 + i])) << (8 * i);
  if (version > kRdbVersion || crc != Crc64(0, payload.substr(0, payload.size() - 8))) {
    return "DUMP payload version or checksum are wrong";
  }
  Reader r(payload.substr(0, payload.size() - 10));
  while (!r.done()) {
    uint8_t type = r.Byte();
    if (type != kOpFunction && type != kOpFunction2) return "given type is not a function";
    std::string code;
    try {
      code = ReadLibrary(r, type);
    } catch (const Corrupt&) {
      return "Failed loading library payload";
    }
    if (auto error = on_library(std::move(code))) return error;
  }
  return std::nullopt;
}

std::optional<std::string> ReadRdb(std::string_view rdb, RdbAux* aux,
                                   const std::function<void(RdbKey&&)>& on_key,
                                   const LibraryCallback& on_library) {
  try {
    Reader r(rdb);
    std::string_view magic = r.Bytes(9);
    if (magic.substr(0, 5) != "REDIS") return "not an RDB payload";
    int version = std::atoi(std::string(magic.substr(5)).c_str());
    if (version < 1 || version > 10) return "unsupported RDB version " + std::to_string(version);
    int db = 0;
    int64_t expire_ms = engine::kNoExpire;
    while (true) {
      uint8_t type = r.Byte();
      switch (type) {
        case kOpExpireTimeMs:
          expire_ms = static_cast<int64_t>(r.LittleEndian(8));
          continue;
        case kOpExpireTime:
          expire_ms = static_cast<int64_t>(r.LittleEndian(4)) * 1000;
          continue;
        case kOpIdle:
          r.Length();
          continue;
        case kOpFreq:
          r.Byte();
          continue;
        case kOpSelectDb:
          db = static_cast<int>(r.Length());
          continue;
        case kOpResizeDb:
          r.Length();
          r.Length();
          continue;
        case kOpAux: {
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
        case kOpFunction:
        case kOpFunction2: {
          std::string code = ReadLibrary(r, type);
          if (on_library) {
            if (auto error = on_library(std::move(code)))
              return "Failed loading library, " + *error;
          }
          continue;
        }
        case kOpModuleAux:
          return "module data in RDB is not supported";
        case kOpEof: {
          if (version >= 5 && !r.done()) {
            size_t body = r.pos();
            uint64_t expected = r.LittleEndian(8);
            if (expected != 0 && expected != Crc64(0, rdb.substr(0, body))) {
              return "RDB checksum mismatch";
            }
          }
          return std::nullopt;
        }
        default: {
          RdbKey k;
          k.db = db;
          k.key = r.String();
          ReadValue(r, type, &k);
          k.expire_ms = expire_ms;
          expire_ms = engine::kNoExpire;
          on_key(std::move(k));
        }
      }
    }
  } catch (const Corrupt& c) {
    return "corrupt RDB: " + c.what;
  }
}

}  // namespace redlab::server::replication
