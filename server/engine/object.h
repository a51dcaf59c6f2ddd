// The value stored under a key: its type and its data. Types are numbered as Redis numbers them
// (OBJ_STRING, OBJ_LIST...) and named as TYPE names them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "server/engine/hash_value.h"
#include "server/engine/zset_value.h"

namespace redlab::server::engine {

enum class ObjectType : uint8_t { kString = 0, kList = 1, kSet = 2, kZset = 3, kHash = 4 };

std::string_view TypeName(ObjectType type);  // "string", "list", "set", "zset", "hash"

class Object {
 public:
  Object() = default;
  static Object FromString(std::string_view s) { return Object(std::string(s)); }
  static Object FromString(std::string&& s) { return Object(std::move(s)); }
  static Object NewHash() { return Object(std::make_unique<HashValue>()); }
  static Object NewZset(ZsetValue::Encoding encoding) {
    return Object(std::make_unique<ZsetValue>(encoding));
  }

  ObjectType type() const { return static_cast<ObjectType>(data_.index()); }
  bool is(ObjectType t) const { return type() == t; }

  std::string& str() { return std::get<std::string>(data_); }
  const std::string& str() const { return std::get<std::string>(data_); }
  HashValue& hash() { return *std::get<HashPtr>(data_); }
  const HashValue& hash() const { return *std::get<HashPtr>(data_); }
  ZsetValue& zset() { return *std::get<ZsetPtr>(data_); }
  const ZsetValue& zset() const { return *std::get<ZsetPtr>(data_); }

  // Whether a string value was last written by APPEND or SETRANGE: Redis keeps those "raw"
  // instead of trying the int or embstr encodings.
  bool raw_string() const { return raw_string_; }
  void set_raw_string(bool raw) { raw_string_ = raw; }

  // Redis's OBJECT ENCODING name for this value.
  std::string_view EncodingName() const;
  // An estimate of the bytes this value uses (MEMORY USAGE, INFO memory).
  size_t MemoryBytes() const;

 private:
  using HashPtr = std::unique_ptr<HashValue>;
  using ZsetPtr = std::unique_ptr<ZsetValue>;
  // Placeholders keep the variant index equal to the Redis type number until lists and sets
  // are added.
  struct ListSlot {};
  struct SetSlot {};

  explicit Object(std::string&& s) : data_(std::move(s)) {}
  explicit Object(HashPtr h) : data_(std::move(h)) {}
  explicit Object(ZsetPtr z) : data_(std::move(z)) {}

  std::variant<std::string, ListSlot, SetSlot, ZsetPtr, HashPtr> data_;
  bool raw_string_ = false;
};

}  // namespace redlab::server::engine
