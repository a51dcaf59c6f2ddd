// Db and Keyspace on their own: TTL bookkeeping as keys come and go, lazy expiry, RANDOMKEY's
// handling of expired keys and the active expire cycle, with time driven by a manual clock.
#include "server/data/keyspace.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace redlab::server {
namespace {

class RecordingListener : public ExpiryListener {
 public:
  void OnKeyExpired(Db& db, std::string_view key) override {
    expired.emplace_back(db.id(), std::string(key));
  }
  std::vector<std::pair<int, std::string>> expired;
};

class KeyspaceTest : public ::testing::Test {
 protected:
  KeyspaceTest() : ks_(&clock_, 4) {
    clock_.SetManual();
    ks_.SnapshotTime();
    ks_.set_expiry_listener(&listener_);
  }

  Db& db0() { return ks_.db(0); }
  Db::Node* AddString(Db& db, const std::string& key) {
    return db.Add(key, Object::FromString(std::string_view("v")));
  }
  // Moves the node's time and takes a new command-time snapshot, as a new command would.
  void Advance(int64_t ms) {
    clock_.Advance(ms);
    ks_.SnapshotTime();
  }
  int64_t now() const { return ks_.now_ms(); }

  Clock clock_;
  Keyspace ks_;
  RecordingListener listener_;
};

TEST_F(KeyspaceTest, ExpireTrackingFollowsSetAndRemove) {
  Db& db = db0();
  Db::Node* a = AddString(db, "a");
  AddString(db, "b");
  EXPECT_EQ(db.expires_size(), 0u);
  db.SetExpire(a, now() + 1000);
  EXPECT_EQ(db.expires_size(), 1u);
  // Changing an existing TTL does not track the key twice.
  db.SetExpire(a, now() + 2000);
  EXPECT_EQ(db.expires_size(), 1u);
  EXPECT_EQ(a->value.expire_ms, now() + 2000);
  EXPECT_TRUE(db.RemoveExpire(a));
  EXPECT_FALSE(db.RemoveExpire(a));
  EXPECT_EQ(a->value.expire_ms, kNoExpire);
  EXPECT_EQ(db.expires_size(), 0u);
}

TEST_F(KeyspaceTest, OverwriteDropsTtlUnlessKept) {
  Db& db = db0();
  Db::Node* a = AddString(db, "a");
  db.SetExpire(a, now() + 1000);
  Db::Node* kept = db.Set("a", Object::FromString(std::string_view("w")), /*keep_ttl=*/true);
  EXPECT_EQ(kept->value.expire_ms, now() + 1000);
  EXPECT_EQ(db.expires_size(), 1u);
  Db::Node* cleared = db.Set("a", Object::FromString(std::string_view("x")));
  EXPECT_EQ(cleared->value.expire_ms, kNoExpire);
  EXPECT_EQ(db.expires_size(), 0u);
  EXPECT_EQ(db.size(), 1u);
}

TEST_F(KeyspaceTest, DeleteUntracksAndKeepsOthersTracked) {
  Db& db = db0();
  std::vector<Db::Node*> nodes;
  for (int i = 0; i < 50; ++i) {
    Db::Node* n = AddString(db, "k" + std::to_string(i));
    db.SetExpire(n, now() + 1000 + i);
    nodes.push_back(n);
  }
  // Delete from the middle, the front and the back of the tracking array.
  EXPECT_TRUE(db.Delete("k25"));
  db.Delete(nodes[0]);
  EXPECT_TRUE(db.Delete("k49"));
  EXPECT_FALSE(db.Delete("k49"));
  EXPECT_EQ(db.size(), 47u);
  EXPECT_EQ(db.expires_size(), 47u);
  // Every remaining key still has its TTL and can still be untracked.
  for (int i = 1; i < 49; ++i) {
    if (i == 25) continue;
    Db::Node* n = db.LookupWrite("k" + std::to_string(i));
    ASSERT_NE(n, nullptr) << i;
    EXPECT_EQ(n->value.expire_ms, now() + 1000 + i);
    EXPECT_TRUE(db.RemoveExpire(n));
  }
  EXPECT_EQ(db.expires_size(), 0u);
}

TEST_F(KeyspaceTest, MoveCarriesTheTtl) {
  Db& db = db0();
  Db& other = ks_.db(1);
  Db::Node* a = AddString(db, "a");
  db.SetExpire(a, now() + 5000);
  AddString(db, "plain");

  Db::Node* renamed = db.Move(a, db, "b");
  EXPECT_EQ(db.LookupWrite("a"), nullptr);
  EXPECT_EQ(renamed->key(), "b");
  EXPECT_EQ(renamed->value.expire_ms, now() + 5000);
  EXPECT_EQ(db.expires_size(), 1u);

  Db::Node* moved = db.Move(renamed, other, "c");
  EXPECT_EQ(moved->value.expire_ms, now() + 5000);
  EXPECT_EQ(db.expires_size(), 0u);
  EXPECT_EQ(other.expires_size(), 1u);

  Db::Node* plain = db.Move(db.LookupWrite("plain"), other, "plain2");
  EXPECT_EQ(plain->value.expire_ms, kNoExpire);
  EXPECT_EQ(other.expires_size(), 1u);
  EXPECT_EQ(db.size(), 0u);
  EXPECT_EQ(other.size(), 2u);
}

TEST_F(KeyspaceTest, LazyExpiryDeletesOnAccess) {
  Db& db = db0();
  Db::Node* a = AddString(db, "a");
  db.SetExpire(a, now() + 100);
  Advance(99);
  EXPECT_NE(db.LookupRead("a"), nullptr);
  Advance(1);  // a TTL that reaches now has expired
  EXPECT_EQ(db.LookupRead("a"), nullptr);
  EXPECT_EQ(db.size(), 0u);
  EXPECT_EQ(db.expires_size(), 0u);
  EXPECT_EQ(ks_.stats().expired_keys, 1u);
  EXPECT_EQ(ks_.stats().keyspace_hits, 1u);
  EXPECT_EQ(ks_.stats().keyspace_misses, 1u);
  ASSERT_EQ(listener_.expired.size(), 1u);
  EXPECT_EQ(listener_.expired[0], (std::pair<int, std::string>(0, "a")));
}

TEST_F(KeyspaceTest, ReplicaHidesExpiredKeysWithoutDeleting) {
  ks_.set_replica(true);
  Db& db = db0();
  Db::Node* a = AddString(db, "a");
  db.SetExpire(a, now() + 10);
  Advance(10);
  EXPECT_EQ(db.LookupRead("a"), nullptr);
  EXPECT_EQ(db.size(), 1u);
  EXPECT_TRUE(listener_.expired.empty());
  // Nor does the active cycle run on a replica.
  ks_.ActiveExpireCycle(1000000);
  EXPECT_EQ(db.size(), 1u);
}

// expireSlaveKeys: the TTLs a replica's own clients set are remembered and their keys expired
// by the replica; keys with the master's TTLs (set while its stream runs, or loaded) wait for
// the master's DEL.
TEST_F(KeyspaceTest, AReplicaExpiresOnlyTheKeysItsOwnClientsGaveATtl) {
  ks_.set_replica(true);
  Db& db0_ref = db0();
  Db& db2 = ks_.db(2);
  ks_.set_master_view(true);  // the master's stream
  db0_ref.SetExpire(AddString(db0_ref, "from-master"), now() + 10);
  ks_.set_master_view(false);
  db0_ref.SetExpire(AddString(db0_ref, "loaded"), now() + 10);  // outside any command
  ks_.set_client_command(true);
  db0_ref.SetExpire(AddString(db0_ref, "own"), now() + 10);
  db2.SetExpire(AddString(db2, "own"), now() + 1000);
  db0_ref.SetExpire(AddString(db0_ref, "later"), now() + 1000);
  ks_.set_client_command(false);
  EXPECT_EQ(ks_.replica_own_keys_with_ttl(), 2u);  // "own" (databases 0 and 2) and "later"
  Advance(10);
  ks_.ExpireReplicaOwnKeys();
  ASSERT_EQ(listener_.expired.size(), 1u);
  EXPECT_EQ(listener_.expired[0], (std::pair<int, std::string>(0, "own")));
  EXPECT_EQ(db0_ref.size(), 3u);  // from-master, loaded, later
  EXPECT_EQ(db2.size(), 1u);
  Advance(1000);
  ks_.ExpireReplicaOwnKeys();
  EXPECT_EQ(listener_.expired.size(), 3u);
  EXPECT_EQ(ks_.replica_own_keys_with_ttl(), 0u);
  EXPECT_EQ(db0_ref.size(), 2u);  // the master's keys stay until its DEL
}

TEST_F(KeyspaceTest, AWritableReplicaDeletesTheExpiredKeyItWrites) {
  ks_.set_replica(true);
  Db& db = db0();
  for (const char* k : {"a", "b"}) db.SetExpire(AddString(db, k), now() + 10);
  Advance(10);
  // Read-only: a write lookup hides the key, as a read does, and deletes nothing.
  EXPECT_EQ(db.LookupWrite("a"), nullptr);
  EXPECT_EQ(db.size(), 2u);
  // replica-read-only no: the write deletes it first, so the key is new again (one entry).
  ks_.set_replica_writable(true);
  EXPECT_EQ(db.LookupWrite("a"), nullptr);
  EXPECT_EQ(db.size(), 1u);
  AddString(db, "a");
  EXPECT_EQ(db.size(), 2u);
  EXPECT_EQ(db.LookupRead("a")->value.expire_ms, kNoExpire);
  // Reads still only hide expired keys.
  EXPECT_EQ(db.LookupRead("b"), nullptr);
  EXPECT_EQ(db.size(), 2u);
  // The master's stream sees the key as it is and overwrites it in place.
  ks_.set_master_view(true);
  EXPECT_NE(db.LookupWrite("b"), nullptr);
  ks_.set_master_view(false);
}

TEST_F(KeyspaceTest, RandomKeySkipsAndDeletesExpiredKeys) {
  Db& db = db0();
  for (int i = 0; i < 2000; ++i) {
    Db::Node* n = AddString(db, "gone" + std::to_string(i));
    db.SetExpire(n, now() + 10);
  }
  AddString(db, "live");
  Advance(10);
  // Far more expired keys than the 100 tries a replica allows: a master still finds the one
  // live key, deleting the expired keys it meets on the way.
  Db::Node* n = db.RandomKey();
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->key(), "live");
  EXPECT_EQ(db.size() - 1, db.expires_size());
  EXPECT_EQ(ks_.stats().expired_keys, 2000u - db.expires_size());
  EXPECT_EQ(listener_.expired.size(), 2000u - db.expires_size());
}

