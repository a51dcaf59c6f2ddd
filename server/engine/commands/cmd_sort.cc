// SORT and SORT_RO (sort.c): list, set and sorted-set elements ordered numerically or
// lexicographically, by themselves or by weights read from other keys (BY pattern), with
// LIMIT, GET patterns (# for the element, key->field for hash fields) and STORE into a list.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "server/base/text.h"
#include "server/command/command_table.h"
#include "server/engine/core/context.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/errors.h"

namespace redlab::server::engine {
namespace {

struct SortItem {
  std::string element;
  double score = 0;
  std::optional<std::string> by;  // ALPHA with BY: the weight as text (none: the key is missing)
};

// The C string view of a value: Redis's pattern and collation code stops at a NUL byte.
std::string_view CString(std::string_view s) { return s.substr(0, s.find('\0')); }

// lookupKeyByPattern: "#" is the element itself; otherwise the first '*' of the pattern is
// replaced by the element and the key read (a string), or "key->field" reads a hash field.
std::optional<std::string> LookupByPattern(Db& db, std::string_view pattern,
                                           std::string_view element) {
  if (CString(pattern) == "#") return std::string(element);
  size_t star = CString(pattern).find('*');
  if (star == std::string_view::npos) return std::nullopt;
  std::string_view field;
  size_t arrow = CString(pattern).find("->", star + 1);
  bool has_field = arrow != std::string_view::npos && arrow + 2 < CString(pattern).size();
  std::string key(pattern.substr(0, star));
  key.append(element);
  if (has_field) {
    field = pattern.substr(arrow + 2);
    key.append(pattern.substr(star + 1, arrow - star - 1));
  } else {
    key.append(pattern.substr(star + 1));
  }
  Db::Node* node = db.LookupRead(key);
  if (node == nullptr) return std::nullopt;
  const Object& value = node->value.value;
  if (has_field) {
    if (!value.is(ObjectType::kHash)) return std::nullopt;
    std::optional<std::string_view> v = value.hash().Get(field);
    if (!v) return std::nullopt;
    return std::string(*v);
  }
  if (!value.is(ObjectType::kString)) return std::nullopt;
  return value.str();
}

// compareStringObjects (binary) and collateStringObjects (strcoll; redlab collates in the C
// locale, where it is strcmp).
int CompareBinary(std::string_view a, std::string_view b) {
  return a.compare(b) < 0 ? -1 : a == b ? 0 : 1;
}
int Collate(std::string_view a, std::string_view b) {
  return CompareBinary(CString(a), CString(b));
}

// The elements to sort, in the order Redis loads them.
std::vector<std::string> LoadElements(const Object& value) {
  std::vector<std::string> out;
  switch (value.type()) {
    case ObjectType::kList:
      if (!value.list().empty()) {
        value.list().ForEach(0, value.list().size() - 1, false,
                             [&](std::string_view e) { out.emplace_back(e); });
      }
      break;
    case ObjectType::kSet:
      value.set().ForEach([&](std::string_view m) { out.emplace_back(m); });
      break;
    case ObjectType::kZset:
      for (auto it = value.zset().AtRank(0); value.zset().size() > 0 && it.valid(); it.Next()) {
        out.emplace_back(it.member());
      }
      break;
    default:
      break;
  }
  return out;
}

size_t ValueSize(const Object& value) {
  switch (value.type()) {
    case ObjectType::kList:
      return value.list().size();
    case ObjectType::kSet:
      return value.set().size();
    case ObjectType::kZset:
      return value.zset().size();
    default:
      return 0;
  }
}

void SortGeneric(CommandContext& ctx, bool readonly) {
  bool desc = false, alpha = false, dontsort = false;
  int64_t limit_start = 0, limit_count = -1;
  std::optional<std::string> by;
  std::optional<std::string> store;
  std::vector<std::string> gets;
  // BY and GET read keys the ACL check before the command could not see: only a user who may
  // read every key may use them.
  const acl::User* user = ctx.client().user();
  const bool full_key_access =
      user == nullptr || acl::HasUnrestrictedKeyAccess(*user, ctx.command(), ctx.args());
  for (size_t j = 2; j < ctx.argc(); ++j) {
    size_t left = ctx.argc() - j - 1;
    if (ctx.ArgIs(j, "asc")) {
      desc = false;
    } else if (ctx.ArgIs(j, "desc")) {
      desc = true;
    } else if (ctx.ArgIs(j, "alpha")) {
      alpha = true;
    } else if (ctx.ArgIs(j, "limit") && left >= 2) {
      if (!ctx.IntArg(j + 1, &limit_start) || !ctx.IntArg(j + 2, &limit_count)) return;
      j += 2;
    } else if (!readonly && ctx.ArgIs(j, "store") && left >= 1) {
      store = ctx.arg(j + 1);
      ++j;
    } else if (ctx.ArgIs(j, "by") && left >= 1) {
      by = ctx.arg(j + 1);
      // A pattern without '*' is constant: nothing to sort by (Redis's "BY nosort").
      dontsort = CString(*by).find('*') == std::string_view::npos;
      if (!dontsort && !full_key_access) {
        ctx.ReplyError("BY option of SORT denied due to insufficient ACL permissions.");
        return;
      }
      ++j;
    } else if (ctx.ArgIs(j, "get") && left >= 1) {
      if (!full_key_access) {
        ctx.ReplyError("GET option of SORT denied due to insufficient ACL permissions.");
        return;
      }
      gets.push_back(ctx.arg(j + 1));
      ++j;
    } else {
      ctx.ReplySyntaxError();
      return;
    }
  }
  // (Redis also refuses BY and GET in cluster mode; redlab has no cluster mode.)
  Db& db = ctx.db();
  Db::Node* node = db.LookupRead(ctx.arg(1));
  if (node != nullptr && !node->value.value.is(ObjectType::kList) &&
      !node->value.value.is(ObjectType::kSet) && !node->value.value.is(ObjectType::kZset)) {
    ctx.ReplyWrongType();
    return;
  }
  ObjectType type = node != nullptr ? node->value.value.type() : ObjectType::kList;
  // An unsorted set would come out in hash-table order: stored results and scripts get it in
  // order, so replicas replaying them agree.
  if (dontsort && type == ObjectType::kSet && (store || ctx.client().is_script())) {
    dontsort = false;
    alpha = true;
    by.reset();
  }
  // Redis converts the sorted set it sorts to a skiplist, for good.
  if (node != nullptr && type == ObjectType::kZset &&
      node->value.value.zset().encoding() == ZsetValue::Encoding::kListpack) {
    node->value.value.zset().ConvertToSkiplist();
  }
  int64_t len = node != nullptr ? static_cast<int64_t>(ValueSize(node->value.value)) : 0;
  int64_t start = std::min(std::max<int64_t>(limit_start, 0), len);
  limit_count = std::min(std::max<int64_t>(limit_count, -1), len);
  int64_t end = limit_count < 0 ? len - 1 : start + limit_count - 1;
  if (start >= len) {
    start = len - 1;
    end = len - 2;
  }
  if (end >= len) end = len - 1;

  std::vector<SortItem> items;
  if (node != nullptr && dontsort && type != ObjectType::kSet) {
    // Lists and sorted sets keep their own order (reversed by DESC); only the range is loaded.
    std::vector<std::string> all = LoadElements(node->value.value);
    if (end >= start) {
      for (int64_t i = start; i <= end; ++i) {
        items.push_back({std::move(all[static_cast<size_t>(desc ? len - 1 - i : i)])});
      }
    }
    end -= start;
    start = 0;
  } else if (node != nullptr) {
    for (std::string& e : LoadElements(node->value.value)) items.push_back({std::move(e)});
  }

  bool conversion_error = false;
  if (!dontsort) {
    for (SortItem& item : items) {
      std::optional<std::string> weight;
      if (by) {
        weight = LookupByPattern(db, *by, item.element);
        if (!weight) continue;
      }
      const std::string& text = by ? *weight : item.element;
      if (alpha) {
        if (by) item.by = std::move(weight);
        continue;
      }
      errno = 0;
      char* parsed_end = nullptr;
      item.score = std::strtod(text.c_str(), &parsed_end);
      if (*parsed_end != '\0' || errno == ERANGE || std::isnan(item.score)) conversion_error = true;
    }
    bool storing = store.has_value();
    auto compare = [&](const SortItem& a, const SortItem& b) {
      int cmp;
      if (!alpha) {
        cmp = a.score > b.score ? 1 : a.score < b.score ? -1 : CompareBinary(a.element, b.element);
      } else if (by) {
        if (!a.by || !b.by) {
          cmp = a.by.has_value() == b.by.has_value() ? 0 : !a.by ? -1 : 1;
        } else {
          cmp = storing ? CompareBinary(*a.by, *b.by) : Collate(*a.by, *b.by);
        }
      } else {
        cmp = storing ? CompareBinary(a.element, b.element) : Collate(a.element, b.element);
      }
      return (desc ? -cmp : cmp) < 0;
    };
    // glibc's qsort is a merge sort: elements that compare equal keep their order.
    std::stable_sort(items.begin(), items.end(), compare);
  }

  int64_t count = end - start + 1;
  int64_t output_len = gets.empty() ? count : static_cast<int64_t>(gets.size()) * count;
  if (conversion_error) {
    ctx.ReplyError("One or more scores can't be converted into double");
    return;
  }
  if (!store) {
    resp::ReplyWriter& r = ctx.reply();
    r.ArrayHeader(static_cast<size_t>(std::max<int64_t>(output_len, 0)));
    for (int64_t j = start; j <= end; ++j) {
      const std::string& element = items[static_cast<size_t>(j)].element;
      if (gets.empty()) r.Bulk(element);
      for (const std::string& pattern : gets) {
        std::optional<std::string> v = LookupByPattern(db, pattern, element);
        if (v) {
          r.Bulk(*v);
        } else {
          r.Null();
        }
      }
    }
    return;
  }
  Object list = Object::NewList();
  for (int64_t j = start; j <= end; ++j) {
    const std::string& element = items[static_cast<size_t>(j)].element;
    if (gets.empty()) list.list().Push(ListValue::End::kTail, element);
    for (const std::string& pattern : gets) {
      list.list().Push(ListValue::End::kTail, LookupByPattern(db, pattern, element).value_or(""));
    }
  }
  if (output_len > 0) {
    db.LookupWrite(*store);
    db.Set(*store, std::move(list));
    ctx.SignalModifiedKey(*store);
    ctx.NotifyKeyspaceEvent(kNotifyList, "sortstore", *store);
    ctx.MarkDirty(static_cast<uint64_t>(output_len));
  } else if (db.Delete(*store)) {
    // (dbDelete: an expired destination is deleted as any other, with "del".)
    ctx.SignalModifiedKey(*store);
    ctx.NotifyKeyspaceEvent(kNotifyGeneric, "del", *store);
    ctx.MarkDirty();
  }
  ctx.reply().Integer(std::max<int64_t>(output_len, 0));
}

void SortCommand(CommandContext& ctx) { SortGeneric(ctx, false); }
void SortRoCommand(CommandContext& ctx) { SortGeneric(ctx, true); }

// sortGetKeys: the sorted key, and the last STORE's destination (options are skipped with
// their arguments).
std::vector<FoundKey> SortKeys(std::span<const std::string> args) {
  std::vector<FoundKey> keys = {{1, kKeyRO | kKeyAccess}};
  std::optional<FoundKey> store;
  auto is = [](std::string_view a, std::string_view b) { return EqualsIgnoreCase(a, b); };
  for (size_t i = 2; i < args.size(); ++i) {
    if (is(args[i], "limit")) {
      i += 2;
    } else if (is(args[i], "get") || is(args[i], "by")) {
      i += 1;
    } else if (is(args[i], "store") && i + 1 < args.size()) {
      store = FoundKey{i + 1, kKeyOW | kKeyUpdate};
    }
  }
  if (store) keys.push_back(*store);
  return keys;
}

std::vector<FoundKey> SortRoKeys(std::span<const std::string>) {
  return {{1, kKeyRO | kKeyAccess}};
}

}  // namespace

// The commands of specs/sort.json (generated by server/command/generate_specs.py).
#include "server/engine/commands/specs/sort.inc"

}  // namespace redlab::server::engine
