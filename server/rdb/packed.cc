// Listpacks, intsets, ziplists and zipmaps (see packed.h).
#include "server/rdb/packed.h"

#include <string>

#include "server/base/numbers.h"
#include "server/rdb/format.h"
#include "server/resp/parser.h"

namespace redlab::server::rdb {
namespace {

// lpEncodeBacklen: the entry length written backwards, 7 bits per byte.
void AppendBacklen(std::string* out, uint64_t l) {
  uint8_t buf[5];
  size_t n;
  if (l <= 127) {
    buf[0] = static_cast<uint8_t>(l);
    n = 1;
  } else if (l < 16383) {
    buf[0] = static_cast<uint8_t>(l >> 7);
    buf[1] = static_cast<uint8_t>((l & 127) | 128);
    n = 2;
  } else if (l < 2097151) {
    buf[0] = static_cast<uint8_t>(l >> 14);
    buf[1] = static_cast<uint8_t>(((l >> 7) & 127) | 128);
    buf[2] = static_cast<uint8_t>((l & 127) | 128);
    n = 3;
  } else if (l < 268435455) {
    buf[0] = static_cast<uint8_t>(l >> 21);
    buf[1] = static_cast<uint8_t>(((l >> 14) & 127) | 128);
    buf[2] = static_cast<uint8_t>(((l >> 7) & 127) | 128);
    buf[3] = static_cast<uint8_t>((l & 127) | 128);
    n = 4;
  } else {
    buf[0] = static_cast<uint8_t>(l >> 28);
    buf[1] = static_cast<uint8_t>(((l >> 21) & 127) | 128);
    buf[2] = static_cast<uint8_t>(((l >> 14) & 127) | 128);
    buf[3] = static_cast<uint8_t>(((l >> 7) & 127) | 128);
    buf[4] = static_cast<uint8_t>((l & 127) | 128);
    n = 5;
  }
  out->append(reinterpret_cast<const char*>(buf), n);
}

size_t BacklenSize(uint64_t l) {
  return l <= 127 ? 1 : l < 16383 ? 2 : l < 2097151 ? 3 : l < 268435455 ? 4 : 5;
}

void AppendLE(std::string* out, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i)
    out->push_back(static_cast<char>(static_cast<uint8_t>(v >> (8 * i))));
}

// lpEncodeIntegerGetType.
std::string EncodeInteger(int64_t v) {
  std::string e;
  if (v >= 0 && v <= 127) {
    e.push_back(static_cast<char>(v));
  } else if (v >= -4096 && v <= 4095) {
    uint64_t u = v < 0 ? (uint64_t{1} << 13) + v : static_cast<uint64_t>(v);
    e.push_back(static_cast<char>((u >> 8) | 0xC0));
    e.push_back(static_cast<char>(u & 0xFF));
  } else if (v >= -32768 && v <= 32767) {
    e.push_back(static_cast<char>(0xF1));
    AppendLE(&e, static_cast<uint64_t>(v), 2);
  } else if (v >= -8388608 && v <= 8388607) {
    e.push_back(static_cast<char>(0xF2));
    AppendLE(&e, static_cast<uint64_t>(v), 3);
  } else if (v >= INT32_MIN && v <= INT32_MAX) {
    e.push_back(static_cast<char>(0xF3));
    AppendLE(&e, static_cast<uint64_t>(v), 4);
  } else {
    e.push_back(static_cast<char>(0xF4));
    AppendLE(&e, static_cast<uint64_t>(v), 8);
  }
  return e;
}

size_t StringHeaderSize(size_t len) { return len < 64 ? 1 : len < 4096 ? 2 : 5; }

size_t IntegerSize(int64_t v) {
  if (v >= 0 && v <= 127) return 1;
  if (v >= -4096 && v <= 4095) return 2;
  if (v >= -32768 && v <= 32767) return 3;
  if (v >= -8388608 && v <= 8388607) return 4;
  if (v >= INT32_MIN && v <= INT32_MAX) return 5;
  return 9;
}

int64_t SignExtend(uint64_t v, int bits) {
  uint64_t sign = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>((v ^ sign) - sign);
}

}  // namespace

