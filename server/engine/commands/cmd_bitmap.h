// Internal to the bitmap command family, which spans cmd_bitmap.cc (SETBIT, GETBIT, BITCOUNT,
// BITPOS, BITOP) and cmd_bitfield.cc (BITFIELD, BITFIELD_RO).
#pragma once

#include <cstdint>
#include <string_view>

#include "server/command/command_table.h"
#include "server/engine/core/context.h"

namespace redlab::server::engine {

// getBitOffsetFromArgument: a bit offset in argument `i`, at most proto-max-bulk-len bytes into
// a string (the master's stream is obeyed whatever the limit). With `field_bits` > 0 (BITFIELD),
// "#<n>" means n fields of that width. Replies Redis's error and returns false when invalid.
bool BitOffsetArg(CommandContext& ctx, size_t i, int field_bits, uint64_t* offset);

// lookupStringForBitCommand: the string at `key`, created or zero-padded so that bit `max_bit`
// exists, and left "raw" as Redis leaves a value it edits in place. *grown tells whether the key
// was created or lengthened. Returns nullptr after replying WRONGTYPE.
Db::Node* StringForBits(CommandContext& ctx, std::string_view key, uint64_t max_bit, bool* grown);

}  // namespace redlab::server::engine
