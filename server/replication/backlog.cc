#include "server/replication/backlog.h"

#include <algorithm>
#include <cstring>

namespace redlab::server::replication {

Backlog::Backlog(size_t size, int64_t next_offset)
    : buf_(std::max<size_t>(size, 1)), first_offset_(next_offset) {}

void Backlog::Append(std::string_view bytes) {
  const size_t cap = buf_.size();
  int64_t end = next_offset() + static_cast<int64_t>(bytes.size());
  // Only the last `cap` bytes can survive; skip the rest up front.
  if (bytes.size() > cap) bytes.remove_prefix(bytes.size() - cap);
  while (!bytes.empty()) {
    size_t n = std::min(cap - write_index_, bytes.size());
    std::memcpy(buf_.data() + write_index_, bytes.data(), n);
    write_index_ = (write_index_ + n) % cap;
    bytes.remove_prefix(n);
    histlen_ += n;
  }
  histlen_ = std::min(histlen_, cap);
  first_offset_ = end - static_cast<int64_t>(histlen_);
}

bool Backlog::Covers(int64_t offset) const {
  return offset >= first_offset_ && offset <= next_offset();
}

std::string Backlog::CopyFrom(int64_t offset) const {
  size_t skip = static_cast<size_t>(offset - first_offset_);
  size_t len = histlen_ - skip;
  const size_t cap = buf_.size();
  // The oldest byte sits histlen bytes behind the write index.
  size_t start = (write_index_ + cap - histlen_ + skip) % cap;
  std::string out;
  out.reserve(len);
  while (len > 0) {
    size_t n = std::min(cap - start, len);
    out.append(buf_.data() + start, n);
    len -= n;
    start = 0;
  }
  return out;
}

void Backlog::Resize(size_t size) {
  size = std::max<size_t>(size, 1);
  if (size == buf_.size()) return;
  int64_t next = next_offset();
  buf_.assign(size, 0);
  buf_.shrink_to_fit();
  write_index_ = 0;
  histlen_ = 0;
  first_offset_ = next;
}

}  // namespace redlab::server::replication
