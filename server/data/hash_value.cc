#include "server/data/hash_value.h"

#include <cstdlib>
#include <new>

#include "server/base/memory.h"

namespace redlab::server {
namespace {

// Past this many entry bytes a packed block grows by a quarter at a time; below it, exactly
// (a one-field lock is one block of its own size, as a listpack is).
constexpr size_t kExactGrowthLimit = 256;

// Strings up to this length live inside std::string itself (libstdc++'s small-string buffer).
constexpr size_t kSsoCapacity = 15;

}  // namespace

HashValue& HashValue::operator=(HashValue&& other) noexcept {
  if (this != &other) {
    FreePacked();
    packed_ = std::exchange(other.packed_, nullptr);
    large_ = std::move(other.large_);
  }
  return *this;
}

HashValue::~HashValue() { FreePacked(); }

void HashValue::FreePacked() {
  CountedFree(packed_);
  packed_ = nullptr;
}

size_t HashValue::size() const {
  if (large_) return large_->size();
  return packed_ == nullptr ? 0 : header().count;
}

size_t HashValue::LengthBytes(size_t len) {
  size_t n = 1;
  while (len >= 0x80) {
    len >>= 7;
    ++n;
  }
  return n;
}

uint8_t* HashValue::WriteString(uint8_t* p, std::string_view s) {
  size_t len = s.size();
  while (len >= 0x80) {
    *p++ = static_cast<uint8_t>(len | 0x80);
    len >>= 7;
  }
  *p++ = static_cast<uint8_t>(len);
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  return p + s.size();
}

std::optional<std::string_view> HashValue::GetLarge(std::string_view field) const {
  const Large::Node* n = large_->Find(field);
  if (n == nullptr) return std::nullopt;
  return std::string_view(n->value);
}

void HashValue::Reserve(size_t bytes) {
  size_t used = packed_ == nullptr ? 0 : header().used;
  size_t capacity = packed_ == nullptr ? 0 : header().capacity;
  size_t needed = used + bytes;
  if (needed <= capacity) return;
  size_t target = needed;
  if (needed > kExactGrowthLimit) target = std::max(needed, capacity + capacity / 4);
  target = std::min(target, kMaxPackedBytes);
  void* block = CountedRealloc(packed_, sizeof(Header) + target);
  if (block == nullptr) throw std::bad_alloc();
  bool fresh = packed_ == nullptr;
  packed_ = static_cast<uint8_t*>(block);
  if (fresh) header() = Header{0, 0, 0};
  header().capacity = static_cast<uint32_t>(target);
}

void HashValue::ConvertForWrite(std::span<const std::string> fields_and_values,
                                const ListpackLimits& limits) {
  if (large_) return;
  size_t total = 0;
  for (const std::string& s : fields_and_values) {
    if (s.size() > limits.max_value) {
      ConvertToHashtable();
      return;
    }
    total += s.size();
  }
  size_t used = packed_ == nullptr ? 0 : header().used;
  if (used + total > kMaxPackedBytes) ConvertToHashtable();
}

bool HashValue::Set(std::string_view field, std::string_view value, const ListpackLimits& limits) {
  if (!large_) {
    size_t f_bytes = LengthBytes(field.size()) + field.size();
    size_t v_bytes = LengthBytes(value.size()) + value.size();
    size_t used = packed_ == nullptr ? 0 : header().used;
    if (field.size() > limits.max_value || value.size() > limits.max_value ||
        used + f_bytes + v_bytes > kMaxPackedBytes) {
      ConvertToHashtable();
    } else {
      if (const uint8_t* found = FindPacked(field)) {
        // Replace the value in place, moving the entries after it when its size changes.
        uint8_t* old_value = const_cast<uint8_t*>(found);
        const uint8_t* p = old_value;
        SkipString(&p);
        size_t old_bytes = static_cast<size_t>(p - old_value);
        if (v_bytes != old_bytes) {
          if (v_bytes > old_bytes) {
            size_t offset = static_cast<size_t>(old_value - packed_);
            Reserve(v_bytes - old_bytes);
            old_value = packed_ + offset;
          }
          uint8_t* tail = old_value + old_bytes;
          size_t tail_bytes = static_cast<size_t>(Entries() + header().used - tail);
          if (tail_bytes > 0) std::memmove(old_value + v_bytes, tail, tail_bytes);
          header().used = static_cast<uint32_t>(header().used + v_bytes - old_bytes);
        }
        WriteString(old_value, value);
        return false;
      }
      Reserve(f_bytes + v_bytes);
      uint8_t* p = Entries() + header().used;
      p = WriteString(p, field);
      WriteString(p, value);
      header().used = static_cast<uint32_t>(header().used + f_bytes + v_bytes);
      ++header().count;
      if (header().count > limits.max_entries) ConvertToHashtable();
      return true;
    }
  }
  bool inserted = false;
  Large::Node* n = large_->FindOrInsert(field, &inserted);
  n->value.assign(value);
  return inserted;
}

bool HashValue::Delete(std::string_view field) {
  if (large_) return large_->Erase(field);
  const uint8_t* value = FindPacked(field);
  if (value == nullptr) return false;
  // Back from the value to the start of the entry: the field and its length prefix.
  uint8_t* entry = const_cast<uint8_t*>(value) - field.size() - LengthBytes(field.size());
  const uint8_t* p = value;
  SkipString(&p);
  size_t bytes = static_cast<size_t>(p - entry);
  uint8_t* end = Entries() + header().used;
  std::memmove(entry, p, static_cast<size_t>(end - p));
  header().used = static_cast<uint32_t>(header().used - bytes);
  if (--header().count == 0) {
    FreePacked();
  } else if (header().capacity > kExactGrowthLimit && header().used < header().capacity / 2) {
    // Give memory back once the block is mostly empty, as a listpack shrinks on delete.
    size_t target = header().used + header().used / 4;
    if (void* block = CountedRealloc(packed_, sizeof(Header) + target)) {
      packed_ = static_cast<uint8_t*>(block);
      header().capacity = static_cast<uint32_t>(target);
    }
  }
  return true;
}

size_t HashValue::MemoryBytes() const {
  if (large_) {
    size_t bytes = sizeof(Large) + large_->OverheadBytes();
    large_->ForEach([&](const Large::Node* n) {
      bytes += n->key().size();
      if (n->value.capacity() > kSsoCapacity) bytes += n->value.capacity() + 1;
    });
    return bytes;
  }
  return packed_ == nullptr ? 0 : sizeof(Header) + header().capacity;
}

void HashValue::ConvertToHashtable() {
  auto large = std::make_unique<Large>();
  ForEach([&](std::string_view f, std::string_view v) { large->Insert(f, std::string(v)); });
  FreePacked();
  large_ = std::move(large);
}

}  // namespace redlab::server
