// A server's replication stream as a replica receives it (Redis's tests call this
// attach_to_replication_stream): one connection asks for a full sync, skips the snapshot, then
// reads the commands the server propagates, one at a time, exactly as they were sent.
#pragma once

#include <string>
#include <vector>

#include "conformance/harness/client.h"

namespace redlab::conformance {

class ReplicationStream {
 public:
  // Attaches to the server on `port`. Its PINGs to replicas are made rare meanwhile (and put
  // back on destruction), and skipped anyway.
  explicit ReplicationStream(int port);
  ~ReplicationStream();
  ReplicationStream(const ReplicationStream&) = delete;
  ReplicationStream& operator=(const ReplicationStream&) = delete;

  // The next command propagated (PING and REPLCONF, which are the link's own, skipped).
  std::vector<std::string> Next();

 private:
  int port_;
  std::string ping_period_;
  Client link_;
  std::string offset_;  // the snapshot's, which it acks
};

}  // namespace redlab::conformance
