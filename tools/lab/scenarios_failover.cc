// The failover scenarios: a lock on a master whose replicas lag, are held, or answer WAIT in
// the wrong order, and a promotion that forgets it (the race of conformance/failover_test.cc),
// made by hand or by Sentinel, or by Sentinel across a partition (a split brain).
#include <chrono>
#include <stdexcept>
#include <thread>

#include "tools/lab/scenario.h"

namespace redlab::lab {
namespace {

const Millis kLease{10000};  // longer than any scenario: only a fault ends a hold early

// B tries the lock once; holding it, updates the resource (a seeded few ms of work) and
// releases it.
void SecondHolder(Actor& b, GuardedResource& resource, Nemesis& n) {
  if (b.Acquire(kLockName, Millis(100), kLease).outcome != Outcome::kOk) return;
  b.Update(resource, Millis(n.Uniform(2, 10)));
  b.Release(kLockName);
}

Config SingleServer(const Cluster& c, size_t node) {
  return LabConfig(Config::SingleServer(c.Url(node)));
}

// A master-replica client: every lock write is followed by WAIT (Redisson's
// checkLockSyncedSlaves), with a short sync timeout.
Config MasterReplica(const Cluster& c, int replicas, Millis sync_timeout) {
  std::vector<std::string> urls;
  for (int i = 0; i < replicas; ++i) urls.push_back(c.Url(c.Replica(i)));
  Config config = LabConfig(Config::MasterReplica(c.Url(c.Master()), urls));
  config.slaves_sync_timeout = sync_timeout;
  return config;
}

void FailoverRace(RunContext& ctx) {
  Cluster& c = ctx.StartCluster({.replicas = 1});
  Nemesis& n = ctx.nemesis();
  GuardedResource resource(kResourceName, false);
  auto a = ctx.ReentrantActor("A", SingleServer(c, c.Master()));
  n.HoldLink(c.Replica(0));
  if (a->Acquire(kLockName, Millis(0), kLease).outcome != Outcome::kOk) return;
  int64_t seen = a->Read(resource);
  n.Crash(c.Master());
  n.Promote(c.Replica(0));
  auto b = ctx.ReentrantActor("B", SingleServer(c, c.Replica(0)));
  SecondHolder(*b, resource, n);
  a->Write(resource, seen, seen + 1);
  a->Release(kLockName);
}

// Polls the sentinels until one names `node` as mymaster's address; false at the deadline.
bool WaitForSentinelsToName(const Cluster& c, size_t node, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    for (size_t i = 0; i < c.num_sentinels(); ++i) {
      try {
        if (c.SentinelMasterPort(i) == c.Port(node)) return true;
      } catch (const std::exception&) {  // a sentinel busy failing over answers later
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the failover is under way
  }
  return false;
}

// Waits (20 s at most) until the sentinels name the replica as mymaster's address, then records
// the time since `since_us` as the figure failover_ms and marks the promotion in the history.
void AwaitSentinelPromotion(RunContext& ctx, Cluster& c, int64_t since_us, const char* why) {
  if (!WaitForSentinelsToName(c, c.Replica(0), std::chrono::seconds(20))) {
    throw std::runtime_error("the sentinels did not promote " + c.Name(c.Replica(0)) +
                             " within 20 s");
  }
  ctx.Metric("failover_ms", static_cast<double>(ctx.history().NowUs() - since_us) / 1000.0);
  ctx.history().Mark("sentinel-promote", c.Name(c.Replica(0)), why);
}

// The same race, the promotion Sentinel's: three sentinels (quorum 2) see the master die and
// promote the replica that never had the lock.
void SentinelFailoverRace(RunContext& ctx) {
  Cluster& c = ctx.StartCluster({.replicas = 1, .sentinels = 3});
  Nemesis& n = ctx.nemesis();
  GuardedResource resource(kResourceName, false);
  auto a = ctx.ReentrantActor("A", SingleServer(c, c.Master()));
  n.HoldLink(c.Replica(0));
  if (a->Acquire(kLockName, Millis(0), kLease).outcome != Outcome::kOk) return;
  int64_t seen = a->Read(resource);
  n.Crash(c.Master());
  int64_t crashed = ctx.history().NowUs();
  AwaitSentinelPromotion(ctx, c, crashed, "the sentinels name it mymaster's address");
  auto b = ctx.ReentrantActor("B", SingleServer(c, c.Replica(0)));
  SecondHolder(*b, resource, n);
  a->Write(resource, seen, seen + 1);
  a->Release(kLockName);
}

// A split brain (embedded only: FAULT PARTITION): the master and one sentinel are cut off from
// the replica and the two other sentinels. A, a client on the master's side (clients reach
// both sides), locks on the old master, which still takes writes that never reach the replica;
// the majority of sentinels promotes the replica, and B, sent there by them, takes the same
// lock.
void SentinelSplitBrain(RunContext& ctx) {
  if (ctx.target() == Target::kRedis) {
    ctx.Skip("real redis-server nodes and sentinels cannot be partitioned (FAULT PARTITION is "
             "redlab's)");
    return;
  }
  Cluster& c = ctx.StartCluster({.replicas = 1, .sentinels = 3});
  Nemesis& n = ctx.nemesis();
  GuardedResource resource(kResourceName, false);
  auto a = ctx.ReentrantActor("A", SingleServer(c, c.Master()));
  n.Partition({c.Master()}, {0});
  int64_t cut = ctx.history().NowUs();
  if (a->Acquire(kLockName, Millis(0), kLease).outcome != Outcome::kOk) return;
  int64_t seen = a->Read(resource);
  AwaitSentinelPromotion(ctx, c, cut, "the majority's sentinels name it mymaster's address");
  auto b = ctx.ReentrantActor("B", SingleServer(c, c.Replica(0)));
  SecondHolder(*b, resource, n);
  a->Write(resource, seen, seen + 1);  // the old master still acknowledges A's lock
  a->Release(kLockName);
  n.Heal();
}

void FailoverRaceWait(RunContext& ctx) {
  Cluster& c = ctx.StartCluster({.replicas = 1});
  Nemesis& n = ctx.nemesis();
  auto a = ctx.ReentrantActor("A", MasterReplica(c, 1, Millis(200)));
  // The seed decides whether the link stalls before A's lock write (WAIT sees no replica: the
  // acquisition is refused) or just after it (the replica has the lock).
  bool hold_first = n.Coin();
  ctx.Note(hold_first ? "link held before the acquisition" : "link held after the acquisition");
  GuardedResource resource(kResourceName, false);
  if (hold_first) n.HoldLink(c.Replica(0));
  bool held = a->Acquire(kLockName, Millis(0), kLease).outcome == Outcome::kOk;
  int64_t seen = held ? a->Read(resource) : 0;
  if (!hold_first) n.HoldLink(c.Replica(0));
  n.Crash(c.Master());
  n.Promote(c.Replica(0));
  auto b = ctx.ReentrantActor("B", SingleServer(c, c.Replica(0)));
  SecondHolder(*b, resource, n);
  if (held) {
    a->Write(resource, seen, seen + 1);
    a->Release(kLockName);
  }
}

// The client waits for its replicas (WAIT 2) and trusts the lock once one acknowledged it; with
// `all`, only once both did.
void FailoverWaitWrongReplica(RunContext& ctx, bool all) {
  Cluster& c = ctx.StartCluster({.replicas = 2});
  Nemesis& n = ctx.nemesis();
  ReentrantOptions options;
  if (all) options.wait_replicas = 2;
  auto a = ctx.ReentrantActor("A", MasterReplica(c, 2, Millis(200)), options);
  size_t behind = c.Replica(static_cast<size_t>(n.Uniform(0, 1)));
  GuardedResource resource(kResourceName, false);
  n.HoldLink(behind);
  if (a->Acquire(kLockName, Millis(0), kLease).outcome != Outcome::kOk) return;
  int64_t seen = a->Read(resource);
  n.Crash(c.Master());
  n.Promote(behind);  // the replica that never had the lock
  auto b = ctx.ReentrantActor("B", SingleServer(c, behind));
  SecondHolder(*b, resource, n);
  a->Write(resource, seen, seen + 1);
  a->Release(kLockName);
}

void ReplicationLag(RunContext& ctx) {
  Cluster& c = ctx.StartCluster({.replicas = 1});
  Nemesis& n = ctx.nemesis();
  auto a = ctx.ReentrantActor("A", MasterReplica(c, 1, Millis(100)));
  auto b = ctx.ReentrantActor("B", MasterReplica(c, 1, Millis(100)));
  n.DelayLink(c.Replica(0), 300 + n.Uniform(0, 100));  // both ways: the ack takes 600 ms and more
  constexpr int kAttempts = 6;
  int refused = 0;
  for (int i = 0; i < kAttempts; ++i) {
    Actor& who = i % 2 == 0 ? *a : *b;
    DriverResult r = who.Acquire(kLockName, Millis(0), Millis(2000));
    if (r.outcome == Outcome::kOk) {
      who.Release(kLockName);
    } else {
      ++refused;
    }
  }
  n.DelayLink(c.Replica(0), 0);
  ctx.Metric("refusal_rate", static_cast<double>(refused) / kAttempts);
}

}  // namespace

void AddFailoverScenarios(std::vector<Scenario>& out) {
  out.push_back({"failover-race", "",
                 "the master acknowledges a lock, dies before its replica has it, the replica is "
                 "promoted and a second client takes the lock",
                 Verdict::kUnsafe, true, FailoverRace});
  out.push_back({"sentinel-failover-race", "",
                 "the same race, the replica promoted by three sentinels (quorum 2) that saw the "
                 "master die",
                 Verdict::kUnsafe, true, SentinelFailoverRace});
  out.push_back({"sentinel-split-brain", "",
                 "a partition cuts the master (and one sentinel) off from its replica and the "
                 "other sentinels: they promote the replica while a client still locks on the "
                 "old master",
                 Verdict::kUnsafe, false, SentinelSplitBrain});
  out.push_back({"failover-race-wait", "",
                 "the same failover, with the client's WAIT-based replica sync "
                 "(checkLockSyncedSlaves): refused, or the promoted replica has the lock",
                 Verdict::kSafe, true, FailoverRaceWait});
  out.push_back({"failover-wait-wrong-replica", "",
                 "two replicas: WAIT is answered by one, the other is promoted (WAIT is not "
                 "consensus)",
                 Verdict::kUnsafe, true,
                 [](RunContext& ctx) { FailoverWaitWrongReplica(ctx, false); }});
  out.push_back({"failover-wait-wrong-replica", "wait-all-replicas",
                 "the same, the lock trusted only once every replica acknowledged it",
                 Verdict::kSafe, true,
                 [](RunContext& ctx) { FailoverWaitWrongReplica(ctx, true); }});
  out.push_back({"replication-lag", "",
                 "a slow replica and a short WAIT timeout: acquisitions refused, never unsafe",
                 Verdict::kSafe, true, ReplicationLag});
}

}  // namespace redlab::lab
