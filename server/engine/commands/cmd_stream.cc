// Stream commands, as Redis 7.0's t_stream.c: XADD, XRANGE, XREVRANGE, XLEN, XDEL, XTRIM,
// XSETID (XREAD in cmd_stream_read.cc).
#include "server/engine/commands/cmd_stream.h"

#include "server/base/numbers.h"
#include "server/command/command_table.h"
#include "server/engine/commands/lookup.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {

using Trim = StreamValue::TrimStrategy;

bool StreamIdArg(CommandContext& ctx, std::string_view arg, uint64_t missing_seq, bool strict,
                 StreamId* id, bool* seq_given) {
  if (ParseStreamId(arg, missing_seq, strict, id, seq_given)) return true;
  ctx.ReplyError(kStreamIdError);
  return false;
}

void ReplyStreamEntry(CommandContext& ctx, const StreamValue::Entry& e) {
  ctx.reply().ArrayHeader(2);
  ctx.reply().Bulk(e.id.ToString());
  ctx.reply().ArrayHeader(e.fields.size());
  for (std::string_view f : e.fields) ctx.reply().Bulk(f);
}

size_t ReplyStreamRange(CommandContext& ctx, const StreamValue& s, const StreamId& start,
                        const StreamId& end, size_t count, bool rev) {
  size_t at = ctx.reply().BeginDeferred();
  size_t n = 0;
  s.Range(start, end, rev, [&](const StreamValue::Entry& e) {
    ReplyStreamEntry(ctx, e);
    return ++n != count;
  });
  ctx.reply().EndDeferredArray(at, n);
  return n;
}

StreamNodeLimits StreamLimits(CommandContext& ctx) {
  const auto& config = ctx.engine().config();
  return {static_cast<size_t>(config.stream_node_max_bytes), config.stream_node_max_entries};
}

