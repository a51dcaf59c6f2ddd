// The value of a list key: an ordered sequence of binary strings with O(1) access at both ends and
// by index, plus the index arithmetic Redis's list commands share (negative indexes count from the
// tail; ranges are clamped as LRANGE and LTRIM clamp them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace redlab::server {

class ListValue {
 public:
  enum class End { kHead, kTail };  // Redis's LIST_HEAD / LIST_TAIL ("left" / "right")

  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }

  const std::string& at(size_t pos) const { return items_[pos]; }
  std::string& at(size_t pos) {
    head_built_ = false;  // (LSET)
    return items_[pos];
  }

  // Whether the list has only grown and shrunk at its head since it was created (LPUSH, LPOP):
  // Redis's quicklist then has its full nodes at the tail and its partial one at the head,
  // mirroring a list built by RPUSH (see rdb::QuicklistLayout).
  bool head_built() const { return head_built_; }

  void Push(End end, std::string_view value);
  // Removes and returns the element at `end`; the list must not be empty.
  std::string Pop(End end);
  // Inserts `value` so that it ends up at position `pos` (0..size()).
  void Insert(size_t pos, std::string_view value);
  // Removes `n` elements (at most size()) at `end`.
  void Erase(End end, size_t n);

  // Maps a Redis index (negative: from the tail) to a position; false when out of range.
  static bool ResolveIndex(int64_t index, size_t len, size_t* pos);
  // Maps a Redis start/end pair to the inclusive positions [*first, *last] as LRANGE does; false
  // when the range is empty.
  static bool ResolveRange(int64_t start, int64_t end, size_t len, size_t* first, size_t* last);

  // The position of the first element equal to `value` from the head, or npos.
  size_t Find(std::string_view value) const;
  // LREM: removes elements equal to `value`, at most |count| of them (0: all), scanning from the
  // head when count >= 0 and from the tail otherwise. Returns how many were removed.
  size_t Remove(std::string_view value, int64_t count);
  // LTRIM: keeps only the range [start, end] (Redis indexes). Returns how many were removed.
  size_t Trim(int64_t start, int64_t end);
  // LPOS: positions (from the head) of the elements equal to `value`, as Redis's lposCommand finds
  // them: starting at the |rank|-th match, scanning from the tail when rank < 0, looking at no more
  // than `maxlen` elements (0: all), and stopping after `count` matches (0: all).
  std::vector<int64_t> Positions(std::string_view value, int64_t rank, int64_t count,
                                 int64_t maxlen) const;

  // Visits the elements at positions [first, last] (last < size()), from the head, or from `last`
  // down to `first` when `reverse`.
  template <typename Fn>
  void ForEach(size_t first, size_t last, bool reverse, Fn&& fn) const {
    if (reverse) {
      for (size_t i = last + 1; i-- > first;) fn(std::string_view(items_[i]));
    } else {
      for (size_t i = first; i <= last; ++i) fn(std::string_view(items_[i]));
    }
  }

  size_t MemoryBytes() const;

 private:
  std::deque<std::string> items_;
  bool head_built_ = false;
};

}  // namespace redlab::server
