// The RedLock scenarios (Redis's distlock page, and Kleppmann's reading of it): five independent
// masters, a lock that needs a majority of them, and masters that crash — and restart empty,
// with no persistence, before or after the longest lease has passed.
#include <thread>

#include "tools/lab/scenario.h"

namespace redlab::lab {
namespace {

constexpr int kMasters = 5;

std::vector<size_t> AllMasters() {
  std::vector<size_t> v;
  for (int i = 0; i < kMasters; ++i) v.push_back(static_cast<size_t>(i));
  return v;
}

// The masters in a seeded order, so which ones fail changes with the seed.
std::vector<size_t> Shuffled(Nemesis& n) {
  std::vector<size_t> v = AllMasters();
  std::shuffle(v.begin(), v.end(), n.rng());
  return v;
}

// What every RedLock scenario starts from: the five masters, the guarded resource, and the
// actors A and B locking over all of them. `a` is null when the run could not make its actor
// (the scenario then ends at once).
struct RedLockRun {
  explicit RedLockRun(RunContext& ctx)
      : n(StartMasters(ctx)),
        resource(kResourceName, false),
        a(ctx.RedLockActor("A", AllMasters())),
        b(a ? ctx.RedLockActor("B", AllMasters()) : nullptr) {}

  static Nemesis& StartMasters(RunContext& ctx) {
    ctx.StartCluster({.masters = kMasters});
    return ctx.nemesis();
  }

  Nemesis& n;
  GuardedResource resource;
  std::unique_ptr<Actor> a, b;
};

void MinorityCrash(RunContext& ctx) {
  RedLockRun run(ctx);
  auto& [n, resource, a, b] = run;
  if (!a) return;
  if (a->Acquire(kLockName, Millis(0), Millis(10000)).outcome != Outcome::kOk) return;
  int64_t seen = a->Read(resource);
  std::vector<size_t> order = Shuffled(n);
  n.Crash(order[0]);
  n.Crash(order[1]);
  // Three masters left, all with A's lock: B cannot get a majority.
  if (b->Acquire(kLockName, Millis(100), Millis(10000)).outcome == Outcome::kOk) {
    b->Update(resource, Millis(2));
    b->Release(kLockName);
  }
  a->Write(resource, seen, seen + 1);
  a->Release(kLockName);
}

// A takes the lock on a bare majority (two masters are down then); one master of that majority
// crashes and restarts empty — at once, or only once A's lease has run out (the delayed restart
// the RedLock description asks for); B then tries for a majority. A keeps the lock until it
// releases it at the end, or its lease runs out first.
void RestartEmpty(RunContext& ctx, bool delayed) {
  RedLockRun run(ctx);
  auto& [n, resource, a, b] = run;
  if (!a) return;
  std::vector<size_t> order = Shuffled(n);
  const Millis lease{delayed ? 400 : 10000};
  n.Crash(order[3]);
  n.Crash(order[4]);
  if (a->Acquire(kLockName, Millis(0), lease).outcome != Outcome::kOk) return;  // 3 of 5
  a->Update(resource, Millis(2));  // A works under the lock while it is valid
  n.Restart(order[3]);
  n.Restart(order[4]);
  n.Crash(order[0]);  // one of A's majority
  if (delayed) {
    // B may try meanwhile: two of the three masters it reaches are free, not a majority.
    b->Acquire(kLockName, Millis(0), Millis(10000));
    std::this_thread::sleep_for(lease + Millis(n.Uniform(50, 150)));  // the restart's delay
  }
  n.Restart(order[0]);  // empty: it forgot A's lock
  // B waits up to a second: its connections to the restarted masters are being made again.
  if (b->Acquire(kLockName, Millis(1000), Millis(10000)).outcome == Outcome::kOk) {
    b->Update(resource, Millis(2));
    b->Release(kLockName);
  }
  a->Release(kLockName);
}

}  // namespace

void AddRedLockScenarios(std::vector<Scenario>& out) {
  // All in the quick share on real Redis, all able to take an external driver.
  out.insert(
      out.end(),
      {
          Scenario{"redlock-minority-crash", "",
                   "five masters, two crash while the lock is held: the rest still hold a "
                   "majority",
                   Verdict::kSafe, true, MinorityCrash, true},
          Scenario{"redlock-restart-empty", "",
                   "a master of the holder's bare majority crashes and restarts empty at once: a "
                   "second client gets a majority",
                   Verdict::kUnsafe, true, [](RunContext& ctx) { RestartEmpty(ctx, false); }, true},
          Scenario{"redlock-restart-empty", "delayed-restart",
                   "the same, the master restarting only after the longest lease has passed (the "
                   "delayed restart the RedLock description asks for)",
                   Verdict::kSafe, true, [](RunContext& ctx) { RestartEmpty(ctx, true); }, true},
      });
}

}  // namespace redlab::lab
