#include "server/data/object.h"

#include <iterator>

#include "server/base/numbers.h"
#include "server/base/text.h"

namespace redlab::server {
namespace {

// Redis stores strings up to this length in one allocation with their object ("embstr").
constexpr size_t kEmbstrMaxLength = 44;

}  // namespace

bool IsSharedIntegerObject(const Object& value, int64_t maxmemory, std::string_view policy) {
  constexpr int64_t kSharedIntegers = 10000;
  if (!value.is(ObjectType::kString) || value.EncodingName() != "int") return false;
  bool tracks_keys =
      policy.find("lru") != std::string_view::npos || policy.find("lfu") != std::string_view::npos;
  if (maxmemory != 0 && tracks_keys) return false;
  int64_t v = 0;
  ParseInt64(value.str(), &v);
  return v >= 0 && v < kSharedIntegers;
}

std::string_view TypeName(ObjectType type) {
  // By Redis's OBJ_* number; 5 is OBJ_MODULE, which redlab has not.
  static constexpr std::string_view kNames[] = {"string", "list", "set",   "zset",
                                                "hash",   "none", "stream"};
  static_assert(std::size(kNames) == static_cast<size_t>(ObjectType::kStream) + 1);
  return EnumName(kNames, type, std::string_view("none"));
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
    case ObjectType::kZset:
      return zset().encoding() == ZsetValue::Encoding::kListpack ? "listpack" : "skiplist";
    case ObjectType::kStream:
      return "stream";
    default:
      return "unknown";
  }
}

Object Object::Clone() const {
  switch (type()) {
    case ObjectType::kString: {
      Object copy = FromString(str());
      copy.raw_string_ = raw_string_;
      copy.float_string_ = float_string_;
      return copy;
    }
    case ObjectType::kList: {
      // Built the way the original grew, so its quicklist nodes fall the same way.
      Object copy = NewList();
      const ListValue& from = list();
      if (!from.empty()) {
        bool head = from.head_built();
        from.ForEach(0, from.size() - 1, head, [&](std::string_view e) {
          copy.list().Push(head ? ListValue::End::kHead : ListValue::End::kTail, e);
        });
      }
      return copy;
    }
    case ObjectType::kSet: {
      auto set = std::make_unique<SetValue>();
      if (this->set().encoding() == SetValue::Encoding::kHashtable) set->ConvertToTable();
      this->set().ForEach([&](std::string_view m) { set->Add(m, SIZE_MAX); });
      return FromSet(std::move(set));
    }
    case ObjectType::kZset: {
      Object copy = NewZset(zset().encoding());
      const ZsetLimits unbounded{SIZE_MAX, SIZE_MAX};
      double unused;
      for (auto it = zset().AtRank(0); zset().size() > 0 && it.valid(); it.Next()) {
        copy.zset().Add(it.score(), it.member(), 0, unbounded, &unused);
      }
      return copy;
    }
    case ObjectType::kHash: {
      Object copy = NewHash();
      if (hash().encoding() == HashValue::Encoding::kHashtable) copy.hash().ConvertToHashtable();
      const ListpackLimits unbounded{SIZE_MAX, SIZE_MAX};
      hash().ForEach(
          [&](std::string_view f, std::string_view v) { copy.hash().Set(f, v, unbounded); });
      return copy;
    }
    case ObjectType::kStream:
      return Object(std::make_unique<StreamValue>(stream()));
  }
  return Object();
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
    case ObjectType::kZset:
      return sizeof(Object) + zset().MemoryBytes();
    case ObjectType::kStream:
      return sizeof(Object) + stream().MemoryBytes();
    default:
      return sizeof(Object);
  }
}

}  // namespace redlab::server
