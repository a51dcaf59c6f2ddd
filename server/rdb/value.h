// One value in Redis's RDB encoding (rdbSaveObjectType + rdbSaveObject, rdbLoadObject): what
// DUMP and RESTORE exchange, what DEBUG OBJECT measures, and what snapshot files and full
// resynchronisations are made of. Values are written as redis-server 7.0 writes them for the
// same encoding (listpack hashes and sorted sets, intsets, quicklists of listpacks, integer and
// LZF strings); every encoding Redis 7.0 can produce or still loads is read back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/data/hash_value.h"
#include "server/data/object.h"
#include "server/data/zset_value.h"
#include "server/rdb/format.h"

namespace redlab::server::rdb {

// What shapes values: the encoding limits values are loaded under, and how lists are cut into
// quicklist nodes and strings compressed when written.
struct ValueOptions {
  server::ListpackLimits hash;
  server::ZsetLimits zset;
  size_t set_max_intset_entries = 512;
  int list_fill = -2;                       // list-max-listpack-size
  size_t list_packed_threshold = 1u << 30;  // DEBUG QUICKLIST-PACKED-THRESHOLD
  bool compress = true;                     // rdbcompression
};

// A node of the quicklist Redis would hold for a list: `count` elements from `first`, in a
// listpack of `bytes` bytes, or one element alone in a plain node (at least the packed
// threshold long). redlab keeps lists in one sequence and cuts it as a list built by RPUSH is
// cut; a list Redis built otherwise (LPUSH, LINSERT...) may have its nodes elsewhere.
struct QuicklistNode {
  size_t first = 0;
  size_t count = 0;
  size_t bytes = 0;
  bool plain = false;
};
std::vector<QuicklistNode> QuicklistLayout(const server::ListValue& list, int fill,
                                           size_t packed_threshold);
// quicklistSetFill's bounds on list-max-listpack-size.
int ClampListFill(int64_t fill);

// The RDB type byte of a value (rdbSaveObjectType).
uint8_t ValueType(const server::Object& value);
// The value's RDB encoding without its type byte (rdbSaveObject).
void EncodeValue(RdbWriter& w, const server::Object& value, const ValueOptions& options);
// Reads a value of RDB type `type` (rdbLoadObject). nullopt for an empty collection (Redis
// refuses such keys); throws RdbCorrupt when the bytes are not a valid value.
std::optional<server::Object> DecodeValue(uint8_t type, RdbReader& r, const ValueOptions& options);

// DEBUG OBJECT's serializedlength (rdbSavedObjectLen).
size_t SerializedLength(const server::Object& value, const ValueOptions& options);

// DUMP's payload: type, value, RDB version (2 bytes) and CRC64 (8 bytes), little-endian.
std::string CreateDumpPayload(const server::Object& value, const ValueOptions& options);
// verifyDumpPayload: long enough, a version this server reads, and (unless skipped) a checksum
// that matches.
bool VerifyDumpPayload(std::string_view payload, bool skip_checksum);
// The value in a verified payload; nullopt when it is not one (RESTORE's "Bad data format").
// As in Redis, a value cut short is read on into the footer's bytes.
std::optional<server::Object> DecodeDumpPayload(std::string_view payload,
                                                const ValueOptions& options);

}  // namespace redlab::server::rdb
