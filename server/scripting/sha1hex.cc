#include "server/scripting/sha1hex.h"

#include <openssl/evp.h>

#include "server/base/hex.h"

namespace redlab::server::scripting {

std::string Sha1Hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha1(), nullptr);
  return HexOf({digest, length});
}

}  // namespace redlab::server::scripting
