// Redis's hyperloglog.c commands: PFADD, PFCOUNT, PFMERGE, PFDEBUG and PFSELFTEST on string
// values holding Redis's HyperLogLog bytes (server/data/hyperloglog.h).
#include "server/command/command_table.h"
#include "server/data/hyperloglog.h"
#include "server/engine/commands/families.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/pubsub/notify.h"

namespace redlab::server::engine {
namespace {

size_t SparseMaxBytes(CommandContext& ctx) {
  return static_cast<size_t>(ctx.engine().config().hll_sparse_max_bytes);
}

// isHLLObjectOrReply: a string that is a HyperLogLog, else the error is sent.
bool IsHllOrReply(CommandContext& ctx, const Db::Node* node) {
  if (!node->value.value.is(ObjectType::kString)) {
    ctx.ReplyWrongType();
    return false;
  }
  if (!hll::LooksValid(node->value.value.str())) {
    ctx.ReplyError(hll::kNotHllError);
    return false;
  }
  return true;
}

// The value about to be edited in place is a raw string, as after Redis's dbUnshareStringValue.
std::string& Editable(Db::Node* node) {
  node->value.value.set_raw_string(true);
  node->value.value.set_float_string(false);
  return node->value.value.str();
}

void PfAddCommand(CommandContext& ctx) {
  const std::string& key = ctx.arg(1);
  Db::Node* node = ctx.db().LookupWrite(key);
  int updated = 0;
  if (node == nullptr) {
    node = ctx.db().Add(key, Object::FromString(hll::Create()));
    node->value.value.set_raw_string(true);
    ++updated;
  } else if (!IsHllOrReply(ctx, node)) {
    return;
  }
  std::string& value = Editable(node);
  for (size_t j = 2; j < ctx.argc(); ++j) {
    int rc = hll::Add(&value, ctx.arg(j), SparseMaxBytes(ctx));
    if (rc == -1) {
      ctx.ReplyError(hll::kInvalidError);
      return;
    }
    updated += rc;
  }
  if (updated) {
    ctx.SignalModifiedKey(key);
    ctx.NotifyKeyspaceEvent(kNotifyString, "pfadd", key);
    ctx.MarkDirty(static_cast<uint64_t>(updated));
    hll::InvalidateCache(&value);
  }
  ctx.reply().Integer(updated ? 1 : 0);
}

void PfCountCommand(CommandContext& ctx) {
  if (ctx.argc() > 2) {
    // The cardinality of the union, over a register array of maxima.
    hll::Registers max{};
    for (size_t j = 1; j < ctx.argc(); ++j) {
      Db::Node* node = ctx.db().LookupRead(ctx.arg(j));
      if (node == nullptr) continue;
      if (!IsHllOrReply(ctx, node)) return;
      if (!hll::MergeInto(&max, node->value.value.str())) {
        ctx.ReplyError(hll::kInvalidError);
        return;
      }
    }
    ctx.reply().Integer(static_cast<int64_t>(hll::CountRegisters(max)));
    return;
  }
  const std::string& key = ctx.arg(1);
  Db::Node* node = ctx.db().LookupRead(key);
  if (node == nullptr) {
    ctx.reply().Integer(0);
    return;
  }
  if (!IsHllOrReply(ctx, node)) return;
  std::string& value = Editable(node);
  uint64_t card = 0;
  if (!hll::CachedCount(value, &card)) {
    bool invalid = false;
    card = hll::Count(value, &invalid);
    if (invalid) {
      ctx.ReplyError(hll::kInvalidError);
      return;
    }
    // The cache is part of the string: a change propagated as Redis does (PFCOUNT itself).
    hll::StoreCount(&value, card);
    ctx.SignalModifiedKey(key);
    ctx.MarkDirty();
  }
  ctx.reply().Integer(static_cast<int64_t>(card));
}

void PfMergeCommand(CommandContext& ctx) {
  hll::Registers max{};
  bool use_dense = false;
  for (size_t j = 1; j < ctx.argc(); ++j) {
    Db::Node* node = ctx.db().LookupRead(ctx.arg(j));
    if (node == nullptr) continue;
    if (!IsHllOrReply(ctx, node)) return;
    if (hll::Encoding(node->value.value.str()) == hll::kDense) use_dense = true;
    if (!hll::MergeInto(&max, node->value.value.str())) {
      ctx.ReplyError(hll::kInvalidError);
      return;
    }
  }
  const std::string& key = ctx.arg(1);
  Db::Node* node = ctx.db().LookupWrite(key);
  if (node == nullptr) {
    node = ctx.db().Add(key, Object::FromString(hll::Create()));
  }
  std::string& value = Editable(node);
  if (use_dense && !hll::SparseToDense(&value)) {
    ctx.ReplyError(hll::kInvalidError);
    return;
  }
  for (int j = 0; j < hll::kRegisters; ++j) {
    if (max[j] == 0) continue;
    hll::SetRegister(&value, j, max[j], SparseMaxBytes(ctx));
  }
  hll::InvalidateCache(&value);
  ctx.SignalModifiedKey(key);
  ctx.NotifyKeyspaceEvent(kNotifyString, "pfadd", key);
  ctx.MarkDirty();
  ctx.ReplyOk();
}

void PfSelfTestCommand(CommandContext& ctx) {
  std::string failure = hll::SelfTest(SparseMaxBytes(ctx));
  if (failure.empty()) {
    ctx.ReplyOk();
  } else {
    ctx.ReplyError(failure);
  }
}

void PfDebugCommand(CommandContext& ctx) {
  const std::string& sub = ctx.arg(1);
  Db::Node* node = ctx.db().LookupWrite(ctx.arg(2));
  if (node == nullptr) {
    ctx.ReplyError("The specified key does not exist");
    return;
  }
  if (!IsHllOrReply(ctx, node)) return;
  std::string& value = Editable(node);
  if (ctx.ArgIs(1, "getreg")) {
    if (hll::Encoding(value) == hll::kSparse) {
      if (!hll::SparseToDense(&value)) {
        ctx.ReplyError(hll::kInvalidError);
        return;
      }
      ctx.MarkDirty();  // the encoding change is propagated
    }
    ctx.reply().ArrayHeader(hll::kRegisters);
    for (int j = 0; j < hll::kRegisters; ++j) ctx.reply().Integer(hll::DenseRegister(value, j));
  } else if (ctx.ArgIs(1, "decode")) {
    if (hll::Encoding(value) != hll::kSparse) {
      ctx.ReplyError("HLL encoding is not sparse");
      return;
    }
    ctx.reply().Bulk(hll::DecodeSparse(value));
  } else if (ctx.ArgIs(1, "encoding")) {
    ctx.reply().Status(hll::Encoding(value) == hll::kDense ? "dense" : "sparse");
  } else if (ctx.ArgIs(1, "todense")) {
    bool converted = false;
    if (hll::Encoding(value) == hll::kSparse) {
      if (!hll::SparseToDense(&value)) {
        ctx.ReplyError(hll::kInvalidError);
        return;
      }
      converted = true;
      ctx.MarkDirty();
    }
    ctx.reply().Integer(converted ? 1 : 0);
  } else {
    ctx.ReplyError("Unknown PFDEBUG subcommand '" + sub + "'");
  }
}

}  // namespace

// The commands of specs/hyperloglog.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/hyperloglog.inc"

}  // namespace redlab::server::engine
