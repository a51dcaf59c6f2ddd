// Redis 7.0.15's sentinelSelectSlave / compareSlavesForPromotion and the count of
// sentinelGetLeader: which replica a failover promotes, and who is elected with which votes.
#include <gtest/gtest.h>

#include "server/sentinel/sentinel.h"

namespace redlab::server::sentinel {
namespace {

constexpr int64_t kNow = 1'000'000;

class SelectSlaveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    master_.flags = kMaster;
    master_.down_after = 1000;
  }
  // A replica in good standing: connected, answering pings, fresh INFO, link up.
  Instance* Add(const std::string& name, int priority, int64_t offset, const std::string& runid) {
    auto s = std::make_unique<Instance>();
    s->flags = kSlave;
    s->name = name;
    s->disconnected = false;
    s->last_avail_time = kNow - 100;
    s->info_refresh = kNow - 100;
    s->slave_priority = priority;
    s->slave_repl_offset = offset;
    s->runid = runid;
    s->master = &master_;
    Instance* out = s.get();
    master_.slaves.emplace(name, std::move(s));
    return out;
  }
  Instance* Select() { return SelectSlave(master_, kNow, timing_); }

  Instance master_;
  Timing timing_;
};

TEST_F(SelectSlaveTest, LowestPriorityThenLargestOffsetThenSmallestRunid) {
  EXPECT_EQ(Select(), nullptr);
  Instance* a = Add("a", 100, 500, std::string(40, 'b'));
  Instance* b = Add("b", 100, 700, std::string(40, 'c'));
  EXPECT_EQ(Select(), b);  // larger offset
  Instance* c = Add("c", 100, 700, std::string(40, 'a'));
  EXPECT_EQ(Select(), c);  // same offset, smaller run id
  Instance* d = Add("d", 50, 10, std::string(40, 'f'));
  EXPECT_EQ(Select(), d);  // lower priority wins over offsets
  Instance* e = Add("e", 50, 10, "");
  EXPECT_EQ(Select(), d);  // a missing run id loses
  EXPECT_TRUE(BetterForPromotion(*d, *e));
  EXPECT_FALSE(BetterForPromotion(*e, *d));
  EXPECT_TRUE(BetterForPromotion(*b, *a));
  // Run ids compare without case.
  c->runid = std::string(40, 'A');
  EXPECT_TRUE(BetterForPromotion(*c, *b));
}

TEST_F(SelectSlaveTest, PriorityZeroIsNeverChosen) {
  Add("zero", 0, 1'000'000, std::string(40, 'a'));
  EXPECT_EQ(Select(), nullptr);
  Instance* low = Add("low", 200, 1, std::string(40, 'f'));
  EXPECT_EQ(Select(), low);
}

TEST_F(SelectSlaveTest, DownDisconnectedSilentOrStaleReplicasAreSkipped) {
  Instance* s = Add("s", 100, 1, std::string(40, 'a'));
  ASSERT_EQ(Select(), s);
  s->flags |= kSDown;
  EXPECT_EQ(Select(), nullptr);
  s->flags &= ~kSDown;
  s->disconnected = true;
  EXPECT_EQ(Select(), nullptr);
  s->disconnected = false;
  // No valid ping reply for more than 5 ping periods.
  s->last_avail_time = kNow - 5 * timing_.ping_period - 1;
  EXPECT_EQ(Select(), nullptr);
  s->last_avail_time = kNow - 5 * timing_.ping_period;
  EXPECT_EQ(Select(), s);
  // INFO older than 3 info periods with the master up, 5 ping periods with it SDOWN.
  s->info_refresh = kNow - 3 * timing_.info_period - 1;
  EXPECT_EQ(Select(), nullptr);
  s->info_refresh = kNow - 3 * timing_.info_period;
  EXPECT_EQ(Select(), s);
  master_.flags |= kSDown;
  master_.s_down_since_time = kNow - 2000;
  EXPECT_EQ(Select(), nullptr);
  s->info_refresh = kNow - 100;
  EXPECT_EQ(Select(), s);
  // Its link to the master down longer than the master is down plus 10 down-afters.
  s->master_link_down_time = 2000 + 10 * master_.down_after + 1;
  EXPECT_EQ(Select(), nullptr);
  s->master_link_down_time = 2000 + 10 * master_.down_after;
  EXPECT_EQ(Select(), s);
}

// This sentinel's vote as sentinelVoteLeader casts it when it has not voted in the epoch yet.
struct Voter {
  std::string myid = std::string(40, 'm');
  std::string held;  // a vote already cast in this epoch
  std::string asked;
  std::string operator()(const std::string& candidate) {
    asked = candidate;
    if (held.empty()) held = candidate.empty() ? myid : candidate;
    return held;
  }
};

TEST(CountLeaderTest, AloneItVotesForItselfAndNeedsTheQuorum) {
  Voter v;
  auto fn = [&](const std::string& c) { return v(c); };
  EXPECT_EQ(CountLeader({}, fn, 1, 1), v.myid);
  EXPECT_EQ(v.asked, "");
  Voter w;
  auto fn2 = [&](const std::string& c) { return w(c); };
  EXPECT_EQ(CountLeader({}, fn2, 1, 2), "");  // one vote, quorum 2
}

TEST(CountLeaderTest, MajorityOfVotersAndQuorumBothNeeded) {
  std::string a(40, 'a'), b(40, 'b');
  {
    // Three sentinels: the others voted a and nothing; this one follows a: 2 of 3.
    Voter v;
    auto fn = [&](const std::string& c) { return v(c); };
    EXPECT_EQ(CountLeader({a, ""}, fn, 3, 2), a);
    EXPECT_EQ(v.asked, a);
  }
  {
    // Five sentinels, two votes for a (with this one's): not a majority of 5.
    Voter v;
    auto fn = [&](const std::string& c) { return v(c); };
    EXPECT_EQ(CountLeader({a, "", "", ""}, fn, 5, 2), "");
  }
  {
    // This sentinel already voted for b in the epoch: a 1, b 2 of 3.
    Voter v;
    v.held = b;
    auto fn = [&](const std::string& c) { return v(c); };
    EXPECT_EQ(CountLeader({a, b}, fn, 3, 2), b);
  }
  {
    // A majority but below a quorum of 3.
    Voter v;
    auto fn = [&](const std::string& c) { return v(c); };
    EXPECT_EQ(CountLeader({a, ""}, fn, 3, 3), "");
  }
  {
    // No vote held in this epoch (it voted in a newer one): only the others count.
    auto none = [](const std::string&) { return std::string(); };
    EXPECT_EQ(CountLeader({a, a}, none, 3, 2), a);
    EXPECT_EQ(CountLeader({a, b}, none, 3, 2), "");
  }
}

}  // namespace
}  // namespace redlab::server::sentinel
