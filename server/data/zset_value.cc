#include "server/data/zset_value.h"

#include <cmath>

namespace redlab::server {
namespace {

constexpr size_t kNoIndex = static_cast<size_t>(-1);

// A listpack keeps scores as text written by d2string, which prints -0 as "0": a zero score
// read back from a listpack is always +0.
double ListpackScore(double score) { return score == 0 ? 0.0 : score; }

}  // namespace

ZsetValue::ZsetValue(Encoding encoding) {
  if (encoding == Encoding::kSkiplist) data_ = std::make_unique<ZsetSkipList>();
}

ZsetValue::~ZsetValue() = default;

ZsetValue::Encoding ZsetValue::EncodingFor(const ZsetLimits& limits,
                                           std::string_view first_member) {
  return limits.max_entries == 0 || limits.max_value < first_member.size() ? Encoding::kSkiplist
                                                                           : Encoding::kListpack;
}

size_t ZsetValue::size() const {
  if (const auto* small = std::get_if<Small>(&data_)) return small->size();
  return std::get<Large>(data_)->size();
}

bool ZsetValue::Score(std::string_view member, double* score) const {
  if (const auto* small = std::get_if<Small>(&data_)) {
    for (const ZsetSmallEntry& e : *small) {
      if (e.member == member) {
        *score = e.score;
        return true;
      }
    }
    return false;
  }
  const ZsetSkipNode* node = std::get<Large>(data_)->Find(member);
  if (node == nullptr) return false;
  *score = node->score;
  return true;
}

void ZsetValue::SmallInsert(double score, std::string_view member) {
  Small& small = std::get<Small>(data_);
  score = ListpackScore(score);
  // zzlInsert: before the first element with a greater score, or an equal score and a greater
  // member.
  auto it = small.begin();
  while (it != small.end() &&
         !(it->score > score || (it->score == score && std::string_view(it->member) > member))) {
    ++it;
  }
  small.insert(it, ZsetSmallEntry{std::string(member), score});
}

ZaddResult ZsetValue::Add(double score, std::string_view member, uint32_t flags,
                          const ZsetLimits& limits, double* new_score) {
  const bool incr = flags & kZaddIncr, nx = flags & kZaddNx, xx = flags & kZaddXx;
  const bool gt = flags & kZaddGt, lt = flags & kZaddLt;
  if (std::isnan(score)) return ZaddResult::kNaN;

  // The checks Redis makes on an existing member, whatever the encoding.
  auto update = [&](double current, double* target) -> ZaddResult {
    if (nx) return ZaddResult::kSkipped;
    if (incr) {
      *target += current;
      if (std::isnan(*target)) return ZaddResult::kNaN;
    }
    if ((lt && *target >= current) || (gt && *target <= current)) return ZaddResult::kSkipped;
    *new_score = *target;
    return *target != current ? ZaddResult::kUpdated : ZaddResult::kUnchanged;
  };

  if (auto* small = std::get_if<Small>(&data_)) {
    for (auto it = small->begin(); it != small->end(); ++it) {
      if (it->member != member) continue;
      ZaddResult result = update(it->score, &score);
      if (result == ZaddResult::kUpdated) {
        std::string moved = std::move(it->member);
        small->erase(it);
        SmallInsert(score, moved);
      }
      return result;
    }
    if (xx) return ZaddResult::kSkipped;
    if (small->size() + 1 > limits.max_entries || member.size() > limits.max_value) {
      ConvertToSkiplist();
    } else {
      SmallInsert(score, member);
      *new_score = score;
      return ZaddResult::kAdded;
    }
  }

  ZsetSkipList& large = *std::get<Large>(data_);
  if (const ZsetSkipNode* node = large.Find(member)) {
    ZaddResult result = update(node->score, &score);
    if (result == ZaddResult::kUpdated) large.UpdateScore(node, score);
    return result;
  }
  if (xx) return ZaddResult::kSkipped;
  large.Insert(score, member);
  *new_score = score;
  return ZaddResult::kAdded;
}

bool ZsetValue::Remove(std::string_view member) {
  if (auto* small = std::get_if<Small>(&data_)) {
    for (auto it = small->begin(); it != small->end(); ++it) {
      if (it->member == member) {
        small->erase(it);
        return true;
      }
    }
    return false;
  }
  return std::get<Large>(data_)->Remove(member);
}

int64_t ZsetValue::Rank(std::string_view member, bool reverse) const {
  size_t rank = 0;
  if (const auto* small = std::get_if<Small>(&data_)) {
    while (rank < small->size() && (*small)[rank].member != member) ++rank;
    if (rank == small->size()) return -1;
  } else {
    const ZsetSkipList& large = *std::get<Large>(data_);
    const ZsetSkipNode* node = large.Find(member);
    if (node == nullptr) return -1;
    rank = large.RankOf(node);
  }
  return static_cast<int64_t>(reverse ? size() - 1 - rank : rank);
}

void ZsetValue::Iterator::Next() {
  if (small_ != nullptr) {
    ++index_;
  } else {
    node_ = node_->next();
  }
}

void ZsetValue::Iterator::Prev() {
  if (small_ != nullptr) {
    index_ = index_ == 0 ? kNoIndex : index_ - 1;
  } else {
    node_ = node_->backward;
  }
}

ZsetValue::Iterator ZsetValue::SmallAt(size_t index) const {
  Iterator it;
  it.small_ = &std::get<Small>(data_);
  it.index_ = index;
  return it;
}

ZsetValue::Iterator ZsetValue::LargeAt(const ZsetSkipNode* node) const {
  Iterator it;
  it.node_ = node;
  return it;
}

ZsetValue::Iterator ZsetValue::AtRank(size_t rank) const {
  if (std::holds_alternative<Small>(data_)) return SmallAt(rank);
  return LargeAt(std::get<Large>(data_)->AtRank(rank));
}

namespace {

// What a range compares in a listpack entry: the score for a ScoreRange, the member for a
// LexRange.
double RangeKey(const ScoreRange&, const ZsetSmallEntry& e) { return e.score; }
std::string_view RangeKey(const LexRange&, const ZsetSmallEntry& e) { return e.member; }

// Whether no entry of a listpack can be in range (zzlIsInRange / zzlIsInLexRange).
template <typename Range>
bool SmallOutOfRange(const std::vector<ZsetSmallEntry>& small, const Range& range) {
  return range.Empty() || small.empty() || !range.GteMin(RangeKey(range, small.back())) ||
         !range.LteMax(RangeKey(range, small.front()));
}

// The index of the first entry of a listpack in range, or kNoIndex.
template <typename Range>
size_t SmallFirst(const std::vector<ZsetSmallEntry>& small, const Range& range) {
  if (SmallOutOfRange(small, range)) return kNoIndex;
  for (size_t i = 0; i < small.size(); ++i) {
    auto key = RangeKey(range, small[i]);
    if (range.GteMin(key)) return range.LteMax(key) ? i : kNoIndex;
  }
  return kNoIndex;
}

// The index of the last entry of a listpack in range, or kNoIndex.
template <typename Range>
size_t SmallLast(const std::vector<ZsetSmallEntry>& small, const Range& range) {
  if (SmallOutOfRange(small, range)) return kNoIndex;
  for (size_t i = small.size(); i-- > 0;) {
    auto key = RangeKey(range, small[i]);
    if (range.LteMax(key)) return range.GteMin(key) ? i : kNoIndex;
  }
  return kNoIndex;
}

// One past the last entry in range of the run that starts in range at `first`.
template <typename Range>
size_t SmallRunEnd(const std::vector<ZsetSmallEntry>& small, size_t first, const Range& range) {
  size_t end = first;
  while (end < small.size() && range.LteMax(RangeKey(range, small[end]))) ++end;
  return end;
}

template <typename Range>
size_t SmallCount(const std::vector<ZsetSmallEntry>& small, const Range& range) {
  size_t first = SmallFirst(small, range);
  return first == kNoIndex ? 0 : SmallRunEnd(small, first, range) - first;
}

template <typename Range>
size_t SmallRemove(std::vector<ZsetSmallEntry>& small, const Range& range) {
  size_t first = SmallFirst(small, range);
  if (first == kNoIndex) return 0;
  size_t end = SmallRunEnd(small, first, range);
  small.erase(small.begin() + static_cast<ptrdiff_t>(first),
              small.begin() + static_cast<ptrdiff_t>(end));
  return end - first;
}

}  // namespace

// The listpack searches walk the array as zzlFirstInRange and friends walk the listpack, so a
// set whose order the range does not follow (BYLEX over mixed scores) answers as Redis's does.
ZsetValue::Iterator ZsetValue::FirstInRange(const ScoreRange& range) const {
  if (const auto* small = std::get_if<Small>(&data_)) return SmallAt(SmallFirst(*small, range));
  return LargeAt(std::get<Large>(data_)->FirstInRange(range));
}

ZsetValue::Iterator ZsetValue::LastInRange(const ScoreRange& range) const {
  if (const auto* small = std::get_if<Small>(&data_)) return SmallAt(SmallLast(*small, range));
  return LargeAt(std::get<Large>(data_)->LastInRange(range));
}

ZsetValue::Iterator ZsetValue::FirstInRange(const LexRange& range) const {
  if (const auto* small = std::get_if<Small>(&data_)) return SmallAt(SmallFirst(*small, range));
  return LargeAt(std::get<Large>(data_)->FirstInRange(range));
}

ZsetValue::Iterator ZsetValue::LastInRange(const LexRange& range) const {
  if (const auto* small = std::get_if<Small>(&data_)) return SmallAt(SmallLast(*small, range));
  return LargeAt(std::get<Large>(data_)->LastInRange(range));
}

namespace {

// zcount / zlexcount over a skiplist: from the ranks of the first and last nodes in range.
template <typename Range>
size_t CountByRank(const ZsetSkipList& large, const Range& range) {
  const ZsetSkipNode* first = large.FirstInRange(range);
  if (first == nullptr) return 0;
  size_t count = large.size() - large.RankOf(first);
  if (const ZsetSkipNode* last = large.LastInRange(range)) {
    count -= large.size() - (large.RankOf(last) + 1);
  }
  return count;
}

}  // namespace

size_t ZsetValue::Count(const ScoreRange& range) const {
  if (const auto* large = std::get_if<Large>(&data_)) return CountByRank(**large, range);
  return SmallCount(std::get<Small>(data_), range);
}

size_t ZsetValue::Count(const LexRange& range) const {
  if (const auto* large = std::get_if<Large>(&data_)) return CountByRank(**large, range);
  return SmallCount(std::get<Small>(data_), range);
}

size_t ZsetValue::RemoveRange(const ScoreRange& range) {
  if (auto* large = std::get_if<Large>(&data_)) return (*large)->RemoveRange(range);
  return SmallRemove(std::get<Small>(data_), range);
}

size_t ZsetValue::RemoveRange(const LexRange& range) {
  if (auto* large = std::get_if<Large>(&data_)) return (*large)->RemoveRange(range);
  return SmallRemove(std::get<Small>(data_), range);
}

size_t ZsetValue::RemoveRanks(size_t start, size_t end) {
  if (auto* large = std::get_if<Large>(&data_)) return (*large)->RemoveRanks(start, end);
  Small& small = std::get<Small>(data_);
  small.erase(small.begin() + static_cast<ptrdiff_t>(start),
              small.begin() + static_cast<ptrdiff_t>(end) + 1);
  return end - start + 1;
}

void ZsetValue::ConvertToSkiplist() {
  Small small = std::move(std::get<Small>(data_));
  auto large = std::make_unique<ZsetSkipList>();
  for (const ZsetSmallEntry& e : small) large->Insert(e.score, e.member);
  data_ = std::move(large);
}

void ZsetValue::ConvertToListpackIfFits(const ZsetLimits& limits) {
  const auto* large = std::get_if<Large>(&data_);
  if (large == nullptr || (*large)->size() > limits.max_entries) return;
  for (const ZsetSkipNode* n = (*large)->first(); n != nullptr; n = n->next()) {
    if (n->member().size() > limits.max_value) return;
  }
  Small small;
  small.reserve((*large)->size());
  for (const ZsetSkipNode* n = (*large)->first(); n != nullptr; n = n->next()) {
    small.push_back(ZsetSmallEntry{std::string(n->member()), ListpackScore(n->score)});
  }
  data_ = std::move(small);
}

size_t ZsetValue::MemoryBytes() const {
  if (const auto* small = std::get_if<Small>(&data_)) {
    size_t bytes = sizeof(*this) + small->capacity() * sizeof(ZsetSmallEntry);
    for (const ZsetSmallEntry& e : *small) {
      if (e.member.size() > 15) bytes += e.member.capacity() + 1;
    }
    return bytes;
  }
  return sizeof(*this) + std::get<Large>(data_)->MemoryBytes();
}

}  // namespace redlab::server
