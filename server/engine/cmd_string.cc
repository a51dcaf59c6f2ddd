// String commands.
#include "server/engine/command_table.h"
#include "server/engine/context.h"
#include "server/engine/engine.h"
#include "server/engine/errors.h"
#include "server/engine/numbers.h"

namespace redlab::server::engine {
namespace {

void GetCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kString, &node)) return;
  if (node == nullptr) {
    ctx.reply().Null();
  } else {
    ctx.reply().Bulk(node->value.value.str());
  }
}

void SetCommand(CommandContext& ctx) {
  // Minimal form; the full option parser comes with the strings family.
  ctx.db().Set(ctx.arg(1), Object::FromString(ctx.arg(2)));
  ctx.MarkDirty();
  ctx.ReplyOk();
}

}  // namespace

void RegisterStringCommands(CommandTable& table) {
  table.Add({.name = "get", .arity = 2, .flags = kCmdReadonly | kCmdFast, .acl = kAclString,
             .keys = {KeyAt(1, kKeyRO | kKeyAccess)}, .proc = GetCommand, .group = "string",
             .since = "1.0.0", .summary = "Get the value of a key", .complexity = "O(1)"});
  table.Add({.name = "set", .arity = -3, .flags = kCmdWrite | kCmdDenyOom, .acl = kAclString,
             .keys = {KeyAt(1, kKeyRW | kKeyAccess | kKeyUpdate | kKeyVariableFlags)},
             .proc = SetCommand, .group = "string", .since = "1.0.0",
             .summary = "Set the string value of a key", .complexity = "O(1)"});
}

}  // namespace redlab::server::engine
