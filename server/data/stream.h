// The stream value, as Redis 7.0's stream.h / t_stream.c: entries by ID in order, packed into
// listpack nodes keyed by their master ID as Redis's radix tree of listpacks keeps them (delta
// encoded IDs, SAMEFIELDS, deleted flags; stream-node-max-bytes and stream-node-max-entries), so
// memory per entry is Redis's and approximate (~) trimming removes the same whole nodes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/data/stream_group.h"
#include "server/data/stream_id.h"
#include "server/data/stream_node.h"

namespace redlab::server {

// Node limits (stream-node-max-bytes, stream-node-max-entries); 0 means no limit.
struct StreamNodeLimits {
  size_t max_bytes = 4096;
  int64_t max_entries = 100;
};

class StreamValue {
 public:
  // One entry read out of its node: its ID and its field/value pairs flattened (f1, v1, f2,
  // v2...), viewing the node's bytes (or `ints`, for elements stored as integers). Valid until
  // the stream changes; not copyable, since the views may point into `ints`.
  struct Entry {
    Entry() = default;
    Entry(const Entry&) = delete;
    Entry& operator=(const Entry&) = delete;
    StreamId id;
    std::vector<std::string_view> fields;
    bool deleted = false;
    std::string ints;
  };

  enum class TrimStrategy { kNone, kMaxLen, kMinId };
  struct TrimArgs {
    TrimStrategy strategy = TrimStrategy::kNone;
    bool approx = false;
    int64_t limit = 0;  // 0: no limit
    int64_t maxlen = 0;
    StreamId minid;
  };

  uint64_t length() const { return length_; }
  const StreamId& last_id() const { return last_id_; }
  const StreamId& first_id() const { return first_id_; }
  const StreamId& max_deleted_id() const { return max_deleted_id_; }
  uint64_t entries_added() const { return entries_added_; }
  size_t node_count() const { return nodes_.size(); }
  void set_last_id(const StreamId& id) { last_id_ = id; }
  void set_entries_added(uint64_t n) { entries_added_ = n; }
  void set_max_deleted_id(const StreamId& id) { max_deleted_id_ = id; }

  // streamAppendItem with an ID already decided (callers check it is above last_id): appends
  // into the tail node or a new one, as Redis's node limits decide.
  void Append(const StreamId& id, std::vector<std::string> fields, const StreamNodeLimits& limits);
  // streamTrim: the number of entries removed.
  int64_t Trim(const TrimArgs& args);
  // streamDeleteItem: whether a live entry with that ID was deleted (max_deleted_id and
  // first_id are kept up to date).
  bool Delete(const StreamId& id);
  bool Contains(const StreamId& id) const;

  // Live entries with start <= ID <= end, in order (or reverse); `fn` returns false to stop.
  void Range(const StreamId& start, const StreamId& end, bool rev,
             const std::function<bool(const Entry&)>& fn) const;
  // The first / last live entry into *out; false when the stream has none.
  bool First(Entry* out) const;
  bool Last(Entry* out) const;

  // streamGetEdgeID(first, skip_tombstones = 0): the first entry's ID, deleted or not, or
  // UINT64_MAX-UINT64_MAX when there is none.
  StreamId FirstEdgeId() const;
  // streamLastValidID: the last live entry's ID, 0-0 when empty.
  StreamId LastValidId() const;
  size_t MemoryBytes() const;

  // Consumer groups, by name in rax order.
  using Groups = std::map<std::string, StreamGroup, RaxLess>;
  Groups& groups() { return groups_; }
  const Groups& groups() const { return groups_; }
  StreamGroup* FindGroup(std::string_view name);
  // streamCreateCG: nullptr when a group of that name exists.
  StreamGroup* CreateGroup(std::string_view name, const StreamId& last_id, int64_t entries_read);
  bool DestroyGroup(std::string_view name);
  // streamEstimateDistanceFromFirstEverEntry: `id`'s logical read counter, or
  // kInvalidEntriesRead when it cannot be known.
  int64_t EstimateDistanceFromFirstEverEntry(const StreamId& id) const;
  // streamRangeHasTombstones (end: nullptr for the end of the stream).
  bool RangeHasTombstones(const StreamId& start, const StreamId* end) const;
  // streamReplyWithCGLag: the group's lag, or false when it cannot be known (a null reply).
  bool GroupLag(const StreamGroup& group, int64_t* lag) const;
  // What streamReplyWithRange does to a group delivering `id`, above its last ID: the read
  // counter advanced or re-estimated, and the last ID moved.
  void AdvanceGroup(StreamGroup& group, const StreamId& id) const;
  // The node count of Redis's radix tree holding the stream's nodes (XINFO radix-tree-nodes).
  size_t RaxNodeCount() const;

  // The nodes by master ID, each a listpack as Redis's holds it (RDB and DUMP write them as is).
  const std::map<StreamId, StreamNode>& nodes() const { return nodes_; }
  // Loading (RDB): nodes in order (each a listpack whose layout the caller checked), then the
  // stream's own fields.
  void RestoreNode(const StreamId& master, std::string_view listpack);
  void RestoreMeta(uint64_t length, StreamId last, StreamId first, StreamId max_deleted,
                   uint64_t entries_added);

 private:
  void UpdateFirstId();
  // The first (or last) live entry, read into *out; false when there is none.
  bool EdgeEntry(bool last, Entry* out) const;
  // Range into a caller's entry (First and Last keep what it read).
  void RangeInto(const StreamId& start, const StreamId& end, bool rev, Entry& e,
                 const std::function<bool(const Entry&)>& fn) const;

  std::map<StreamId, StreamNode> nodes_;  // by master ID, as Redis's radix tree keys them
  uint64_t length_ = 0;
  StreamId last_id_;
  StreamId first_id_;
  StreamId max_deleted_id_;
  uint64_t entries_added_ = 0;
  Groups groups_;
};

}  // namespace redlab::server
