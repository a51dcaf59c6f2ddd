// TOPOLOGY RESTART <port> LOSE <ms>: a crashed node comes back with its data as it was <ms>
// before the crash, as real persistence keeps it (appendfsync everysec loses the last second),
// so RedLock's persistence argument can be played: a lock granted just before its master's
// crash is gone after the restart and another client gets it. Clocks are frozen and moved by
// FAULT CLOCK ADVANCE, which makes the node's history exact. Real Redis has no TOPOLOGY.
#include "client/client.h"
#include "conformance/harness/fixture.h"
#include "conformance/harness/topology.h"
#include "server/topology.h"

namespace redlab::conformance {
namespace {

constexpr char kRedlabOnly[] = "TOPOLOGY RESTART is redlab's fault injection; Redis has none";

class RestartLoseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    REDLAB_ONLY(kRedlabOnly);
    topology_ = StartTopology();
    master_ = topology_->master_port();
  }
  // The master dies now (FAULT CRASH answers nothing).
  void CrashMaster() {
    Client m(master_);
    m.SendCommand({"FAULT", "CRASH"});
    ASSERT_TRUE(m.WaitClosed());
  }
  // TOPOLOGY RESTART of the master, sent to the replica (a node of the same process).
  Reply RestartMaster(std::vector<std::string> how) {
    Client r = topology_->ConnectReplica(0);
    std::vector<std::string> args = {"TOPOLOGY", "RESTART", std::to_string(master_)};
    args.insert(args.end(), how.begin(), how.end());
    return r.Call(args);
  }
  std::unique_ptr<Topology> topology_;
  int master_ = 0;
};

TEST_F(RestartLoseTest, ALockGrantedInTheLastSecondIsLostAndGrantedAgain) {
  {
    Client m = topology_->ConnectMaster();
    ASSERT_EQ(m({"FAULT", "CLOCK", "MANUAL"}), Status("OK"));
    ASSERT_EQ(m({"SET", "older", "1"}), Status("OK"));
    ASSERT_EQ(m({"FAULT", "CLOCK", "ADVANCE", "2000"}), Status("OK"));
    ASSERT_EQ(m({"SET", "lock:a", "client-1", "NX", "PX", "30000"}), Status("OK"));
    ASSERT_EQ(m({"FAULT", "CLOCK", "ADVANCE", "2000"}), Status("OK"));
    // Half a second before the crash: within the second that LOSE 1000 loses.
    ASSERT_EQ(m({"SET", "lock:b", "client-1", "NX", "PX", "30000"}), Status("OK"));
    ASSERT_EQ(m({"FAULT", "CLOCK", "ADVANCE", "500"}), Status("OK"));
  }
  CrashMaster();
  EXPECT_EQ(RestartMaster({"LOSE", "1000"}), Status("OK"));
  Client m = topology_->ConnectMaster();
  EXPECT_EQ(m({"GET", "older"}), Bulk("1"));
  EXPECT_EQ(m({"GET", "lock:a"}), Bulk("client-1"));
  EXPECT_EQ(m({"GET", "lock:b"}), Nil());  // lost with the last second
  // Another client is granted lock:b: two clients now believe they hold it.
  EXPECT_EQ(m({"SET", "lock:b", "client-2", "NX", "PX", "30000"}), Status("OK"));
  EXPECT_EQ(m({"FAULT", "LIST"}), Array({}));  // a new process: real time, no faults
}

