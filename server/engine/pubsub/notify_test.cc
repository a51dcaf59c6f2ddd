// Keyspace notifications' pieces on their own: the setting's letters and normal form, and the
// keyspace's reports of new keys and read misses (the "new" and "keymiss" events), which cost
// nothing while off and leave snapshot loading and OBJECT's lookups out.
#include "server/engine/pubsub/notify.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/data/keyspace.h"

namespace redlab::server::engine {
namespace {

TEST(KeyspaceEventsText, LettersAndNormalForm) {
  EXPECT_EQ(KeyspaceEventsFromString(""), 0u);
  EXPECT_EQ(KeyspaceEventsFromString("KEA"), kNotifyKeyspace | kNotifyKeyevent | kNotifyAll);
  EXPECT_EQ(KeyspaceEventsFromString("Ex"), kNotifyKeyevent | kNotifyExpired);
  EXPECT_EQ(KeyspaceEventsFromString("Kq"), std::nullopt);
  EXPECT_EQ(KeyspaceEventsFromString("A "), std::nullopt);
  // Read as a C string, as Redis reads it: what follows a NUL byte is not looked at.
  EXPECT_EQ(KeyspaceEventsFromString(std::string("K\0q", 3)), kNotifyKeyspace);
  EXPECT_EQ(KeyspaceEventsToString(*KeyspaceEventsFromString("xK")), "xK");
  EXPECT_EQ(KeyspaceEventsToString(*KeyspaceEventsFromString("EKmng$")), "g$nKEm");
  EXPECT_EQ(KeyspaceEventsToString(*KeyspaceEventsFromString("g$lshzxetd")), "A");
  // n is not part of A, and A's form does not show it.
  EXPECT_EQ(KeyspaceEventsToString(*KeyspaceEventsFromString("An")), "A");
  EXPECT_NE(*KeyspaceEventsFromString("An") & kNotifyNew, 0u);
}

class Recorder : public ExpiryListener, public KeyEventListener {
 public:
  void OnKeyExpired(Db&, std::string_view key) override { Log("expired", key); }
  void OnNewKey(Db& db, std::string_view key) override {
    Log("new@" + std::to_string(db.id()), key);
  }
  void OnKeyMiss(Db&, std::string_view key) override { Log("keymiss", key); }
  void Log(std::string_view what, std::string_view key) {
    events.push_back(std::string(what) + " " + std::string(key));
  }
  std::vector<std::string> events;
};

class KeyEventsTest : public ::testing::Test {
 protected:
  KeyEventsTest() : ks_(&clock_, 2) {
    clock_.SetManual();
    ks_.SnapshotTime();
    ks_.set_expiry_listener(&recorder_);
    ks_.set_key_event_listener(&recorder_);
  }
  Object Value() { return Object::FromString(std::string_view("v")); }
  // Adds `key` with a TTL of `ttl_ms`, then moves the node's time to it: the key has expired,
  // and nothing has removed it yet.
  void AddExpired(Db& db, std::string_view key, int64_t ttl_ms) {
    db.SetExpire(db.Add(key, Value()), ks_.now_ms() + ttl_ms);
    clock_.Advance(ttl_ms);
    ks_.SnapshotTime();
  }

  Clock clock_;
  Keyspace ks_;
  Recorder recorder_;
};

TEST_F(KeyEventsTest, NothingIsReportedWhileOff) {
  Db& db = ks_.db(0);
  db.Add("a", Value());
  db.Set("b", Value());
  EXPECT_EQ(db.LookupRead("missing"), nullptr);
  EXPECT_TRUE(recorder_.events.empty());
}

TEST_F(KeyEventsTest, NewKeysWhereverTheyComeFrom) {
  ks_.set_report_new_keys(true);
  Db& db = ks_.db(0);
  Db::Node* a = db.Add("a", Value());
  db.Set("a", Value());  // an overwrite: not new
  db.Set("b", Value());
  db.Move(a, ks_.db(1), "a");
  db.SetLoaded("c", Value());  // read from a snapshot: not new
  EXPECT_EQ(recorder_.events, (std::vector<std::string>{"new@0 a", "new@0 b", "new@1 a"}));
}

// Set replaces a live key, but a key past its time goes first (with its "expired") and the key
// is new again, as setKey's write lookup has it.
TEST_F(KeyEventsTest, SetOverAnExpiredKey) {
  ks_.set_report_new_keys(true);
  Db& db = ks_.db(0);
  AddExpired(db, "a", 10);
  db.Set("a", Value());
  EXPECT_EQ(recorder_.events, (std::vector<std::string>{"new@0 a", "expired a", "new@0 a"}));
  EXPECT_EQ(db.LookupRead("a")->value.expire_ms, kNoExpire);
}

TEST_F(KeyEventsTest, MissesOfReadsOnly) {
  ks_.set_report_misses(true);
  Db& db = ks_.db(0);
  AddExpired(db, "gone", 1);
  EXPECT_EQ(db.LookupRead("gone"), nullptr);
  EXPECT_EQ(db.LookupNoTouch("b"), nullptr);
  EXPECT_EQ(db.LookupNoTouchNoNotify("c"), nullptr);  // OBJECT
  EXPECT_EQ(db.LookupWrite("d"), nullptr);
  EXPECT_EQ(db.LookupQuiet("e"), nullptr);
  EXPECT_EQ(recorder_.events,
            (std::vector<std::string>{"expired gone", "keymiss gone", "keymiss b"}));
}

}  // namespace
}  // namespace redlab::server::engine
