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
  StreamNode(StreamNode&& other) noexcept : lp_(other.lp_), cap_(other.cap_) {
    other.lp_ = nullptr;
    other.cap_ = 0;
  }
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
  // lpNext (the end's offset after the last element). Inline for the forms stream entries
  // mostly hold: 7-bit integers and short strings.
  size_t Next(size_t p) const {
    uint8_t b = lp_[p];
    if (b < 0x80) return p + 2;
    if ((b & 0xC0) == 0x80) return p + 2 + (b & 0x3F);  // 6-bit string: back-length of 1
    return NextSlow(p);
  }
  // lpPrev: p must not be First().
  size_t Prev(size_t p) const {
    uint8_t b = lp_[p - 1];
    if (b < 0x80) return p - 1 - b;  // a one-byte back-length
    return PrevSlow(p);
  }
  // The element at p: its integer (lpGetInteger of an element stored as an integer, or a
  // string that reads as one), or its text, integers formatted into `buf` (kIntBufSize).
  int64_t GetInteger(size_t p) const { return lp_[p] < 0x80 ? lp_[p] : GetIntegerSlow(p); }
  std::string_view Get(size_t p, char* buf) const;

  // lpAppend (an integer form when `s` reads as an int64) and lpAppendInteger.
  void Append(std::string_view s);
  void AppendInteger(int64_t v);
  // lpReplaceInteger: the element at p becomes `v`; elements after it may move.
  void ReplaceInteger(size_t p, int64_t v);
  // Room for `extra` more bytes, so the appends that follow do not reallocate.
  void Reserve(size_t extra) { Grow(bytes() + extra); }
  // lpShrinkToFit: the allocation down to the listpack's bytes.
  void ShrinkToFit();

 private:
  // The allocation made to hold at least `need` bytes (a quarter more when it must grow).
  void Grow(size_t need);
  size_t NextSlow(size_t p) const;
  size_t PrevSlow(size_t p) const;
  int64_t GetIntegerSlow(size_t p) const;
  // Replaces `old_len` bytes at p with the `n` bytes of `data`, the listpack resized.
  void Splice(size_t p, size_t old_len, const uint8_t* data, size_t n, bool count_one_more);
  void SetBytes(size_t n);

  uint8_t* lp_ = nullptr;
  size_t cap_ = 0;  // the allocation's usable size
};

}  // namespace redlab::server
