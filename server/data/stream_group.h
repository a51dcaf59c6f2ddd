// Redis 7.0's stream.h consumer groups (streamCG, streamConsumer, streamNACK) and the group
// helpers of t_stream.c: a group's last delivered ID and read counter, its pending entries list
// (PEL) and its consumers, each with its own PEL sharing the group's NACKs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "server/data/stream_id.h"

namespace redlab::server {

// SCG_INVALID_ENTRIES_READ: a group whose read counter is unknown.
inline constexpr int64_t kInvalidEntriesRead = -1;

struct StreamConsumer;

// A delivered, not yet acknowledged entry (streamNACK).
struct StreamNack {
  int64_t delivery_time = 0;  // ms since the epoch of the last delivery
  uint64_t delivery_count = 1;
  StreamConsumer* consumer = nullptr;  // nullptr only while loading or being claimed by FORCE
};

struct StreamConsumer {
  std::string name;
  int64_t seen_time = 0;
  // The consumer's PEL: the group's NACKs it owns, by ID.
  std::map<StreamId, StreamNack*> pel;
};

// Names ordered as Redis's rax orders its keys (bytewise, a prefix first).
struct RaxLess {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a < b; }
};

class StreamGroup {
 public:
  StreamGroup(StreamId last_id, int64_t entries_read)
      : last_id_(last_id), entries_read_(entries_read) {}
  StreamGroup(const StreamGroup& other) { *this = other; }
  StreamGroup& operator=(const StreamGroup& other);
  StreamGroup(StreamGroup&&) = default;
  StreamGroup& operator=(StreamGroup&&) = default;

  const StreamId& last_id() const { return last_id_; }
  int64_t entries_read() const { return entries_read_; }
  void set_last_id(const StreamId& id) { last_id_ = id; }
  void set_entries_read(int64_t n) { entries_read_ = n; }

  std::map<StreamId, StreamNack>& pel() { return pel_; }
  const std::map<StreamId, StreamNack>& pel() const { return pel_; }
  std::map<std::string, StreamConsumer, RaxLess>& consumers() { return consumers_; }
  const std::map<std::string, StreamConsumer, RaxLess>& consumers() const { return consumers_; }

  // streamLookupConsumer (the caller refreshes seen_time when Redis does).
  StreamConsumer* FindConsumer(std::string_view name);
  // streamCreateConsumer: nullptr when it exists already.
  StreamConsumer* CreateConsumer(std::string_view name, int64_t now_ms);
  // The consumer, created when missing; *created tells which.
  StreamConsumer* LookupOrCreateConsumer(std::string_view name, int64_t now_ms, bool* created);
  // streamDelConsumer: its pending entries leave the group's PEL too; returns how many.
  size_t DeleteConsumer(std::string_view name);

  // Removes the NACK of `id` from the group's and its consumer's PEL (XACK); false if none.
  bool Ack(const StreamId& id);
  // Gives the NACK `nack` (of `id`) to `consumer`, moving it out of its previous owner's PEL.
  static void Assign(const StreamId& id, StreamNack* nack, StreamConsumer* consumer);

 private:
  StreamId last_id_;
  int64_t entries_read_ = kInvalidEntriesRead;
  std::map<StreamId, StreamNack> pel_;
  std::map<std::string, StreamConsumer, RaxLess> consumers_;
};

}  // namespace redlab::server
