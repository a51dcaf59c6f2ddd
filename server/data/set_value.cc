#include "server/data/set_value.h"

#include <algorithm>

#include "server/base/numbers.h"

namespace redlab::server {

std::unique_ptr<SetValue> SetValue::CreateFor(std::string_view first) {
  auto set = std::make_unique<SetValue>();
  int64_t unused;
  if (!ParseInt64(first, &unused)) set->ConvertToTable();
  return set;
}

size_t SetValue::size() const {
  if (const auto* ints = std::get_if<Intset>(&members_)) return ints->size();
  return std::get<Table>(members_).size();
}

bool SetValue::Add(std::string_view member, size_t max_intset_entries) {
  if (auto* ints = std::get_if<Intset>(&members_)) {
    int64_t v;
    if (ParseInt64(member, &v)) {
      auto it = std::lower_bound(ints->begin(), ints->end(), v);
      if (it != ints->end() && *it == v) return false;
      ints->insert(it, v);
      if (ints->size() > std::min(max_intset_entries, kIntsetHardLimit)) ConvertToTable();
      return true;
    }
    // A non-integer member cannot be in the intset, so it is new.
    ConvertToTable();
  }
  bool inserted = false;
  std::get<Table>(members_).FindOrInsert(member, &inserted);
  return inserted;
}

bool SetValue::Remove(std::string_view member) {
  if (auto* ints = std::get_if<Intset>(&members_)) {
    int64_t v;
    if (!ParseInt64(member, &v)) return false;
    auto it = std::lower_bound(ints->begin(), ints->end(), v);
    if (it == ints->end() || *it != v) return false;
    ints->erase(it);
    return true;
  }
  return std::get<Table>(members_).Erase(member);
}

bool SetValue::Contains(std::string_view member) const {
  if (const auto* ints = std::get_if<Intset>(&members_)) {
    int64_t v;
    return ParseInt64(member, &v) && std::binary_search(ints->begin(), ints->end(), v);
  }
  return std::get<Table>(members_).Find(member) != nullptr;
}

size_t SetValue::MemoryBytes() const {
  if (const auto* ints = std::get_if<Intset>(&members_)) {
    return sizeof(*this) + ints->capacity() * sizeof(int64_t);
  }
  const Table& table = std::get<Table>(members_);
  size_t bytes = sizeof(*this) + table.OverheadBytes();
  table.ForEach([&](const Table::Node* n) { bytes += n->key().size(); });
  return bytes;
}

void SetValue::ConvertToTable() {
  Intset ints = std::move(std::get<Intset>(members_));
  Table table;
  char buf[24];
  for (int64_t v : ints) table.Insert(Format(v, buf), NoValue{});
  members_ = std::move(table);
}

}  // namespace redlab::server
