// KeyspaceSignals: Redis's signalModifiedKey, signalFlushedDb, dbSwapDatabases and
// deleteExpiredKeyAndPropagate's notifications (db.c, multi.c, notify.c).
#include "server/engine/core/keyspace_signals.h"

#include "server/engine/core/engine.h"

namespace redlab::server::engine {

KeyspaceSignals::KeyspaceSignals(Engine& engine)
    : engine_(engine),
      keyspace_(engine.keyspace()),
      messaging_(engine.messaging()),
      blocking_(engine.blocking()) {}

void KeyspaceSignals::OnKeyExpired(Db& db, std::string_view key) {
  // deleteExpiredKeyAndPropagate's order: the event, then the invalidations.
  messaging_.NotifyKeyspaceEvent(kNotifyExpired, "expired", key, db.id());
  ModifiedKey(db.id(), key);
  engine_.Propagate(db.id(), {"DEL", std::string(key)});
  // Outside a command (the active expire cycle) each expired key's DEL leaves on its own, as in
  // Redis; within one it joins the command's effects.
  if (!engine_.in_call()) engine_.propagation().Flush();
}

void KeyspaceSignals::ModifiedKey(int db, std::string_view key, const Client* by) {
  if (!watches_.empty()) {
    watches_.Touch(db, key, [&] { return keyspace_.db(db).LookupQuiet(key) != nullptr; });
  }
  messaging_.InvalidateKey(by, key);
}

void KeyspaceSignals::Flushed(int db) {
  messaging_.InvalidateAll();
  for (int i = 0; i < keyspace_.num_dbs(); ++i) {
    if (db == -1 || i == db) blocking_.keys().ScanDeletedStreams(keyspace_.db(i), nullptr);
  }
  if (watches_.empty()) return;
  for (int i = 0; i < keyspace_.num_dbs(); ++i) {
    if (db != -1 && i != db) continue;
    Db& d = keyspace_.db(i);
    watches_.ForEachKey(i, [&](std::string_view key) {
      if (d.LookupQuiet(key) != nullptr) watches_.Touch(i, key, [] { return true; });
    });
  }
}

void KeyspaceSignals::SwapDatabases(int a, int b) {
  if (a == b) return;
  Db& first = keyspace_.db(a);
  Db& second = keyspace_.db(b);
  // Judged on the raw contents (logically expired keys are still there), before the swap.
  auto touch = [&](Db& emptied, Db& replaced_with) {
    watches_.ForEachKey(emptied.id(), [&](std::string_view key) {
      bool before = false, after = false, after_expired = false;
      emptied.ForEachMatching(key, [&](const Db::Node*) { before = true; });
      replaced_with.ForEachMatching(key, [&](const Db::Node* n) {
        after = true;
        after_expired = replaced_with.IsExpired(n);
      });
      watches_.TouchSwapped(emptied.id(), key, before, after, after_expired);
    });
  };
  if (!watches_.empty()) {
    touch(first, second);
    touch(second, first);
  }
  blocking_.keys().ScanDeletedStreams(first, &second);
  blocking_.keys().ScanDeletedStreams(second, &first);
  first.SwapContents(second);
  // Clients blocked on keys of either database are served (after SWAPDB) when the keys they wait
  // for now hold a value.
  if (blocking_.blocked_clients() > 0) {
    blocking_.keys().ScanDatabase(first);
    blocking_.keys().ScanDatabase(second);
  }
}

void KeyspaceSignals::ConfigureKeyEvents(uint32_t notify) {
  // The "new" and "keymiss" events come from inside the keyspace; it reports them only while
  // they could be published, so that otherwise adding a key or missing one costs a branch.
  const bool channels = (notify & (kNotifyKeyspace | kNotifyKeyevent)) != 0;
  keyspace_.set_report_new_keys(channels && (notify & kNotifyNew));
  keyspace_.set_report_misses(channels && (notify & kNotifyKeyMiss));
}

void KeyspaceSignals::OnNewKey(Db& db, std::string_view key) {
  messaging_.NotifyKeyspaceEvent(kNotifyNew, "new", key, db.id());
}

void KeyspaceSignals::OnKeyMiss(Db& db, std::string_view key) {
  messaging_.NotifyKeyspaceEvent(kNotifyKeyMiss, "keymiss", key, db.id());
}

}  // namespace redlab::server::engine
