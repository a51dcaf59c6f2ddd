// A connection's input buffer: bytes read from the socket and not yet parsed. Reads go straight
// into its free tail; parsed bytes are dropped from the front lazily, so a pipeline of small
// requests costs no copying per request.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>

namespace redlab::server::net {

class QueryBuffer {
 public:
  // Unparsed bytes.
  std::string_view data() const { return {buf_.get() + start_, end_ - start_}; }
  size_t size() const { return end_ - start_; }
  size_t capacity() const { return cap_; }
  size_t free_space() const { return cap_ - end_; }

  // Makes room for at least `n` more bytes and returns where to write them.
  char* PrepareWrite(size_t n) {
    if (cap_ - end_ < n) Grow(n);
    return buf_.get() + end_;
  }
  void CommitWrite(size_t n) { end_ += n; }
  void Consume(size_t n) {
    start_ += n;
    if (start_ == end_) start_ = end_ = 0;
  }
  // Gives back memory after a burst: a large, mostly empty buffer shrinks to `keep` bytes.
  void ShrinkIfIdle(size_t keep) {
    if (cap_ > keep * 4 && size() < keep) Reallocate(keep);
  }

 private:
  void Grow(size_t n) {
    size_t used = size();
    if (start_ > 0 && cap_ - used >= n && used < cap_ / 2) {
      std::memmove(buf_.get(), buf_.get() + start_, used);  // compact in place
      start_ = 0;
      end_ = used;
      return;
    }
    size_t want = used + n;
    size_t new_cap = cap_ ? cap_ : 16 * 1024;
    while (new_cap < want) new_cap *= 2;
    Reallocate(new_cap);
  }
  void Reallocate(size_t new_cap) {
    size_t used = size();
    std::unique_ptr<char[]> next(new char[new_cap]);
    if (used) std::memcpy(next.get(), buf_.get() + start_, used);
    buf_ = std::move(next);
    cap_ = new_cap;
    start_ = 0;
    end_ = used;
  }

  std::unique_ptr<char[]> buf_;
  size_t cap_ = 0;
  size_t start_ = 0;
  size_t end_ = 0;
};

}  // namespace redlab::server::net
