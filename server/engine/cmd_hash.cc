// Hash commands.
#include "server/engine/command_table.h"
#include "server/engine/context.h"
#include "server/engine/engine.h"

namespace redlab::server::engine {
namespace {

void HGetCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kHash, &node)) return;
  const std::string* value = node ? node->value.value.hash().Get(ctx.arg(2)) : nullptr;
  if (value == nullptr) {
    ctx.reply().Null();
  } else {
    ctx.reply().Bulk(*value);
  }
}

}  // namespace

void RegisterHashCommands(CommandTable& table) {
  table.Add({.name = "hget", .arity = 3, .flags = kCmdReadonly | kCmdFast, .acl = kAclHash,
             .keys = {KeyAt(1, kKeyRO | kKeyAccess)}, .proc = HGetCommand, .group = "hash",
             .since = "2.0.0", .summary = "Get the value of a hash field", .complexity = "O(1)"});
}

}  // namespace redlab::server::engine
