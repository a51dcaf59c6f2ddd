// Redis 7.0's rdb.c (the OBJ_STREAM parts of rdbSaveObject and rdbLoadObject).
#include "server/rdb/stream_value.h"

#include "server/base/numbers.h"
#include "server/rdb/packed.h"

namespace redlab::server::rdb {
namespace {

using server::StreamId;
using server::StreamValue;

constexpr int64_t kFlagDeleted = 1;
constexpr int64_t kFlagSameFields = 2;

std::string RaxKey(const StreamId& id) {
  std::string key(16, '\0');
  for (int i = 0; i < 8; ++i) {
    key[static_cast<size_t>(i)] = static_cast<char>(id.ms >> (56 - 8 * i));
    key[static_cast<size_t>(8 + i)] = static_cast<char>(id.seq >> (56 - 8 * i));
  }
  return key;
}

StreamId FromRaxKey(std::string_view key) {
  StreamId id;
  for (int i = 0; i < 8; ++i) {
    id.ms = (id.ms << 8) | static_cast<uint8_t>(key[static_cast<size_t>(i)]);
    id.seq = (id.seq << 8) | static_cast<uint8_t>(key[static_cast<size_t>(8 + i)]);
  }
  return id;
}

int64_t Int(const std::vector<std::string>& items, size_t i) {
  int64_t v = 0;
  if (i >= items.size() || !server::ParseInt64(items[i], &v)) {
    throw RdbCorrupt{"bad stream listpack"};
  }
  return v;
}

// A node's listpack checked as Redis's deep sanitization walks it (streamValidateListpack
// Integrity): the master entry, then entries whose IDs rise and whose lp-counts add up, so the
// node can be kept as it is.
void CheckNode(const StreamId& master, std::string_view blob) {
  std::vector<std::string> items = ParseListpack(blob);
  if (items.empty()) throw RdbCorrupt{"Empty listpack inside stream"};
  int64_t master_count = Int(items, 2);
  if (Int(items, 0) < 0 || Int(items, 1) < 0 || master_count < 0 ||
      static_cast<size_t>(master_count) + 4 > items.size() ||
      Int(items, 3 + static_cast<size_t>(master_count)) != 0) {
    throw RdbCorrupt{"bad stream listpack"};
  }
  size_t p = 4 + static_cast<size_t>(master_count);
  StreamId prev;
  bool first = true;
  int64_t live = 0, deleted = 0;
  while (p < items.size()) {
    size_t start = p;
    int64_t flags = Int(items, p++);
    StreamId id{master.ms + static_cast<uint64_t>(Int(items, p++)), 0};
    id.seq = master.seq + static_cast<uint64_t>(Int(items, p++));
    if (id < master || (!first && id <= prev)) throw RdbCorrupt{"bad stream listpack"};
    prev = id;
    first = false;
    ++((flags & kFlagDeleted) ? deleted : live);
    int64_t values = master_count;
    if (!(flags & kFlagSameFields)) {
      int64_t n = Int(items, p++);
      if (n < 0) throw RdbCorrupt{"bad stream listpack"};
      values = n * 2;
    }
    if (p + static_cast<size_t>(values) >= items.size()) throw RdbCorrupt{"bad stream listpack"};
    p += static_cast<size_t>(values);
    // lp-count: how many items the entry has before this one.
    int64_t back_count = Int(items, p);
    if (back_count != static_cast<int64_t>(p - start)) throw RdbCorrupt{"bad stream listpack"};
    ++p;
  }
  // A node holds at least the entry it was made for (deleted entries stay, flagged).
  if (first || live != Int(items, 0) || deleted != Int(items, 1)) {
    throw RdbCorrupt{"bad stream listpack"};
  }
}

}  // namespace

void EncodeStream(RdbWriter& w, const StreamValue& s) {
  w.Length(s.nodes().size());
  for (const auto& [master, node] : s.nodes()) {
    w.String(RaxKey(master));
    w.String(node.view());
  }
  w.Length(s.length());
  w.Length(s.last_id().ms);
  w.Length(s.last_id().seq);
  w.Length(s.first_id().ms);
  w.Length(s.first_id().seq);
  w.Length(s.max_deleted_id().ms);
  w.Length(s.max_deleted_id().seq);
  w.Length(s.entries_added());
  // rdbSaveStreamPEL / rdbSaveStreamConsumers: each group, its PEL with the NACKs, then its
  // consumers with their PELs as bare IDs.
  w.Length(s.groups().size());
  for (const auto& [name, group] : s.groups()) {
    w.String(name);
    w.Length(group.last_id().ms);
    w.Length(group.last_id().seq);
    w.Length(static_cast<uint64_t>(group.entries_read()));
    w.Length(group.pel().size());
    for (const auto& [id, nack] : group.pel()) {
      w.Raw(RaxKey(id));
      w.Int64LE(nack.delivery_time);
      w.Length(nack.delivery_count);
    }
    w.Length(group.consumers().size());
    for (const auto& [cname, consumer] : group.consumers()) {
      w.String(cname);
      w.Int64LE(consumer.seen_time);
      w.Length(consumer.pel.size());
      for (const auto& [id, nack] : consumer.pel) w.Raw(RaxKey(id));
    }
  }
}

server::Object DecodeStream(uint8_t type, RdbReader& r) {
  server::Object o = server::Object::NewStream();
  StreamValue& s = o.stream();
  uint64_t nodes = r.Length();
  for (uint64_t i = 0; i < nodes; ++i) {
    std::string key = r.String();
    if (key.size() != 16) throw RdbCorrupt{"Stream node key entry is not the size of a stream ID"};
    std::string lp = r.String();
    StreamId master = FromRaxKey(key);
    CheckNode(master, lp);
    s.RestoreNode(master, lp);
  }
  uint64_t length = r.Length();
  StreamId last{r.Length(), 0};
  last.seq = r.Length();
  StreamId first, max_deleted;
  uint64_t entries_added = length;
  if (type == kTypeStreamListpacks2) {
    first.ms = r.Length();
    first.seq = r.Length();
    max_deleted.ms = r.Length();
    max_deleted.seq = r.Length();
    entries_added = r.Length();
  }
  s.RestoreMeta(length, last, first, max_deleted, entries_added);
  StreamValue::Entry first_entry;
  if (type != kTypeStreamListpacks2 && s.First(&first_entry)) {
    s.RestoreMeta(length, last, first_entry.id, max_deleted, entries_added);
  }
  if (length != 0 && nodes == 0) throw RdbCorrupt{"Stream length inconsistent with rax entries"};
  uint64_t groups = r.Length();
  while (groups-- != 0) {
    std::string name = r.String();
    StreamId last{r.Length(), 0};
    last.seq = r.Length();
    int64_t entries_read = type == kTypeStreamListpacks2
                               ? static_cast<int64_t>(r.Length())
                               : s.EstimateDistanceFromFirstEverEntry(last);
    server::StreamGroup* group = s.CreateGroup(name, last, entries_read);
    if (group == nullptr) throw RdbCorrupt{"Duplicated consumer group name " + name};
    uint64_t pel = r.Length();
    while (pel-- != 0) {
      StreamId id = FromRaxKey(r.Bytes(16));
      server::StreamNack nack;
      nack.delivery_time = static_cast<int64_t>(r.LittleEndian(8));
      nack.delivery_count = r.Length();
      nack.consumer = nullptr;
      if (!group->pel().emplace(id, nack).second) {
        throw RdbCorrupt{"Duplicated global PEL entry loading stream consumer group"};
      }
    }
    uint64_t consumers = r.Length();
    while (consumers-- != 0) {
      std::string cname = r.String();
      server::StreamConsumer* consumer = group->CreateConsumer(cname, 0);
      if (consumer == nullptr) throw RdbCorrupt{"Duplicate stream consumer detected."};
      consumer->seen_time = static_cast<int64_t>(r.LittleEndian(8));
      uint64_t owned = r.Length();
      while (owned-- != 0) {
        StreamId id = FromRaxKey(r.Bytes(16));
        auto it = group->pel().find(id);
        if (it == group->pel().end()) {
          throw RdbCorrupt{"Consumer entry not found in group global PEL"};
        }
        it->second.consumer = consumer;
        if (!consumer->pel.emplace(id, &it->second).second) {
          throw RdbCorrupt{"Duplicated consumer PEL entry  loading a stream consumer group"};
        }
      }
    }
    for (const auto& [id, nack] : group->pel()) {
      if (nack.consumer == nullptr) throw RdbCorrupt{"Stream CG PEL entry without consumer"};
    }
  }
  return o;
}

}  // namespace redlab::server::rdb
