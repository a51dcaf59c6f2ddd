// Values in the RDB encoding (see value.h).
#include "server/rdb/value.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "server/base/numbers.h"
#include "server/rdb/packed.h"
#include "server/rdb/stream_value.h"
#include "server/resp/parser.h"

namespace redlab::server::rdb {
namespace {

using server::Object;
using server::ObjectType;

// Quicklist nodes: Redis's SIZE_SAFETY_LIMIT, optimization_level and SIZE_ESTIMATE_OVERHEAD.
constexpr size_t kSizeSafetyLimit = 8192;
constexpr size_t kOptimizationLevel[] = {4096, 8192, 16384, 32768, 65536};
constexpr size_t kSizeEstimateOverhead = 8;
constexpr size_t kEmptyListpackBytes = 7;

// _quicklistNodeAllowInsert.
bool NodeAllowsInsert(const QuicklistNode& node, int fill, size_t element_size) {
  size_t new_size = node.bytes + element_size + kSizeEstimateOverhead;
  if (fill < 0) {
    size_t level = static_cast<size_t>(-fill) - 1;
    if (level < std::size(kOptimizationLevel) && new_size <= kOptimizationLevel[level]) return true;
  }
  if (new_size > kSizeSafetyLimit) return false;
  return static_cast<int64_t>(node.count) < fill;
}

// double2ll: whether a score is stored in a listpack as an integer.
bool DoubleToInt64(double d, int64_t* out) {
  constexpr double kLimit = static_cast<double>(std::numeric_limits<int64_t>::max() / 2);
  if (d < -kLimit || d > kLimit) return false;
  auto v = static_cast<int64_t>(d);
  if (static_cast<double>(v) != d) return false;
  *out = v;
  return true;
}

// d2string for the scores double2ll refuses (zzlInsertAt).
std::string ScoreText(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[32];
  int n = std::snprintf(buf, sizeof(buf), "%.17g", d);
  return std::string(buf, static_cast<size_t>(n));
}

// zzlStrtod: a listpack score read back.
double ParseScore(const std::string& text) {
  if (text.empty()) throw RdbCorrupt{"empty score"};
  char* end = nullptr;
  double d = std::strtod(text.c_str(), &end);
  if (std::isnan(d)) throw RdbCorrupt{"NaN score"};
  return d;
}

void EncodeList(RdbWriter& w, const server::ListValue& list, const ValueOptions& options) {
  std::vector<QuicklistNode> nodes =
      QuicklistLayout(list, options.list_fill, options.list_packed_threshold);
  w.Length(nodes.size());
  for (const QuicklistNode& node : nodes) {
    w.Length(node.plain ? 1 : 2);  // QUICKLIST_NODE_CONTAINER_PLAIN / _PACKED
    if (node.plain) {
      w.String(list.at(node.first));
      continue;
    }
    ListpackBuilder lp;
    list.ForEach(node.first, node.first + node.count - 1, false,
                 [&](std::string_view e) { lp.Append(e); });
    w.String(lp.Build());
  }
}

void EncodeZset(RdbWriter& w, const server::ZsetValue& zset) {
  if (zset.encoding() == server::ZsetValue::Encoding::kListpack) {
    ListpackBuilder lp;
    for (auto it = zset.AtRank(0); zset.size() > 0 && it.valid(); it.Next()) {
      lp.Append(it.member());
      int64_t v = 0;
      if (DoubleToInt64(it.score(), &v)) {
        lp.AppendInteger(v);
      } else {
        lp.Append(ScoreText(it.score()));
      }
    }
    w.String(lp.Build());
    return;
  }
  // From the highest score down, as Redis writes them (a loader inserting in that order builds
  // its skiplist without searching).
  w.Length(zset.size());
  if (zset.size() == 0) return;
  for (auto it = zset.AtRank(zset.size() - 1); it.valid(); it.Prev()) {
    w.String(it.member());
    w.DoubleLE(it.score());
  }
}

// The element counts of a list's quicklist nodes.
std::vector<size_t> NodeCounts(const server::ListValue& list, const ValueOptions& options) {
  std::vector<size_t> counts;
  for (const QuicklistNode& n :
       QuicklistLayout(list, options.list_fill, options.list_packed_threshold)) {
    counts.push_back(n.count);
  }
  return counts;
}

std::optional<Object> DecodeList(uint8_t type, RdbReader& r, const ValueOptions& options) {
  Object value = Object::NewList();
  server::ListValue& list = value.list();
  std::vector<size_t> payload_counts;  // the nodes the payload came in
  auto push = [&](std::vector<std::string>&& elements) {
    if (!elements.empty()) payload_counts.push_back(elements.size());
    for (std::string& e : elements) list.Push(server::ListValue::End::kTail, e);
  };
  if (type == kTypeList) {
    uint64_t n = r.Length();
    for (uint64_t i = 0; i < n; ++i) list.Push(server::ListValue::End::kTail, r.String());
  } else if (type == kTypeListZiplist) {
    push(ParseZiplist(r.String()));
  } else {
    uint64_t nodes = r.Length();
    for (uint64_t i = 0; i < nodes; ++i) {
      uint64_t container = type == kTypeListQuicklist2 ? r.Length() : 2;
      if (container != 1 && container != 2) throw RdbCorrupt{"Quicklist integrity check failed."};
      std::string blob = r.String();
      if (blob.empty()) throw RdbCorrupt{"empty quicklist node"};
      if (container == 1) {
        payload_counts.push_back(1);
        list.Push(server::ListValue::End::kTail, blob);
      } else if (type == kTypeListQuicklist2) {
        push(ParseListpack(blob));
      } else {
        push(ParseZiplist(blob));
      }
    }
  }
  if (list.empty()) return std::nullopt;
  // Redis keeps the nodes it loads. redlab derives them from how the list grew: when the payload's
  // nodes are those of a list built at its head, the list is rebuilt that way so it dumps back
  // the same.
  if (type == kTypeListQuicklist2 && payload_counts != NodeCounts(list, options)) {
    Object head_built = Object::NewList();
    for (size_t i = list.size(); i-- > 0;) {
      head_built.list().Push(server::ListValue::End::kHead, std::as_const(list).at(i));
    }
    if (payload_counts == NodeCounts(head_built.list(), options)) return head_built;
  }
  return value;
}

std::optional<Object> DecodeSet(uint8_t type, RdbReader& r, const ValueOptions& options) {
  std::unique_ptr<server::SetValue> set;
  if (type == kTypeSetIntset) {
    std::vector<int64_t> ints = ParseIntset(r.String());
    if (ints.empty()) return std::nullopt;
    set = std::make_unique<server::SetValue>();
    for (int64_t v : ints) set->Add(std::to_string(v), SIZE_MAX);
    if (set->size() > options.set_max_intset_entries) set->ConvertToTable();
    return Object::FromSet(std::move(set));
  }
  uint64_t n = r.Length();
  if (n == 0) return std::nullopt;
  for (uint64_t i = 0; i < n; ++i) {
    std::string member = r.String();
    if (!set) {
      set = server::SetValue::CreateFor(member);
      // Too many members for an intset: a hash table from the start.
      size_t max = std::min(options.set_max_intset_entries, server::SetValue::kIntsetHardLimit);
      if (n > max && set->encoding() == server::SetValue::Encoding::kIntset) set->ConvertToTable();
    }
    if (!set->Add(member, options.set_max_intset_entries)) {
      throw RdbCorrupt{"Duplicate set members detected"};
    }
  }
  return Object::FromSet(std::move(set));
}

std::optional<Object> DecodeHash(uint8_t type, RdbReader& r, const ValueOptions& options) {
  Object value = Object::NewHash();
  server::HashValue& hash = value.hash();
  if (type == kTypeHash) {
    uint64_t n = r.Length();
    if (n == 0) return std::nullopt;
    if (n > options.hash.max_entries) hash.ConvertToHashtable();
    for (uint64_t i = 0; i < n; ++i) {
      std::string field = r.String();
      std::string v = r.String();
      if (!hash.Set(field, v, options.hash)) throw RdbCorrupt{"Duplicate hash fields detected"};
    }
    return value;
  }
  // A packed form is kept as it is (long fields included) unless it has too many entries.
  std::vector<std::string> pairs;
  std::string blob = r.String();
  if (type == kTypeHashZipmap) {
    pairs = ParseZipmap(blob);
  } else if (type == kTypeHashZiplist) {
    pairs = ParseZiplist(blob);
  } else {
    pairs = ParseListpack(blob);
  }
  if (pairs.size() % 2 != 0) throw RdbCorrupt{"odd number of hash elements"};
  if (pairs.empty()) return std::nullopt;
  server::ListpackLimits unbounded{SIZE_MAX, SIZE_MAX};
  size_t longest = 0;
  for (size_t i = 0; i < pairs.size(); i += 2) {
    longest = std::max({longest, pairs[i].size(), pairs[i + 1].size()});
    if (!hash.Set(pairs[i], pairs[i + 1], unbounded)) throw RdbCorrupt{"Hash with dup elements"};
  }
  bool too_long = type == kTypeHashZipmap && longest > options.hash.max_value;
  if (hash.encoding() == server::HashValue::Encoding::kListpack &&
      (hash.size() > options.hash.max_entries || too_long)) {
    hash.ConvertToHashtable();
  }
  return value;
}

std::optional<Object> DecodeZset(uint8_t type, RdbReader& r, const ValueOptions& options) {
  using server::ZsetValue;
  if (type == kTypeZset || type == kTypeZset2) {
    uint64_t n = r.Length();
    if (n == 0) return std::nullopt;
    Object value = Object::NewZset(ZsetValue::Encoding::kSkiplist);
    server::ZsetLimits unbounded{SIZE_MAX, SIZE_MAX};
    for (uint64_t i = 0; i < n; ++i) {
      std::string member = r.String();
      double score = type == kTypeZset2 ? r.BinaryDouble() : r.TextDouble();
      if (std::isnan(score)) throw RdbCorrupt{"Zset with NAN score detected"};
      double unused;
      if (value.zset().Add(score, member, 0, unbounded, &unused) != server::ZaddResult::kAdded) {
        throw RdbCorrupt{"Duplicate zset fields detected"};
      }
    }
    // Converted after loading, as Redis does: the elements do not come in order.
    value.zset().ConvertToListpackIfFits(options.zset);
    return value;
  }
  std::vector<std::string> pairs =
      type == kTypeZsetZiplist ? ParseZiplist(r.String()) : ParseListpack(r.String());
  if (pairs.size() % 2 != 0) throw RdbCorrupt{"odd number of sorted set elements"};
  if (pairs.empty()) return std::nullopt;
  Object value = Object::NewZset(ZsetValue::Encoding::kListpack);
  server::ZsetLimits unbounded{SIZE_MAX, SIZE_MAX};
  for (size_t i = 0; i < pairs.size(); i += 2) {
    double unused;
    if (value.zset().Add(ParseScore(pairs[i + 1]), pairs[i], 0, unbounded, &unused) !=
        server::ZaddResult::kAdded) {
      throw RdbCorrupt{"Duplicate zset fields detected"};
    }
  }
  if (value.zset().size() > options.zset.max_entries) value.zset().ConvertToSkiplist();
  return value;
}

}  // namespace

int ClampListFill(int64_t fill) {
  if (fill > 32767) return 32767;  // FILL_MAX
  if (fill < -5) return -5;
  return static_cast<int>(fill);
}

std::vector<QuicklistNode> QuicklistLayout(const server::ListValue& list, int fill,
                                           size_t packed_threshold) {
  fill = ClampListFill(fill);
  std::vector<QuicklistNode> nodes;
  if (list.empty()) return nodes;
  // Nodes fill in the direction the list grew: from the head for RPUSH (and by default), from
  // the tail for a list built at its head.
  const bool from_tail = list.head_built();
  const size_t n = list.size();
  for (size_t i = 0; i < n; ++i) {
    size_t pos = from_tail ? n - 1 - i : i;
    std::string_view e = list.at(pos);
    if (e.size() >= packed_threshold) {  // isLargeElement: a plain node of its own
      nodes.push_back({pos, 1, e.size(), true});
      continue;
    }
    if (nodes.empty() || nodes.back().plain || !NodeAllowsInsert(nodes.back(), fill, e.size())) {
      nodes.push_back({pos, 0, kEmptyListpackBytes, false});
    }
    QuicklistNode& node = nodes.back();
    ++node.count;
    node.first = from_tail ? pos : node.first;
    node.bytes += ListpackBuilder::EntrySize(e);
  }
  if (from_tail) std::reverse(nodes.begin(), nodes.end());
  return nodes;
}

uint8_t ValueType(const Object& value) {
  switch (value.type()) {
    case ObjectType::kString:
      return kTypeString;
    case ObjectType::kList:
      return kTypeListQuicklist2;
    case ObjectType::kSet:
      return value.set().encoding() == server::SetValue::Encoding::kIntset ? kTypeSetIntset
                                                                           : kTypeSet;
    case ObjectType::kZset:
      return value.zset().encoding() == server::ZsetValue::Encoding::kListpack ? kTypeZsetListpack
                                                                               : kTypeZset2;
    case ObjectType::kHash:
      return value.hash().encoding() == server::HashValue::Encoding::kListpack ? kTypeHashListpack
                                                                               : kTypeHash;
    case ObjectType::kStream:
      return kTypeStreamListpacks2;
  }
  return kTypeString;
}

void EncodeValue(RdbWriter& w, const Object& value, const ValueOptions& options) {
  switch (value.type()) {
    case ObjectType::kString:
      w.String(value.str());
      return;
    case ObjectType::kList:
      EncodeList(w, value.list(), options);
      return;
    case ObjectType::kSet: {
      const server::SetValue& set = value.set();
      if (set.encoding() == server::SetValue::Encoding::kIntset) {
        std::vector<int64_t> ints;
        ints.reserve(set.size());
        set.ForEach([&](std::string_view m) {
          int64_t v = 0;
          server::ParseInt64(m, &v);
          ints.push_back(v);
        });
        w.String(BuildIntset(ints));
        return;
      }
      w.Length(set.size());
      set.ForEach([&](std::string_view m) { w.String(m); });
      return;
    }
    case ObjectType::kZset:
      EncodeZset(w, value.zset());
      return;
    case ObjectType::kStream:
      EncodeStream(w, value.stream());
      return;
    case ObjectType::kHash: {
      const server::HashValue& hash = value.hash();
      if (hash.encoding() == server::HashValue::Encoding::kListpack) {
        ListpackBuilder lp;
        hash.ForEach([&](std::string_view f, std::string_view v) {
          lp.Append(f);
          lp.Append(v);
        });
        w.String(lp.Build());
        return;
      }
      w.Length(hash.size());
      hash.ForEach([&](std::string_view f, std::string_view v) {
        w.String(f);
        w.String(v);
      });
      return;
    }
  }
}

std::optional<Object> DecodeValue(uint8_t type, RdbReader& r, const ValueOptions& options) {
  switch (type) {
    case kTypeString:
      return Object::FromString(r.String());
    case kTypeList:
    case kTypeListZiplist:
    case kTypeListQuicklist:
    case kTypeListQuicklist2:
      return DecodeList(type, r, options);
    case kTypeSet:
    case kTypeSetIntset:
      return DecodeSet(type, r, options);
    case kTypeHash:
    case kTypeHashZipmap:
    case kTypeHashZiplist:
    case kTypeHashListpack:
      return DecodeHash(type, r, options);
    case kTypeZset:
    case kTypeZset2:
    case kTypeZsetZiplist:
    case kTypeZsetListpack:
      return DecodeZset(type, r, options);
    case kTypeStreamListpacks:
    case kTypeStreamListpacks2:
      return DecodeStream(type, r);
    case kTypeModule:
    case kTypeModule2:
      throw RdbCorrupt{"module values are not supported by redlab"};
    default:
      throw RdbCorrupt{"unknown value type " + std::to_string(type)};
  }
}

size_t SerializedLength(const Object& value, const ValueOptions& options) {
  RdbWriter w(options.compress);
  EncodeValue(w, value, options);
  return w.size();
}

std::string CreateDumpPayload(const Object& value, const ValueOptions& options) {
  RdbWriter w(options.compress);
  w.Byte(ValueType(value));
  EncodeValue(w, value, options);
  w.Byte(static_cast<uint8_t>(kRdbVersion & 0xFF));
  w.Byte(static_cast<uint8_t>((kRdbVersion >> 8) & 0xFF));
  w.Int64LE(static_cast<int64_t>(Crc64(0, w.out())));
  return std::move(w.out());
}

bool VerifyDumpPayload(std::string_view payload, bool skip_checksum) {
  if (payload.size() < 10) return false;
  std::string_view footer = payload.substr(payload.size() - 10);
  int version = static_cast<uint8_t>(footer[0]) | (static_cast<uint8_t>(footer[1]) << 8);
  if (version > kRdbVersion) return false;
  if (skip_checksum) return true;
  RdbReader crc(footer.substr(2));
  return crc.LittleEndian(8) == Crc64(0, payload.substr(0, payload.size() - 8));
}

std::optional<Object> DecodeDumpPayload(std::string_view payload, const ValueOptions& options) {
  try {
    // Redis reads the value from the whole payload: a value cut short runs into the footer.
    RdbReader r(payload);
    uint8_t type = r.Byte();
    return DecodeValue(type, r, options);
  } catch (const RdbCorrupt&) {
    return std::nullopt;
  }
}

}  // namespace redlab::server::rdb