TEST_F(KeyspaceTest, RandomKeyOnlyExpiredKeysOnMasterEmptiesTheDb) {
  Db& db = db0();
  for (int i = 0; i < 20; ++i) {
    Db::Node* n = AddString(db, "k" + std::to_string(i));
    db.SetExpire(n, now() + 10);
  }
  Advance(10);
  EXPECT_EQ(db.RandomKey(), nullptr);
  EXPECT_EQ(db.size(), 0u);
  EXPECT_EQ(listener_.expired.size(), 20u);
}

TEST_F(KeyspaceTest, RandomKeyOnReplicaWithOnlyExpiredKeysGivesUp) {
  ks_.set_replica(true);
  Db& db = db0();
  for (int i = 0; i < 20; ++i) {
    Db::Node* n = AddString(db, "k" + std::to_string(i));
    db.SetExpire(n, now() + 10);
  }
  Advance(10);
  // It cannot delete, so after its tries it returns a key even though it is expired.
  Db::Node* n = db.RandomKey();
  ASSERT_NE(n, nullptr);
  EXPECT_TRUE(db.IsExpired(n));
  EXPECT_EQ(db.size(), 20u);
}

TEST_F(KeyspaceTest, RandomKeyReturnsKeysWithFutureTtl) {
  Db& db = db0();
  Db::Node* a = AddString(db, "a");
  db.SetExpire(a, now() + 1000);
  EXPECT_EQ(db.RandomKey(), a);
  EXPECT_EQ(ks_.db(1).RandomKey(), nullptr);
}

