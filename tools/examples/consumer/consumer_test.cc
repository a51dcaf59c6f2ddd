// A user's test with redlab/testing.h: each test gets a fresh master and replica in process;
// the code under test (here redlab's lock client) gets their URL.
#include <redlab/client.h>
#include <redlab/testing.h>

#include <chrono>

namespace {

class OrderServiceTest : public redlab::testing::Test {
 protected:
  OrderServiceTest() : Test({.replicas = 1}) {}
};

TEST_F(OrderServiceTest, TheLockHoldsWithoutFaults) {
  redlab::Client client(redlab::Config::SingleServer(url()));
  redlab::Lock lock = client.GetLock("order:42");
  ASSERT_TRUE(lock.TryLock(std::chrono::seconds(1), std::chrono::seconds(30)));
  EXPECT_EQ(master().Command({"HLEN", "order:42"}), ":1\r\n");
  lock.Unlock();
}

// The fault: the replication link stalls, the master crashes, the replica is promoted: the
// lock taken meanwhile is gone, and a second client takes it too.
TEST_F(OrderServiceTest, ALockIsLostWhenTheMasterFailsBeforeItsReplicaHasIt) {
  redlab().PauseReplication();
  redlab::Client a(redlab::Config::SingleServer(url()));
  ASSERT_TRUE(a.GetLock("order:42").TryLock(std::chrono::seconds(1), std::chrono::seconds(30)));

  redlab().Crash();
  redlab().Promote(replica(0));
  redlab::Client b(redlab::Config::SingleServer(redlab().UrlOf(replica(0))));
  EXPECT_TRUE(b.GetLock("order:42").TryLock(std::chrono::seconds(1), std::chrono::seconds(30)));
}

}  // namespace
