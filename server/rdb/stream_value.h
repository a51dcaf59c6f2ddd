// Redis 7.0's rdb.c for streams: RDB_TYPE_STREAM_LISTPACKS_2 as 7.0 writes it (each node's
// 128-bit master ID and listpack, then length, last, first and max-deleted IDs and
// entries_added, then the consumer groups with their PELs and consumers), and reading it and
// RDB_TYPE_STREAM_LISTPACKS.
#pragma once

#include <cstdint>

#include "server/data/object.h"
#include "server/rdb/format.h"

namespace redlab::server::rdb {

void EncodeStream(RdbWriter& w, const server::StreamValue& s);
// Throws RdbCorrupt.
server::Object DecodeStream(uint8_t type, RdbReader& r);

}  // namespace redlab::server::rdb
