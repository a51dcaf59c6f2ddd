#include "server/engine/commands/digest.h"

#include <openssl/evp.h>

#include <array>
#include <cstdio>
#include <cstring>

#include "server/base/hex.h"

namespace redlab::server::engine {
namespace {

using Digest = std::array<unsigned char, 20>;

Digest Sha1(const void* data, size_t len) {
  Digest out{};
  unsigned int n = 0;
  EVP_Digest(data, len, out.data(), &n, EVP_sha1(), nullptr);
  return out;
}

// digest ^= SHA1(data): order-independent accumulation.
void XorDigest(Digest& digest, std::string_view data) {
  Digest h = Sha1(data.data(), data.size());
  for (size_t i = 0; i < digest.size(); ++i) digest[i] ^= h[i];
}

// digest = SHA1(digest ^ SHA1(data)): order-dependent accumulation.
void MixDigest(Digest& digest, std::string_view data) {
  XorDigest(digest, data);
  digest = Sha1(digest.data(), digest.size());
}

std::string_view Bytes(const Digest& d) {
  return std::string_view(reinterpret_cast<const char*>(d.data()), d.size());
}

std::string Score(double score) {
  char buf[64];
  int n = std::snprintf(buf, sizeof(buf), "%.17g", score);
  return std::string(buf, static_cast<size_t>(n));
}

// A 32-bit number in network order (htonl), as Redis mixes type and database numbers.
std::string BigEndian32(uint32_t v) {
  char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
               static_cast<char>(v)};
  return std::string(b, 4);
}

// xorObjectDigest.
void MixValue(Digest& digest, const DbEntry& entry) {
  const Object& value = entry.value;
  MixDigest(digest, BigEndian32(static_cast<uint32_t>(value.type())));
  switch (value.type()) {
    case ObjectType::kString:
      MixDigest(digest, value.str());
      break;
    case ObjectType::kList:
      if (!value.list().empty()) {
        value.list().ForEach(0, value.list().size() - 1, false,
                             [&](std::string_view e) { MixDigest(digest, e); });
      }
      break;
    case ObjectType::kSet:
      value.set().ForEach([&](std::string_view m) { XorDigest(digest, m); });
      break;
    case ObjectType::kZset:
      for (auto it = value.zset().AtRank(0); value.zset().size() > 0 && it.valid(); it.Next()) {
        Digest element{};
        MixDigest(element, it.member());
        MixDigest(element, Score(it.score()));
        XorDigest(digest, Bytes(element));
      }
      break;
    case ObjectType::kHash:
      value.hash().ForEach([&](std::string_view f, std::string_view v) {
        Digest element{};
        MixDigest(element, f);
        MixDigest(element, v);
        XorDigest(digest, Bytes(element));
      });
      break;
    case ObjectType::kStream:
      value.stream().Range({}, StreamId::Max(), false, [&](const StreamValue::Entry& e) {
        MixDigest(digest, std::to_string(e.id.ms) + "." + std::to_string(e.id.seq));
        for (std::string_view f : e.fields) MixDigest(digest, f);
        return true;
      });
      break;
  }
  if (entry.expire_ms != kNoExpire) XorDigest(digest, "!!expire!!");
}

}  // namespace

std::string DatasetDigest(Keyspace& keyspace) {
  Digest final_digest{};
  for (int i = 0; i < keyspace.num_dbs(); ++i) {
    Db& db = keyspace.db(i);
    if (db.size() == 0) continue;
    // The database number is mixed in, so the same data in another database differs.
    MixDigest(final_digest, BigEndian32(static_cast<uint32_t>(i)));
    db.ForEach([&](const Db::Node* n) {
      Digest key_digest{};
      MixDigest(key_digest, n->key());
      MixValue(key_digest, n->value);
      XorDigest(final_digest, Bytes(key_digest));
    });
  }
  return HexOf(final_digest);
}

std::string ValueDigest(const DbEntry& entry) {
  Digest digest{};
  MixValue(digest, entry);
  return HexOf(digest);
}

}  // namespace redlab::server::engine
