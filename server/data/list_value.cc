#include "server/data/list_value.h"

#include <algorithm>

namespace redlab::server {

void ListValue::Push(End end, std::string_view value) {
  // A first element starts both layouts; later ones keep the head layout only at the head.
  if (items_.empty()) {
    head_built_ = end == End::kHead;
  } else if (end == End::kTail) {
    head_built_ = false;
  }
  if (end == End::kHead) {
    items_.emplace_front(value);
  } else {
    items_.emplace_back(value);
  }
}

std::string ListValue::Pop(End end) {
  if (end == End::kTail) head_built_ = false;
  std::string value;
  if (end == End::kHead) {
    value = std::move(items_.front());
    items_.pop_front();
  } else {
    value = std::move(items_.back());
    items_.pop_back();
  }
  return value;
}

void ListValue::Insert(size_t pos, std::string_view value) {
  head_built_ = false;
  items_.emplace(items_.begin() + static_cast<std::ptrdiff_t>(pos), value);
}

void ListValue::Erase(End end, size_t n) {
  n = std::min(n, items_.size());
  if (end == End::kTail && n > 0) head_built_ = false;
  if (end == End::kHead) {
    items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(n));
  } else {
    items_.erase(items_.end() - static_cast<std::ptrdiff_t>(n), items_.end());
  }
}

bool ListValue::ResolveIndex(int64_t index, size_t len, size_t* pos) {
  int64_t n = static_cast<int64_t>(len);
  if (index < 0) index += n;
  if (index < 0 || index >= n) return false;
  *pos = static_cast<size_t>(index);
  return true;
}

bool ListValue::ResolveRange(int64_t start, int64_t end, size_t len, size_t* first, size_t* last) {
  int64_t n = static_cast<int64_t>(len);
  if (start < 0) start += n;
  if (end < 0) end += n;
  if (start < 0) start = 0;
  // start >= 0 now, so this also catches end < 0.
  if (start > end || start >= n) return false;
  if (end >= n) end = n - 1;
  *first = static_cast<size_t>(start);
  *last = static_cast<size_t>(end);
  return true;
}

size_t ListValue::Find(std::string_view value) const {
  for (size_t i = 0; i < items_.size(); ++i) {
    if (items_[i] == value) return i;
  }
  return std::string::npos;
}

namespace {

// Moves the items in [first, last) that are not among the first `limit` copies of `value`
// (all of them when limit is 0) to the front of the range, counting the dropped copies in
// *removed; returns the end of what is kept (LREM's walk, either way along the list).
template <typename It>
It RemoveCopies(It first, It last, std::string_view value, uint64_t limit, size_t* removed) {
  It out = first;
  for (It it = first; it != last; ++it) {
    if (*it == value && (limit == 0 || *removed < limit)) {
      ++*removed;
      continue;
    }
    if (out != it) *out = std::move(*it);
    ++out;
  }
  return out;
}

}  // namespace

size_t ListValue::Remove(std::string_view value, int64_t count) {
  // |INT64_MIN| does not fit; any limit that large means "all" anyway.
  uint64_t limit = count == INT64_MIN ? 0 : static_cast<uint64_t>(count < 0 ? -count : count);
  size_t removed = 0;
  head_built_ = false;
  if (count >= 0) {
    items_.erase(RemoveCopies(items_.begin(), items_.end(), value, limit, &removed), items_.end());
  } else {
    auto out = RemoveCopies(items_.rbegin(), items_.rend(), value, limit, &removed);
    items_.erase(items_.begin(), out.base());
  }
  return removed;
}

size_t ListValue::Trim(int64_t start, int64_t end) {
  size_t len = items_.size();
  size_t first = 0;
  size_t last = 0;
  if (!ResolveRange(start, end, len, &first, &last)) {
    items_.clear();
    return len;
  }
  Erase(End::kTail, len - last - 1);
  Erase(End::kHead, first);
  return len - (last - first + 1);
}

std::vector<int64_t> ListValue::Positions(std::string_view value, int64_t rank, int64_t count,
                                          int64_t maxlen) const {
  // Redis negates a negative rank in a C long: -LONG_MIN stays negative, so every match then
  // qualifies and the COUNT limit never triggers (its arithmetic overflows). Keep that behaviour.
  bool from_tail = rank < 0;
  uint64_t first_match = 1;
  if (rank == INT64_MIN) {
    count = 0;
  } else {
    first_match = static_cast<uint64_t>(rank < 0 ? -rank : rank);
  }
  std::vector<int64_t> out;
  size_t len = items_.size();
  uint64_t matches = 0;
  for (size_t scanned = 0; scanned < len; ++scanned) {
    if (maxlen != 0 && scanned >= static_cast<uint64_t>(maxlen)) break;
    size_t pos = from_tail ? len - 1 - scanned : scanned;
    if (items_[pos] != value) continue;
    if (++matches < first_match) continue;
    out.push_back(static_cast<int64_t>(pos));
    if (count != 0 && out.size() >= static_cast<uint64_t>(count)) break;
  }
  return out;
}

size_t ListValue::MemoryBytes() const {
  size_t bytes = sizeof(*this);
  for (const std::string& s : items_) {
    bytes += sizeof(std::string) + (s.size() > 15 ? s.capacity() + 1 : 0);
  }
  return bytes;
}

}  // namespace redlab::server
