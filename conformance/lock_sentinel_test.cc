// The lock client in sentinel mode (Redisson's useSentinelServers, SentinelConnectionManager):
// a master with a replica and three sentinels of the current target (redis: redis-server and
// redis-server --sentinel processes), the client given only the sentinels. It finds the master,
// WAITs for the replica the sentinels list, and after a failover (SENTINEL FAILOVER, or the
// master killed) follows +switch-master: its waiters' channels move to the new master, and locks
// work there. redlab's sentinels do not fail over yet: a sentinel that does not know SENTINEL
// FAILOVER (probed with a master name it does not monitor) makes the failover tests skip.
#include <future>
#include <map>

#include "conformance/fields.h"
#include "conformance/harness/topology.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// calls=N of `command` in INFO commandstats.
int64_t Calls(Client& c, const std::string& command) {
  std::string info = c({"INFO", "commandstats"}).str;
  std::string key = "cmdstat_" + command + ":calls=";
  size_t at = info.find(key);
  return at == std::string::npos ? 0 : std::stoll(info.substr(at + key.size()));
}

class LockSentinelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    topology_ = StartTopology({.replicas = 1, .fault_proxy = false});
    ASSERT_TRUE(topology_->WaitForSync());
    master_ = topology_->master_port();
    replica_ = topology_->replica_port(0);
    ServerOptions o;
    o.sentinel = true;
    o.config = {{"sentinel", "monitor mymaster 127.0.0.1 " + std::to_string(master_) + " 2"},
                {"sentinel", "down-after-milliseconds mymaster 200"},
                {"sentinel", "failover-timeout mymaster 5000"}};
    for (int i = 0; i < 3; ++i) sentinels_.push_back(StartServer(o));
    // Each sentinel has found the replica through the master's INFO, and sees it linked.
    for (auto& s : sentinels_) {
      Client c(s->port());
      ASSERT_TRUE(Eventually(
          [&] {
            Reply r = c({"SENTINEL", "REPLICAS", "mymaster"});
            if (r.elements.size() != 1) return false;
            auto f = Fields(r.elements[0]);
            return f["flags"] == "slave" && f["master-link-status"] == "ok";
          },
          seconds(20)));
    }
  }

  Config SentinelConfig() {
    std::vector<std::string> urls;
    for (auto& s : sentinels_) urls.push_back("redis://127.0.0.1:" + std::to_string(s->port()));
    Config config = Config::Sentinel("mymaster", urls);
    Config quick = TestConfig(master_);
    config.connect_timeout = quick.connect_timeout;
    config.timeout = quick.timeout;
    config.retry_interval = quick.retry_interval;
    config.subscription_timeout = quick.subscription_timeout;
    config.sentinel_scan_interval = milliseconds(200);
    return config;
  }

  // Empty when the sentinels fail over; else why not (the test skips with it).
  std::string FailoverUnsupported() {
    Client s(sentinels_[0]->port());
    Reply r = s({"SENTINEL", "FAILOVER", "no-such-master"});
    if (r == Error("ERR No such master with that name")) return {};
    return "this target's sentinels do not fail over yet (SENTINEL FAILOVER answers " +
           r.Describe() + ")";
  }

  // Waits until every sentinel names `port` as the master.
  bool SentinelsName(int port) {
    for (auto& s : sentinels_) {
      Client c(s->port());
      if (!Eventually(
              [&] {
                Reply r = c({"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"});
                return r.elements.size() == 2 && r.elements[1].str == std::to_string(port);
              },
              seconds(30))) {
        return false;
      }
    }
    return true;
  }

  std::unique_ptr<Topology> topology_;
  std::vector<std::unique_ptr<Server>> sentinels_;
  int master_ = 0, replica_ = 0;
};

TEST_F(LockSentinelTest, FindsTheMasterAndWaitsForTheListedReplica) {
  redlab::Client client(SentinelConfig());
  Client master(master_);
  Client replica(replica_);
  int64_t waits = Calls(master, "wait");
  redlab::Lock lock = client.GetLock("found");
  lock.Lock();
  EXPECT_EQ(master({"HGET", "found", lock.OwnerId()}), Bulk("1"));
  // WAIT 1 after the write: the replica acknowledged it before Lock() returned.
  EXPECT_EQ(Calls(master, "wait"), waits + 1);
  EXPECT_EQ(replica({"HGET", "found", lock.OwnerId()}), Bulk("1"));
  lock.Unlock();
  EXPECT_EQ(master({"EXISTS", "found"}), Int(0));
  EXPECT_EQ(client.Execute({"ROLE"}).elements.at(0).str, "master");
}

