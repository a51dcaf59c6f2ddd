#include "client/script.h"

#include <openssl/sha.h>

#include "lua/scripts.h"

namespace redlab::client {

std::string Sha1Hex(std::string_view text) {
  unsigned char digest[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * SHA_DIGEST_LENGTH);
  for (unsigned char c : digest) {
    s += kHex[c >> 4];
    s += kHex[c & 0xf];
  }
  return s;
}

Script Script::Load(std::string_view name) {
  Script s;
  s.name = std::string(name);
  s.text = std::string(lua::ScriptText(name));
  s.sha = Sha1Hex(s.text);
  return s;
}

}  // namespace redlab::client
