// A chained hash table keyed by binary strings, built like Redis's dict where it shows: the
// SCAN cursor (reverse-binary bucket order, so a scan that spans a resize misses nothing),
// random entries, and power-of-two tables that grow at load 1 and shrink below 10%.
// Nodes never move, so a Node* stays valid until that entry is erased. A node and its key share
// one allocation (the key's bytes follow the node), which keeps a small entry to one malloc.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <string_view>
#include <utility>

namespace redlab::server {

template <typename V>
class Dict {
 public:
  struct Node {
    Node* next;
    uint32_t key_size;
    V value;
    std::string_view key() const {
      return std::string_view(reinterpret_cast<const char*>(this + 1), key_size);
    }
  };

  Dict() = default;
  Dict(const Dict&) = delete;
  Dict& operator=(const Dict&) = delete;
  Dict(Dict&& other) noexcept { Swap(other); }
  Dict& operator=(Dict&& other) noexcept {
    if (this != &other) {
      Clear();
      Swap(other);
    }
    return *this;
  }
  ~Dict() { Clear(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t bucket_count() const { return buckets_ ? mask_ + 1 : 0; }

  Node* Find(std::string_view key) const {
    if (size_ == 0) return nullptr;
    for (Node* n = buckets_[Hash(key) & mask_]; n != nullptr; n = n->next) {
      if (n->key() == key) return n;
    }
    return nullptr;
  }

  // Inserts `key`, which must not be present.
  Node* Insert(std::string_view key, V value) {
    GrowIfNeeded();
    void* memory = ::operator new(sizeof(Node) + key.size());
    Node* n = new (memory) Node{nullptr, static_cast<uint32_t>(key.size()), std::move(value)};
    if (!key.empty()) std::memcpy(static_cast<void*>(n + 1), key.data(), key.size());
    Link(n);
    ++size_;
    return n;
  }

  // Returns the node for `key`, inserting a default value if absent; *inserted tells which.
  Node* FindOrInsert(std::string_view key, bool* inserted) {
    if (Node* n = Find(key)) {
      *inserted = false;
      return n;
    }
    *inserted = true;
    return Insert(key, V{});
  }

  bool Erase(std::string_view key) {
    Node* n = Find(key);
    if (n == nullptr) return false;
    Erase(n);
    return true;
  }

  void Erase(Node* node) {
    Node** link = &buckets_[Hash(node->key()) & mask_];
    while (*link != node) link = &(*link)->next;
    *link = node->next;
    Destroy(node);
    --size_;
    ShrinkIfNeeded();
  }

  void Clear() {
    if (buckets_ == nullptr) return;
    for (size_t i = 0; i <= mask_; ++i) {
      Node* n = buckets_[i];
      while (n != nullptr) {
        Node* next = n->next;
        Destroy(n);
        n = next;
      }
    }
    buckets_.reset();
    mask_ = 0;
    size_ = 0;
  }

  // Visits every node. `fn` must not insert or erase.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    if (buckets_ == nullptr) return;
    for (size_t i = 0; i <= mask_; ++i) {
      for (Node* n = buckets_[i]; n != nullptr; n = n->next) fn(n);
    }
  }

  // One SCAN step as Redis's dictScan: visits the bucket named by `cursor` and returns the next
  // cursor (0 when the scan is complete). `fn` must not insert or erase.
  template <typename Fn>
  uint64_t Scan(uint64_t cursor, Fn&& fn) const {
    if (size_ == 0) return 0;
    const uint64_t m = mask_;
    for (Node* n = buckets_[cursor & m]; n != nullptr; n = n->next) fn(n);
    // Increment the cursor's bits that are under the mask, starting from the most significant.
    cursor |= ~m;
    cursor = ReverseBits(cursor);
    ++cursor;
    return ReverseBits(cursor);
  }

  // A random node (nullptr when empty), every node equally likely, where Redis's
  // dictGetRandomKey (a random non-empty bucket, then a random chain element) favours the nodes
  // of short chains. Rejection sampling: a random bucket and a random position below
  // kChainBound, kept when the chain has a node there. A chain that long or longer (rare at
  // this table's load factor) is always kept, its nodes then slightly under-sampled.
  template <typename Rng>
  Node* Random(Rng& rng) const {
    if (size_ == 0) return nullptr;
    constexpr size_t kChainBound = 8;
    std::uniform_int_distribution<size_t> pick_bucket(0, mask_);
    while (true) {
      Node* head = buckets_[pick_bucket(rng)];
      size_t len = 0;
      for (Node* n = head; n != nullptr; n = n->next) ++len;
      if (len == 0) continue;
      size_t position =
          std::uniform_int_distribution<size_t>(0, std::max(len, kChainBound) - 1)(rng);
      if (position >= len) continue;
      while (position-- > 0) head = head->next;
      return head;
    }
  }

  // Bytes used by the table itself (bucket array and node headers; keys are inside the nodes).
  size_t OverheadBytes() const { return bucket_count() * sizeof(Node*) + size_ * sizeof(Node); }

 private:
  static constexpr size_t kInitialBuckets = 4;

  static size_t Hash(std::string_view key) { return std::hash<std::string_view>{}(key); }

  static uint64_t ReverseBits(uint64_t v) {
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((v & 0x0F0F0F0F0F0F0F0FULL) << 4);
    v = ((v >> 8) & 0x00FF00FF00FF00FFULL) | ((v & 0x00FF00FF00FF00FFULL) << 8);
    v = ((v >> 16) & 0x0000FFFF0000FFFFULL) | ((v & 0x0000FFFF0000FFFFULL) << 16);
    return (v >> 32) | (v << 32);
  }

  static void Destroy(Node* n) {
    n->~Node();
    ::operator delete(n);
  }

  void Link(Node* n) {
    Node*& head = buckets_[Hash(n->key()) & mask_];
    n->next = head;
    head = n;
  }

  void GrowIfNeeded() {
    if (buckets_ == nullptr) {
      Rehash(kInitialBuckets);
    } else if (size_ + 1 > mask_ + 1) {
      Rehash((mask_ + 1) * 2);
    }
  }

  void ShrinkIfNeeded() {
    size_t buckets = mask_ + 1;
    if (size_ == 0) {
      buckets_.reset();
      mask_ = 0;
      return;
    }
    if (buckets > kInitialBuckets && size_ * 10 < buckets) {
      size_t target = kInitialBuckets;
      while (target < size_) target *= 2;
      Rehash(target);
    }
  }

  void Rehash(size_t new_buckets) {
    std::unique_ptr<Node*[]> old = std::move(buckets_);
    size_t old_count = old ? mask_ + 1 : 0;
    buckets_ = std::make_unique<Node*[]>(new_buckets);  // value-initialised: all nullptr
    mask_ = new_buckets - 1;
    for (size_t i = 0; i < old_count; ++i) {
      Node* n = old[i];
      while (n != nullptr) {
        Node* next = n->next;
        Link(n);
        n = next;
      }
    }
  }

  void Swap(Dict& other) noexcept {
    std::swap(buckets_, other.buckets_);
    std::swap(mask_, other.mask_);
    std::swap(size_, other.size_);
  }

  std::unique_ptr<Node*[]> buckets_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace redlab::server
