#include "client/red_lock_core.h"

#include <algorithm>
#include <functional>

#include "client/client_core.h"
#include "client/errors.h"
#include "client/lock_core.h"

namespace redlab::client {

struct RedLocks::Round {
  Answers answers;
  size_t pending = 1;  // one more until every command is sent (answers may come at once)
  bool completed = false;
  std::unique_ptr<Timer> timer;
  std::function<void(Answers)> done;
  std::function<bool(const Answers&)> enough;
};

struct RedLocks::Attempt {
  std::string name;
  ThreadId t;
  int64_t lease_ms = 0;  // 0: the watchdog
  std::optional<Millis> wait;
  Clock::time_point began;
  std::function<void(std::exception_ptr, bool)> done;
};

namespace {

std::exception_ptr Closed() {
  return std::make_exception_ptr(ClientClosed("the client was shut down"));
}

bool Answered(const std::optional<CommandResult>& a) {
  return a && !a->error && !a->reply.is_error();
}

}  // namespace

RedLocks::RedLocks(ClientCore& client) : client_(client), random_(std::random_device{}()) {}

RedLocks::~RedLocks() { Close(); }

std::function<bool(const RedLocks::Answers&)> RedLocks::Majority(
    std::function<bool(const Reply&)> yes) const {
  size_t needed = quorum();
  return [needed, yes = std::move(yes)](const Answers& answers) {
    size_t count = 0;
    for (const auto& a : answers) {
      if (Answered(a) && yes(a->reply)) ++count;
    }
    return count >= needed;
  };
}

size_t RedLocks::quorum() const { return client_.config.masters.size() / 2 + 1; }

std::string RedLocks::Owner(ThreadId t) const { return client_.id + ":" + std::to_string(t.value); }

std::string RedLocks::Channel(const std::string& name) const {
  return PrefixName("redisson_lock__channel", name);
}

void RedLocks::StartRound(const Script* script, std::vector<std::string> keys,
                          std::function<std::vector<std::string>(size_t)> args,
                          std::vector<bool> to, Millis timeout, std::function<void(Answers)> done,
                          std::function<bool(const Answers&)> enough) {
  if (closed_) return done({});  // its continuation sees closed_
  auto round = std::make_shared<Round>();
  round->done = std::move(done);
  round->enough = std::move(enough);
  round->answers.resize(client_.nodes.size());
  round->timer = std::make_unique<Timer>(client_.loop);
  rounds_[round.get()] = round;
  auto complete = [this](const std::shared_ptr<Round>& r) {
    if (r->completed) return;
    r->completed = true;
    r->timer.reset();  // safe from its own callback, as NodeLink's retry timers
    rounds_.erase(r.get());
    std::function<void(Answers)> finished = std::move(r->done);
    finished(std::move(r->answers));
  };
  round->timer->Start(timeout, [round, complete] { complete(round); });
  if (script == nullptr) return;  // a delay
  // Every command of one RedLock name goes to a master on the same connection, so the master
  // runs them in the order sent: a release (after an attempt decided by a majority, or given
  // up) never overtakes an acquisition still unanswered there, which would then take the
  // lock after its release and leave it held until its lease ran out.
  int lane = static_cast<int>(std::hash<std::string>{}(keys.at(0)) % 1024);
  for (size_t i = 0; i < client_.nodes.size() && i < to.size(); ++i) {
    if (!to[i]) continue;
    ++round->pending;
    client_.nodes[i].link->EvalWrite(
        *script, keys, args(i), /*idempotent=*/false, [](const Reply&) { return false; },
        [round, i, complete](WriteResult w) {
          if (round->completed) return;
          round->answers[i] = std::move(w.result);
          if (--round->pending == 0 || (round->enough && round->enough(round->answers))) {
            complete(round);
          }
        },
        /*attempts=*/0, lane);
  }
  if (--round->pending == 0) complete(round);
}

void RedLocks::Acquire(const std::string& name, ThreadId t, std::optional<Millis> lease,
                       std::optional<Millis> wait,
                       std::function<void(std::exception_ptr, bool)> done) {
  if (closed_) return done(Closed(), false);
  if (holds_.count({name, t.value}) != 0) {
    return done(std::make_exception_ptr(Error("RedLock '" + name + "' is already held by " +
                                              Owner(t) + " (a RedLock is not reentrant)")),
                false);
  }
  auto a = std::make_shared<Attempt>();
  a->name = name;
  a->t = t;
  a->lease_ms = lease && lease->count() > 0 ? lease->count() : 0;
  a->wait = wait;
  a->began = Clock::now();
  a->done = std::move(done);
  Try(std::move(a));
}

void RedLocks::Try(std::shared_ptr<Attempt> a) {
  Clock::time_point started = Clock::now();
  int64_t ttl = a->lease_ms > 0 ? a->lease_ms : client_.config.lock_watchdog_timeout.count();
  std::vector<std::string> args{std::to_string(ttl), Owner(a->t)};
  StartRound(
      &client_.scripts.acquire, {a->name}, [args](size_t) { return args; },
      std::vector<bool>(client_.nodes.size(), true), client_.config.red_lock_node_timeout,
      [this, a, started](Answers answers) { AfterTry(a, started, std::move(answers)); },
      Majority([](const Reply& r) { return r.is_nil(); }));
}

void RedLocks::AfterTry(std::shared_ptr<Attempt> a, Clock::time_point started, Answers answers) {
  if (closed_) return a->done(Closed(), false);
  size_t granted = 0;
  std::vector<bool> maybe(answers.size(), false);  // granted, or unknown: to release on failure
  bool any = false;
  for (size_t i = 0; i < answers.size(); ++i) {
    const std::optional<CommandResult>& r = answers[i];
    bool yes = Answered(r) && r->reply.is_nil();
    granted += yes ? 1 : 0;
    maybe[i] = yes || !r || r->error != nullptr;
    any = any || maybe[i];
  }
  int64_t ttl = a->lease_ms > 0 ? a->lease_ms : client_.config.lock_watchdog_timeout.count();
  auto elapsed = std::chrono::duration_cast<Millis>(Clock::now() - started).count();
  int64_t validity = ttl - elapsed - Drift(ttl);
  Key key{a->name, a->t.value};
  if (granted >= quorum() && validity > 0 && holds_.count(key) == 0) {
    Hold& hold = holds_[key];
    hold.nodes = std::move(maybe);
    hold.lease_ms = a->lease_ms;
    hold.valid_until = started + Millis(ttl - Drift(ttl));
    hold.generation = next_generation_++;
    if (a->lease_ms == 0) ScheduleRenewal(key, hold);
    return a->done(nullptr, true);
  }
  // Failed: take back whatever this attempt may have taken, then try again within the wait.
  auto next = [this, a](Answers) {
    if (closed_) return a->done(Closed(), false);
    std::optional<Millis> left;
    if (a->wait) {
      left = *a->wait - std::chrono::duration_cast<Millis>(Clock::now() - a->began);
      if (left->count() <= 0) return a->done(nullptr, false);
    }
    int64_t bound = client_.config.red_lock_retry_delay.count();
    if (left) bound = std::min<int64_t>(bound, left->count());
    Millis delay(std::uniform_int_distribution<int64_t>(1, std::max<int64_t>(1, bound))(random_));
    StartRound(nullptr, {}, {}, {}, delay, [this, a](Answers) {
      if (closed_) return a->done(Closed(), false);
      Try(a);
    });
  };
  if (!any) return next({});
  std::string latch = PrefixName("redisson_unlock_latch", a->name) + ":" + RandomHex(16);
  std::vector<std::string> args{"0", std::to_string(ttl), Owner(a->t), kPublishCommand,
                                std::to_string(client_.config.red_lock_node_timeout.count())};
  StartRound(
      &client_.scripts.release, {a->name, Channel(a->name), latch}, [args](size_t) { return args; },
      std::move(maybe), client_.config.red_lock_node_timeout, std::move(next));
}

void RedLocks::Release(const std::string& name, ThreadId t,
                       std::function<void(std::exception_ptr)> done) {
  if (closed_) return done(Closed());
  auto it = holds_.find({name, t.value});
  if (it == holds_.end()) {
    return done(std::make_exception_ptr(IllegalMonitorState(name, client_.id, t.value)));
  }
  holds_.erase(it);  // stops its renewal
  const Config& config = client_.config;
  std::string latch = PrefixName("redisson_unlock_latch", name) + ":" + RandomHex(16);
  int64_t latch_ms = std::max<int64_t>(1, config.red_lock_node_timeout.count());
  std::vector<std::string> args{"0", std::to_string(config.lock_watchdog_timeout.count()), Owner(t),
                                kPublishCommand, std::to_string(latch_ms)};
  // On every master, not only those that granted it: one that answered late may hold it.
  StartRound(
      &client_.scripts.release, {name, Channel(name), latch}, [args](size_t) { return args; },
      std::vector<bool>(client_.nodes.size(), true), config.red_lock_node_timeout,
      [this, name, t, done = std::move(done)](Answers answers) {
        if (closed_) return done(Closed());
        // No DEL of the unlock latch, unlike ReentrantLock's release: it only answers a
        // repeated release, and a RedLock release is never repeated (attempts 0); it lives
        // red_lock_node_timeout. One command fewer on every master per release.
        size_t released = 0;
        for (size_t i = 0; i < answers.size(); ++i) {
          if (Answered(answers[i]) && answers[i]->reply.type == Reply::Type::kInteger) ++released;
        }
        if (released == 0) {
          return done(std::make_exception_ptr(IllegalMonitorState(name, client_.id, t.value)));
        }
        done(nullptr);
      },
      Majority([](const Reply& r) { return r.type == Reply::Type::kInteger; }));
}

void RedLocks::ScheduleRenewal(const Key& key, Hold& hold) {
  hold.renewal = std::make_unique<Timer>(client_.loop);
  uint64_t generation = hold.generation;
  hold.renewal->Start(client_.config.lock_watchdog_timeout / 3,
                      [this, key, generation] { Renew(key, generation); });
}

void RedLocks::Renew(Key key, uint64_t generation) {
  if (closed_) return;
  int64_t ttl = client_.config.lock_watchdog_timeout.count();
  std::vector<std::string> args{std::to_string(ttl), Owner(ThreadId{key.second})};
  Clock::time_point started = Clock::now();
  StartRound(
      &client_.scripts.renew, {key.first}, [args](size_t) { return args; },
      std::vector<bool>(client_.nodes.size(), true), client_.config.red_lock_node_timeout,
      [this, key, generation, started, ttl](Answers answers) {
        if (closed_) return;
        auto it = holds_.find(key);
        if (it == holds_.end() || it->second.generation != generation) return;  // released
        size_t renewed = 0;
        for (const auto& a : answers) {
          if (Answered(a) && a->reply.type == Reply::Type::kArray && !a->reply.elements.empty() &&
              a->reply.elements[0].integer == 1) {
            ++renewed;
          }
        }
        if (renewed >= quorum()) {
          it->second.valid_until = started + Millis(ttl - Drift(ttl));
          ScheduleRenewal(key, it->second);
          return;
        }
        holds_.erase(it);
        client_.NotifyLost(kRedLockNode, key.first, ThreadId{key.second});
      },
      Majority([](const Reply& r) {
        return r.type == Reply::Type::kArray && !r.elements.empty() && r.elements[0].integer == 1;
      }));
}

RedLocks::Millis RedLocks::Validity(const std::string& name, ThreadId t) const {
  auto it = holds_.find({name, t.value});
  if (it == holds_.end()) return Millis(0);
  auto left = std::chrono::duration_cast<Millis>(it->second.valid_until - Clock::now());
  return std::max(left, Millis(0));
}

bool RedLocks::Holds(const std::string& name, ThreadId t) const {
  return holds_.count({name, t.value}) != 0;
}

void RedLocks::Close() {
  if (closed_) return;
  closed_ = true;
  holds_.clear();
  // Each pending round ends now; its continuation sees closed_ and fails with ClientClosed.
  while (!rounds_.empty()) {
    std::shared_ptr<Round> r = rounds_.begin()->second;
    rounds_.erase(rounds_.begin());
    if (r->completed) continue;
    r->completed = true;
    r->timer.reset();
    std::function<void(Answers)> finished = std::move(r->done);
    finished(std::move(r->answers));
  }
}

}  // namespace redlab::client
