// Redis 7.0's t_stream.c stream IDs: streamIncrID, streamDecrID and the parsing of
// streamGenericParseIDOrReply.
#include "server/data/stream_id.h"

#include <charconv>

namespace redlab::server {
namespace {

// Accepts what string2ull accepts: decimal digits only, no sign, within 64 bits.
bool ParseU64(std::string_view s, uint64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::string StreamId::ToString() const { return std::to_string(ms) + "-" + std::to_string(seq); }

bool StreamId::Increment() {
  if (seq == UINT64_MAX) {
    if (ms == UINT64_MAX) {
      ms = seq = 0;
      return false;
    }
    ++ms;
    seq = 0;
  } else {
    ++seq;
  }
  return true;
}

bool StreamId::Decrement() {
  if (seq == 0) {
    if (ms == 0) {
      ms = seq = UINT64_MAX;
      return false;
    }
    --ms;
    seq = UINT64_MAX;
  } else {
    --seq;
  }
  return true;
}

bool ParseStreamId(std::string_view s, uint64_t missing_seq, bool strict, StreamId* id,
                   bool* seq_given) {
  if (s.size() > 127) return false;
  if (strict && (s == "-" || s == "+")) return false;
  if (seq_given != nullptr) *seq_given = true;
  if (s == "-") {
    *id = {0, 0};
    return true;
  }
  if (s == "+") {
    *id = StreamId::Max();
    return true;
  }
  size_t dash = s.find('-');
  uint64_t ms = 0, seq = missing_seq;
  if (!ParseU64(s.substr(0, dash), &ms)) return false;
  if (dash != std::string_view::npos) {
    std::string_view rest = s.substr(dash + 1);
    if (seq_given != nullptr && rest == "*") {
      seq = 0;
      *seq_given = false;
    } else if (!ParseU64(rest, &seq)) {
      return false;
    }
  }
  *id = {ms, seq};
  return true;
}

}  // namespace redlab::server
