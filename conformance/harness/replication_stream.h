// A server's replication stream as a replica receives it (Redis's tests call this
// attach_to_replication_stream): a connection that says it is a replica, asks for a full or a
// partial resynchronisation, skips the snapshot, then reads the commands the server propagates,
// one at a time, exactly as they were sent, counting the offset as a replica does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/harness/client.h"

namespace redlab::conformance {

class ReplicationStream {
 public:
  // Connects to the server on `port` as a replica (REPLCONF capa eof psync2). While it lives the
  // server's PINGs to replicas are made rare (and skipped anyway) and a diskless snapshot leaves
  // at once; both settings are put back on destruction.
  explicit ReplicationStream(int port);
  ~ReplicationStream();
  ReplicationStream(const ReplicationStream&) = delete;
  ReplicationStream& operator=(const ReplicationStream&) = delete;

  // PSYNC ? -1: a full resync; the snapshot is skipped and the stream starts right after it.
  void FullSync();
  // PSYNC <replid> <offset>: the reply line (after "+CONTINUE" the stream follows).
  std::string PartialSync(const std::string& replid, int64_t offset);

  // The next propagated command (the link's own PING and REPLCONF skipped), its bytes counted
  // in the offset. While it waits, a synced stream acknowledges its offset, as a replica's cron
  // does (after a diskless snapshot Redis streams nothing until such an ack).
  std::vector<std::string> Next();

  const std::string& replid() const { return replid_; }
  // The offset of the last byte read (what REPLCONF ACK says).
  int64_t offset() const { return offset_; }

 private:
  std::string NonEmptyLine();  // empty lines are keepalives while the master prepares

  int port_;
  std::string ping_period_, sync_delay_;  // the settings to put back
  Client link_;
  std::string replid_;
  int64_t offset_ = 0;
  bool synced_ = false;
};

}  // namespace redlab::conformance
