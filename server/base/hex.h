// Lower-case hex text: of bytes (SHA1/SHA256 digests, DEBUG DIGEST, ACL GENPASS) and of random
// digits (the run id, replication ids, a sentinel's id), as Redis's getRandomHexChars.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string>

namespace redlab::server {

inline constexpr char kLowerHexDigits[] = "0123456789abcdef";

// Two digits a byte, high nibble first.
inline std::string HexOf(std::span<const unsigned char> bytes) {
  std::string out(bytes.size() * 2, '0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    out[2 * i] = kLowerHexDigits[bytes[i] >> 4];
    out[2 * i + 1] = kLowerHexDigits[bytes[i] & 0xf];
  }
  return out;
}

// `length` random hex digits.
inline std::string RandomHex(size_t length) {
  std::random_device rd;
  std::mt19937_64 gen((static_cast<uint64_t>(rd()) << 32) ^ rd());
  std::string out(length, '0');
  for (char& c : out) c = kLowerHexDigits[gen() & 0xf];
  return out;
}

}  // namespace redlab::server
