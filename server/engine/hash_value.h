// The value of a hash key. Small hashes are a flat array of field/value pairs in insertion
// order, as Redis's listpack encoding keeps them (so HGETALL answers in the same order as
// redis-server); past the hash-max-listpack-* limits they become a hash table, one way only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "server/engine/dict.h"

namespace redlab::server::engine {

struct ListpackLimits {
  size_t max_entries = 128;  // hash-max-listpack-entries
  size_t max_value = 64;     // hash-max-listpack-value
};

class HashValue {
 public:
  enum class Encoding { kListpack, kHashtable };

  Encoding encoding() const { return pairs_.index() == 0 ? Encoding::kListpack : Encoding::kHashtable; }
  size_t size() const;

  // The value of `field`, or nullptr.
  const std::string* Get(std::string_view field) const;
  std::string* GetMutable(std::string_view field);
  // Sets `field`; returns true when the field is new. Converts to a hash table first when the
  // new field or value is longer than limits.max_value or the hash grows past max_entries.
  bool Set(std::string_view field, std::string_view value, const ListpackLimits& limits);
  bool Delete(std::string_view field);

  // Visits every field/value pair (insertion order while small).
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    if (const auto* small = std::get_if<Small>(&pairs_)) {
      for (const auto& [f, v] : *small) fn(std::string_view(f), std::string_view(v));
    } else {
      std::get<Large>(pairs_).ForEach(
          [&](const Large::Node* n) { fn(std::string_view(n->key), std::string_view(n->value)); });
    }
  }

  // One HSCAN step: a small hash is returned whole with cursor 0, as Redis does for listpacks.
  template <typename Fn>
  uint64_t Scan(uint64_t cursor, Fn&& fn) const {
    if (std::holds_alternative<Small>(pairs_)) {
      ForEach(fn);
      return 0;
    }
    return std::get<Large>(pairs_).Scan(
        cursor, [&](const Large::Node* n) { fn(std::string_view(n->key), std::string_view(n->value)); });
  }

  // The pair at `index` in iteration order, for random sampling (O(1) while small).
  std::pair<std::string_view, std::string_view> At(size_t index) const;
  // A uniformly random pair.
  template <typename Rng>
  std::pair<std::string_view, std::string_view> Random(Rng& rng) const {
    if (const auto* small = std::get_if<Small>(&pairs_)) {
      const auto& p = (*small)[std::uniform_int_distribution<size_t>(0, small->size() - 1)(rng)];
      return {p.first, p.second};
    }
    const auto* n = std::get<Large>(pairs_).Random(rng);
    return {n->key, n->value};
  }

  size_t MemoryBytes() const;

 private:
  using Small = std::vector<std::pair<std::string, std::string>>;
  using Large = Dict<std::string>;
  void ConvertToHashtable();

  std::variant<Small, Large> pairs_;
};

}  // namespace redlab::server::engine