namespace {

struct AddTrimArgs {
  StreamValue::TrimArgs trim;
  size_t trim_arg_index = 0;  // the count or ID of MAXLEN/MINID
  StreamId id;
  bool id_given = false;
  bool seq_given = true;
  bool no_mkstream = false;
};

// streamParseAddOrTrimArgsOrReply: the index of the ID (XADD), or 0 after replying an error.
size_t ParseAddOrTrimArgs(CommandContext& ctx, AddTrimArgs* args, bool xadd) {
  size_t i = 2;
  bool limit_given = false;
  for (; i < ctx.argc(); ++i) {
    size_t more = ctx.argc() - 1 - i;
    const std::string& opt = ctx.arg(i);
    bool maxlen = ctx.ArgIs(i, "maxlen"), minid = ctx.ArgIs(i, "minid");
    if (xadd && opt == "*") {
      break;
    } else if ((maxlen || minid) && more > 0) {
      if (args->trim.strategy != Trim::kNone) {
        ctx.ReplyError(
            "syntax error, MAXLEN and MINID options at the same time are not compatible");
        return 0;
      }
      args->trim.approx = false;
      const std::string& next = ctx.arg(i + 1);
      if (more >= 2 && next == "~") {
        args->trim.approx = true;
        ++i;
      } else if (more >= 2 && next == "=") {
        ++i;
      }
      if (maxlen) {
        if (!ctx.IntArg(i + 1, &args->trim.maxlen)) return 0;
        if (args->trim.maxlen < 0) {
          ctx.ReplyError("The MAXLEN argument must be >= 0.");
          return 0;
        }
      } else if (!StreamIdArg(ctx, ctx.arg(i + 1), 0, true, &args->trim.minid, nullptr)) {
        return 0;
      }
      ++i;
      args->trim.strategy = maxlen ? Trim::kMaxLen : Trim::kMinId;
      args->trim_arg_index = i;
    } else if (ctx.ArgIs(i, "limit") && more > 0) {
      if (!ctx.IntArg(i + 1, &args->trim.limit)) return 0;
      if (args->trim.limit < 0) {
        ctx.ReplyError("The LIMIT argument must be >= 0.");
        return 0;
      }
      limit_given = true;
      ++i;
    } else if (xadd && ctx.ArgIs(i, "nomkstream")) {
      args->no_mkstream = true;
    } else if (xadd) {
      if (!StreamIdArg(ctx, opt, 0, true, &args->id, &args->seq_given)) return 0;
      args->id_given = true;
      break;
    } else {
      ctx.ReplySyntaxError();
      return 0;
    }
  }
  if (args->trim.limit != 0 && args->trim.strategy == Trim::kNone) {
    ctx.ReplyError("syntax error, LIMIT cannot be used without specifying a trimming strategy");
    return 0;
  }
  if (!xadd && args->trim.strategy == Trim::kNone) {
    ctx.ReplyError("syntax error, XTRIM must be called with a trimming strategy");
    return 0;
  }
  if (ctx.client().repl_role() == Client::ReplRole::kMaster) {
    // What a master or the AOF sends was rewritten to trim exactly.
    args->trim.limit = 0;
  } else if (limit_given) {
    if (!args->trim.approx) {
      ctx.ReplyError("syntax error, LIMIT cannot be used without the special ~ option");
      return 0;
    }
  } else if (args->trim.approx) {
    int64_t entries = ctx.engine().config().stream_node_max_entries;
    args->trim.limit = entries > 1000000 / 100 ? 1000000 : 100 * entries;
    if (args->trim.limit <= 0) args->trim.limit = 10000;
  } else {
    args->trim.limit = 0;
  }
  return i;
}

// streamRewriteApproxSpecifier / streamRewriteTrimArgument: an approximate trim replicates as
// the exact trim it did.
void RewriteApproxTrim(const StreamValue& s, const AddTrimArgs& args,
                       std::vector<std::string>* argv) {
  (*argv)[args.trim_arg_index - 1] = "=";
  (*argv)[args.trim_arg_index] = args.trim.strategy == Trim::kMaxLen
                                     ? std::to_string(s.length())
                                     : s.FirstEdgeId().ToString();
}

void XAddCommand(CommandContext& ctx) {
  AddTrimArgs args;
  size_t id_pos = ParseAddOrTrimArgs(ctx, &args, true);
  if (id_pos == 0) return;
  size_t field_pos = id_pos + 1;
  if (ctx.argc() - field_pos < 2 || (ctx.argc() - field_pos) % 2 == 1) {
    ctx.ReplyWrongArity();
    return;
  }
  if (args.id_given && args.seq_given && args.id.zero()) {
    ctx.ReplyError("The ID specified in XADD must be greater than 0-0");
    return;
  }
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(ctx.arg(1), ObjectType::kStream, &node)) return;
  if (node == nullptr) {
    if (args.no_mkstream) {
      ctx.reply().Null();
      return;
    }
    node = ctx.db().Add(ctx.arg(1), Object::NewStream());
  }
  StreamValue& s = node->value.value.stream();
  if (s.last_id() == StreamId::Max()) {
    ctx.ReplyError("The stream has exhausted the last possible ID, unable to add more items");
    return;
  }
  // streamAppendItem's choice of ID.
  StreamId id;
  bool ok = true;
  if (args.id_given) {
    if (args.seq_given) {
      id = args.id;
    } else if (s.last_id().ms == args.id.ms) {
      if (s.last_id().seq == UINT64_MAX) ok = false;
      id = s.last_id();
      ++id.seq;
    } else {
      id = args.id;
    }
  } else {
    uint64_t now = static_cast<uint64_t>(ctx.now_ms());
    if (now > s.last_id().ms) {
      id = {now, 0};
    } else {
      id = s.last_id();
      id.Increment();
    }
  }
  if (!ok || id <= s.last_id()) {
    ctx.ReplyError(
        "The ID specified in XADD is equal or smaller than the target stream top item");
    return;
  }
  size_t total = 0;
  for (size_t i = field_pos; i < ctx.argc(); ++i) total += ctx.arg(i).size();
  if (total > (1u << 30)) {
    ctx.ReplyError("Elements are too large to be stored");
    return;
  }
  std::vector<std::string> fields(ctx.args().begin() + field_pos, ctx.args().end());
  s.Append(id, std::move(fields), StreamLimits(ctx));
  std::string id_text = id.ToString();
  ctx.reply().Bulk(id_text);
  ctx.SignalModifiedKey(ctx.arg(1));
  ctx.NotifyKeyspaceEvent(kNotifyStream, "xadd", ctx.arg(1));
  ctx.MarkDirty();

  std::vector<std::string> argv(ctx.args().begin(), ctx.args().end());
  bool rewrite = false;
  if (args.trim.strategy != Trim::kNone) {
    if (s.Trim(args.trim) != 0) ctx.NotifyKeyspaceEvent(kNotifyStream, "xtrim", ctx.arg(1));
    if (args.trim.approx) {
      RewriteApproxTrim(s, args, &argv);
      rewrite = true;
    }
  }
  if (!args.id_given || !args.seq_given) {
    argv[id_pos] = id_text;
    rewrite = true;
  }
  if (rewrite) ctx.PropagateAs(std::move(argv));
  SignalStreamReady(ctx, ctx.arg(1));
}

