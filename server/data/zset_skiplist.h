// The large form of a sorted set, as Redis's "skiplist" encoding: a skiplist ordered by (score,
// member bytes) whose links carry spans, so ranks are O(log n), plus a hash index from member to
// node. The member string lives once, in the index entry; the node points at it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "server/base/dict.h"
#include "server/data/zset_range.h"

namespace redlab::server {

struct ZsetSkipNode;
using ZsetIndex = Dict<ZsetSkipNode*>;

struct ZsetSkipNode {
  struct Level {
    ZsetSkipNode* forward;
    size_t span;  // elements crossed by following `forward` (rank arithmetic)
  };

  double score;
  const ZsetIndex::Node* entry;  // the index entry holding the member; nullptr for the header
  ZsetSkipNode* backward;        // previous node on level 0 (nullptr for the first)
  int levels;

  // The levels are allocated right after the node, in one allocation.
  Level* level() { return reinterpret_cast<Level*>(this + 1); }
  const Level* level() const { return reinterpret_cast<const Level*>(this + 1); }
  const ZsetSkipNode* next() const { return level()[0].forward; }
  std::string_view member() const { return entry->key(); }
};

class ZsetSkipList {
 public:
  using Node = ZsetSkipNode;
  static constexpr int kMaxLevel = 32;  // ZSKIPLIST_MAXLEVEL

  ZsetSkipList();
  ~ZsetSkipList();
  ZsetSkipList(const ZsetSkipList&) = delete;
  ZsetSkipList& operator=(const ZsetSkipList&) = delete;

  size_t size() const { return length_; }
  const Node* first() const { return header_->level()[0].forward; }
  const Node* last() const { return tail_; }

  const Node* Find(std::string_view member) const;
  // Inserts a member that is not present.
  void Insert(double score, std::string_view member);
  // Gives a present member a new score (zslUpdateScore: in place when the order allows).
  void UpdateScore(const Node* node, double score);
  bool Remove(std::string_view member);

  // 0-based rank of a node of this list.
  size_t RankOf(const Node* node) const;
  // The node at a 0-based rank (< size()).
  const Node* AtRank(size_t rank) const;

  const Node* FirstInRange(const ScoreRange& range) const;
  const Node* LastInRange(const ScoreRange& range) const;
  const Node* FirstInRange(const LexRange& range) const;
  const Node* LastInRange(const LexRange& range) const;

  // Removals; each returns how many members went.
  size_t RemoveRange(const ScoreRange& range);
  size_t RemoveRange(const LexRange& range);
  size_t RemoveRanks(size_t start, size_t end);  // 0-based, inclusive, end < size()

  // One ZSCAN step over the index (see Dict::Scan); fn(member, score).
  template <typename Fn>
  uint64_t Scan(uint64_t cursor, Fn&& fn) const {
    return index_.Scan(cursor, [&](const ZsetIndex::Node* n) { fn(n->key(), n->value->score); });
  }

  size_t MemoryBytes() const;

 private:
  static Node* NewNode(int levels, double score, const ZsetIndex::Node* entry);
  static void FreeNode(Node* node);
  int RandomLevel();
  Node* InsertNode(double score, const ZsetIndex::Node* entry);
  void DeleteNode(Node* x, Node** update);
  // Fills update[i] with the last node before `target` on each level and returns `target`
  // (the search zslDelete and zslUpdateScore start with).
  Node* FindUpdatePath(const Node* target, Node** update);
  // The searches of a score range and of a lex range, one code for both (Range is ScoreRange
  // or LexRange; defined and instantiated in zset_skiplist.cc).
  template <typename Range>
  bool IsInRange(const Range& range) const;
  template <typename Range>
  const Node* FirstIn(const Range& range) const;
  template <typename Range>
  const Node* LastIn(const Range& range) const;
  template <typename Range>
  size_t RemoveIn(const Range& range);
  // Frees a node already unlinked from the list, with its index entry.
  void Drop(Node* node);

  Node* header_;
  Node* tail_ = nullptr;
  size_t length_ = 0;
  int level_ = 1;
  // Node levels come from a per-list generator (no shared random state): they only shape the
  // list, never what it answers.
  uint64_t rng_state_ = 0x9E3779B97F4A7C15ULL;
  ZsetIndex index_;
};

}  // namespace redlab::server
