#include "server/data/zset_skiplist.h"

#include <new>

namespace redlab::server {
namespace {

using Node = ZsetSkipNode;

// Whether `x` sorts before (score, member): by score, then by member bytes.
bool Before(const Node* x, double score, std::string_view member) {
  return x->score < score || (x->score == score && x->member() < member);
}

// What a range compares: a node's score for a ScoreRange, its member for a LexRange.
double RangeKey(const ScoreRange&, const Node* x) { return x->score; }
std::string_view RangeKey(const LexRange&, const Node* x) { return x->member(); }

}  // namespace

ZsetSkipList::ZsetSkipList() : header_(NewNode(kMaxLevel, 0, nullptr)) {}

ZsetSkipList::~ZsetSkipList() {
  Node* x = header_->level()[0].forward;
  FreeNode(header_);
  while (x != nullptr) {
    Node* next = x->level()[0].forward;
    FreeNode(x);
    x = next;
  }
  // The index frees the members itself.
}

ZsetSkipNode* ZsetSkipList::NewNode(int levels, double score, const ZsetIndex::Node* entry) {
  void* raw = ::operator new(sizeof(Node) + static_cast<size_t>(levels) * sizeof(Node::Level));
  Node* n = new (raw) Node{score, entry, nullptr, levels};
  for (int i = 0; i < levels; ++i) n->level()[i] = {nullptr, 0};
  return n;
}

void ZsetSkipList::FreeNode(Node* node) { ::operator delete(node); }

// zslRandomLevel: each further level with probability 1/4 (ZSKIPLIST_P), from xorshift64*.
int ZsetSkipList::RandomLevel() {
  int level = 1;
  while (level < kMaxLevel) {
    rng_state_ ^= rng_state_ >> 12;
    rng_state_ ^= rng_state_ << 25;
    rng_state_ ^= rng_state_ >> 27;
    uint64_t r = rng_state_ * 0x2545F4914F6CDD1DULL;
    if (((r >> 32) & 0xFFFF) >= 0xFFFF / 4) break;
    ++level;
  }
  return level;
}

const ZsetSkipNode* ZsetSkipList::Find(std::string_view member) const {
  const ZsetIndex::Node* entry = index_.Find(member);
  return entry ? entry->value : nullptr;
}

void ZsetSkipList::Insert(double score, std::string_view member) {
  ZsetIndex::Node* entry = index_.Insert(member, nullptr);
  entry->value = InsertNode(score, entry);
}

// zslInsert: find the insertion point on every level, remembering the rank crossed on each so
// the spans of the new node and of its predecessors can be set.
ZsetSkipNode* ZsetSkipList::InsertNode(double score, const ZsetIndex::Node* entry) {
  Node* update[kMaxLevel];
  size_t rank[kMaxLevel];
  std::string_view member = entry->key();
  Node* x = header_;
  for (int i = level_ - 1; i >= 0; --i) {
    rank[i] = i == level_ - 1 ? 0 : rank[i + 1];
    while (x->level()[i].forward != nullptr && Before(x->level()[i].forward, score, member)) {
      rank[i] += x->level()[i].span;
      x = x->level()[i].forward;
    }
    update[i] = x;
  }
  int level = RandomLevel();
  if (level > level_) {
    for (int i = level_; i < level; ++i) {
      rank[i] = 0;
      update[i] = header_;
      update[i]->level()[i].span = length_;
    }
    level_ = level;
  }
  x = NewNode(level, score, entry);
  for (int i = 0; i < level; ++i) {
    x->level()[i].forward = update[i]->level()[i].forward;
    update[i]->level()[i].forward = x;
    x->level()[i].span = update[i]->level()[i].span - (rank[0] - rank[i]);
    update[i]->level()[i].span = (rank[0] - rank[i]) + 1;
  }
  for (int i = level; i < level_; ++i) update[i]->level()[i].span++;
  x->backward = update[0] == header_ ? nullptr : update[0];
  if (x->level()[0].forward != nullptr) {
    x->level()[0].forward->backward = x;
  } else {
    tail_ = x;
  }
  ++length_;
  return x;
}

// zslDeleteNode: unlink `x`, whose predecessor on each level is update[i].
void ZsetSkipList::DeleteNode(Node* x, Node** update) {
  for (int i = 0; i < level_; ++i) {
    if (update[i]->level()[i].forward == x) {
      update[i]->level()[i].span += x->level()[i].span - 1;
      update[i]->level()[i].forward = x->level()[i].forward;
    } else {
      update[i]->level()[i].span -= 1;
    }
  }
  if (x->level()[0].forward != nullptr) {
    x->level()[0].forward->backward = x->backward;
  } else {
    tail_ = x->backward;
  }
  while (level_ > 1 && header_->level()[level_ - 1].forward == nullptr) --level_;
  --length_;
}

void ZsetSkipList::Drop(Node* node) {
  // The index entry owns the member the node points at: erase it first, then the node.
  index_.Erase(const_cast<ZsetIndex::Node*>(node->entry));
  FreeNode(node);
}

ZsetSkipNode* ZsetSkipList::FindUpdatePath(const Node* target, Node** update) {
  std::string_view member = target->member();
  Node* x = header_;
  for (int i = level_ - 1; i >= 0; --i) {
    while (x->level()[i].forward != nullptr &&
           Before(x->level()[i].forward, target->score, member)) {
      x = x->level()[i].forward;
    }
    update[i] = x;
  }
  return x->level()[0].forward;  // == target
}

void ZsetSkipList::UpdateScore(const Node* target, double score) {
  Node* update[kMaxLevel];
  Node* x = FindUpdatePath(target, update);
  // Still between its neighbours: the node keeps its place.
  if ((x->backward == nullptr || x->backward->score < score) &&
      (x->level()[0].forward == nullptr || x->level()[0].forward->score > score)) {
    x->score = score;
    return;
  }
  const ZsetIndex::Node* entry = x->entry;
  DeleteNode(x, update);
  FreeNode(x);
  const_cast<ZsetIndex::Node*>(entry)->value = InsertNode(score, entry);
}

bool ZsetSkipList::Remove(std::string_view member) {
  ZsetIndex::Node* entry = index_.Find(member);
  if (entry == nullptr) return false;
  const Node* target = entry->value;
  Node* update[kMaxLevel];
  Node* x = FindUpdatePath(target, update);
  DeleteNode(x, update);
  Drop(x);
  return true;
}

size_t ZsetSkipList::RankOf(const Node* node) const {
  size_t rank = 0;
  const Node* x = header_;
  std::string_view member = node->member();
  for (int i = level_ - 1; i >= 0; --i) {
    while (x->level()[i].forward != nullptr &&
           (Before(x->level()[i].forward, node->score, member) || x->level()[i].forward == node)) {
      rank += x->level()[i].span;
      x = x->level()[i].forward;
    }
    if (x == node) return rank - 1;
  }
  return rank - 1;  // not reached for a node of this list
}

const ZsetSkipNode* ZsetSkipList::AtRank(size_t rank) const {
  size_t target = rank + 1;  // spans count from the header
  size_t traversed = 0;
  const Node* x = header_;
  for (int i = level_ - 1; i >= 0; --i) {
    while (x->level()[i].forward != nullptr && traversed + x->level()[i].span <= target) {
      traversed += x->level()[i].span;
      x = x->level()[i].forward;
    }
    if (traversed == target) return x;
  }
  return nullptr;
}

// zslIsInRange / zslIsInLexRange: whether any node can be in range.
template <typename Range>
bool ZsetSkipList::IsInRange(const Range& range) const {
  if (range.Empty()) return false;
  if (tail_ == nullptr || !range.GteMin(RangeKey(range, tail_))) return false;
  const Node* first_node = first();
  return first_node != nullptr && range.LteMax(RangeKey(range, first_node));
}

template <typename Range>
const ZsetSkipNode* ZsetSkipList::FirstIn(const Range& range) const {
  if (!IsInRange(range)) return nullptr;
  const Node* x = header_;
  for (int i = level_ - 1; i >= 0; --i) {
    while (x->level()[i].forward != nullptr &&
           !range.GteMin(RangeKey(range, x->level()[i].forward))) {
      x = x->level()[i].forward;
    }
  }
  x = x->level()[0].forward;
  return range.LteMax(RangeKey(range, x)) ? x : nullptr;
}

template <typename Range>
const ZsetSkipNode* ZsetSkipList::LastIn(const Range& range) const {
  if (!IsInRange(range)) return nullptr;
  const Node* x = header_;
  for (int i = level_ - 1; i >= 0; --i) {
    while (x->level()[i].forward != nullptr &&
           range.LteMax(RangeKey(range, x->level()[i].forward))) {
      x = x->level()[i].forward;
    }
  }
  return range.GteMin(RangeKey(range, x)) ? x : nullptr;
}

// zslDeleteRangeByScore / zslDeleteRangeByLex: walk to the last node below the range, then
// unlink while in range.
template <typename Range>
size_t ZsetSkipList::RemoveIn(const Range& range) {
  Node* update[kMaxLevel];
  Node* x = header_;
  for (int i = level_ - 1; i >= 0; --i) {
    while (x->level()[i].forward != nullptr &&
           !range.GteMin(RangeKey(range, x->level()[i].forward))) {
      x = x->level()[i].forward;
    }
    update[i] = x;
  }
  x = x->level()[0].forward;
  size_t removed = 0;
  while (x != nullptr && range.LteMax(RangeKey(range, x))) {
    Node* next = x->level()[0].forward;
    DeleteNode(x, update);
    Drop(x);
    ++removed;
    x = next;
  }
  return removed;
}

const ZsetSkipNode* ZsetSkipList::FirstInRange(const ScoreRange& r) const { return FirstIn(r); }
const ZsetSkipNode* ZsetSkipList::LastInRange(const ScoreRange& r) const { return LastIn(r); }
const ZsetSkipNode* ZsetSkipList::FirstInRange(const LexRange& r) const { return FirstIn(r); }
const ZsetSkipNode* ZsetSkipList::LastInRange(const LexRange& r) const { return LastIn(r); }
size_t ZsetSkipList::RemoveRange(const ScoreRange& range) { return RemoveIn(range); }
size_t ZsetSkipList::RemoveRange(const LexRange& range) { return RemoveIn(range); }

size_t ZsetSkipList::RemoveRanks(size_t start, size_t end) {
  // zslDeleteRangeByRank works with 1-based ranks.
  size_t first = start + 1, last = end + 1;
  Node* update[kMaxLevel];
  size_t traversed = 0;
  Node* x = header_;
  for (int i = level_ - 1; i >= 0; --i) {
    while (x->level()[i].forward != nullptr && traversed + x->level()[i].span < first) {
      traversed += x->level()[i].span;
      x = x->level()[i].forward;
    }
    update[i] = x;
  }
  ++traversed;
  x = x->level()[0].forward;
  size_t removed = 0;
  while (x != nullptr && traversed <= last) {
    Node* next = x->level()[0].forward;
    DeleteNode(x, update);
    Drop(x);
    ++removed;
    ++traversed;
    x = next;
  }
  return removed;
}

size_t ZsetSkipList::MemoryBytes() const {
  size_t bytes =
      sizeof(*this) + index_.OverheadBytes() + sizeof(Node) + kMaxLevel * sizeof(Node::Level);
  for (const Node* x = first(); x != nullptr; x = x->next()) {
    bytes +=
        sizeof(Node) + static_cast<size_t>(x->levels) * sizeof(Node::Level) + x->member().size();
  }
  return bytes;
}

}  // namespace redlab::server