void ListpackBuilder::Entry(std::string_view encoded) {
  body_.append(encoded);
  AppendBacklen(&body_, encoded.size());
  ++count_;
}

void ListpackBuilder::Append(std::string_view s) {
  int64_t v = 0;
  if (server::ParseInt64(s, &v)) {
    AppendInteger(v);
    return;
  }
  std::string e;
  if (s.size() < 64) {
    e.push_back(static_cast<char>(0x80 | s.size()));
  } else if (s.size() < 4096) {
    e.push_back(static_cast<char>(0xE0 | (s.size() >> 8)));
    e.push_back(static_cast<char>(s.size() & 0xFF));
  } else {
    e.push_back(static_cast<char>(0xF0));
    AppendLE(&e, s.size(), 4);
  }
  e.append(s);
  Entry(e);
}

void ListpackBuilder::AppendInteger(int64_t v) { Entry(EncodeInteger(v)); }

size_t ListpackBuilder::EntrySize(std::string_view s) {
  int64_t v = 0;
  size_t n = server::ParseInt64(s, &v) ? IntegerSize(v) : StringHeaderSize(s.size()) + s.size();
  return n + BacklenSize(n);
}

std::string ListpackBuilder::Build() const {
  std::string lp;
  lp.reserve(bytes());
  AppendLE(&lp, bytes(), 4);
  AppendLE(&lp, count_ < 65535 ? count_ : 65535, 2);  // 65535: "count unknown"
  lp.append(body_);
  lp.push_back(static_cast<char>(0xFF));
  return lp;
}

std::vector<std::string> ParseListpack(std::string_view lp) {
  RdbReader r(lp);
  uint64_t total = r.LittleEndian(4);
  if (total != lp.size()) throw RdbCorrupt{"listpack size mismatch"};
  uint64_t declared = r.LittleEndian(2);
  std::vector<std::string> out;
  while (true) {
    size_t start = r.pos();
    uint8_t b = r.Byte();
    if (b == 0xFF) break;
    if ((b & 0x80) == 0) {
      out.push_back(std::to_string(b & 0x7F));
    } else if ((b & 0xC0) == 0x80) {
      out.emplace_back(r.Bytes(b & 0x3F));
    } else if ((b & 0xE0) == 0xC0) {
      out.push_back(std::to_string(SignExtend((uint64_t{b & 0x1Fu} << 8) | r.Byte(), 13)));
    } else if ((b & 0xF0) == 0xE0) {
      size_t n = (static_cast<size_t>(b & 0x0F) << 8) | r.Byte();
      out.emplace_back(r.Bytes(n));
    } else {
      switch (b) {
        case 0xF0:
          out.emplace_back(r.Bytes(r.LittleEndian(4)));
          break;
        case 0xF1:
          out.push_back(std::to_string(SignExtend(r.LittleEndian(2), 16)));
          break;
        case 0xF2:
          out.push_back(std::to_string(SignExtend(r.LittleEndian(3), 24)));
          break;
        case 0xF3:
          out.push_back(std::to_string(SignExtend(r.LittleEndian(4), 32)));
          break;
        case 0xF4:
          out.push_back(std::to_string(static_cast<int64_t>(r.LittleEndian(8))));
          break;
        default:
          throw RdbCorrupt{"bad listpack entry"};
      }
    }
    size_t entry_len = r.pos() - start;
    // The back-length must say how long the entry was.
    std::string expected;
    AppendBacklen(&expected, entry_len);
    if (r.Bytes(expected.size()) != expected) throw RdbCorrupt{"bad listpack back-length"};
  }
  if (!r.done()) throw RdbCorrupt{"listpack data after the terminator"};
  if (declared != 65535 && declared != out.size()) throw RdbCorrupt{"listpack count mismatch"};
  return out;
}

