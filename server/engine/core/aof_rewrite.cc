// The dataset as commands, as Redis 7.0's rewriteAppendOnlyFileRio (aof.c) writes an AOF base
// file without the RDB preamble: the function libraries, then per database a SELECT and, per
// key, the commands that rebuild it (collections by 64 items a command) and its PEXPIREAT.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "server/engine/core/aof.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/script_runner.h"

namespace redlab::server::engine {
namespace {

constexpr size_t kItemsPerCommand = 64;  // AOF_REWRITE_ITEMS_PER_CMD

class CommandWriter {
 public:
  explicit CommandWriter(std::string* out) : out_(out) {}

  void Begin(size_t argc) { Count('*', argc); }
  void Bulk(std::string_view s) {
    Count('$', s.size());
    out_->append(s);
    out_->append("\r\n");
  }
  void Bulk(int64_t n) { Bulk(std::to_string(n)); }
  void Bulk(uint64_t n) { Bulk(std::to_string(n)); }
  void Double(double d) {  // rioWriteBulkDouble
    char buf[128];
    int len = std::snprintf(buf, sizeof(buf), "%.17g", d);
    Bulk(std::string_view(buf, static_cast<size_t>(len)));
  }
  void Command(std::initializer_list<std::string_view> args) {
    Begin(args.size());
    for (std::string_view a : args) Bulk(a);
  }

  // RPUSH/SADD/ZADD/HMSET key ...: `items` items of `per_item` arguments each, 64 items a
  // command; `emit(i)` writes item i.
  template <typename Emit>
  void Batched(std::string_view name, std::string_view key, size_t items, size_t per_item,
               Emit&& emit) {
    for (size_t i = 0; i < items; ++i) {
      if (i % kItemsPerCommand == 0) {
        size_t n = std::min(kItemsPerCommand, items - i);
        Begin(2 + n * per_item);
        Bulk(name);
        Bulk(key);
      }
      emit(i);
    }
  }

 private:
  void Count(char prefix, size_t n) {
    out_->push_back(prefix);
    out_->append(std::to_string(n));
    out_->append("\r\n");
  }
  std::string* out_;
};

void RewriteStream(CommandWriter& w, std::string_view key, const StreamValue& s) {
  if (s.length() > 0) {
    s.Range(StreamId{0, 0}, StreamId{UINT64_MAX, UINT64_MAX}, false,
            [&](const StreamValue::Entry& e) {
              w.Begin(3 + e.fields.size());
              w.Bulk("XADD");
              w.Bulk(key);
              w.Bulk(e.id.ToString());
              for (std::string_view f : e.fields) w.Bulk(f);
              return true;
            });
  } else {
    // An empty stream comes to be by an entry trimmed at once.
    w.Command({"XADD", key, "MAXLEN", "0", "0-1", "x", "y"});
  }
  w.Begin(7);
  w.Bulk("XSETID");
  w.Bulk(key);
  w.Bulk(s.last_id().ToString());
  w.Bulk("ENTRIESADDED");
  w.Bulk(s.entries_added());
  w.Bulk("MAXDELETEDID");
  w.Bulk(s.max_deleted_id().ToString());
  for (const auto& [name, group] : s.groups()) {
    w.Begin(7);
    w.Bulk("XGROUP");
    w.Bulk("CREATE");
    w.Bulk(key);
    w.Bulk(name);
    w.Bulk(group.last_id().ToString());
    w.Bulk("ENTRIESREAD");
    w.Bulk(group.entries_read());
    for (const auto& [consumer_name, consumer] : group.consumers()) {
      if (consumer.pel.empty()) {
        w.Command({"XGROUP", "CREATECONSUMER", key, name, consumer_name});
        continue;
      }
      for (const auto& [id, nack] : consumer.pel) {
        w.Begin(12);
        w.Bulk("XCLAIM");
        w.Bulk(key);
        w.Bulk(name);
        w.Bulk(consumer_name);
        w.Bulk("0");
        w.Bulk(id.ToString());
        w.Bulk("TIME");
        w.Bulk(nack->delivery_time);
        w.Bulk("RETRYCOUNT");
        w.Bulk(nack->delivery_count);
        w.Bulk("JUSTID");
        w.Bulk("FORCE");
      }
    }
  }
}

void RewriteValue(CommandWriter& w, std::string_view key, const Object& value) {
  switch (value.type()) {
    case ObjectType::kString:
      w.Command({"SET", key, value.str()});
      break;
    case ObjectType::kList: {
      const ListValue& list = value.list();
      std::vector<std::string_view> items;
      if (list.size() > 0) {
        list.ForEach(0, list.size() - 1, false, [&](std::string_view v) { items.push_back(v); });
      }
      w.Batched("RPUSH", key, items.size(), 1, [&](size_t i) { w.Bulk(items[i]); });
      break;
    }
    case ObjectType::kSet: {
      std::vector<std::string> members;
      value.set().ForEach([&](std::string_view m) { members.emplace_back(m); });
      w.Batched("SADD", key, members.size(), 1, [&](size_t i) { w.Bulk(members[i]); });
      break;
    }
    case ObjectType::kZset: {
      const ZsetValue& zset = value.zset();
      std::vector<std::pair<std::string_view, double>> items;
      if (!zset.empty()) {
        for (auto it = zset.AtRank(0); it.valid(); it.Next()) {
          items.emplace_back(it.member(), it.score());
        }
      }
      w.Batched("ZADD", key, items.size(), 2, [&](size_t i) {
        w.Double(items[i].second);
        w.Bulk(items[i].first);
      });
      break;
    }
    case ObjectType::kHash: {
      std::vector<std::pair<std::string, std::string>> pairs;
      value.hash().ForEach([&](std::string_view f, std::string_view v) {
        pairs.emplace_back(std::string(f), std::string(v));
      });
      w.Batched("HMSET", key, pairs.size(), 2, [&](size_t i) {
        w.Bulk(pairs[i].first);
        w.Bulk(pairs[i].second);
      });
      break;
    }
    case ObjectType::kStream:
      RewriteStream(w, key, value.stream());
      break;
  }
}

}  // namespace

std::string RewriteAsCommands(Engine& engine) {
  std::string out;
  CommandWriter w(&out);
  for (const auto& [name, library] : engine.scripts().functions().libraries()) {
    w.Command({"FUNCTION", "LOAD", library->code});
  }
  Keyspace& ks = engine.keyspace();
  for (int j = 0; j < ks.num_dbs(); ++j) {
    Db& db = ks.db(j);
    if (db.size() == 0) continue;
    w.Begin(2);
    w.Bulk("SELECT");
    w.Bulk(static_cast<int64_t>(j));
    db.ForEach([&](const Db::Node* n) {
      RewriteValue(w, n->key(), n->value.value);
      if (n->value.expire_ms != kNoExpire) {
        w.Begin(3);
        w.Bulk("PEXPIREAT");
        w.Bulk(n->key());
        w.Bulk(n->value.expire_ms);
      }
    });
  }
  return out;
}

}  // namespace redlab::server::engine