void XRangeGeneric(CommandContext& ctx, bool rev) {
  std::string_view start_arg = ctx.arg(rev ? 3 : 2), end_arg = ctx.arg(rev ? 2 : 3);
  StreamId start, end;
  bool start_ex = start_arg.size() > 1 && start_arg[0] == '(';
  bool end_ex = end_arg.size() > 1 && end_arg[0] == '(';
  if (!StreamIdArg(ctx, start_ex ? start_arg.substr(1) : start_arg, 0, start_ex, &start, nullptr))
    return;
  if (start_ex && !start.Increment()) {
    ctx.ReplyError("invalid start ID for the interval");
    return;
  }
  if (!StreamIdArg(ctx, end_ex ? end_arg.substr(1) : end_arg, UINT64_MAX, end_ex, &end, nullptr))
    return;
  if (end_ex && !end.Decrement()) {
    ctx.ReplyError("invalid end ID for the interval");
    return;
  }
  int64_t count = -1;
  for (size_t j = 4; j < ctx.argc(); ++j) {
    if (ctx.ArgIs(j, "count") && j + 1 < ctx.argc()) {
      if (!ctx.IntArg(j + 1, &count)) return;
      if (count < 0) count = 0;
      ++j;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  Db::Node* node = ReadOrReply(ctx, ctx.arg(1), ObjectType::kStream, IfMissing::kEmptyArray);
  if (node == nullptr) return;
  if (count == 0) {
    ctx.reply().NullArray();
    return;
  }
  ReplyStreamRange(ctx, node->value.value.stream(), start, end,
                   count == -1 ? 0 : static_cast<size_t>(count), rev);
}

void XRangeCommand(CommandContext& ctx) { XRangeGeneric(ctx, false); }
void XRevRangeCommand(CommandContext& ctx) { XRangeGeneric(ctx, true); }

void XLenCommand(CommandContext& ctx) {
  Db::Node* node = nullptr;
  if (!ctx.LookupRead(ctx.arg(1), ObjectType::kStream, &node)) return;
  ctx.reply().Integer(node == nullptr ? 0 : static_cast<int64_t>(node->value.value.stream().length()));
}

void XDelCommand(CommandContext& ctx) {
  Db::Node* node = WriteOrReply(ctx, ctx.arg(1), ObjectType::kStream, IfMissing::kZero);
  if (node == nullptr) return;
  std::vector<StreamId> ids(ctx.argc() - 2);
  for (size_t j = 2; j < ctx.argc(); ++j) {
    if (!StreamIdArg(ctx, ctx.arg(j), 0, true, &ids[j - 2], nullptr)) return;
  }
  StreamValue& s = node->value.value.stream();
  int64_t deleted = 0;
  for (const StreamId& id : ids) deleted += s.Delete(id) ? 1 : 0;
  if (deleted != 0) {
    ctx.SignalModifiedKey(ctx.arg(1));
    ctx.NotifyKeyspaceEvent(kNotifyStream, "xdel", ctx.arg(1));
    ctx.MarkDirty(deleted);
  }
  ctx.reply().Integer(deleted);
}

void XTrimCommand(CommandContext& ctx) {
  AddTrimArgs args;
  if (ParseAddOrTrimArgs(ctx, &args, false) == 0) return;
  Db::Node* node = WriteOrReply(ctx, ctx.arg(1), ObjectType::kStream, IfMissing::kZero);
  if (node == nullptr) return;
  StreamValue& s = node->value.value.stream();
  int64_t deleted = s.Trim(args.trim);
  if (deleted != 0) {
    ctx.NotifyKeyspaceEvent(kNotifyStream, "xtrim", ctx.arg(1));
    if (args.trim.approx) {
      std::vector<std::string> argv(ctx.args().begin(), ctx.args().end());
      RewriteApproxTrim(s, args, &argv);
      ctx.PropagateAs(std::move(argv));
    }
    ctx.SignalModifiedKey(ctx.arg(1));
    ctx.MarkDirty(deleted);
  }
  ctx.reply().Integer(deleted);
}

void XSetIdCommand(CommandContext& ctx) {
  StreamId id, max_xdel;
  int64_t entries_added = -1;
  if (!StreamIdArg(ctx, ctx.arg(2), 0, true, &id, nullptr)) return;
  for (size_t i = 3; i < ctx.argc();) {
    bool more = i + 1 < ctx.argc();
    if (ctx.ArgIs(i, "entriesadded") && more) {
      if (!ctx.IntArg(i + 1, &entries_added)) return;
      if (entries_added < 0) {
        ctx.ReplyError("entries_added must be positive");
        return;
      }
    } else if (ctx.ArgIs(i, "maxdeletedid") && more) {
      if (!StreamIdArg(ctx, ctx.arg(i + 1), 0, true, &max_xdel, nullptr)) return;
      if (id < max_xdel) {
        ctx.ReplyError(
            "The ID specified in XSETID is smaller than the provided max_deleted_entry_id");
        return;
      }
    } else {
      ctx.ReplySyntaxError();
      return;
    }
    i += 2;
  }
  Db::Node* node = nullptr;
  if (!ctx.LookupWrite(ctx.arg(1), ObjectType::kStream, &node)) return;
  if (node == nullptr) {
    ctx.ReplyError("no such key");
    return;
  }
  StreamValue& s = node->value.value.stream();
  if (s.length() > 0) {
    if (id < s.LastValidId()) {
      ctx.ReplyError("The ID specified in XSETID is smaller than the target stream top item");
      return;
    }
    if (entries_added != -1 && s.length() > static_cast<uint64_t>(entries_added)) {
      ctx.ReplyError(
          "The entries_added specified in XSETID is smaller than the target stream length");
      return;
    }
  }
  s.set_last_id(id);
  if (entries_added != -1) s.set_entries_added(static_cast<uint64_t>(entries_added));
  if (!max_xdel.zero()) s.set_max_deleted_id(max_xdel);
  ctx.ReplyOk();
  ctx.MarkDirty();
  ctx.NotifyKeyspaceEvent(kNotifyStream, "xsetid", ctx.arg(1));
}

}  // namespace

// The commands of specs/stream.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/stream.inc"

}  // namespace redlab::server::engine
