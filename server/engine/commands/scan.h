// What SCAN, HSCAN, SSCAN and ZSCAN share: the cursor, the COUNT / MATCH / TYPE options with
// Redis's checks and texts, and the reply shape [cursor, [elements...]].
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/data/keyspace.h"

namespace redlab::server::engine {

class CommandContext;

struct ScanOptions {
  int64_t count = 10;
  std::string_view pattern;              // empty when no MATCH, or MATCH *
  std::optional<std::string_view> type;  // SCAN's TYPE filter

  bool Matches(std::string_view element) const;
};

// parseScanCursorOrReply: strtoul over the whole argument ("invalid cursor" otherwise).
bool ParseScanCursor(CommandContext& ctx, size_t index, uint64_t* cursor);
// Options from argument `first` on. TYPE is accepted only when `allow_type` (SCAN).
bool ParseScanOptions(CommandContext& ctx, size_t first, bool allow_type, ScanOptions* options);
// How HSCAN, SSCAN and ZSCAN start (scanGenericCommand's callers): the cursor first, then the key
// (WRONGTYPE for another type; a missing key answers an empty scan before the options are
// looked at), then the options from argument 3. The key's node, or nullptr once it has replied.
Db::Node* StartKeyScan(CommandContext& ctx, ObjectType type, uint64_t* cursor,
                       ScanOptions* options);
// [cursor as a bulk string, [elements]].
void ReplyScan(CommandContext& ctx, uint64_t cursor, const std::vector<std::string_view>& elements);

}  // namespace redlab::server::engine
