// A blocking TCP connection to another server, for what Redis does synchronously on its main
// thread: MIGRATE's connBlockingConnect, connSyncWrite and connSyncReadLine. The engine does no
// I/O itself; its host makes these (server/net/sync_link.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace redlab::server::engine {

class SyncLink {
 public:
  enum class Status { kOk, kError, kTimeout };
  virtual ~SyncLink() = default;
  // Writes all of `data` within timeout_ms.
  virtual Status Write(std::string_view data, int64_t timeout_ms) = 0;
  // Reads one line within timeout_ms into *line, without its "\r\n" (or "\n"), cut to
  // max_length bytes as connSyncReadLine's buffer cuts it.
  virtual Status ReadLine(std::string* line, size_t max_length, int64_t timeout_ms) = 0;
};

}  // namespace redlab::server::engine
