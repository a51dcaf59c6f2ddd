#include "server/engine/object.h"

#include "server/engine/numbers.h"

namespace redlab::server::engine {
namespace {

// Redis stores strings up to this length in one allocation with their object ("embstr").
constexpr size_t kEmbstrMaxLength = 44;

}  // namespace

std::string_view TypeName(ObjectType type) {
  switch (type) {
    case ObjectType::kString: return "string";
    case ObjectType::kList: return "list";
    case ObjectType::kSet: return "set";
    case ObjectType::kZset: return "zset";
    case ObjectType::kHash: return "hash";
  }
  return "none";
}

std::string_view Object::EncodingName() const {
  switch (type()) {
    case ObjectType::kString: {
      const std::string& s = str();
      if (raw_string_) return "raw";
      int64_t unused;
      if (!float_string_ && s.size() <= 20 && ParseInt64(s, &unused)) return "int";
      return s.size() <= kEmbstrMaxLength ? "embstr" : "raw";
    }
    case ObjectType::kList:
      // Redis 7.0 keeps every list in a quicklist whatever its size (the "listpack" encoding
      // for small lists came with 7.2).
      return "quicklist";
    case ObjectType::kSet:
      return set().encoding() == SetValue::Encoding::kIntset ? "intset" : "hashtable";
    case ObjectType::kHash:
      return hash().encoding() == HashValue::Encoding::kListpack ? "listpack" : "hashtable";
    default:
      return "unknown";
  }
}

size_t Object::MemoryBytes() const {
  switch (type()) {
    case ObjectType::kString: {
      const std::string& s = str();
      return sizeof(Object) + (s.size() > 15 ? s.capacity() + 1 : 0);
    }
    case ObjectType::kList:
      return sizeof(Object) + list().MemoryBytes();
    case ObjectType::kSet:
      return sizeof(Object) + set().MemoryBytes();
    case ObjectType::kHash:
      return sizeof(Object) + hash().MemoryBytes();
    default:
      return sizeof(Object);
  }
}

}  // namespace redlab::server::engine
