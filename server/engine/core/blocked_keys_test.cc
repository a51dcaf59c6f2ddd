// BlockedKeys: queues in blocking order, a key is ready only when added with the type someone
// waits for, deduplicated until it is served, and adding keys reports nothing once no one waits.
#include "server/engine/core/blocked_keys.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace redlab::server::engine {
namespace {

class BlockedKeysTest : public ::testing::Test {
 protected:
  BlockedKeysTest() : keyspace_(&clock_), blocked_(&keyspace_) {}

  // Blocks a client of `kind` on `keys` of database `db`.
  Client* Block(Client::BlockKind kind, std::vector<std::string> keys, int db = 0) {
    clients_.push_back(std::make_unique<Client>(clients_.size() + 1, nullptr, 0));
    Client* c = clients_.back().get();
    c->set_db(db);
    c->block().kind = kind;
    for (std::string& k : keys) c->block().keys.push_back(Client::KeyWait{std::move(k), {}});
    blocked_.Add(c);
    return c;
  }
  std::vector<std::string> Ready() {
    std::vector<std::string> out;
    for (const BlockedKeys::ReadyKey& r : blocked_.TakeReady()) {
      out.push_back(std::to_string(r.db) + "/" + r.key);
    }
    return out;
  }

  Clock clock_;
  Keyspace keyspace_;
  BlockedKeys blocked_;
  std::vector<std::unique_ptr<Client>> clients_;
};

TEST_F(BlockedKeysTest, WaitersInBlockingOrder) {
  Client* a = Block(Client::BlockKind::kList, {"k", "j"});
  Client* b = Block(Client::BlockKind::kZset, {"k"});
  Client* c = Block(Client::BlockKind::kList, {"j", "k"});
  EXPECT_EQ(blocked_.Waiters(0, "k"), (std::vector<Client*>{a, b, c}));
  EXPECT_EQ(blocked_.Waiters(0, "j"), (std::vector<Client*>{a, c}));
  EXPECT_TRUE(blocked_.Waiters(1, "k").empty());
  blocked_.Remove(b);
  EXPECT_EQ(blocked_.Waiters(0, "k"), (std::vector<Client*>{a, c}));
  EXPECT_EQ(blocked_.list_clients(), 2u);
  EXPECT_EQ(blocked_.zset_clients(), 0u);
}

TEST_F(BlockedKeysTest, KeyIsReadyWhenAddedWithTheTypeItsWaitersWant) {
  Block(Client::BlockKind::kList, {"l"});
  Block(Client::BlockKind::kZset, {"z"}, 3);
  Db& db0 = keyspace_.db(0);
  db0.Add("other", Object::NewList());                      // no one waits on it
  db0.Add("l", Object::FromString(std::string_view("s")));  // a string serves no one
  EXPECT_FALSE(blocked_.has_ready());
  db0.Delete("l");
  db0.Add("l", Object::NewList());
  keyspace_.db(3).Add("z", Object::NewZset(ZsetValue::Encoding::kListpack));
  keyspace_.db(0).Add("z", Object::NewZset(ZsetValue::Encoding::kListpack));  // not in db 0
  EXPECT_EQ(Ready(), (std::vector<std::string>{"0/l", "3/z"}));
  EXPECT_FALSE(blocked_.has_ready());
}

TEST_F(BlockedKeysTest, SortedSetIsNotReadyWhenOnlyListsAreWaitedFor) {
  Block(Client::BlockKind::kList, {"k"});
  keyspace_.db(0).Add("k", Object::NewZset(ZsetValue::Encoding::kListpack));
  EXPECT_FALSE(blocked_.has_ready());
}

TEST_F(BlockedKeysTest, ReadyKeyIsQueuedOnceUntilServed) {
  Block(Client::BlockKind::kList, {"l"});
  Db& db = keyspace_.db(0);
  db.Add("l", Object::NewList());
  db.Delete("l");
  db.Add("l", Object::NewList());
  std::vector<BlockedKeys::ReadyKey> ready = blocked_.TakeReady();
  ASSERT_EQ(ready.size(), 1u);
  // Taken but not yet being served: still deduplicated.
  db.Delete("l");
  db.Add("l", Object::NewList());
  EXPECT_FALSE(blocked_.has_ready());
  blocked_.Serving(ready[0]);
  db.Delete("l");
  db.Add("l", Object::NewList());
  EXPECT_EQ(Ready(), (std::vector<std::string>{"0/l"}));
}

TEST_F(BlockedKeysTest, RenameAndSetOfANewKeyAreAdditionsToo) {
  Block(Client::BlockKind::kList, {"dst", "set"});
  Db& db = keyspace_.db(0);
  Db::Node* src = db.Add("src", Object::NewList());
  db.Move(src, db, "dst");
  db.Set("set", Object::NewList());
  EXPECT_EQ(Ready(), (std::vector<std::string>{"0/dst", "0/set"}));
  // Overwriting an existing key is not an addition (Redis's dbOverwrite).
  Block(Client::BlockKind::kList, {"s"});
  db.Add("s", Object::FromString(std::string_view("v")));
  db.Set("s", Object::NewList());
  EXPECT_FALSE(blocked_.has_ready());
}

TEST_F(BlockedKeysTest, NothingIsReportedOnceNoOneWaits) {
  Client* a = Block(Client::BlockKind::kList, {"l"});
  blocked_.Remove(a);
  keyspace_.db(0).Add("l", Object::NewList());
  EXPECT_FALSE(blocked_.has_ready());
  EXPECT_TRUE(blocked_.Waiters(0, "l").empty());
}

}  // namespace
}  // namespace redlab::server::engine