TEST_F(LockSentinelTest, NoSentinelKnowsTheMaster) {
  Config config = SentinelConfig();
  config.sentinel_master_name = "othermaster";
  try {
    redlab::Client client(config);
    FAIL() << "a client started without a master";
  } catch (const IoError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("no sentinel knows master othermaster:", 0), 0u)
        << e.what();
  }
}

// A waiter parked on a lock held by a peer; SENTINEL FAILOVER promotes the replica; the waiter's
// channel is subscribed on the new master, where the peer's release (Redisson's own script)
// wakes it, long before the peer's 60 s lease could.
TEST_F(LockSentinelTest, FollowsAFailoverWithItsWaiters) {
  std::string unsupported = FailoverUnsupported();
  if (!unsupported.empty()) GTEST_SKIP() << unsupported;
  redlab::Client client(SentinelConfig());
  Client master(master_);
  ASSERT_EQ(master({"EVAL", kRedissonAcquire, "1", "moved", "60000", "peer:1"}), Nil());
  ASSERT_EQ(master({"WAIT", "1", "5000"}), Int(1));
  redlab::Lock lock = client.GetLock("moved");
  const ThreadId owner = ThreadId::Current();
  std::future<bool> waiter = lock.TryLockAsync(seconds(30), seconds(30), owner);
  ASSERT_TRUE(Eventually([&] { return client.ParkedWaiters("moved") == 1; }));

  Client sentinel(sentinels_[0]->port());
  ASSERT_EQ(sentinel({"SENTINEL", "FAILOVER", "mymaster"}), Status("OK"));
  ASSERT_TRUE(SentinelsName(replica_));
  Client promoted(replica_);
  ASSERT_TRUE(Eventually(
      [&] {
        return promoted({"PUBSUB", "NUMSUB", ChannelOf("moved")}) ==
               Array({Bulk(ChannelOf("moved")), Int(1)});
      },
      seconds(10)));
  EXPECT_EQ(promoted.Call(RedissonUnlock("moved", "peer:1")), Int(1));
  ASSERT_TRUE(waiter.get());
  EXPECT_EQ(promoted({"HGET", "moved", lock.OwnerId()}), Bulk("1"));
  lock.Unlock();
  EXPECT_EQ(promoted({"EXISTS", "moved"}), Int(0));
  // New locks go to the new master.
  redlab::Lock after = client.GetLock("after");
  after.Lock();
  EXPECT_EQ(promoted({"HGET", "after", after.OwnerId()}), Bulk("1"));
  after.Unlock();
}

// The master killed: the sentinels agree it is down (down-after-milliseconds 200), elect a
// leader and promote the replica; the client's next locks go there.
TEST_F(LockSentinelTest, LocksWorkAgainAfterTheMasterDies) {
  std::string unsupported = FailoverUnsupported();
  if (!unsupported.empty()) GTEST_SKIP() << unsupported;
  redlab::Client client(SentinelConfig());
  redlab::Lock lock = client.GetLock("survivor");
  lock.Lock(milliseconds(60000));
  topology_->CrashMaster();
  ASSERT_TRUE(SentinelsName(replica_));
  Client promoted(replica_);
  // The hold reached the replica (WAIT) and survives there.
  EXPECT_EQ(promoted({"HGET", "survivor", lock.OwnerId()}), Bulk("1"));
  EXPECT_TRUE(Eventually([&] { return lock.IsLocked(); }, seconds(10)));
  lock.Unlock();
  EXPECT_EQ(promoted({"EXISTS", "survivor"}), Int(0));
  redlab::Lock next = client.GetLock("next");
  EXPECT_TRUE(next.TryLock(seconds(10), seconds(30)));
  EXPECT_EQ(promoted({"HGET", "next", next.OwnerId()}), Bulk("1"));
  next.Unlock();
}

}  // namespace
}  // namespace redlab::conformance
