// The set algebra: SINTER, SUNION, SDIFF, their STORE forms and SINTERCARD (registered with the
// other set commands in cmd_set.cc), plus the helpers both files share.
#pragma once

#include <cstddef>

#include "server/data/set_value.h"
#include "server/engine/core/context.h"

namespace redlab::server::engine {

// set-max-intset-entries, for SetValue::Add.
size_t MaxIntsetEntries(CommandContext& ctx);
// Replies a whole set as a RESP3 set (an array in RESP2), in the set's order.
void ReplySet(CommandContext& ctx, const SetValue& set);

void SinterCommand(CommandContext& ctx);
void SinterstoreCommand(CommandContext& ctx);
void SintercardCommand(CommandContext& ctx);
void SunionCommand(CommandContext& ctx);
void SunionstoreCommand(CommandContext& ctx);
void SdiffCommand(CommandContext& ctx);
void SdiffstoreCommand(CommandContext& ctx);

}  // namespace redlab::server::engine
