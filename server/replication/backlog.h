// The replication backlog: a fixed-size ring holding the most recent bytes of the replication
// stream, with the offsets Redis keeps beside it (repl_backlog_first_byte_offset, histlen), so a
// replica that reconnects after a short break can continue from where it stopped (+CONTINUE).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace redlab::server::replication {

class Backlog {
 public:
  // An empty backlog whose first byte will be stream offset `next_offset` (Redis's
  // createReplicationBacklog: master_repl_offset + 1).
  Backlog(size_t size, int64_t next_offset);

  // Appends stream bytes, dropping the oldest ones past size().
  void Append(std::string_view bytes);

  size_t size() const { return buf_.size(); }
  // Offset of the oldest byte held (repl_backlog_first_byte_offset).
  int64_t first_offset() const { return first_offset_; }
  // How many bytes are held (repl_backlog_histlen).
  size_t histlen() const { return histlen_; }
  // The offset the next appended byte will have.
  int64_t next_offset() const { return first_offset_ + static_cast<int64_t>(histlen_); }

  // Whether the stream from `offset` on can be served (PSYNC's check: the offset lies within
  // [first_offset, first_offset + histlen], the end meaning "nothing missed").
  bool Covers(int64_t offset) const;
  // The bytes from `offset` to the end; Covers(offset) must hold.
  std::string CopyFrom(int64_t offset) const;

  // CONFIG SET repl-backlog-size: Redis drops the content and starts over at the next byte.
  void Resize(size_t size);

 private:
  std::vector<char> buf_;
  size_t write_index_ = 0;  // where the next byte goes
  size_t histlen_ = 0;
  int64_t first_offset_;
};

}  // namespace redlab::server::replication
