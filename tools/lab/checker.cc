// The lab's checker: overlapping holds and the guarded resource's anomalies, from the history.
#include "tools/lab/checker.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace redlab::lab {
namespace {

// One owner's open hold of one lock while walking the history.
struct Open {
  Hold hold;
  int count = 0;           // re-entrant holds
  int64_t lease_end = -1;  // -1: no lease known (a watchdog keeps it)
};

}  // namespace

std::vector<Hold> ComputeHolds(const std::vector<Op>& ops_in, int64_t end_us) {
  std::vector<Op> ops = ops_in;
  std::stable_sort(ops.begin(), ops.end(),
                   [](const Op& a, const Op& b) { return a.invoke_us < b.invoke_us; });
  std::vector<Hold> holds;
  std::map<std::pair<std::string, std::string>, Open> open;  // (lock, owner) -> hold
  auto close = [&](Open& o, int64_t at) {
    int64_t to = at;
    if (o.lease_end >= 0) to = std::min(to, o.lease_end);
    o.hold.to_us = std::max(to, o.hold.from_us);
    holds.push_back(o.hold);
    o.count = 0;
  };
  for (const Op& op : ops) {
    auto key = std::make_pair(op.lock, op.owner);
    auto it = open.find(key);
    bool is_open = it != open.end() && it->second.count > 0;
    // A lease that ran out before this op ends the hold there.
    if (is_open && it->second.lease_end >= 0 && it->second.lease_end <= op.invoke_us) {
      close(it->second, it->second.lease_end);
      is_open = false;
    }
    // A possible hold (an acquire without an answer) ends when its owner next acquires or
    // releases that lock: from then on the owner acts on what it knows.
    if (is_open && it->second.hold.possible &&
        (op.kind == OpKind::kAcquire || op.kind == OpKind::kRelease)) {
      close(it->second, op.invoke_us);
      if (op.kind == OpKind::kRelease) continue;
      is_open = false;
    }
    switch (op.kind) {
      case OpKind::kAcquire: {
        if (op.outcome == Outcome::kFail) break;
        if (is_open) {  // re-entry: one more hold, the lease restarts
          ++it->second.count;
          if (op.outcome == Outcome::kOk) {
            it->second.lease_end = op.lease_ms > 0 ? op.invoke_us + op.lease_ms * 1000 : -1;
          }
          break;
        }
        Open o;
        o.count = 1;
        o.hold.lock = op.lock;
        o.hold.owner = op.owner;
        o.hold.process = op.process;
        o.hold.possible = op.outcome == Outcome::kUnknown;
        o.hold.fenced = op.token.has_value();
        o.hold.acquire_id = op.id;
        o.hold.from_us = o.hold.possible ? op.invoke_us : op.complete_us;
        o.lease_end = op.lease_ms > 0 ? op.invoke_us + op.lease_ms * 1000 : -1;
        open[key] = o;
        break;
      }
      case OpKind::kRenew:
        // A renewal the server made extends the lease from its invocation (a watchdog hold,
        // open-ended until then, gets one); one that found the lock gone ends the hold when
        // the client learned it; one without an answer changes nothing the client knew.
        if (!is_open) break;
        if (op.outcome == Outcome::kOk && op.lease_ms > 0) {
          it->second.lease_end = std::max(it->second.lease_end, op.invoke_us + op.lease_ms * 1000);
        } else if (op.outcome == Outcome::kFail) {
          close(it->second, op.complete_us >= 0 ? op.complete_us : op.invoke_us);
        }
        break;
      case OpKind::kRelease:
        // Whatever its outcome, the client stops relying on the lock when it releases it.
        if (is_open && --it->second.count == 0) close(it->second, op.invoke_us);
        break;
      case OpKind::kLost:
        if (is_open) close(it->second, op.invoke_us);
        break;
      case OpKind::kRead:
      case OpKind::kWrite:
        break;
    }
  }
  for (auto& [key, o] : open) {
    if (o.count > 0) close(o, std::max(end_us, o.hold.from_us));
  }
  std::sort(holds.begin(), holds.end(), [](const Hold& a, const Hold& b) {
    return std::tie(a.from_us, a.acquire_id) < std::tie(b.from_us, b.acquire_id);
  });
  return holds;
}

CheckResult Check(const std::vector<Op>& ops, int64_t end_us) {
  CheckResult r;
  r.holds = ComputeHolds(ops, end_us);
  bool writes_carry_tokens = false;
  std::vector<const Op*> writes;
  for (const Op& op : ops) {
    if (op.kind == OpKind::kAcquire) {
      if (op.outcome == Outcome::kOk) ++r.acquires_ok;
      if (op.outcome == Outcome::kFail) ++r.acquires_failed;
      if (op.outcome == Outcome::kUnknown) ++r.acquires_unknown;
    }
    if (op.kind == OpKind::kWrite) {
      writes.push_back(&op);
      if (op.token) writes_carry_tokens = true;
    }
  }
  for (size_t i = 0; i < r.holds.size(); ++i) {
    // The holds are in order of their start: none after one that starts past i's end overlaps.
    for (size_t j = i + 1; j < r.holds.size() && r.holds[j].from_us < r.holds[i].to_us; ++j) {
      const Hold& a = r.holds[i];
      const Hold& b = r.holds[j];
      if (a.lock != b.lock || a.owner == b.owner) continue;
      int64_t from = std::max(a.from_us, b.from_us);
      int64_t to = std::min(a.to_us, b.to_us);
      if (to <= from) continue;
      Overlap o;
      o.lock = a.lock;
      o.owners[0] = a.owner;
      o.owners[1] = b.owner;
      o.processes[0] = a.process;
      o.processes[1] = b.process;
      o.from_us = from;
      o.to_us = to;
      o.possible = a.possible || b.possible;
      o.fenced = a.fenced && b.fenced && writes_carry_tokens;
      if (o.fenced) {
        r.fenced_overlaps.push_back(o);
      } else if (o.possible) {
        r.possible_violations.push_back(o);
      } else {
        r.violations.push_back(o);
      }
    }
  }
  // The resource, in the order it accepted writes.
  std::stable_sort(writes.begin(), writes.end(),
                   [](const Op* a, const Op* b) { return a->complete_us < b->complete_us; });
  std::map<std::string, int64_t> last_value;    // resource -> value of the last accepted write
  std::map<std::string, int64_t> newest_token;  // resource -> newest token accepted
  for (const Op* w : writes) {
    if (w->outcome != Outcome::kOk) {
      ++r.writes_rejected;
      continue;
    }
    ++r.writes_accepted;
    int64_t before = last_value.count(w->lock) ? last_value[w->lock] : 0;
    if (w->read_value && *w->read_value != before) {
      r.resource_violations.push_back(
          {"lost-update", w->lock, w->process, w->owner, w->id, w->complete_us,
           "wrote " + std::to_string(w->value.value_or(0)) + " computed from " +
               std::to_string(*w->read_value) + " over " + std::to_string(before) +
               ": the update that wrote " + std::to_string(before) + " is lost"});
    }
    if (w->token) {
      auto t = newest_token.find(w->lock);
      if (t != newest_token.end() && *w->token < t->second) {
        r.resource_violations.push_back({"stale-token", w->lock, w->process, w->owner, w->id,
                                         w->complete_us,
                                         "accepted token " + std::to_string(*w->token) +
                                             " after token " + std::to_string(t->second)});
      }
      newest_token[w->lock] = std::max(t == newest_token.end() ? *w->token : t->second, *w->token);
    }
    if (w->value) last_value[w->lock] = *w->value;
  }
  return r;
}

}  // namespace redlab::lab
