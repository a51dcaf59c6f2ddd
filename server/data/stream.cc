// Redis 7.0's t_stream.c (the low-level part: streamAppendItem, streamTrim, streamDeleteItem,
// the iterator and ID parsing).
#include "server/data/stream.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "server/base/numbers.h"

namespace redlab::server {
namespace {

// Listpack encoded sizes (listpack.c), so nodes fill up at the bytes Redis's do.
size_t BacklenSize(size_t n) {
  if (n <= 127) return 1;
  if (n < 16383) return 2;
  if (n < 2097151) return 3;
  if (n < 268435455) return 4;
  return 5;
}

size_t IntegerEntrySize(int64_t v) {
  size_t n;
  if (v >= 0 && v <= 127) {
    n = 1;
  } else if (v >= -4096 && v <= 4095) {
    n = 2;
  } else if (v >= INT16_MIN && v <= INT16_MAX) {
    n = 3;
  } else if (v >= -8388608 && v <= 8388607) {
    n = 4;
  } else if (v >= INT32_MIN && v <= INT32_MAX) {
    n = 5;
  } else {
    n = 9;
  }
  return n + BacklenSize(n);
}

size_t StringEntrySize(std::string_view s) {
  int64_t v = 0;
  if (ParseInt64(s, &v)) return IntegerEntrySize(v);
  size_t n = (s.size() < 64 ? 1 : s.size() < 4096 ? 2 : 5) + s.size();
  return n + BacklenSize(n);
}

// Accepts what string2ull accepts: decimal digits only, no sign, within 64 bits.
bool ParseU64(std::string_view s, uint64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::string StreamId::ToString() const { return std::to_string(ms) + "-" + std::to_string(seq); }

bool StreamId::Increment() {
  if (seq == UINT64_MAX) {
    if (ms == UINT64_MAX) {
      ms = seq = 0;
      return false;
    }
    ++ms;
    seq = 0;
  } else {
    ++seq;
  }
  return true;
}

bool StreamId::Decrement() {
  if (seq == 0) {
    if (ms == 0) {
      ms = seq = UINT64_MAX;
      return false;
    }
    --ms;
    seq = UINT64_MAX;
  } else {
    --seq;
  }
  return true;
}

bool ParseStreamId(std::string_view s, uint64_t missing_seq, bool strict, StreamId* id,
                   bool* seq_given) {
  if (s.size() > 127) return false;
  if (strict && (s == "-" || s == "+")) return false;
  if (seq_given != nullptr) *seq_given = true;
  if (s == "-") {
    *id = {0, 0};
    return true;
  }
  if (s == "+") {
    *id = StreamId::Max();
    return true;
  }
  size_t dash = s.find('-');
  uint64_t ms = 0, seq = missing_seq;
  if (!ParseU64(s.substr(0, dash), &ms)) return false;
  if (dash != std::string_view::npos) {
    std::string_view rest = s.substr(dash + 1);
    if (seq_given != nullptr && rest == "*") {
      seq = 0;
      *seq_given = false;
    } else if (!ParseU64(rest, &seq)) {
      return false;
    }
  }
  *id = {ms, seq};
  return true;
}

size_t StreamValue::Node::ListpackBytes() const {
  // Header (6) and end byte, the live and deleted counts, then the rest.
  return 7 + IntegerEntrySize(live) + IntegerEntrySize(deleted) + payload_bytes;
}

void StreamValue::Append(const StreamId& id, std::vector<std::string> fields,
                         const StreamNodeLimits& limits) {
  const size_t numfields = fields.size() / 2;
  size_t totelelen = 0;
  for (const std::string& f : fields) totelelen += f.size();
  constexpr size_t kListpackMaxSize = 1u << 30;

  Node* node = nodes_.empty() ? nullptr : &std::prev(nodes_.end())->second;
  if (node != nullptr) {
    size_t max_bytes = limits.max_bytes;
    if (max_bytes == 0 || max_bytes > kListpackMaxSize) max_bytes = kListpackMaxSize;
    if (node->ListpackBytes() + totelelen >= max_bytes) {
      node = nullptr;
    } else if (limits.max_entries != 0 && node->live + node->deleted >= limits.max_entries) {
      node = nullptr;
    }
  }
  if (node == nullptr) {
    Node fresh;
    fresh.master = id;
    fresh.payload_bytes = IntegerEntrySize(static_cast<int64_t>(numfields)) + IntegerEntrySize(0);
    for (size_t i = 0; i < numfields; ++i) {
      fresh.master_fields.push_back(fields[i * 2]);
      fresh.payload_bytes += StringEntrySize(fields[i * 2]);
    }
    node = &nodes_.emplace(id, std::move(fresh)).first->second;
  }
  node->entries.push_back(Entry{id, std::move(fields), false});
  node->payload_bytes += EntryBytes(*node, node->entries.back());
  ++node->live;
  ++length_;
  ++entries_added_;
  last_id_ = id;
  if (length_ == 1) first_id_ = id;
}

bool StreamValue::SameFields(const Node& node, const Entry& e) {
  size_t numfields = e.fields.size() / 2;
  if (numfields != node.master_fields.size()) return false;
  for (size_t i = 0; i < numfields; ++i) {
    if (e.fields[i * 2] != node.master_fields[i]) return false;
  }
  return true;
}

size_t StreamValue::EntryBytes(const Node& node, const Entry& e) {
  // flags, ms and seq deltas, [num-fields, fields], values, lp-count.
  const size_t numfields = e.fields.size() / 2;
  bool same = SameFields(node, e);
  size_t bytes = IntegerEntrySize(same ? 2 : 0) +
                 IntegerEntrySize(static_cast<int64_t>(e.id.ms - node.master.ms)) +
                 IntegerEntrySize(static_cast<int64_t>(e.id.seq - node.master.seq));
  int64_t lp_count = static_cast<int64_t>(numfields) + 3;
  if (!same) {
    bytes += IntegerEntrySize(static_cast<int64_t>(numfields));
    lp_count += static_cast<int64_t>(numfields) + 1;
  }
  for (size_t i = 0; i < numfields; ++i) {
    if (!same) bytes += StringEntrySize(e.fields[i * 2]);
    bytes += StringEntrySize(e.fields[i * 2 + 1]);
  }
  return bytes + IntegerEntrySize(lp_count);
}

void StreamValue::RestoreNode(Node node) {
  node.payload_bytes =
      IntegerEntrySize(static_cast<int64_t>(node.master_fields.size())) + IntegerEntrySize(0);
  for (const std::string& f : node.master_fields) node.payload_bytes += StringEntrySize(f);
  for (const Entry& e : node.entries) node.payload_bytes += EntryBytes(node, e);
  StreamId master = node.master;
  nodes_.emplace(master, std::move(node));
}

void StreamValue::RestoreMeta(uint64_t length, StreamId last, StreamId first,
                              StreamId max_deleted, uint64_t entries_added) {
  length_ = length;
  last_id_ = last;
  first_id_ = first;
  max_deleted_id_ = max_deleted;
  entries_added_ = entries_added;
}

int64_t StreamValue::Trim(const TrimArgs& args) {
  if (args.strategy == TrimStrategy::kNone) return 0;
  int64_t deleted = 0;
  auto it = nodes_.begin();
  while (it != nodes_.end()) {
    if (args.strategy == TrimStrategy::kMaxLen && length_ <= static_cast<uint64_t>(args.maxlen)) {
      break;
    }
    Node& node = it->second;
    int64_t entries = node.live;
    if (args.limit != 0 && deleted + entries > args.limit) break;
    bool remove_node;
    if (args.strategy == TrimStrategy::kMaxLen) {
      remove_node = static_cast<int64_t>(length_) - entries >= args.maxlen;
    } else {
      // The node's last entry, deleted or not, as lpGetEdgeStreamID reads it.
      remove_node = node.entries.back().id < args.minid;
    }
    if (remove_node) {
      length_ -= entries;
      deleted += entries;
      it = nodes_.erase(it);
      continue;
    }
    if (args.approx) break;
    int64_t deleted_from_node = 0;
    for (Entry& e : node.entries) {
      bool stop = args.strategy == TrimStrategy::kMaxLen
                      ? length_ <= static_cast<uint64_t>(args.maxlen)
                      : e.id >= args.minid;
      if (stop) break;
      if (!e.deleted) {
        e.deleted = true;
        ++deleted_from_node;
        --length_;
      }
    }
    node.live -= deleted_from_node;
    node.deleted += deleted_from_node;
    deleted += deleted_from_node;
    break;
  }
  if (length_ == 0) {
    first_id_ = {};
  } else if (deleted != 0) {
    UpdateFirstId();
  }
  return deleted;
}

bool StreamValue::Delete(const StreamId& id) {
  auto it = nodes_.upper_bound(id);
  if (it == nodes_.begin()) return false;
  --it;
  Node& node = it->second;
  auto e = std::lower_bound(node.entries.begin(), node.entries.end(), id,
                            [](const Entry& a, const StreamId& b) { return a.id < b; });
  if (e == node.entries.end() || e->id != id || e->deleted) return false;
  if (node.live == 1) {
    nodes_.erase(it);
  } else {
    e->deleted = true;
    --node.live;
    ++node.deleted;
  }
  --length_;
  bool was_first = id == first_id_;
  if (id > max_deleted_id_) max_deleted_id_ = id;
  if (length_ == 0) {
    first_id_ = {};
  } else if (was_first) {
    UpdateFirstId();
  }
  return true;
}

bool StreamValue::Contains(const StreamId& id) const {
  bool found = false;
  Range(id, id, false, [&](const Entry&) {
    found = true;
    return false;
  });
  return found;
}

void StreamValue::Range(const StreamId& start, const StreamId& end, bool rev,
                        const std::function<bool(const Entry&)>& fn) const {
  if (start > end || nodes_.empty()) return;
  if (!rev) {
    auto it = nodes_.upper_bound(start);
    if (it != nodes_.begin()) --it;
    for (; it != nodes_.end() && it->first <= end; ++it) {
      const auto& entries = it->second.entries;
      auto e = std::lower_bound(entries.begin(), entries.end(), start,
                                [](const Entry& a, const StreamId& b) { return a.id < b; });
      for (; e != entries.end(); ++e) {
        if (e->id > end) return;
        if (!e->deleted && !fn(*e)) return;
      }
    }
    return;
  }
  auto it = nodes_.upper_bound(end);
  while (it != nodes_.begin()) {
    --it;
    const auto& entries = it->second.entries;
    auto e = std::upper_bound(entries.begin(), entries.end(), end,
                              [](const StreamId& a, const Entry& b) { return a < b.id; });
    while (e != entries.begin()) {
      --e;
      if (e->id < start) return;
      if (!e->deleted && !fn(*e)) return;
    }
  }
}

const StreamValue::Entry* StreamValue::First() const {
  for (const auto& [master, node] : nodes_) {
    for (const Entry& e : node.entries) {
      if (!e.deleted) return &e;
    }
  }
  return nullptr;
}

const StreamValue::Entry* StreamValue::Last() const {
  for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it) {
    for (auto e = it->second.entries.rbegin(); e != it->second.entries.rend(); ++e) {
      if (!e->deleted) return &*e;
    }
  }
  return nullptr;
}

StreamId StreamValue::FirstEdgeId() const {
  return nodes_.empty() ? StreamId::Max() : nodes_.begin()->second.entries.front().id;
}

StreamId StreamValue::LastValidId() const {
  const Entry* e = Last();
  return e == nullptr ? StreamId{} : e->id;
}

void StreamValue::UpdateFirstId() {
  const Entry* e = First();
  first_id_ = e == nullptr ? StreamId{} : e->id;
}

StreamGroup* StreamValue::FindGroup(std::string_view name) {
  auto it = groups_.find(name);
  return it == groups_.end() ? nullptr : &it->second;
}

StreamGroup* StreamValue::CreateGroup(std::string_view name, const StreamId& last_id,
                                      int64_t entries_read) {
  auto [it, inserted] = groups_.try_emplace(std::string(name), last_id, entries_read);
  return inserted ? &it->second : nullptr;
}

bool StreamValue::DestroyGroup(std::string_view name) {
  auto it = groups_.find(name);
  if (it == groups_.end()) return false;
  groups_.erase(it);
  return true;
}

bool StreamValue::RangeHasTombstones(const StreamId& start, const StreamId* end) const {
  if (length_ == 0 || max_deleted_id_.zero()) return false;
  if (first_id_ > max_deleted_id_) return false;
  StreamId end_id = end == nullptr ? StreamId::Max() : *end;
  return start <= max_deleted_id_ && max_deleted_id_ <= end_id;
}

int64_t StreamValue::EstimateDistanceFromFirstEverEntry(const StreamId& id) const {
  if (entries_added_ == 0) return 0;
  if (length_ == 0 && id <= last_id_) return static_cast<int64_t>(entries_added_);
  if (id == last_id_) return static_cast<int64_t>(entries_added_);
  if (id > last_id_) return kInvalidEntriesRead;
  if (max_deleted_id_.zero() || max_deleted_id_ < first_id_) {
    if (id < first_id_) return static_cast<int64_t>(entries_added_ - length_);
    if (id == first_id_) return static_cast<int64_t>(entries_added_ - length_ + 1);
  }
  return kInvalidEntriesRead;
}

bool StreamValue::GroupLag(const StreamGroup& group, int64_t* lag) const {
  if (entries_added_ == 0) {
    *lag = 0;
    return true;
  }
  if (group.entries_read() != kInvalidEntriesRead &&
      !RangeHasTombstones(group.last_id(), nullptr)) {
    *lag = static_cast<int64_t>(entries_added_) - group.entries_read();
    return true;
  }
  int64_t read = EstimateDistanceFromFirstEverEntry(group.last_id());
  if (read == kInvalidEntriesRead) return false;
  *lag = static_cast<int64_t>(entries_added_) - read;
  return true;
}

void StreamValue::AdvanceGroup(StreamGroup& group, const StreamId& id) const {
  if (group.entries_read() != kInvalidEntriesRead && !RangeHasTombstones(id, nullptr)) {
    group.set_entries_read(group.entries_read() + 1);
  } else if (entries_added_ != 0) {
    group.set_entries_read(EstimateDistanceFromFirstEverEntry(id));
  }
  group.set_last_id(id);
}

namespace {

// The 128-bit big-endian key Redis's rax holds a node under.
void RaxKey(const StreamId& id, uint8_t* out) {
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<uint8_t>(id.ms >> (56 - 8 * i));
    out[8 + i] = static_cast<uint8_t>(id.seq >> (56 - 8 * i));
  }
}

using Key = std::array<uint8_t, 16>;

// The nodes of a rax holding keys[lo, hi) (sorted, distinct, all 16 bytes) below the point
// where `depth` bytes were consumed: a compressed node for a run shared by all of them, a
// branching node where they part, a leaf where each ends. raxInsert and raxRemove keep runs
// maximally compressed, so this is the count whatever the history.
size_t RaxNodes(const std::vector<Key>& keys, size_t lo, size_t hi, size_t depth) {
  if (hi - lo == 1) return depth < 16 ? 2 : 1;
  size_t common = depth;
  while (common < 16 && keys[lo][common] == keys[hi - 1][common]) ++common;
  size_t n = common > depth ? 2 : 1;  // the run's compressed node, and the branching node
  size_t start = lo;
  while (start < hi) {
    size_t end = start + 1;
    while (end < hi && keys[end][common] == keys[start][common]) ++end;
    n += RaxNodes(keys, start, end, common + 1);
    start = end;
  }
  return n;
}

}  // namespace

size_t StreamValue::RaxNodeCount() const {
  if (nodes_.empty()) return 1;  // the empty root
  std::vector<Key> keys;
  keys.reserve(nodes_.size());
  for (const auto& [master, node] : nodes_) {
    Key k;
    RaxKey(master, k.data());
    keys.push_back(k);
  }
  return RaxNodes(keys, 0, keys.size(), 0);
}

size_t StreamValue::MemoryBytes() const {
  size_t bytes = sizeof(StreamValue);
  for (const auto& [master, node] : nodes_) bytes += 64 + node.ListpackBytes();
  for (const auto& [name, group] : groups_) {
    bytes += 96 + name.size() + group.pel().size() * 64;
    for (const auto& [cname, c] : group.consumers()) bytes += 96 + cname.size() + c.pel.size() * 48;
  }
  return bytes;
}

}  // namespace redlab::server
