// Redis 7.0's listpack.c, the part a stream node uses: one listpack per node of the stream's radix
// tree, in listpack.c's layout byte for byte (so RDB and DUMP write a node's bytes as they are),
// grown and shrunk as t_stream.c grows it. Elements are addressed by their byte offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace redlab::server {

class StreamNode {
 public:
  // Room for an integer element formatted as text (lpGet's LP_INTBUF_SIZE).
  static constexpr size_t kIntBufSize = 21;
  static constexpr size_t kHeaderSize = 6;

  // An empty listpack (header and terminator) with room for `prealloc` bytes (lpNew).
  explicit StreamNode(size_t prealloc = 0);
  // A copy of listpack bytes, as they are (loading; the caller validated them).
  static StreamNode FromBytes(std::string_view lp);
  StreamNode(const StreamNode& other);
  StreamNode& operator=(const StreamNode& other);
  StreamNode(StreamNode&& other) noexcept : lp_(other.lp_) { other.lp_ = nullptr; }
  StreamNode& operator=(StreamNode&& other) noexcept;
  ~StreamNode();

  // lpBytes, and the listpack itself.
  size_t bytes() const;
  std::string_view view() const { return {reinterpret_cast<const char*>(lp_), bytes()}; }
  // What the allocation costs (usable size and the allocator's chunk header).
  size_t AllocatedBytes() const;

  // The first element's offset; an offset at the terminator is the end.
  static constexpr size_t First() { return kHeaderSize; }
  bool AtEnd(size_t p) const { return lp_[p] == 0xFF; }
  size_t Next(size_t p) const;  // lpNext (the end's offset after the last element)
  size_t Prev(size_t p) const;  // lpPrev: p must not be First()
  // The element at p: its integer (lpGetInteger of an element stored as an integer, or a
  // string that reads as one), or its text, integers formatted into `buf` (kIntBufSize).
  int64_t GetInteger(size_t p) const;
  std::string_view Get(size_t p, char* buf) const;

  // lpAppend (an integer form when `s` reads as an int64) and lpAppendInteger.
  void Append(std::string_view s);
  void AppendInteger(int64_t v);
  // lpReplaceInteger: the element at p becomes `v`; elements after it may move.
  void ReplaceInteger(size_t p, int64_t v);
  // lpShrinkToFit: the allocation down to the listpack's bytes.
  void ShrinkToFit();

 private:
  // Replaces `old_len` bytes at p with the `n` bytes of `data`, the listpack resized.
  void Splice(size_t p, size_t old_len, const uint8_t* data, size_t n, bool count_one_more);
  void SetBytes(size_t n);

  uint8_t* lp_ = nullptr;
};

}  // namespace redlab::server
