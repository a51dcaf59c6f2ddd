// Helpers for the scripting suites: the SHA1 of a script (computed here with OpenSSL, not by the
// server under test) and the error a failing script gets.
#pragma once

#include <openssl/evp.h>

#include <string>
#include <string_view>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {

inline std::string Sha1(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha1(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xf]);
  }
  return out;
}

// The error reply of a script that failed with `message` at `line` (Redis appends where).
inline Reply ScriptError(std::string_view message, std::string_view body, int line = 1) {
  return Error(std::string(message) + " script: " + Sha1(body) +
               ", on @user_script:" + std::to_string(line) + ".");
}

}  // namespace redlab::conformance