TEST_F(RestartLoseTest, LoseZeroKeepsEveryWriteAndTheHistoryHasAnEnd) {
  {
    Client m = topology_->ConnectMaster();
    ASSERT_EQ(m({"FAULT", "CLOCK", "MANUAL"}), Status("OK"));
    ASSERT_EQ(m({"SET", "k", "1"}), Status("OK"));
    ASSERT_EQ(m({"FAULT", "CLOCK", "ADVANCE", "1000"}), Status("OK"));
    ASSERT_EQ(m({"SET", "last", "1"}), Status("OK"));  // at the very moment of the crash
  }
  CrashMaster();
  const std::string port = std::to_string(master_);
  // The node started moments (of node time) ago: a minute back is before its history.
  EXPECT_EQ(RestartMaster({"LOSE", "60000"}),
            Error("ERR the node on port " + port +
                  " cannot restart with its data of 60000 ms before its crash: its history "
                  "does not reach back"));
  EXPECT_EQ(RestartMaster({"LOSE", "60001"}),
            Error("ERR value is out of range, value must between 0 and 60000"));
  EXPECT_EQ(RestartMaster({"LOSE", "-1"}),
            Error("ERR value is out of range, value must between 0 and 60000"));
  EXPECT_EQ(RestartMaster({"LOSE", "x"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(RestartMaster({"LOSE"}), Error("ERR syntax error"));
  EXPECT_EQ(RestartMaster({"KEEP", "1"}), Error("ERR syntax error"));
  EXPECT_EQ(RestartMaster({"LOSE", "0"}), Status("OK"));
  Client m = topology_->ConnectMaster();
  EXPECT_EQ(m({"MGET", "k", "last"}), Array({Bulk("1"), Bulk("1")}));
}

// RedLock's persistence argument, played with the lock client on five masters of one process:
// client A holds a RedLock on all five; a majority of them crash and come back with what
// `appendfsync everysec` would have kept. If A's lock was written in the last second it is
// gone and client B is granted the same lock while A still holds it; written earlier, it
// survives and B is refused. (Hence the RedLock page's delayed restart.)
class RedLockPersistenceTest : public ::testing::Test {
 protected:
  static constexpr size_t kMasters = 5;
  void SetUp() override {
    REDLAB_ONLY(kRedlabOnly);
    server::TopologyOptions options;
    options.base.loglevel = "warning";
    options.masters = kMasters;
    topology_ = server::Topology::Start(options);
    for (size_t i = 0; i < kMasters; ++i) {
      topology_->master(i).Fault({"CLOCK", "MANUAL"});
      // Five frozen seconds of history before anything is locked.
      topology_->master(i).Fault({"CLOCK", "ADVANCE", "5000"});
    }
    a_ = NewClient();
  }
  std::unique_ptr<redlab::Client> NewClient() {
    std::vector<std::string> urls;
    for (size_t i = 0; i < kMasters; ++i) {
      urls.push_back("redis://127.0.0.1:" + std::to_string(topology_->master(i).port()));
    }
    redlab::Config config = redlab::Config::IndependentMasters(urls);
    config.red_lock_node_timeout = std::chrono::milliseconds(500);
    config.red_lock_retry_delay = std::chrono::milliseconds(20);
    return std::make_unique<redlab::Client>(config);
  }
  // Every master has A's lock hash (TryLock returns once a majority answered).
  bool HeldEverywhere(const std::string& name) {
    return Eventually([&] {
      for (size_t i = 0; i < kMasters; ++i) {
        if (Client(topology_->master(i).port())({"EXISTS", name}) != Int(1)) return false;
      }
      return true;
    });
  }
  // Masters 0..2 (a majority) crash `since_lock_ms` of node time after the lock was written
  // and restart with what they had one second before the crash.
  void CrashMajorityLosingASecond(int64_t since_lock_ms) {
    for (size_t i = 0; i < 3; ++i) {
      server::Node& n = topology_->master(i);
      if (since_lock_ms > 0) n.Fault({"CLOCK", "ADVANCE", std::to_string(since_lock_ms)});
      n.Crash();
      n.Restart(/*keep_data=*/false, /*lose_ms=*/1000);
    }
  }
  // A takes "payments" (held on every master); masters 0..2 crash `since_lock_ms` after, losing
  // their last second; each of them then has the lock `exists` (EXISTS: 0 or 1). Then B, a
  // second client, connects.
  void LockThenCrashMajority(redlab::RedLock& lock_a, int64_t since_lock_ms, int64_t exists) {
    ASSERT_TRUE(lock_a.TryLock(std::chrono::milliseconds(2000), std::chrono::milliseconds(60000)));
    ASSERT_TRUE(HeldEverywhere("payments"));
    CrashMajorityLosingASecond(since_lock_ms);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(Client(topology_->master(i).port())({"EXISTS", "payments"}), Int(exists)) << i;
    }
    b_ = NewClient();
  }
  std::unique_ptr<server::Topology> topology_;
  std::unique_ptr<redlab::Client> a_, b_;  // the first holder and the second
};

TEST_F(RedLockPersistenceTest, ALockWrittenInTheLastSecondIsLostAndGrantedTwice) {
  redlab::RedLock lock_a = a_->GetRedLock("payments");
  ASSERT_NO_FATAL_FAILURE(LockThenCrashMajority(lock_a, 500, 0));
  redlab::RedLock lock_b = b_->GetRedLock("payments");
  EXPECT_TRUE(lock_b.TryLock(std::chrono::milliseconds(1000), std::chrono::milliseconds(60000)));
  EXPECT_TRUE(lock_a.IsHeldByCurrentThread());  // A still believes it holds it: two holders
}

TEST_F(RedLockPersistenceTest, ALockWrittenEarlierSurvivesAndIsRefused) {
  redlab::RedLock lock_a = a_->GetRedLock("payments");
  ASSERT_NO_FATAL_FAILURE(LockThenCrashMajority(lock_a, 2000, 1));
  redlab::RedLock lock_b = b_->GetRedLock("payments");
  EXPECT_FALSE(lock_b.TryLock(std::chrono::milliseconds(0), std::chrono::milliseconds(60000)));
}

}  // namespace
}  // namespace redlab::conformance
