// CLIENT TRACKING, CACHING, GETREDIR and TRACKINGINFO: client-side caching's switches, as the
// matching branches of Redis's clientCommand (networking.c) and checkPrefixCollisionsOrReply.
#include <string>
#include <vector>

#include "server/engine/commands/cmd_client.h"
#include "server/engine/commands/cmd_string.h"
#include "server/engine/core/client.h"
#include "server/engine/core/engine.h"

namespace redlab::server::engine {
namespace {

// Redis prints prefixes with %s: a NUL byte ends them.
std::string CString(std::string_view s) { return std::string(s.substr(0, s.find('\0'))); }

// Two prefixes overlap when one starts the other: both would see the same keys.
bool Overlap(std::string_view a, std::string_view b) {
  size_t n = std::min(a.size(), b.size());
  return a.substr(0, n) == b.substr(0, n);
}

enum class PrefixCheck { kOk, kRefused, kRepliedButGoOn };

// checkPrefixCollisionsOrReply. Redis returns the index of the new prefix that overlaps another
// new one as its result, so only an overlap found for the first prefix refuses the command;
// later ones reply an error and still let tracking go on and answer +OK as well (two replies
// to one command). redlab keeps that: clients written against Redis see the same bytes.
PrefixCheck CheckPrefixCollisions(CommandContext& ctx, const std::vector<std::string>& prefixes) {
  const std::vector<std::string>& existing = ctx.client().tracking().prefixes;
  for (size_t i = 0; i < prefixes.size(); ++i) {
    for (const std::string& old : existing) {
      if (Overlap(old, prefixes[i])) {
        ctx.ReplyError("Prefix '" + CString(prefixes[i]) + "' overlaps with an existing prefix '" +
                       CString(old) + "'. Prefixes for a single client must not overlap.");
        return PrefixCheck::kRefused;
      }
    }
    for (size_t j = i + 1; j < prefixes.size(); ++j) {
      if (Overlap(prefixes[i], prefixes[j])) {
        ctx.ReplyError("Prefix '" + CString(prefixes[i]) +
                       "' overlaps with another provided prefix '" + CString(prefixes[j]) +
                       "'. Prefixes for a single client must not overlap.");
        return i == 0 ? PrefixCheck::kRefused : PrefixCheck::kRepliedButGoOn;
      }
    }
  }
  return PrefixCheck::kOk;
}

// The checks of CLIENT TRACKING ON against the options and the client's current mode, in
// Redis's order; false after replying the error.
bool CheckTrackingOn(CommandContext& ctx, const Tracking::Options& o, bool has_prefixes) {
  const Client::TrackingState& t = ctx.client().tracking();
  if (!o.bcast && has_prefixes) {
    ctx.ReplyError("PREFIX option requires BCAST mode to be enabled");
    return false;
  }
  if (t.on && t.bcast != o.bcast) {
    ctx.ReplyError(
        "You can't switch BCAST mode on/off before disabling tracking for this client, and then "
        "re-enabling it with a different mode.");
    return false;
  }
  if (o.bcast && (o.optin || o.optout)) {
    ctx.ReplyError("OPTIN and OPTOUT are not compatible with BCAST");
    return false;
  }
  if (o.optin && o.optout) {
    ctx.ReplyError("You can't specify both OPTIN mode and OPTOUT mode");
    return false;
  }
  if ((o.optin && t.optout) || (o.optout && t.optin)) {
    ctx.ReplyError(
        "You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, and then "
        "re-enabling it with a different mode.");
    return false;
  }
  return true;
}

}  // namespace

// CLIENT TRACKING ON|OFF [REDIRECT id] [PREFIX p ...] [BCAST] [OPTIN] [OPTOUT] [NOLOOP]
void ClientTrackingCommand(CommandContext& ctx) {
  Tracking::Options options;
  int64_t redirect = 0;
  std::vector<std::string> prefixes;
  for (size_t j = 3; j < ctx.argc(); ++j) {
    bool more = j + 1 < ctx.argc();
    std::string_view opt = ctx.arg(j);
    if (OptionIs(opt, "redirect") && more) {
      ++j;
      if (redirect != 0) {
        ctx.ReplyError("A client can only redirect to a single other client");
        return;
      }
      if (!ctx.IntArg(j, &redirect)) return;
      // The target must exist now, though it may go away later (then tracking-redir-broken).
      if (redirect <= 0 ||
          ctx.engine().clients().Find(static_cast<uint64_t>(redirect)) == nullptr) {
        ctx.ReplyError("The client ID you want redirect to does not exist");
        return;
      }
    } else if (OptionIs(opt, "bcast")) {
      options.bcast = true;
    } else if (OptionIs(opt, "optin")) {
      options.optin = true;
    } else if (OptionIs(opt, "optout")) {
      options.optout = true;
    } else if (OptionIs(opt, "noloop")) {
      options.noloop = true;
    } else if (OptionIs(opt, "prefix") && more) {
      prefixes.push_back(ctx.arg(++j));
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  options.redirect = static_cast<uint64_t>(redirect);
  Messaging& messaging = ctx.engine().messaging();
  if (OptionIs(ctx.arg(2), "on")) {
    if (!CheckTrackingOn(ctx, options, !prefixes.empty())) return;
    if (options.bcast && CheckPrefixCollisions(ctx, prefixes) == PrefixCheck::kRefused) return;
    messaging.EnableTracking(ctx.client(), options, prefixes);
  } else if (OptionIs(ctx.arg(2), "off")) {
    messaging.DisableTracking(ctx.client());
  } else {
    ctx.ReplySyntaxError();
    return;
  }
  ctx.ReplyOk();
}

// CLIENT CACHING YES|NO: OPTIN's "track the next command" and OPTOUT's "do not track it".
void ClientCachingCommand(CommandContext& ctx) {
  Client::TrackingState& t = ctx.client().tracking();
  if (!t.on) {
    ctx.ReplyError(
        "CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or "
        "OPTOUT "
        "mode enabled");
    return;
  }
  std::string_view opt = ctx.arg(2);
  if (OptionIs(opt, "yes")) {
    if (!t.optin) {
      ctx.ReplyError("CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
      return;
    }
  } else if (OptionIs(opt, "no")) {
    if (!t.optout) {
      ctx.ReplyError("CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
      return;
    }
  } else {
    ctx.ReplySyntaxError();
    return;
  }
  t.caching = true;
  ctx.ReplyOk();
}

void ClientGetRedirCommand(CommandContext& ctx) {
  const Client::TrackingState& t = ctx.client().tracking();
  ctx.reply().Integer(t.on ? static_cast<int64_t>(t.redirect) : -1);
}

void ClientTrackingInfoCommand(CommandContext& ctx) {
  const Client::TrackingState& t = ctx.client().tracking();
  std::vector<std::string_view> flags = {t.on ? "on" : "off"};
  if (t.bcast) flags.push_back("bcast");
  if (t.optin) {
    flags.push_back("optin");
    if (t.caching) flags.push_back("caching-yes");
  }
  if (t.optout) {
    flags.push_back("optout");
    if (t.caching) flags.push_back("caching-no");
  }
  if (t.noloop) flags.push_back("noloop");
  if (t.broken_redirect) flags.push_back("broken_redirect");
  resp::ReplyWriter& r = ctx.reply();
  r.MapHeader(3);
  r.Bulk("flags");
  r.SetHeader(flags.size());
  for (std::string_view flag : flags) r.Bulk(flag);
  r.Bulk("redirect");
  r.Integer(t.on ? static_cast<int64_t>(t.redirect) : -1);
  r.Bulk("prefixes");
  r.ArrayHeader(t.prefixes.size());
  for (const std::string& prefix : t.prefixes) r.Bulk(prefix);
}

}  // namespace redlab::server::engine