std::string BuildIntset(const std::vector<int64_t>& sorted) {
  uint32_t width = 2;
  if (!sorted.empty()) {
    int64_t lo = sorted.front(), hi = sorted.back();
    if (lo < INT32_MIN || hi > INT32_MAX) {
      width = 8;
    } else if (lo < INT16_MIN || hi > INT16_MAX) {
      width = 4;
    }
  }
  std::string blob;
  blob.reserve(8 + width * sorted.size());
  AppendLE(&blob, width, 4);
  AppendLE(&blob, sorted.size(), 4);
  for (int64_t v : sorted) AppendLE(&blob, static_cast<uint64_t>(v), width);
  return blob;
}

std::vector<int64_t> ParseIntset(std::string_view blob) {
  RdbReader r(blob);
  uint32_t width = static_cast<uint32_t>(r.LittleEndian(4));
  uint32_t count = static_cast<uint32_t>(r.LittleEndian(4));
  if (width != 2 && width != 4 && width != 8) throw RdbCorrupt{"bad intset encoding"};
  if (blob.size() != 8 + static_cast<uint64_t>(width) * count) throw RdbCorrupt{"bad intset size"};
  std::vector<int64_t> out;
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    int64_t v = SignExtend(r.LittleEndian(width), static_cast<int>(width * 8));
    if (!out.empty() && v <= out.back()) throw RdbCorrupt{"intset not sorted"};
    out.push_back(v);
  }
  return out;
}

std::vector<std::string> ParseZiplist(std::string_view zl) {
  RdbReader r(zl);
  uint64_t total = r.LittleEndian(4);
  if (total != zl.size()) throw RdbCorrupt{"ziplist size mismatch"};
  r.LittleEndian(4);  // offset of the tail
  r.LittleEndian(2);  // count (may saturate)
  std::vector<std::string> out;
  while (true) {
    uint8_t prev = r.Byte();
    if (prev == 0xFF) break;
    if (prev == 0xFE) r.LittleEndian(4);  // a 5-byte previous-entry length
    uint8_t b = r.Byte();
    switch (b >> 6) {
      case 0:
        out.emplace_back(r.Bytes(b & 0x3F));
        continue;
      case 1: {
        size_t n = (static_cast<size_t>(b & 0x3F) << 8) | r.Byte();
        out.emplace_back(r.Bytes(n));
        continue;
      }
      case 2: {
        uint64_t n = 0;
        for (char c : r.Bytes(4)) n = (n << 8) | static_cast<uint8_t>(c);
        out.emplace_back(r.Bytes(n));
        continue;
      }
      default:
        break;
    }
    int64_t v = 0;
    switch (b) {
      case 0xC0:
        v = SignExtend(r.LittleEndian(2), 16);
        break;
      case 0xD0:
        v = SignExtend(r.LittleEndian(4), 32);
        break;
      case 0xE0:
        v = static_cast<int64_t>(r.LittleEndian(8));
        break;
      case 0xF0:
        v = SignExtend(r.LittleEndian(3), 24);
        break;
      case 0xFE:
        v = SignExtend(r.LittleEndian(1), 8);
        break;
      default:
        if (b >= 0xF1 && b <= 0xFD) {
          v = (b & 0x0F) - 1;  // an immediate 0..12
        } else {
          throw RdbCorrupt{"bad ziplist entry"};
        }
    }
    out.push_back(std::to_string(v));
  }
  if (!r.done()) throw RdbCorrupt{"ziplist data after the terminator"};
  return out;
}

std::vector<std::string> ParseZipmap(std::string_view zm) {
  RdbReader r(zm);
  r.Byte();  // count (may saturate)
  std::vector<std::string> out;
  auto length = [&]() -> uint64_t {
    uint8_t b = r.Byte();
    if (b < 254) return b;
    if (b == 254) return r.LittleEndian(4);
    return UINT64_MAX;  // the terminator
  };
  while (true) {
    uint64_t klen = length();
    if (klen == UINT64_MAX) break;
    out.emplace_back(r.Bytes(klen));
    uint64_t vlen = length();
    if (vlen == UINT64_MAX) throw RdbCorrupt{"zipmap ends inside an entry"};
    uint8_t free = r.Byte();
    out.emplace_back(r.Bytes(vlen));
    r.Bytes(free);
  }
  if (!r.done()) throw RdbCorrupt{"zipmap data after the terminator"};
  return out;
}

}  // namespace redlab::server::rdb
