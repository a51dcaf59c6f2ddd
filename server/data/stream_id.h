// Redis 7.0's stream.h streamID and t_stream.c's ID parsing (streamGenericParseIDOrReply).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace redlab::server {

struct StreamId {
  uint64_t ms = 0;
  uint64_t seq = 0;

  auto operator<=>(const StreamId&) const = default;
  bool zero() const { return ms == 0 && seq == 0; }
  std::string ToString() const;  // "<ms>-<seq>"
  // streamIncrID / streamDecrID: false (and wrapped) at the last / first possible ID.
  bool Increment();
  bool Decrement();
  static constexpr StreamId Max() { return {UINT64_MAX, UINT64_MAX}; }
};

// How a user-given ID reads (streamGenericParseIDOrReply). `strict` refuses "-" and "+"; with
// `seq_given` non-null "<ms>-*" is accepted (XADD) and reported as *seq_given = false.
bool ParseStreamId(std::string_view s, uint64_t missing_seq, bool strict, StreamId* id,
                   bool* seq_given = nullptr);

}  // namespace redlab::server
