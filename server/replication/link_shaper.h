// What the replication-link faults do to a stream of bytes: delay each write by a fixed time
// (plus random jitter) while keeping the order, or hold everything until resumed. A master keeps
// one per replica for the stream it sends; a replica keeps one for the stream it receives. Time
// is the real monotonic time in ms, passed in: a network delay does not follow the node's clock.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <string_view>

namespace redlab::server::replication {

// The replication faults of a node (FAULT REPL ...).
struct LinkFaults {
  int64_t delay_ms = 0;   // every byte arrives this much later
  int64_t jitter_ms = 0;  // plus up to this much more, at random (order is kept)
  bool paused = false;    // nothing is delivered until resumed; the link stays up
  bool cut = false;       // the link is broken and cannot be re-established
  bool Shaping() const { return delay_ms > 0 || jitter_ms > 0 || paused; }
};

// Which way bytes go on a replication link: the stream and the snapshot go to the replica; the
// handshake and the acks go to the master.
enum class LinkDirection { kToReplica, kToMaster };

// A node's replication faults (FAULT REPL ... [REPLICA <port>] [TO-REPLICA | TO-MASTER]): for
// every link the node is an end of, or for the link of one replica (named by its listening port:
// on a master, the link to that replica; on a replica, its own link when the port is its own),
// each direction on its own. A fault aimed at one replica's link replaces the node-wide one on
// that link. A cut is the link's, both ways.
class LinkFaultTable {
 public:
  // The faults on bytes going `dir` on the link of the replica listening on `replica_port`.
  const LinkFaults& For(LinkDirection dir, int64_t replica_port) const;
  // Whether that link is cut.
  bool Cut(int64_t replica_port) const;
  // The entry to change: `replica_port` 0 for every link.
  LinkFaults& Edit(LinkDirection dir, int64_t replica_port) { return faults_[{replica_port, dir}]; }
  // Forgets entries that no longer do anything.
  void Prune();
  bool empty() const { return faults_.empty(); }
  // (replica port, direction) -> faults, node-wide (port 0) first.
  const std::map<std::pair<int64_t, LinkDirection>, LinkFaults>& entries() const { return faults_; }

 private:
  std::map<std::pair<int64_t, LinkDirection>, LinkFaults> faults_;
};

class LinkShaper {
 public:
  explicit LinkShaper(uint64_t seed = 0x5eed) : rng_(seed) {}

  // Queues `bytes` written at `now_ms` to leave after the configured delay.
  void Push(int64_t now_ms, const LinkFaults& faults, std::string_view bytes);
  // Appends to *out what is due by `now_ms` (nothing while paused), oldest first.
  void TakeDue(int64_t now_ms, const LinkFaults& faults, std::string* out);
  // When the next held chunk is due; -1 when none is (or the link is paused).
  int64_t NextDueMs(const LinkFaults& faults) const;

  // Whether bytes can bypass the queue: no shaping and nothing held (order must be kept).
  bool PassThrough(const LinkFaults& faults) const { return !faults.Shaping() && queue_.empty(); }
  bool empty() const { return queue_.empty(); }
  size_t held_bytes() const { return held_bytes_; }
  // Drops everything held (a crash, a cut link): those bytes never arrive.
  void Clear();

 private:
  struct Chunk {
    int64_t due_ms;
    std::string bytes;
  };
  std::deque<Chunk> queue_;
  size_t held_bytes_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace redlab::server::replication
