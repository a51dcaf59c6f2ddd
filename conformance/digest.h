// Digests computed here with OpenSSL, not by the server under test: the SHA1 of a script (its
// EVALSHA name) and the SHA256 of a password (ACL's #<hash> form), as lowercase hex.
#pragma once

#include <openssl/evp.h>

#include <string>
#include <string_view>

namespace redlab::conformance {

inline std::string HexDigest(const EVP_MD* md, std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), digest, &length, md, nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xf]);
  }
  return out;
}

inline std::string Sha1(std::string_view data) { return HexDigest(EVP_sha1(), data); }
inline std::string Sha256Hex(std::string_view data) { return HexDigest(EVP_sha256(), data); }

}  // namespace redlab::conformance
