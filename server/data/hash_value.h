// The value of a hash key. Small hashes live in one heap block of length-prefixed fields and
// values in insertion order, as Redis's listpack encoding keeps them (so HGETALL answers in the
// same order as redis-server, and a one-field Redisson lock costs one small allocation); past
// the hash-max-listpack-* limits they become a hash table, one way only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "server/base/dict.h"

namespace redlab::server {

struct ListpackLimits {
  size_t max_entries = 512;  // hash-max-listpack-entries
  size_t max_value = 64;     // hash-max-listpack-value
};

class HashValue {
 public:
  enum class Encoding { kListpack, kHashtable };

  // Redis's LISTPACK_MAX_SAFETY_SIZE: a listpack never grows past 1 GiB (lpSafeToAdd).
  static constexpr size_t kMaxPackedBytes = size_t{1} << 30;

  HashValue() = default;
  HashValue(HashValue&& other) noexcept
      : packed_(std::exchange(other.packed_, nullptr)), large_(std::move(other.large_)) {}
  HashValue& operator=(HashValue&& other) noexcept;
  HashValue(const HashValue&) = delete;
  HashValue& operator=(const HashValue&) = delete;
  ~HashValue();

  Encoding encoding() const { return large_ ? Encoding::kHashtable : Encoding::kListpack; }
  size_t size() const;
  bool empty() const { return size() == 0; }

  // The value of `field`. The view is valid until the hash is next modified.
  std::optional<std::string_view> Get(std::string_view field) const {
    if (large_) return GetLarge(field);
    const uint8_t* value = FindPacked(field);
    if (value == nullptr) return std::nullopt;
    return ReadString(&value);
  }
  bool Contains(std::string_view field) const { return Get(field).has_value(); }

  // hashTypeTryConversion: before fields and values are written, converts a small hash to a
  // hash table when one of them is longer than limits.max_value, or when they would push it
  // past kMaxPackedBytes.
  void ConvertForWrite(std::span<const std::string> fields_and_values,
                       const ListpackLimits& limits);
  // hashTypeSet: sets `field`; returns true when the field is new. Converts first when the field
  // or value is longer than limits.max_value (HINCRBY* reach this without ConvertForWrite), and
  // after when the hash has grown past limits.max_entries. `field` and `value` must not point
  // into this hash.
  bool Set(std::string_view field, std::string_view value, const ListpackLimits& limits);
  // Returns whether the field was there.
  bool Delete(std::string_view field);

  // Visits every field/value pair: insertion order while small. `fn` must not modify the hash.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    if (large_) {
      large_->ForEach([&](const Large::Node* n) { fn(n->key(), std::string_view(n->value)); });
      return;
    }
    if (packed_ == nullptr) return;
    const uint8_t* p = Entries();
    const uint8_t* end = p + header().used;
    while (p < end) {
      std::string_view f = ReadString(&p);
      std::string_view v = ReadString(&p);
      fn(f, v);
    }
  }

  // One HSCAN step. A small hash is visited whole and the cursor comes back 0, as Redis does for
  // listpacks; a hash table visits one bucket (see Dict::Scan).
  template <typename Fn>
  uint64_t Scan(uint64_t cursor, Fn&& fn) const {
    if (!large_) {
      ForEach(fn);
      return 0;
    }
    return large_->Scan(cursor,
                        [&](const Large::Node* n) { fn(n->key(), std::string_view(n->value)); });
  }

  // A random pair of a non-empty hash (O(n) while small, as lpRandomPair walks the listpack).
  template <typename Rng>
  std::pair<std::string_view, std::string_view> Random(Rng& rng) const {
    if (large_) {
      const Large::Node* n = large_->Random(rng);
      return {n->key(), n->value};
    }
    size_t index = std::uniform_int_distribution<size_t>(0, header().count - 1)(rng);
    const uint8_t* p = Entries();
    for (; index > 0; --index) {
      SkipString(&p);
      SkipString(&p);
    }
    std::string_view f = ReadString(&p);
    return {f, ReadString(&p)};
  }

  // Bytes of memory this value holds (its heap blocks, not its own size).
  size_t MemoryBytes() const;

  // hashTypeConvert to a hash table, for loaders that build a listpack past the limits first.
  void ConvertToHashtable();

 private:
  using Large = Dict<std::string>;

  // The packed block starts with this header; the entries follow it: for each pair, the field
  // and then the value, each as a LEB128 length and the bytes.
  struct Header {
    uint32_t used;      // bytes of entries
    uint32_t capacity;  // bytes available for entries
    uint32_t count;     // pairs
  };

  const Header& header() const { return *reinterpret_cast<const Header*>(packed_); }
  Header& header() { return *reinterpret_cast<Header*>(packed_); }
  const uint8_t* Entries() const { return packed_ + sizeof(Header); }
  uint8_t* Entries() { return packed_ + sizeof(Header); }

  static std::string_view ReadString(const uint8_t** p) {
    size_t len = ReadLength(p);
    std::string_view s(reinterpret_cast<const char*>(*p), len);
    *p += len;
    return s;
  }
  static void SkipString(const uint8_t** p) { *p += ReadLength(p); }
  static size_t ReadLength(const uint8_t** p) {
    const uint8_t* q = *p;
    if (*q < 0x80) {  // lengths under 128 (the usual case) take one byte
      *p = q + 1;
      return *q;
    }
    size_t len = 0;
    int shift = 0;
    uint8_t b;
    do {
      b = *q++;
      len |= static_cast<size_t>(b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    *p = q;
    return len;
  }
  static size_t LengthBytes(size_t len);
  static uint8_t* WriteString(uint8_t* p, std::string_view s);

  // Where the value of `field` starts in the packed block (its length), or nullptr. Inline: it
  // is the whole cost of HGET and HEXISTS on a small hash.
  const uint8_t* FindPacked(std::string_view field) const {
    if (packed_ == nullptr) return nullptr;
    const uint8_t* p = Entries();
    const uint8_t* end = p + header().used;
    while (p < end) {
      size_t len = ReadLength(&p);
      if (len == field.size() && std::memcmp(p, field.data(), len) == 0) return p + len;
      p += len;
      SkipString(&p);
    }
    return nullptr;
  }
  std::optional<std::string_view> GetLarge(std::string_view field) const;
  // Makes room for `bytes` more entry bytes.
  void Reserve(size_t bytes);
  void FreePacked();

  uint8_t* packed_ = nullptr;     // small: the packed block (nullptr while empty)
  std::unique_ptr<Large> large_;  // past the limits: the hash table
};

}  // namespace redlab::server
