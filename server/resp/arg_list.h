// The arguments of one request. Slots keep their capacity between requests, so a connection
// that repeats commands of similar shape parses them without allocating.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace redlab::server::resp {

class ArgList {
 public:
  void Clear() { size_ = 0; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Appends an argument, reusing a slot left by an earlier request when there is one.
  std::string& Append(std::string_view value) {
    std::string& slot = NextSlot();
    slot.clear();  // clear + append: cheaper than assign, which allows for aliasing
    slot.append(value.data(), value.size());
    return slot;
  }
  // Appends an empty argument to be filled in place (bulk payloads arriving in pieces).
  std::string& AppendEmpty() {
    std::string& slot = NextSlot();
    slot.clear();
    return slot;
  }

  std::string& operator[](size_t i) { return slots_[i]; }
  const std::string& operator[](size_t i) const { return slots_[i]; }
  std::span<std::string> span() { return {slots_.data(), size_}; }
  std::span<const std::string> span() const { return {slots_.data(), size_}; }

  // Drops spare slots that hold large buffers, so one huge request does not pin its memory.
  void ShrinkIfLarge(size_t max_retained_bytes);

 private:
  std::string& NextSlot() {
    if (size_ == slots_.size()) slots_.emplace_back();
    return slots_[size_++];
  }
  std::vector<std::string> slots_;
  size_t size_ = 0;
};

inline void ArgList::ShrinkIfLarge(size_t max_retained_bytes) {
  for (size_t i = size_; i < slots_.size(); ++i) {
    if (slots_[i].capacity() > max_retained_bytes) std::string().swap(slots_[i]);
  }
  if (slots_.size() > 1024 && size_ < 1024) slots_.resize(1024);
}

}  // namespace redlab::server::resp
