// The client-side scenarios: a node's clock that jumps, a holder that stops (a GC pause) or is
// cut from its server, and an unlock message that never reaches the waiter.
#include <chrono>
#include <future>
#include <thread>

#include "tools/lab/scenario.h"
#include "tools/proxy/fault_proxy.h"

namespace redlab::lab {
namespace {

Config SingleServer(const std::string& url) { return LabConfig(Config::SingleServer(url)); }

std::string ProxyUrl(const tools::FaultProxy& p) {
  return "redis://127.0.0.1:" + std::to_string(p.port());
}

// A fault proxy in front of the cluster's master.
std::unique_ptr<tools::FaultProxy> ProxyToMaster(Cluster& c) {
  tools::ProxyOptions po;
  po.target_port = c.Port(c.Master());
  return tools::FaultProxy::Start(po);
}

double Ms(int64_t us) { return static_cast<double>(us) / 1000.0; }

void ClockJump(RunContext& ctx) {
  if (ctx.target() == Target::kRedis) {
    ctx.Skip("a real redis-server's clock cannot be moved (FAULT CLOCK is redlab's)");
    return;
  }
  Cluster& c = ctx.StartCluster({});
  Nemesis& n = ctx.nemesis();
  const Millis lease{10000};
  GuardedResource resource(kResourceName, false);
  auto a = ctx.ReentrantActor("A", SingleServer(c.Url(c.Master())));
  auto b = ctx.ReentrantActor("B", SingleServer(c.Url(c.Master())));
  if (a->Acquire(kLockName, Millis(0), lease).outcome != Outcome::kOk) return;
  int64_t seen = a->Read(resource);
  // An NTP step or a VM restored from a snapshot: the node's time leaps past the lease.
  n.JumpClock(c.Master(), lease.count() + n.Uniform(1, 5000));
  if (b->Acquire(kLockName, Millis(0), lease).outcome == Outcome::kOk) {
    b->Update(resource, Millis(n.Uniform(2, 10)));
    b->Release(kLockName);
  }
  a->Write(resource, seen, seen + 1);
  a->Release(kLockName);
}

// A holds the lock with a short lease, reads the resource, and stops; B takes the lock once the
// lease ran out and updates the resource; A wakes up and writes what it computed before.
void ClientPauseWith(RunContext& ctx, bool fenced) {
  Cluster& c = ctx.StartCluster({});
  Nemesis& n = ctx.nemesis();
  GuardedResource resource(kResourceName, /*check_tokens=*/fenced);
  const Millis lease{200 + n.Uniform(0, 100)};
  Config config = SingleServer(c.Url(c.Master()));
  // With an external driver (--driver), its processes take the lock (and A's is stopped).
  auto a = fenced ? ctx.FencedActor("A", config) : ctx.DriverActor("A", {c.Master()});
  auto b = fenced ? ctx.FencedActor("B", config) : ctx.DriverActor("B", {c.Master()});
  if (!a) a = ctx.ReentrantActor("A", config);
  if (!b) b = ctx.ReentrantActor("B", config);
  if (a->Acquire(kLockName, Millis(0), lease).outcome != Outcome::kOk) return;
  int64_t seen = a->Read(resource);
  n.BeginClientFault("pause", "A", "stop-the-world pause longer than the lease");
  a->driver().Pause(true);
  if (b->Acquire(kLockName, Millis(3000), Millis(5000)).outcome == Outcome::kOk) {
    int64_t v = b->Read(resource);
    b->Write(resource, v, v + 1);
    b->Release(kLockName);
  }
  a->driver().Pause(false);
  n.EndClientFault("pause", "A");
  a->Write(resource, seen, seen + 1);
  a->Release(kLockName);
}

void ClientPause(RunContext& ctx) { ClientPauseWith(ctx, false); }

void ClientPartition(RunContext& ctx) {
  Cluster& c = ctx.StartCluster({});
  Nemesis& n = ctx.nemesis();
  auto proxy = ProxyToMaster(c);
  Config ca = SingleServer(ProxyUrl(*proxy));
  ca.lock_watchdog_timeout = Millis(600);  // renewed every 200 ms
  ca.timeout = Millis(150);
  auto a = ctx.ReentrantActor("A", ca);
  auto b = ctx.ReentrantActor("B", SingleServer(c.Url(c.Master())));
  GuardedResource resource(kResourceName, false);
  a->WatchLost(kLockName);
  if (a->Acquire(kLockName, Millis(0), Millis(0)).outcome != Outcome::kOk) return;
  int64_t seen = a->Read(resource);
  // A is cut from the server: its watchdog's renewals go nowhere and the lease runs out.
  proxy->Hold();
  n.BeginClientFault("partition", "A", "A cannot reach the server");
  DriverResult rb = b->Acquire(kLockName, Millis(3000), Millis(5000));
  int64_t b_took = ctx.history().NowUs();
  if (rb.outcome == Outcome::kOk) b->Update(resource, Millis(n.Uniform(2, 10)));
  // The network heals (after a seeded while): A, not told yet, writes what it computed; its
  // next renewal finds B's lock. (The history's renewals end A's hold at its last renewal plus
  // the lease, so the unsafety shows in the resource: a lost update.)
  std::this_thread::sleep_for(Millis(n.Uniform(50, 250)));  // the partition's length
  proxy->Reset();
  n.EndClientFault("partition", "A");
  a->Write(resource, seen, seen + 1);
  bool told = a->WaitLost(Millis(5000));
  if (rb.outcome == Outcome::kOk) {
    if (told) {
      ctx.Metric("lost_notice_ms", Ms(ctx.history().NowUs() - b_took));
    } else {
      ctx.Note("OnLost never told A within 5 s of the partition's end");
    }
    b->Release(kLockName);
  }
  a->Release(kLockName);
}

// Waits until the lock's unlock channel on `port` has a subscriber (the waiter is parked), or 5 s
// pass.
bool WaitSubscriber(int port) {
  std::string channel = std::string("redisson_lock__channel:{") + kLockName + "}";
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    if (AdminCommand(port, {"PUBSUB", "NUMSUB", channel}) != channel + "\n0") return true;
    std::this_thread::sleep_for(Millis(5));  // the waiter is subscribing
  }
  return false;
}

void LostUnlockMessage(RunContext& ctx) {
  Cluster& c = ctx.StartCluster({});
  Nemesis& n = ctx.nemesis();
  auto proxy = ProxyToMaster(c);
  const Millis lease{1000 + n.Uniform(0, 500)};
  auto a = ctx.ReentrantActor("A", SingleServer(c.Url(c.Master())));
  auto b = ctx.ReentrantActor("B", SingleServer(ProxyUrl(*proxy)));
  // One round: A holds, B waits for it, A releases; how long B takes after A's release.
  auto round = [&](bool lose_message) -> double {
    if (a->Acquire(kLockName, Millis(0), lease).outcome != Outcome::kOk) return -1;
    auto waiting = std::async(std::launch::async,
                              [&] { return b->Acquire(kLockName, Millis(5000), Millis(5000)); });
    WaitSubscriber(c.Port(c.Master()));
    if (lose_message) {
      proxy->Hold();
      n.BeginClientFault("message-loss", "B", "the unlock message is lost on the way");
    }
    int64_t released = ctx.history().NowUs();
    a->Release(kLockName);
    if (lose_message) {
      proxy->Drop();  // the held bytes (the message) are gone, B's connections with them
      proxy->Reset();
      n.EndClientFault("message-loss", "B");
    }
    DriverResult r = waiting.get();
    if (r.outcome != Outcome::kOk) return -1;
    double after = Ms(ctx.history().NowUs() - released);
    b->Release(kLockName);
    return after;
  };
  double with = round(false);
  double lost = round(true);
  if (with >= 0) ctx.Metric("acquired_after_release_ms", with);
  if (lost >= 0) {
    ctx.Metric("acquired_after_lost_release_ms", lost);
  } else {
    ctx.Note("B did not get the lock after the lost message");
  }
}

}  // namespace

