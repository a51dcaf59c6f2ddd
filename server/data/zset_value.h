// The value of a sorted-set key: members ordered by score, ties by member bytes. Small sets are
// a sorted array searched linearly, as Redis's listpack encoding keeps them; past the
// zset-max-listpack-* limits they become a skiplist with a member index (zset_skiplist.h), one
// way only. Both forms answer alike, down to the listpack's loss of the sign of a zero score.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "server/data/zset_range.h"
#include "server/data/zset_skiplist.h"

namespace redlab::server {

struct ZsetLimits {
  size_t max_entries = 128;  // zset-max-listpack-entries
  size_t max_value = 64;     // zset-max-listpack-value (member length in bytes)
};

// ZADD's options (zsetAdd's ZADD_IN_*).
enum ZaddFlag : uint32_t {
  kZaddIncr = 1u << 0,  // add the score to the current one (0 for a new member)
  kZaddNx = 1u << 1,    // only add new members
  kZaddXx = 1u << 2,    // only update existing members
  kZaddGt = 1u << 3,    // only update when the new score is greater
  kZaddLt = 1u << 4,    // only update when the new score is less
};

enum class ZaddResult {
  kAdded,      // a new member
  kUpdated,    // an existing member's score changed
  kUnchanged,  // an existing member kept its score (same score, or an increment of 0)
  kSkipped,    // NX, XX, GT or LT said no
  kNaN,        // the increment made the score NaN; nothing changed
};

// One element of the listpack form.
struct ZsetSmallEntry {
  std::string member;
  double score;
};

class ZsetValue {
 public:
  enum class Encoding { kListpack, kSkiplist };

  explicit ZsetValue(Encoding encoding = Encoding::kListpack);
  ~ZsetValue();
  ZsetValue(const ZsetValue&) = delete;
  ZsetValue& operator=(const ZsetValue&) = delete;

  // The encoding ZADD gives a new key (zaddGenericCommand): a skiplist when listpacks are
  // disabled or the first member is already too long.
  static Encoding EncodingFor(const ZsetLimits& limits, std::string_view first_member);

  Encoding encoding() const {
    return std::holds_alternative<Small>(data_) ? Encoding::kListpack : Encoding::kSkiplist;
  }
  size_t size() const;
  bool empty() const { return size() == 0; }

  // The score of `member`, if present.
  bool Score(std::string_view member, double* score) const;
  // zsetAdd: adds or updates `member` under `flags`. *new_score is the member's score after the
  // call unless the result is kSkipped or kNaN. A new member may convert a listpack to a
  // skiplist (past limits.max_entries members, or a member longer than limits.max_value).
  ZaddResult Add(double score, std::string_view member, uint32_t flags, const ZsetLimits& limits,
                 double* new_score);
  bool Remove(std::string_view member);
  // 0-based rank from the lowest score (from the highest when `reverse`), or -1 if absent.
  int64_t Rank(std::string_view member, bool reverse) const;

  // A position in score order; valid until the set is modified.
  class Iterator {
   public:
    bool valid() const { return small_ != nullptr ? index_ < small_->size() : node_ != nullptr; }
    std::string_view member() const {
      return small_ != nullptr ? std::string_view((*small_)[index_].member) : node_->member();
    }
    double score() const { return small_ != nullptr ? (*small_)[index_].score : node_->score; }
    void Next();
    void Prev();

   private:
    friend class ZsetValue;
    const std::vector<ZsetSmallEntry>* small_ = nullptr;
    size_t index_ = 0;
    const ZsetSkipNode* node_ = nullptr;
  };

  Iterator AtRank(size_t rank) const;  // rank < size(); 0 is the lowest score
  Iterator FirstInRange(const ScoreRange& range) const;
  Iterator LastInRange(const ScoreRange& range) const;
  Iterator FirstInRange(const LexRange& range) const;
  Iterator LastInRange(const LexRange& range) const;

  size_t Count(const ScoreRange& range) const;
  size_t Count(const LexRange& range) const;

  // Removals; each returns how many members went.
  size_t RemoveRange(const ScoreRange& range);
  size_t RemoveRange(const LexRange& range);
  size_t RemoveRanks(size_t start, size_t end);  // 0-based, inclusive, start <= end < size()

  // One ZSCAN step: fn(member, score). A listpack is returned whole with cursor 0, as Redis does.
  template <typename Fn>
  uint64_t Scan(uint64_t cursor, Fn&& fn) const;

  // zsetConvertToListpackIfNeeded: a skiplist within the limits becomes a listpack (the
  // STORE forms of the set algebra build their result as a skiplist first).
  void ConvertToListpackIfFits(const ZsetLimits& limits);

  size_t MemoryBytes() const;

  // zsetConvert to a skiplist, for loaders that build a listpack past the limits first.
  void ConvertToSkiplist();

 private:
  using Small = std::vector<ZsetSmallEntry>;
  using Large = std::unique_ptr<ZsetSkipList>;

  // Inserts into the listpack form at its place in score order.
  void SmallInsert(double score, std::string_view member);
  Iterator SmallAt(size_t index) const;
  Iterator LargeAt(const ZsetSkipNode* node) const;

  std::variant<Small, Large> data_;
};

template <typename Fn>
uint64_t ZsetValue::Scan(uint64_t cursor, Fn&& fn) const {
  if (const auto* small = std::get_if<Small>(&data_)) {
    for (const ZsetSmallEntry& e : *small) fn(std::string_view(e.member), e.score);
    return 0;
  }
  return std::get<Large>(data_)->Scan(cursor, fn);
}

}  // namespace redlab::server
