#include "server/engine/hash_value.h"

namespace redlab::server::engine {

size_t HashValue::size() const {
  if (const auto* small = std::get_if<Small>(&pairs_)) return small->size();
  return std::get<Large>(pairs_).size();
}

const std::string* HashValue::Get(std::string_view field) const {
  if (const auto* small = std::get_if<Small>(&pairs_)) {
    for (const auto& p : *small) {
      if (p.first == field) return &p.second;
    }
    return nullptr;
  }
  const auto* n = std::get<Large>(pairs_).Find(field);
  return n ? &n->value : nullptr;
}

std::string* HashValue::GetMutable(std::string_view field) {
  return const_cast<std::string*>(static_cast<const HashValue*>(this)->Get(field));
}

bool HashValue::Set(std::string_view field, std::string_view value, const ListpackLimits& limits) {
  if (auto* small = std::get_if<Small>(&pairs_)) {
    if (field.size() > limits.max_value || value.size() > limits.max_value) {
      ConvertToHashtable();
    } else {
      for (auto& p : *small) {
        if (p.first == field) {
          p.second.assign(value);
          return false;
        }
      }
      small->emplace_back(std::string(field), std::string(value));
      if (small->size() > limits.max_entries) ConvertToHashtable();
      return true;
    }
  }
  auto& large = std::get<Large>(pairs_);
  bool inserted = false;
  auto* n = large.FindOrInsert(field, &inserted);
  n->value.assign(value);
  return inserted;
}

bool HashValue::Delete(std::string_view field) {
  if (auto* small = std::get_if<Small>(&pairs_)) {
    for (auto it = small->begin(); it != small->end(); ++it) {
      if (it->first == field) {
        small->erase(it);
        return true;
      }
    }
    return false;
  }
  return std::get<Large>(pairs_).Erase(field);
}

std::pair<std::string_view, std::string_view> HashValue::At(size_t index) const {
  if (const auto* small = std::get_if<Small>(&pairs_)) {
    return {(*small)[index].first, (*small)[index].second};
  }
  std::pair<std::string_view, std::string_view> result;
  size_t i = 0;
  std::get<Large>(pairs_).ForEach([&](const Large::Node* n) {
    if (i++ == index) result = {n->key, n->value};
  });
  return result;
}

size_t HashValue::MemoryBytes() const {
  size_t bytes = sizeof(*this);
  ForEach([&](std::string_view f, std::string_view v) { bytes += f.size() + v.size(); });
  if (const auto* small = std::get_if<Small>(&pairs_)) {
    bytes += small->capacity() * sizeof(Small::value_type);
  } else {
    bytes += std::get<Large>(pairs_).OverheadBytes();
  }
  return bytes;
}

void HashValue::ConvertToHashtable() {
  Small small = std::move(std::get<Small>(pairs_));
  Large large;
  for (auto& [f, v] : small) large.Insert(f, std::move(v));
  pairs_ = std::move(large);
}

}  // namespace redlab::server::engine
