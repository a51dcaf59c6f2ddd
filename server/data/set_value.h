// The value of a set key, with Redis 7.0's two encodings: a sorted array of integers ("intset")
// while every member is an integer and there are at most set-max-intset-entries of them, and a
// hash table otherwise. Conversion is one way, as in Redis. The intset's order is observable (an
// all-integer set iterates ascending, so SMEMBERS answers sorted), so it is kept exactly.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "server/base/dict.h"

namespace redlab::server {

class SetValue {
 public:
  enum class Encoding { kIntset, kHashtable };

  // Redis caps the intset at 2^30 entries whatever set-max-intset-entries says.
  static constexpr size_t kIntsetHardLimit = size_t{1} << 30;

  // An empty intset (what SINTERSTORE and friends start from).
  SetValue() = default;
  // setTypeCreate: an intset when `first` (the member about to be added) is an integer, else a
  // hash table.
  static std::unique_ptr<SetValue> CreateFor(std::string_view first);

  Encoding encoding() const {
    return members_.index() == 0 ? Encoding::kIntset : Encoding::kHashtable;
  }
  size_t size() const;
  bool empty() const { return size() == 0; }

  // Adds `member`; returns whether it was new. An intset becomes a hash table when the member is
  // not an integer or the set grows past `max_intset_entries`.
  bool Add(std::string_view member, size_t max_intset_entries);
  bool Remove(std::string_view member);
  bool Contains(std::string_view member) const;

  // Visits every member: ascending for an intset, table order otherwise. `fn` must not modify
  // the set.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    if (const auto* ints = std::get_if<Intset>(&members_)) {
      char buf[24];
      for (int64_t v : *ints) fn(Format(v, buf));
    } else {
      std::get<Table>(members_).ForEach([&](const Table::Node* n) { fn(n->key()); });
    }
  }

  // A uniformly random member of a non-empty set (by bucket then chain for a hash table, as
  // Redis's dictGetRandomKey).
  template <typename Rng>
  std::string Random(Rng& rng) const {
    if (const auto* ints = std::get_if<Intset>(&members_)) {
      int64_t v = (*ints)[std::uniform_int_distribution<size_t>(0, ints->size() - 1)(rng)];
      char buf[24];
      return std::string(Format(v, buf));
    }
    return std::string(std::get<Table>(members_).Random(rng)->key());
  }

  // One SSCAN step. An intset is returned whole with cursor 0, as Redis does; a hash table is
  // walked one bucket per call (see Dict::Scan).
  template <typename Fn>
  uint64_t Scan(uint64_t cursor, Fn&& fn) const {
    if (std::holds_alternative<Intset>(members_)) {
      ForEach(fn);
      return 0;
    }
    return std::get<Table>(members_).Scan(cursor, [&](const Table::Node* n) { fn(n->key()); });
  }

  size_t MemoryBytes() const;

  // setTypeConvert to a hash table, for loaders that build an intset past the limit first.
  void ConvertToTable();

 private:
  struct NoValue {};
  using Intset = std::vector<int64_t>;  // sorted ascending, no duplicates
  using Table = Dict<NoValue>;

  static std::string_view Format(int64_t v, char (&buf)[24]) {
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
    return std::string_view(buf, static_cast<size_t>(end - buf));
  }

  std::variant<Intset, Table> members_;
};

}  // namespace redlab::server
