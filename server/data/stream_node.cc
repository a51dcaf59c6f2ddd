// Redis 7.0's listpack.c (the encodings, lpAppend, lpReplaceInteger, lpNext/lpPrev, lpGet and
// lpShrinkToFit), for stream nodes.
#include "server/data/stream_node.h"

#include <malloc.h>

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <new>

#include "server/base/memory.h"
#include "server/base/numbers.h"

namespace redlab::server {
namespace {

constexpr uint8_t kEnd = 0xFF;
constexpr uint16_t kCountUnknown = 65535;  // LP_HDR_NUMELE_UNKNOWN

size_t BacklenSize(uint64_t l) {
  return l <= 127 ? 1 : l < 16383 ? 2 : l < 2097151 ? 3 : l < 268435455 ? 4 : 5;
}

// lpEncodeBacklen: the entry's length, written so that it reads backwards 7 bits a byte.
size_t EncodeBacklen(uint64_t l, uint8_t* out) {
  size_t n = BacklenSize(l);
  for (size_t i = 0; i < n; ++i) {
    uint8_t b = static_cast<uint8_t>((l >> (7 * (n - 1 - i))) & 127);
    out[i] = i == 0 ? b : static_cast<uint8_t>(b | 128);
  }
  return n;
}

void PutLE(uint8_t* p, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

uint64_t GetLE(const uint8_t* p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

int64_t SignExtend(uint64_t v, int bits) {
  uint64_t sign = uint64_t{1} << (bits - 1);
  return static_cast<int64_t>((v ^ sign) - sign);
}

// lpEncodeIntegerGetType + lpEncodeBacklen: the whole element, its length returned (≤ 10).
size_t EncodeInteger(int64_t v, uint8_t* out) {
  size_t n;
  if (v >= 0 && v <= 127) {
    out[0] = static_cast<uint8_t>(v);
    n = 1;
  } else if (v >= -4096 && v <= 4095) {
    uint64_t u = v < 0 ? (uint64_t{1} << 13) + static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    out[0] = static_cast<uint8_t>((u >> 8) | 0xC0);
    out[1] = static_cast<uint8_t>(u & 0xFF);
    n = 2;
  } else if (v >= INT16_MIN && v <= INT16_MAX) {
    out[0] = 0xF1;
    PutLE(out + 1, static_cast<uint64_t>(v), 2);
    n = 3;
  } else if (v >= -8388608 && v <= 8388607) {
    out[0] = 0xF2;
    PutLE(out + 1, static_cast<uint64_t>(v), 3);
    n = 4;
  } else if (v >= INT32_MIN && v <= INT32_MAX) {
    out[0] = 0xF3;
    PutLE(out + 1, static_cast<uint64_t>(v), 4);
    n = 5;
  } else {
    out[0] = 0xF4;
    PutLE(out + 1, static_cast<uint64_t>(v), 8);
    n = 9;
  }
  return n + EncodeBacklen(n, out + n);
}

// lpCurrentEncodedSizeUnsafe: the element's encoding and data, without its back-length.
size_t EncodedSize(const uint8_t* p) {
  uint8_t b = p[0];
  if ((b & 0x80) == 0) return 1;
  if ((b & 0xC0) == 0x80) return 1 + (b & 0x3F);
  if ((b & 0xE0) == 0xC0) return 2;
  if ((b & 0xF0) == 0xE0) return 2 + ((static_cast<size_t>(b & 0x0F) << 8) | p[1]);
  switch (b) {
    case 0xF0:
      return 5 + GetLE(p + 1, 4);
    case 0xF1:
      return 3;
    case 0xF2:
      return 4;
    case 0xF3:
      return 5;
    default:  // 0xF4
      return 9;
  }
}

size_t ElementSize(const uint8_t* p) {
  size_t n = EncodedSize(p);
  return n + BacklenSize(n);
}

// lpGet: an integer element's value (true), or a string element's bytes (false).
bool Decode(const uint8_t* p, int64_t* v, std::string_view* s) {
  uint8_t b = p[0];
  if ((b & 0x80) == 0) {
    *v = b;
    return true;
  }
  if ((b & 0xC0) == 0x80) {
    *s = {reinterpret_cast<const char*>(p + 1), static_cast<size_t>(b & 0x3F)};
    return false;
  }
  if ((b & 0xE0) == 0xC0) {
    *v = SignExtend((uint64_t{b & 0x1Fu} << 8) | p[1], 13);
    return true;
  }
  if ((b & 0xF0) == 0xE0) {
    *s = {reinterpret_cast<const char*>(p + 2), (static_cast<size_t>(b & 0x0F) << 8) | p[1]};
    return false;
  }
  switch (b) {
    case 0xF0:
      *s = {reinterpret_cast<const char*>(p + 5), static_cast<size_t>(GetLE(p + 1, 4))};
      return false;
    case 0xF1:
      *v = SignExtend(GetLE(p + 1, 2), 16);
      return true;
    case 0xF2:
      *v = SignExtend(GetLE(p + 1, 3), 24);
      return true;
    case 0xF3:
      *v = SignExtend(GetLE(p + 1, 4), 32);
      return true;
    default:
      *v = static_cast<int64_t>(GetLE(p + 1, 8));
      return true;
  }
}

uint8_t* Allocate(uint8_t* old, size_t n) {
  void* p = CountedRealloc(old, n);
  if (p == nullptr) throw std::bad_alloc();
  return static_cast<uint8_t*>(p);
}

}  // namespace

StreamNode::StreamNode(size_t prealloc) {
  lp_ = Allocate(nullptr, std::max(prealloc, kHeaderSize + 1));
  cap_ = malloc_usable_size(lp_);
  PutLE(lp_, kHeaderSize + 1, 4);
  PutLE(lp_ + 4, 0, 2);
  lp_[kHeaderSize] = kEnd;
}

StreamNode StreamNode::FromBytes(std::string_view lp) {
  StreamNode node(lp.size());
  std::memcpy(node.lp_, lp.data(), lp.size());
  return node;
}

StreamNode::StreamNode(const StreamNode& other) {
  size_t n = other.bytes();
  lp_ = Allocate(nullptr, n);
  cap_ = malloc_usable_size(lp_);
  std::memcpy(lp_, other.lp_, n);
}

StreamNode& StreamNode::operator=(const StreamNode& other) {
  if (this != &other) *this = StreamNode(other);
  return *this;
}

StreamNode& StreamNode::operator=(StreamNode&& other) noexcept {
  if (this != &other) {
    CountedFree(lp_);
    lp_ = other.lp_;
    cap_ = other.cap_;
    other.lp_ = nullptr;
    other.cap_ = 0;
  }
  return *this;
}

StreamNode::~StreamNode() { CountedFree(lp_); }

size_t StreamNode::bytes() const { return static_cast<size_t>(GetLE(lp_, 4)); }

size_t StreamNode::AllocatedBytes() const { return cap_ + sizeof(size_t); }

void StreamNode::Grow(size_t need) {
  if (need <= cap_) return;
  lp_ = Allocate(lp_, need + need / 4);
  cap_ = malloc_usable_size(lp_);
}

void StreamNode::SetBytes(size_t n) { PutLE(lp_, n, 4); }

size_t StreamNode::NextSlow(size_t p) const { return p + ElementSize(lp_ + p); }

size_t StreamNode::PrevSlow(size_t p) const {
  // lpDecodeBacklen from the byte before p, then the back-length's own bytes.
  size_t q = p - 1;
  uint64_t len = 0;
  unsigned shift = 0;
  while (true) {
    len |= static_cast<uint64_t>(lp_[q] & 127) << shift;
    if ((lp_[q] & 128) == 0) break;
    shift += 7;
    --q;
  }
  return p - len - BacklenSize(len);
}

int64_t StreamNode::GetIntegerSlow(size_t p) const {
  int64_t v = 0;
  std::string_view s;
  if (Decode(lp_ + p, &v, &s)) return v;
  return ParseInt64(s, &v) ? v : 0;
}

std::string_view StreamNode::Get(size_t p, char* buf) const {
  int64_t v = 0;
  std::string_view s;
  if (!Decode(lp_ + p, &v, &s)) return s;
  auto [end, ec] = std::to_chars(buf, buf + kIntBufSize, v);
  return {buf, static_cast<size_t>(end - buf)};
}

void StreamNode::Splice(size_t p, size_t old_len, const uint8_t* data, size_t n,
                        bool count_one_more) {
  size_t old_bytes = bytes();
  size_t new_bytes = old_bytes - old_len + n;
  Grow(new_bytes);
  if (n != old_len) std::memmove(lp_ + p + n, lp_ + p + old_len, old_bytes - p - old_len);
  std::memcpy(lp_ + p, data, n);
  SetBytes(new_bytes);
  if (count_one_more) {
    uint64_t count = GetLE(lp_ + 4, 2);
    if (count != kCountUnknown) PutLE(lp_ + 4, count + 1, 2);
  }
}

void StreamNode::AppendInteger(int64_t v) {
  // Written in place of the terminator (no Splice: nothing follows to move).
  size_t old_bytes = bytes();
  Grow(old_bytes + 10);
  size_t n = EncodeInteger(v, lp_ + old_bytes - 1);
  lp_[old_bytes - 1 + n] = kEnd;
  SetBytes(old_bytes + n);
  uint64_t count = GetLE(lp_ + 4, 2);
  if (count != kCountUnknown) PutLE(lp_ + 4, count + 1, 2);
}

void StreamNode::Append(std::string_view s) {
  int64_t v = 0;
  if (ParseInt64(s, &v)) {
    AppendInteger(v);
    return;
  }
  uint8_t head[5];
  size_t h;
  if (s.size() < 64) {
    head[0] = static_cast<uint8_t>(0x80 | s.size());
    h = 1;
  } else if (s.size() < 4096) {
    head[0] = static_cast<uint8_t>(0xE0 | (s.size() >> 8));
    head[1] = static_cast<uint8_t>(s.size() & 0xFF);
    h = 2;
  } else {
    head[0] = 0xF0;
    PutLE(head + 1, s.size(), 4);
    h = 5;
  }
  uint8_t back[5];
  size_t b = EncodeBacklen(h + s.size(), back);
  // Room for the whole element first, then its parts in place.
  size_t at = bytes() - 1;
  size_t total = h + s.size() + b;
  size_t old_bytes = bytes();
  Grow(old_bytes + total);
  std::memcpy(lp_ + at, head, h);
  std::memcpy(lp_ + at + h, s.data(), s.size());
  std::memcpy(lp_ + at + h + s.size(), back, b);
  lp_[at + total] = kEnd;
  SetBytes(old_bytes + total);
  uint64_t count = GetLE(lp_ + 4, 2);
  if (count != kCountUnknown) PutLE(lp_ + 4, count + 1, 2);
}

void StreamNode::ReplaceInteger(size_t p, int64_t v) {
  uint8_t buf[16];
  size_t n = EncodeInteger(v, buf);
  Splice(p, ElementSize(lp_ + p), buf, n, false);
}

void StreamNode::ShrinkToFit() {
  size_t n = bytes();
  if (cap_ > n) {
    lp_ = Allocate(lp_, n);
    cap_ = malloc_usable_size(lp_);
  }
}

}  // namespace redlab::server
