// Redis 7.0's t_stream.c (the low-level part: streamAppendItem, streamTrim, streamDeleteItem
// and the iterator, over listpack nodes).
#include "server/data/stream.h"

#include <algorithm>
#include <array>

namespace redlab::server {
namespace {

constexpr int64_t kFlagDeleted = 1;     // STREAM_ITEM_FLAG_DELETED
constexpr int64_t kFlagSameFields = 2;  // STREAM_ITEM_FLAG_SAMEFIELDS
constexpr size_t kMaxPrealloc = 4096;   // STREAM_LISTPACK_MAX_PRE_ALLOCATE
constexpr size_t kListpackMaxSize = 1u << 30;

// A node's master entry: the live and deleted counts, the master fields and where the entries
// start (after the master entry's zero terminator).
struct Master {
  int64_t live = 0;
  int64_t deleted = 0;
  int64_t count = 0;
  size_t fields = 0;
  size_t entries = 0;
};

Master ReadMaster(const StreamNode& n) {
  Master m;
  size_t p = StreamNode::First();
  m.live = n.GetInteger(p);
  p = n.Next(p);
  m.deleted = n.GetInteger(p);
  p = n.Next(p);
  m.count = n.GetInteger(p);
  p = n.Next(p);
  m.fields = p;
  for (int64_t i = 0; i < m.count; ++i) p = n.Next(p);
  m.entries = n.Next(p);
  return m;
}

// One entry's head: flags (at `at`), ID and field count; `body` is its first field or value.
struct Head {
  size_t at = 0;
  int64_t flags = 0;
  StreamId id;
  int64_t numfields = 0;
  size_t body = 0;
};

Head ReadHead(const StreamNode& n, const StreamId& master, const Master& m, size_t p) {
  Head h;
  h.at = p;
  h.flags = n.GetInteger(p);
  p = n.Next(p);
  h.id.ms = master.ms + static_cast<uint64_t>(n.GetInteger(p));
  p = n.Next(p);
  h.id.seq = master.seq + static_cast<uint64_t>(n.GetInteger(p));
  p = n.Next(p);
  if (h.flags & kFlagSameFields) {
    h.numfields = m.count;
  } else {
    h.numfields = n.GetInteger(p);
    p = n.Next(p);
  }
  h.body = p;
  return h;
}

// The offset after the entry (past its lp-count).
size_t SkipEntry(const StreamNode& n, const Head& h) {
  size_t p = h.body;
  int64_t elements = (h.flags & kFlagSameFields) ? h.numfields : h.numfields * 2;
  for (int64_t i = 0; i <= elements; ++i) p = n.Next(p);
  return p;
}

// The entry's fields and values into *e (views into the node or e->ints); the offset after it.
size_t ReadFields(const StreamNode& n, const Master& m, const Head& h, StreamValue::Entry* e) {
  e->id = h.id;
  e->deleted = (h.flags & kFlagDeleted) != 0;
  e->fields.clear();
  e->ints.clear();
  const size_t elements = static_cast<size_t>(h.numfields) * 2;
  e->fields.reserve(elements);
  char buf[StreamNode::kIntBufSize];
  auto text = [&](size_t p) {
    std::string_view v = n.Get(p, buf);
    if (v.data() != buf) return v;
    // Room for every element at the first integer, before any view into `ints` is taken, so
    // appending never reallocates under the views.
    if (e->ints.empty()) e->ints.reserve(elements * StreamNode::kIntBufSize);
    size_t at = e->ints.size();
    e->ints.append(v);
    return std::string_view(e->ints).substr(at, v.size());
  };
  const bool same = (h.flags & kFlagSameFields) != 0;
  size_t p = h.body;
  size_t f = m.fields;
  for (int64_t i = 0; i < h.numfields; ++i) {
    if (same) {
      e->fields.push_back(text(f));
      f = n.Next(f);
    } else {
      e->fields.push_back(text(p));
      p = n.Next(p);
    }
    e->fields.push_back(text(p));
    p = n.Next(p);
  }
  return n.Next(p);  // the lp-count
}

// The flags offset of the entry that ends just before `end` (lp-count read backwards).
size_t EntryBefore(const StreamNode& n, size_t end) {
  size_t q = n.Prev(end);
  int64_t elements = n.GetInteger(q);
  for (int64_t i = 0; i < elements; ++i) q = n.Prev(q);
  return q;
}

// The offset of the node's first entry (deleted or not) with an ID >= start, or the node's end.
// Redis walks from the master entry; when `start` lies in the later half of the node's IDs (a
// consumer reading what was just added) the walk back from the end is the shorter one.
size_t SeekEntry(const StreamNode& n, const StreamId& master, const Master& m,
                 const StreamId& start) {
  const size_t end = n.bytes() - 1;
  if (start <= master || end == m.entries) return m.entries;
  StreamId last = ReadHead(n, master, m, EntryBefore(n, end)).id;
  if (start > last) return end;
  bool later_half = last.ms != master.ms ? start.ms - master.ms > (last.ms - master.ms) / 2
                                         : start.seq - master.seq > (last.seq - master.seq) / 2;
  if (later_half) {
    size_t found = end;
    while (found != m.entries) {
      size_t at = EntryBefore(n, found);
      if (ReadHead(n, master, m, at).id < start) break;
      found = at;
    }
    return found;
  }
  size_t p = m.entries;
  while (!n.AtEnd(p)) {
    Head h = ReadHead(n, master, m, p);
    if (h.id >= start) break;
    p = SkipEntry(n, h);
  }
  return p;
}

}  // namespace

void StreamValue::Append(const StreamId& id, std::vector<std::string> fields,
                         const StreamNodeLimits& limits) {
  const int64_t numfields = static_cast<int64_t>(fields.size() / 2);
  size_t totelelen = 0;
  for (const std::string& f : fields) totelelen += f.size();

  StreamNode* node = nodes_.empty() ? nullptr : &std::prev(nodes_.end())->second;
  if (node != nullptr) {
    size_t max_bytes = limits.max_bytes;
    if (max_bytes == 0 || max_bytes > kListpackMaxSize) max_bytes = kListpackMaxSize;
    bool full = node->bytes() + totelelen >= max_bytes;
    if (!full && limits.max_entries != 0) {
      Master m = ReadMaster(*node);
      full = m.live + m.deleted >= limits.max_entries;
    }
    if (full) {
      node->ShrinkToFit();
      node = nullptr;
    }
  }
  int64_t flags = 0;
  StreamId master;
  if (node == nullptr) {
    size_t prealloc = kMaxPrealloc;
    if (limits.max_bytes > 0 && limits.max_bytes < prealloc) prealloc = limits.max_bytes;
    master = id;
    node = &nodes_.emplace_hint(nodes_.end(), id, StreamNode(prealloc))->second;
    node->AppendInteger(1);
    node->AppendInteger(0);
    node->AppendInteger(numfields);
    for (int64_t i = 0; i < numfields; ++i) node->Append(fields[static_cast<size_t>(i) * 2]);
    node->AppendInteger(0);
    flags |= kFlagSameFields;
  } else {
    master = std::prev(nodes_.end())->first;
    size_t p = StreamNode::First();
    node->ReplaceInteger(p, node->GetInteger(p) + 1);
    p = node->Next(node->Next(p));
    int64_t master_count = node->GetInteger(p);
    p = node->Next(p);
    if (numfields == master_count) {
      char buf[StreamNode::kIntBufSize];
      int64_t i = 0;
      for (; i < master_count; ++i) {
        if (node->Get(p, buf) != fields[static_cast<size_t>(i) * 2]) break;
        p = node->Next(p);
      }
      if (i == master_count) flags |= kFlagSameFields;
    }
  }
  const bool same = (flags & kFlagSameFields) != 0;
  // At most 10 bytes an integer, 5 of header and 5 of back-length a string: one reservation.
  node->Reserve(totelelen + 10 * (fields.size() + 5));
  node->AppendInteger(flags);
  node->AppendInteger(static_cast<int64_t>(id.ms - master.ms));
  node->AppendInteger(static_cast<int64_t>(id.seq - master.seq));
  if (!same) node->AppendInteger(numfields);
  for (int64_t i = 0; i < numfields; ++i) {
    if (!same) node->Append(fields[static_cast<size_t>(i) * 2]);
    node->Append(fields[static_cast<size_t>(i) * 2 + 1]);
  }
  node->AppendInteger(numfields + 3 + (same ? 0 : numfields + 1));
  ++length_;
  ++entries_added_;
  last_id_ = id;
  if (length_ == 1) first_id_ = id;
}

void StreamValue::RestoreNode(const StreamId& master, std::string_view listpack) {
  nodes_.emplace_hint(nodes_.end(), master, StreamNode::FromBytes(listpack));
}

void StreamValue::RestoreMeta(uint64_t length, StreamId last, StreamId first, StreamId max_deleted,
                              uint64_t entries_added) {
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
    StreamNode& node = it->second;
    const StreamId& master = it->first;
    Master m = ReadMaster(node);
    int64_t entries = m.live;
    if (args.limit != 0 && deleted + entries > args.limit) break;
    bool remove_node;
    if (args.strategy == TrimStrategy::kMaxLen) {
      remove_node = static_cast<int64_t>(length_) - entries >= args.maxlen;
    } else {
      // The node's last entry, deleted or not, as lpGetEdgeStreamID reads it.
      Head last = ReadHead(node, master, m, EntryBefore(node, node.bytes() - 1));
      remove_node = last.id < args.minid;
    }
    if (remove_node) {
      length_ -= entries;
      deleted += entries;
      it = nodes_.erase(it);
      continue;
    }
    if (args.approx) break;
    int64_t deleted_from_node = 0;
    size_t p = m.entries;
    while (!node.AtEnd(p)) {
      Head h = ReadHead(node, master, m, p);
      bool stop = args.strategy == TrimStrategy::kMaxLen
                      ? length_ <= static_cast<uint64_t>(args.maxlen)
                      : h.id >= args.minid;
      if (stop) break;
      p = SkipEntry(node, h);
      if (!(h.flags & kFlagDeleted)) {
        node.ReplaceInteger(h.at, h.flags | kFlagDeleted);  // one byte either way
        ++deleted_from_node;
        --length_;
      }
    }
    // The counts: the live one first, so the deleted one's offset is read after it moved.
    size_t q = StreamNode::First();
    node.ReplaceInteger(q, entries - deleted_from_node);
    q = node.Next(q);
    node.ReplaceInteger(q, m.deleted + deleted_from_node);
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
  StreamNode& node = it->second;
  Master m = ReadMaster(node);
  size_t p = SeekEntry(node, it->first, m, id);
  if (node.AtEnd(p)) return false;
  Head h = ReadHead(node, it->first, m, p);
  if (h.id != id || (h.flags & kFlagDeleted)) return false;
  if (m.live == 1) {
    nodes_.erase(it);
  } else {
    node.ReplaceInteger(h.at, h.flags | kFlagDeleted);
    size_t q = StreamNode::First();
    node.ReplaceInteger(q, m.live - 1);
    q = node.Next(q);
    node.ReplaceInteger(q, m.deleted + 1);
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
  Entry e;
  RangeInto(start, end, rev, e, fn);
}

void StreamValue::RangeInto(const StreamId& start, const StreamId& end, bool rev, Entry& e,
                            const std::function<bool(const Entry&)>& fn) const {
  if (start > end || nodes_.empty()) return;
  if (!rev) {
    auto it = nodes_.upper_bound(start);
    if (it != nodes_.begin()) --it;
    for (bool first = true; it != nodes_.end() && it->first <= end; ++it, first = false) {
      const StreamNode& node = it->second;
      Master m = ReadMaster(node);
      size_t p = first ? SeekEntry(node, it->first, m, start) : m.entries;
      while (!node.AtEnd(p)) {
        Head h = ReadHead(node, it->first, m, p);
        if (h.id > end) return;
        if (h.id < start || (h.flags & kFlagDeleted)) {
          p = SkipEntry(node, h);
          continue;
        }
        p = ReadFields(node, m, h, &e);
        if (!fn(e)) return;
      }
    }
    return;
  }
  auto it = nodes_.upper_bound(end);
  while (it != nodes_.begin()) {
    --it;
    const StreamNode& node = it->second;
    Master m = ReadMaster(node);
    size_t stop = node.bytes() - 1;
    while (stop != m.entries) {
      size_t at = EntryBefore(node, stop);
      stop = at;
      Head h = ReadHead(node, it->first, m, at);
      if (h.id < start) return;
      if (h.id > end || (h.flags & kFlagDeleted)) continue;
      ReadFields(node, m, h, &e);
      if (!fn(e)) return;
    }
  }
}

bool StreamValue::EdgeEntry(bool last, Entry* out) const {
  bool found = false;
  RangeInto({}, StreamId::Max(), last, *out, [&](const Entry&) {
    found = true;
    return false;
  });
  return found;
}

bool StreamValue::First(Entry* out) const { return EdgeEntry(/*last=*/false, out); }

bool StreamValue::Last(Entry* out) const { return EdgeEntry(/*last=*/true, out); }

StreamId StreamValue::FirstEdgeId() const {
  if (nodes_.empty()) return StreamId::Max();
  const auto& [master, node] = *nodes_.begin();
  Master m = ReadMaster(node);
  return ReadHead(node, master, m, m.entries).id;
}

StreamId StreamValue::LastValidId() const {
  // Read from the end, IDs only (XREADGROUP asks for it on every call).
  for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it) {
    const StreamNode& node = it->second;
    Master m = ReadMaster(node);
    for (size_t at = node.bytes() - 1; at != m.entries;) {
      at = EntryBefore(node, at);
      Head h = ReadHead(node, it->first, m, at);
      if (!(h.flags & kFlagDeleted)) return h.id;
    }
  }
  return {};
}

void StreamValue::UpdateFirstId() {
  Entry e;
  first_id_ = First(&e) ? e.id : StreamId{};
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
  // A map node (its links, the master ID and the listpack's pointer) and the listpack.
  for (const auto& [master, node] : nodes_) bytes += 64 + node.AllocatedBytes();
  for (const auto& [name, group] : groups_) {
    bytes += 96 + name.size() + group.pel().size() * 64;
    for (const auto& [cname, c] : group.consumers()) bytes += 96 + cname.size() + c.pel.size() * 48;
  }
  return bytes;
}

}  // namespace redlab::server
