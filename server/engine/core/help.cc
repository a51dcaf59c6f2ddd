#include "server/engine/core/help.h"

#include "server/base/text.h"
#include "server/engine/core/context.h"

namespace redlab::server::engine {

void ReplySubcommandSyntaxError(CommandContext& ctx) {
  std::string_view sub = ctx.arg(1);
  if (size_t nul = sub.find('\0'); nul != std::string_view::npos) sub = sub.substr(0, nul);
  ctx.ReplyError("unknown subcommand or wrong number of arguments for '" +
                 std::string(sub.substr(0, 128)) + "'. Try " + ToUpper(ctx.arg(0)) + " HELP.");
}

void ReplyHelp(CommandContext& ctx, std::span<const std::string_view> lines) {
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(lines.size() + 3);
  r.Status(ToUpper(ctx.arg(0)) + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
  for (std::string_view line : lines) r.Status(line);
  r.Status("HELP");
  r.Status("    Prints this help.");
}

}  // namespace redlab::server::engine
