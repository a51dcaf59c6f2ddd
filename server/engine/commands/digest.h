// DEBUG DIGEST and DEBUG DIGEST-VALUE: Redis's SHA1-based digests of the dataset and of single
// values (debug.c's xorDigest/mixDigest), computed exactly as Redis computes them, so equal
// data gives equal digests on redlab and on redis-server. Unordered collections are xor-ed
// element by element, ordered ones chained; a TTL adds a fixed mark (not its time).
#pragma once

#include <string>

#include "server/data/keyspace.h"

namespace redlab::server::engine {

// 40 hex digits; all zeros for an empty dataset.
std::string DatasetDigest(Keyspace& keyspace);
// The digest of one entry's value and TTL mark (not its key).
std::string ValueDigest(const DbEntry& entry);

}  // namespace redlab::server::engine
