// Key and argument patterns of `redlab bench` (as memtier_benchmark's key patterns, for
// scripts): text with placeholders expanded afresh for every call.
//
//   {rand:A..B}   a uniformly random integer in A..B (inclusive)       lock:{rand:1..100000}
//   {seq:A..B}    the next integer of A, A+1, ..., B, A, ... (one sequence per placeholder,
//                 shared by all clients)                                  job:{seq:1..1000000}
//   {client}      the number of the client (connection) making the call, from 0
//   {randstr:N}   N random characters from [0-9a-zA-Z]                    {randstr:16}:{client}
//
// Anything else, braces included, is literal, so Redis hash tags stay as written
// (`redisson_lock__channel:{lock}` has no placeholder). Bounds may be negative.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace redlab::tools::bench {

class Pattern {
 public:
  // Throws std::invalid_argument naming the bad placeholder (e.g. `{rand:5..1}`).
  explicit Pattern(const std::string& text);

  // Appends this call's expansion to `out`.
  void Expand(int client, std::mt19937_64& rng, std::string* out);
  std::string Expand(int client, std::mt19937_64& rng) {
    std::string s;
    Expand(client, rng, &s);
    return s;
  }
  const std::string& text() const { return text_; }
  bool is_literal() const;

 private:
  enum class Kind { kLiteral, kRand, kSeq, kClient, kRandStr };
  struct Part {
    Kind kind;
    std::string literal;
    int64_t low = 0, high = 0;  // rand, seq; randstr: high is the length
    int64_t next = 0;           // seq: the next value
  };

  std::string text_;
  std::vector<Part> parts_;
};

}  // namespace redlab::tools::bench
