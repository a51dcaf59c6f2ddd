#include "server/engine/commands/scan.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "server/base/glob.h"
#include "server/base/numbers.h"
#include "server/engine/core/context.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {

bool ScanOptions::Matches(std::string_view element) const {
  return pattern.empty() || GlobMatch(pattern, element);
}

bool ParseScanCursor(CommandContext& ctx, size_t index, uint64_t* cursor) {
  const std::string& s = ctx.arg(index);
  errno = 0;
  char* end = nullptr;
  unsigned long value = std::strtoul(s.c_str(), &end, 10);
  // Like Redis, parsing stops at a NUL byte and an empty cursor means 0.
  if ((!s.empty() && std::isspace(static_cast<unsigned char>(s[0]))) || *end != '\0' ||
      errno == ERANGE) {
    ctx.ReplyError("invalid cursor");
    return false;
  }
  *cursor = value;
  return true;
}

bool ParseScanOptions(CommandContext& ctx, size_t first, bool allow_type, ScanOptions* options) {
  for (size_t i = first; i < ctx.argc();) {
    size_t left = ctx.argc() - i;
    if (ctx.ArgIs(i, "count") && left >= 2) {
      if (!ctx.IntArg(i + 1, &options->count)) return false;
      if (options->count < 1) {
        ctx.ReplySyntaxError();
        return false;
      }
      i += 2;
    } else if (ctx.ArgIs(i, "match") && left >= 2) {
      std::string_view pattern = ctx.arg(i + 1);
      options->pattern = pattern == "*" ? std::string_view() : pattern;
      i += 2;
    } else if (ctx.ArgIs(i, "type") && allow_type && left >= 2) {
      options->type = ctx.arg(i + 1);
      i += 2;
    } else {
      ctx.ReplySyntaxError();
      return false;
    }
  }
  return true;
}

Db::Node* StartKeyScan(CommandContext& ctx, ObjectType type, uint64_t* cursor,
                       ScanOptions* options) {
  if (!ParseScanCursor(ctx, 2, cursor)) return nullptr;
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), type, &node)) return nullptr;
  if (node == nullptr) {
    ReplyScan(ctx, 0, {});
    return nullptr;
  }
  if (!ParseScanOptions(ctx, 3, /*allow_type=*/false, options)) return nullptr;
  return node;
}

void ReplyScan(CommandContext& ctx, uint64_t cursor,
               const std::vector<std::string_view>& elements) {
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(2);
  r.Bulk(std::to_string(cursor));
  r.ArrayHeader(elements.size());
  for (std::string_view e : elements) r.Bulk(e);
}

}  // namespace redlab::server::engine