TEST_F(KeyspaceTest, ActiveExpireCycleRemovesExpiredKeysOnly) {
  Db& first = db0();
  Db& db2 = ks_.db(2);
  for (int i = 0; i < 1000; ++i) {
    Db::Node* n = AddString(first, "short" + std::to_string(i));
    first.SetExpire(n, now() + 100);
  }
  for (int i = 0; i < 100; ++i) {
    Db::Node* n = AddString(db2, "short" + std::to_string(i));
    db2.SetExpire(n, now() + 100);
  }
  for (int i = 0; i < 10; ++i) {
    Db::Node* n = AddString(first, "long" + std::to_string(i));
    first.SetExpire(n, now() + 100000);
    AddString(first, "plain" + std::to_string(i));
  }
  // Nothing is due yet: the cycle removes nothing.
  ks_.ActiveExpireCycle(1000000);
  EXPECT_EQ(first.size(), 1020u);
  EXPECT_EQ(db2.size(), 100u);

  clock_.Advance(100);  // the cycle takes its own time snapshot
  // Each cycle stops sampling a database once few of its samples were expired, so a few runs
  // may be needed to clear every key, as in Redis.
  for (int run = 0; run < 100 && (first.expires_size() > 10 || db2.size() > 0); ++run) {
    ks_.ActiveExpireCycle(1000000);
  }
  EXPECT_EQ(first.size(), 20u);
  EXPECT_EQ(first.expires_size(), 10u);
  EXPECT_EQ(db2.size(), 0u);
  EXPECT_EQ(listener_.expired.size(), 1100u);
  EXPECT_EQ(ks_.stats().expired_keys, 1100u);
  std::set<std::string> names;
  for (const auto& [db, key] : listener_.expired) {
    if (db == 0) names.insert(key);
  }
  EXPECT_EQ(names.size(), 1000u);
  EXPECT_EQ(names.count("short0"), 1u);
}

TEST_F(KeyspaceTest, ActiveExpireCanBeDisabled) {
  Db& db = db0();
  Db::Node* n = AddString(db, "a");
  db.SetExpire(n, now() + 10);
  clock_.Advance(10);
  ks_.set_active_expire_enabled(false);
  ks_.ActiveExpireCycle(1000000);
  EXPECT_EQ(db.size(), 1u);
  ks_.set_active_expire_enabled(true);
  ks_.ActiveExpireCycle(1000000);
  EXPECT_EQ(db.size(), 0u);
}

}  // namespace
}  // namespace redlab::server
