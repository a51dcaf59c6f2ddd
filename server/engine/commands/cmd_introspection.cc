// COMMAND and its subcommands: everything here is derived from the command table.
#include "server/base/glob.h"
#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/command/key_specs.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/help.h"

namespace redlab::server::engine {
namespace {

void ReplyStringSet(resp::ReplyWriter& r, const std::vector<std::string_view>& items) {
  r.SetHeader(items.size());
  for (std::string_view s : items) r.Status(s);
}

// A begin_search or find_keys entry's type and spec (a map of integer fields), after its "type".
void ReplySpecOfType(resp::ReplyWriter& r, std::string_view type,
                     std::initializer_list<std::pair<std::string_view, int64_t>> fields) {
  r.Bulk(type);
  r.Bulk("spec");
  r.MapHeader(fields.size());
  for (const auto& [name, value] : fields) {
    r.Bulk(name);
    r.Integer(value);
  }
}

void ReplyKeySpec(resp::ReplyWriter& r, const KeySpec& k) {
  r.MapHeader(k.notes.empty() ? 3 : 4);
  if (!k.notes.empty()) {
    r.Bulk("notes");
    r.Bulk(k.notes);
  }
  r.Bulk("flags");
  ReplyStringSet(r, KeySpecFlagNames(k.flags));
  r.Bulk("begin_search");
  r.MapHeader(2);
  r.Bulk("type");
  if (k.unknown) {
    ReplySpecOfType(r, "unknown", {});
  } else if (k.begin_index > 0) {
    ReplySpecOfType(r, "index", {{"index", k.begin_index}});
  } else {
    r.Bulk("keyword");
    r.Bulk("spec");
    r.MapHeader(2);
    r.Bulk("keyword");
    r.Bulk(k.begin_keyword);
    r.Bulk("startfrom");
    r.Integer(k.keyword_startfrom);
  }
  r.Bulk("find_keys");
  r.MapHeader(2);
  r.Bulk("type");
  if (k.unknown) {
    ReplySpecOfType(r, "unknown", {});
  } else if (k.keynum) {
    ReplySpecOfType(r, "keynum", {{"keynumidx", k.keynum_index},
                                  {"firstkey", k.first_key},
                                  {"keystep", k.key_step}});
  } else {
    ReplySpecOfType(r, "range",
                    {{"lastkey", k.last_key}, {"keystep", k.key_step}, {"limit", k.limit}});
  }
}

// One COMMAND INFO entry, as addReplyCommandInfo.
void ReplyCommandInfo(resp::ReplyWriter& r, const Command& cmd) {
  r.ArrayHeader(10);
  r.Bulk(cmd.full_name);
  r.Integer(cmd.arity());
  ReplyStringSet(r, CommandFlagNames(cmd));
  r.Integer(cmd.first_key);
  r.Integer(cmd.last_key);
  r.Integer(cmd.key_step);
  ReplyStringSet(r, AclCategoryNames(cmd.acl));
  r.SetHeader(cmd.spec->tips.size());
  for (std::string_view tip : cmd.spec->tips) r.Bulk(tip);
  // Redis sends the key specs as a set, and the subcommands as an array, or an empty set when
  // there are none (the types show in RESP3).
  r.SetHeader(cmd.spec->keys.size());
  for (const KeySpec& k : cmd.spec->keys) ReplyKeySpec(r, k);
  if (cmd.subcommands.empty()) {
    r.SetHeader(0);
  } else {
    r.ArrayHeader(cmd.subcommands.size());
  }
  for (const auto& sub : cmd.subcommands) ReplyCommandInfo(r, *sub);
}

// One COMMAND DOCS entry: summary, since, group, complexity (and subcommands). Redis also lists
// the argument trees; redlab's table does not describe arguments.
void ReplyCommandDocs(resp::ReplyWriter& r, const Command& cmd) {
  const CommandSpec& s = *cmd.spec;
  bool has_subs = !cmd.subcommands.empty();
  // Commands without a complexity (PSYNC, SYNC) have no such field, as in Redis.
  bool has_complexity = !s.complexity.empty();
  r.MapHeader(3 + (has_complexity ? 1 : 0) + (has_subs ? 1 : 0));
  r.Bulk("summary");
  r.Bulk(s.summary);
  r.Bulk("since");
  r.Bulk(s.since);
  r.Bulk("group");
  r.Bulk(s.group);
  if (has_complexity) {
    r.Bulk("complexity");
    r.Bulk(s.complexity);
  }
  if (has_subs) {
    r.Bulk("subcommands");
    r.MapHeader(cmd.subcommands.size());
    for (const auto& sub : cmd.subcommands) {
      r.Bulk(sub->full_name);
      ReplyCommandDocs(r, *sub);
    }
  }
}

// Finds "get" or "config|get".
const Command* FindByFullName(const CommandTable& table, std::string_view name) {
  size_t bar = name.find('|');
  if (bar == std::string_view::npos) return table.Find(name);
  const Command* parent = table.Find(name.substr(0, bar));
  return parent ? parent->FindSubcommand(name.substr(bar + 1)) : nullptr;
}

void CommandCommand(CommandContext& ctx) {
  const auto& all = ctx.engine().commands().all();
  ctx.reply().ArrayHeader(all.size());
  for (const auto& cmd : all) ReplyCommandInfo(ctx.reply(), *cmd);
}

void CommandCountCommand(CommandContext& ctx) {
  ctx.reply().Integer(static_cast<int64_t>(ctx.engine().commands().size()));
}

void CommandInfoCommand(CommandContext& ctx) {
  const CommandTable& table = ctx.engine().commands();
  if (ctx.argc() == 2) {
    CommandCommand(ctx);
    return;
  }
  ctx.reply().ArrayHeader(ctx.argc() - 2);
  for (size_t i = 2; i < ctx.argc(); ++i) {
    const Command* cmd = FindByFullName(table, ctx.arg(i));
    if (cmd == nullptr) {
      ctx.reply().Null();
    } else {
      ReplyCommandInfo(ctx.reply(), *cmd);
    }
  }
}

void CommandDocsCommand(CommandContext& ctx) {
  const CommandTable& table = ctx.engine().commands();
  resp::ReplyWriter& r = ctx.reply();
  if (ctx.argc() == 2) {
    r.MapHeader(table.all().size());
    for (const auto& cmd : table.all()) {
      r.Bulk(cmd->full_name);
      ReplyCommandDocs(r, *cmd);
    }
    return;
  }
  std::vector<const Command*> found;
  for (size_t i = 2; i < ctx.argc(); ++i) {
    if (const Command* cmd = FindByFullName(table, ctx.arg(i))) found.push_back(cmd);
  }
  r.MapHeader(found.size());
  for (const Command* cmd : found) {
    r.Bulk(cmd->full_name);
    ReplyCommandDocs(r, *cmd);
  }
}

void CommandListCommand(CommandContext& ctx) {
  const CommandTable& table = ctx.engine().commands();
  std::string_view pattern;
  std::string_view aclcat;
  if (ctx.argc() == 5 && ctx.ArgIs(2, "filterby")) {
    if (ctx.ArgIs(3, "pattern")) {
      pattern = ctx.arg(4);
    } else if (ctx.ArgIs(3, "aclcat")) {
      aclcat = ctx.arg(4);
    } else if (ctx.ArgIs(3, "module")) {
      ctx.reply().SetHeader(0);  // redlab loads no modules
      return;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  } else if (ctx.argc() != 2) {
    ctx.ReplySyntaxError();
    return;
  }
  std::vector<std::string_view> names;
  auto consider = [&](const Command& cmd) {
    if (!pattern.empty() && !GlobMatch(pattern, cmd.full_name, /*nocase=*/true)) return;
    if (!aclcat.empty()) {
      bool in_category = false;
      for (std::string_view cat : AclCategoryNames(cmd.acl)) {
        if (EqualsIgnoreCase(cat.substr(1), aclcat)) in_category = true;
      }
      if (!in_category) return;
    }
    names.push_back(cmd.full_name);
  };
  for (const auto& cmd : table.all()) {
    consider(*cmd);
    for (const auto& sub : cmd->subcommands) consider(*sub);
  }
  ctx.reply().ArrayHeader(names.size());
  for (std::string_view name : names) ctx.reply().Bulk(name);
}

// COMMAND GETKEYS / GETKEYSANDFLAGS: the keys the key specs find in a full command line.
void GetKeys(CommandContext& ctx, bool with_flags) {
  std::span<std::string> line = ctx.args().subspan(2);
  const Command* cmd = ctx.engine().commands().Resolve(line);
  if (cmd == nullptr) {
    ctx.ReplyError("Invalid command specified");
    return;
  }
  if (cmd->spec->keys.empty()) {
    ctx.ReplyError("The command has no key arguments");
    return;
  }
  if (!cmd->ArityAccepts(line.size())) {
    ctx.ReplyError("Invalid number of arguments specified for command");
    return;
  }
  std::vector<FoundKey> keys = FindKeys(*cmd, line);
  // No key found is fine for a command whose keys are optional (EVAL with numkeys 0).
  if (keys.empty() && !cmd->has(kCmdNoMandatoryKeys)) {
    ctx.ReplyError("Invalid arguments specified for command");
    return;
  }
  resp::ReplyWriter& r = ctx.reply();
  r.ArrayHeader(keys.size());
  for (const FoundKey& k : keys) {
    if (with_flags) {
      r.ArrayHeader(2);
      r.Bulk(line[k.index]);
      ReplyStringSet(r, KeySpecFlagNames(k.flags));
    } else {
      r.Bulk(line[k.index]);
    }
  }
}

void CommandGetKeysCommand(CommandContext& ctx) { GetKeys(ctx, false); }
void CommandGetKeysAndFlagsCommand(CommandContext& ctx) { GetKeys(ctx, true); }
void CommandHelpCommand(CommandContext& ctx) { ReplyHelp(ctx, kCommandHelp); }

}  // namespace

// The commands of specs/introspection.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/introspection.inc"

}  // namespace redlab::server::engine
