// The byte-level RDB pieces (see format.h).
#include "server/rdb/format.h"

#include <lzf.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "server/base/numbers.h"
#include "server/resp/parser.h"

namespace redlab::server::rdb {
namespace {

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

// rdbEncodeInteger: the 8, 16 and 32-bit forms (11000000 + 0, 1 or 2, then little-endian).
bool EncodeInteger(int64_t v, RdbWriter& w) {
  int width = 0;
  if (v >= -(1 << 7) && v <= (1 << 7) - 1) {
    width = 1;
  } else if (v >= -(1 << 15) && v <= (1 << 15) - 1) {
    width = 2;
  } else if (v >= -(int64_t{1} << 31) && v <= (int64_t{1} << 31) - 1) {
    width = 4;
  } else {
    return false;
  }
  w.Byte(static_cast<uint8_t>(0xC0 | (width == 1 ? 0 : width == 2 ? 1 : 2)));
  for (int i = 0; i < width; ++i) w.Byte(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i)));
  return true;
}

}  // namespace

uint64_t Crc64(uint64_t crc, std::string_view data) {
  const auto& table = Crc64Table();
  for (char c : data) crc = table[(crc ^ static_cast<uint8_t>(c)) & 0xFF] ^ (crc >> 8);
  return crc;
}

// Debian's liblzf is the library Debian's redis-server links: the same bytes as Redis writes.
std::optional<std::string> LzfCompress(std::string_view in, size_t max_out) {
  if (in.empty() || max_out == 0) return std::nullopt;
  std::string out(max_out, '\0');
  unsigned int n = lzf_compress(in.data(), static_cast<unsigned int>(in.size()), out.data(),
                                static_cast<unsigned int>(out.size()));
  if (n == 0) return std::nullopt;  // does not fit in max_out bytes
  out.resize(n);
  return out;
}

bool LzfDecompress(std::string_view in, size_t out_len, std::string* out) {
  out->assign(out_len, '\0');
  if (out_len == 0) return in.empty();
  unsigned int n = lzf_decompress(in.data(), static_cast<unsigned int>(in.size()), out->data(),
                                  static_cast<unsigned int>(out_len));
  return n == out_len;
}

void RdbWriter::Length(uint64_t len) {
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

void RdbWriter::String(std::string_view s) {
  int64_t v = 0;
  if (s.size() <= 11 && server::ParseInt64(s, &v) && EncodeInteger(v, *this)) return;
  // Under 21 bytes even "aaaaaaaaaaaaaaaaaaaa" does not compress; it must save 4 bytes.
  if (compress_ && s.size() > 20) {
    if (auto packed = LzfCompress(s, s.size() - 4)) {
      Byte(0xC3);
      Length(packed->size());
      Length(s.size());
      Raw(*packed);
      return;
    }
  }
  PlainString(s);
}

void RdbWriter::PlainString(std::string_view s) {
  Length(s.size());
  Raw(s);
}

void RdbWriter::Int64LE(int64_t v) {
  for (int i = 0; i < 8; ++i) Byte(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i)));
}

void RdbWriter::DoubleLE(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof(bits));
  Int64LE(static_cast<int64_t>(bits));
}

uint8_t RdbReader::Byte() {
  if (data_.size() - pos_ < 1) throw RdbCorrupt{"truncated"};
  return static_cast<uint8_t>(data_[pos_++]);
}

std::string_view RdbReader::Bytes(size_t n) {
  if (data_.size() - pos_ < n) throw RdbCorrupt{"truncated"};
  std::string_view s = data_.substr(pos_, n);
  pos_ += n;
  return s;
}

uint64_t RdbReader::LittleEndian(size_t n) {
  std::string_view b = Bytes(n);
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(b[i])) << (8 * i);
  return v;
}

uint64_t RdbReader::Length(bool* encoded) {
  if (encoded != nullptr) *encoded = false;
  uint8_t b = Byte();
  switch (b >> 6) {
    case 0:
      return b & 0x3F;
    case 1:
      return (static_cast<uint64_t>(b & 0x3F) << 8) | Byte();
    case 2: {
      size_t n = b == 0x80 ? 4 : b == 0x81 ? 8 : 0;
      if (n == 0) throw RdbCorrupt{"unknown length encoding"};
      std::string_view raw = Bytes(n);
      uint64_t v = 0;
      for (char c : raw) v = (v << 8) | static_cast<uint8_t>(c);
      return v;
    }
    default:
      if (encoded == nullptr) throw RdbCorrupt{"unexpected encoded length"};
      *encoded = true;
      return b & 0x3F;
  }
}

std::string RdbReader::String() {
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
      std::string_view packed = Bytes(clen);
      // An uncompressed length beyond what the input could expand to is corrupt, not a reason
      // to allocate it.
      if (ulen > clen * 264 + 64) throw RdbCorrupt{"bad LZF string"};
      std::string out;
      if (!LzfDecompress(packed, ulen, &out)) throw RdbCorrupt{"bad LZF string"};
      return out;
    }
    default:
      throw RdbCorrupt{"unknown string encoding"};
  }
}

double RdbReader::BinaryDouble() {
  uint64_t bits = LittleEndian(8);
  double d;
  std::memcpy(&d, &bits, sizeof(d));
  return d;
}

double RdbReader::TextDouble() {
  uint8_t len = Byte();
  switch (len) {
    case 253:
      return std::numeric_limits<double>::quiet_NaN();
    case 254:
      return std::numeric_limits<double>::infinity();
    case 255:
      return -std::numeric_limits<double>::infinity();
    default: {
      std::string text(Bytes(len));
      char* end = nullptr;
      double d = std::strtod(text.c_str(), &end);
      return d;
    }
  }
}

}  // namespace redlab::server::rdb
