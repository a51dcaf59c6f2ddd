// The value stored under a key: its type and its data. Types are numbered as Redis numbers them
// (OBJ_STRING, OBJ_LIST...) and named as TYPE names them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "server/data/hash_value.h"
#include "server/data/list_value.h"
#include "server/data/set_value.h"
#include "server/data/stream.h"
#include "server/data/zset_value.h"

namespace redlab::server {

enum class ObjectType : uint8_t {
  kString = 0,
  kList = 1,
  kSet = 2,
  kZset = 3,
  kHash = 4,
  kStream = 6,  // 5 is OBJ_MODULE, which redlab has not
};

std::string_view TypeName(ObjectType type);  // "string", "list", "set", "zset", "hash", "stream"

// Redis shares the objects of small integers (0..9999) unless maxmemory is set with an LRU/LFU
// policy, which needs per-key access data; OBJECT REFCOUNT and DEBUG OBJECT show such a value
// with kSharedRefcount (OBJ_SHARED_REFCOUNT).
inline constexpr int64_t kSharedRefcount = 2147483647;
class Object;
bool IsSharedIntegerObject(const Object& value, int64_t maxmemory, std::string_view policy);

class Object {
 public:
  Object() = default;
  static Object FromString(std::string_view s) { return Object(std::string(s)); }
  static Object FromString(std::string&& s) { return Object(std::move(s)); }
  static Object NewHash() { return Object(HashValue()); }
  static Object NewList() { return Object(std::make_unique<ListValue>()); }
  static Object FromSet(std::unique_ptr<SetValue> set) { return Object(std::move(set)); }
  static Object NewZset(ZsetValue::Encoding encoding) {
    return Object(std::make_unique<ZsetValue>(encoding));
  }

  static Object NewStream() { return Object(std::make_unique<StreamValue>()); }

  ObjectType type() const { return static_cast<ObjectType>(data_.index()); }
  bool is(ObjectType t) const { return type() == t; }

  std::string& str() { return std::get<std::string>(data_); }
  const std::string& str() const { return std::get<std::string>(data_); }
  HashValue& hash() { return std::get<HashValue>(data_); }
  const HashValue& hash() const { return std::get<HashValue>(data_); }
  ListValue& list() { return *std::get<ListPtr>(data_); }
  const ListValue& list() const { return *std::get<ListPtr>(data_); }
  SetValue& set() { return *std::get<SetPtr>(data_); }
  const SetValue& set() const { return *std::get<SetPtr>(data_); }
  ZsetValue& zset() { return *std::get<ZsetPtr>(data_); }
  const ZsetValue& zset() const { return *std::get<ZsetPtr>(data_); }
  StreamValue& stream() { return *std::get<StreamPtr>(data_); }
  const StreamValue& stream() const { return *std::get<StreamPtr>(data_); }

  // Whether a string value was last written by APPEND or SETRANGE: Redis keeps those "raw"
  // instead of trying the int or embstr encodings.
  bool raw_string() const { return raw_string_; }
  void set_raw_string(bool raw) { raw_string_ = raw; }
  // Whether a string value was made by INCRBYFLOAT: Redis stores that result as embstr or raw by
  // its length, never as int, even when it reads "3".
  bool float_string() const { return float_string_; }
  void set_float_string(bool from_float) { float_string_ = from_float; }

  // An independent copy with the same encoding (COPY: dupStringObject, listTypeDup...).
  Object Clone() const;

  // Redis's OBJECT ENCODING name for this value.
  std::string_view EncodingName() const;
  // An estimate of the bytes this value uses (MEMORY USAGE, INFO memory).
  size_t MemoryBytes() const;

 private:
  using ListPtr = std::unique_ptr<ListValue>;
  using SetPtr = std::unique_ptr<SetValue>;
  using ZsetPtr = std::unique_ptr<ZsetValue>;
  using StreamPtr = std::unique_ptr<StreamValue>;

  explicit Object(std::string&& s) : data_(std::move(s)) {}
  explicit Object(HashValue&& h) : data_(std::move(h)) {}
  explicit Object(ListPtr l) : data_(std::move(l)) {}
  explicit Object(SetPtr s) : data_(std::move(s)) {}
  explicit Object(ZsetPtr z) : data_(std::move(z)) {}
  explicit Object(StreamPtr s) : data_(std::move(s)) {}

  // The alternatives are in Redis's type order, so the index is the type number. A hash is held
  // inline (it is two pointers): one allocation less per hash key. The monostate stands for
  // OBJ_MODULE (5), never held.
  std::variant<std::string, ListPtr, SetPtr, ZsetPtr, HashValue, std::monostate, StreamPtr> data_;
  bool raw_string_ = false;
  bool float_string_ = false;
};

}  // namespace redlab::server