void AddClientScenarios(std::vector<Scenario>& out) {
  out.push_back(
      {"clock-jump", "",
       "the clock of the node holding the lock jumps past the lease (an NTP step, a "
       "restored VM): a second client takes it while the first still believes it holds it",
       Verdict::kUnsafe, true, ClockJump});
  out.push_back({"client-pause", "",
                 "the holder stops longer than its lease (GC, a frozen VM), a second client takes "
                 "the lock, the first resumes and writes: a lost update",
                 Verdict::kUnsafe, true, ClientPause, /*takes_driver=*/true});
  out.push_back({"client-pause", "fenced",
                 "the same with the fenced lock and a resource that rejects a token older than the "
                 "newest it has seen",
                 Verdict::kSafe, true, [](RunContext& ctx) { ClientPauseWith(ctx, true); }});
  out.push_back({"client-partition", "",
                 "the holder is cut from the server while its watchdog keeps the lock: the lease "
                 "runs out, a second client takes it and writes, the first writes before OnLost "
                 "tells it: a lost update",
                 Verdict::kUnsafe, true, ClientPartition});
  out.push_back({"lost-unlock-message", "",
                 "the unlock message to a waiter is lost: the waiter still gets the lock, later",
                 Verdict::kSafe, true, LostUnlockMessage});
}

}  // namespace redlab::lab
