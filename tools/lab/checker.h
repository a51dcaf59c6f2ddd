// The lab's checker: the verdict of a run, computed from its history alone (as Jepsen's checkers
// are). Two properties:
//   mutual exclusion — no two owners hold one lock at once. A hold runs from the completion of a
//     successful acquire to the invocation of its release, to the lost notice, or to the lease's
//     end as the client knew it (the acquire's invocation + its lease; a successful renewal
//     extends it to its own invocation + the lease it gave, and gives a watchdog hold, open-ended
//     until then, a lease end; a renewal that found the lock gone ends the hold at its
//     completion; one without an answer changes nothing). An
//     acquire whose outcome is unknown may have taken the lock at its invocation: it counts as a
//     possible hold (until its owner's next acquire or release, or its lease's end). As in
//     Jepsen, where an indeterminate operation may or may not have happened and a history is
//     valid when some choice explains it, an overlap with a possible hold is reported apart
//     (possible_violations): it does not by itself make the run unsafe.
//   the guarded resource — each accepted write must be based on the value of the write accepted
//     before it (otherwise an update was lost), and a token-checking resource must accept no write
//     whose fencing token is older than one it accepted before.
// Holds that both carry fencing tokens, in a history whose writes carry tokens, are reported but
// judged through the resource: that is what fencing is for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/lab/history.h"

namespace redlab::lab {

struct Hold {
  std::string lock, owner, process;
  int64_t from_us = 0, to_us = 0;
  bool possible = false;  // from an acquire with an unknown outcome
  bool fenced = false;    // the acquire returned a fencing token
  int64_t acquire_id = 0;
};

struct Overlap {
  std::string lock;
  std::string owners[2];
  std::string processes[2];
  int64_t from_us = 0, to_us = 0;
  bool possible = false;
  bool fenced = false;  // both holds fenced, judged through the resource
  double overlap_ms() const { return static_cast<double>(to_us - from_us) / 1000.0; }
};

struct ResourceViolation {
  std::string kind;  // "lost-update" or "stale-token"
  std::string resource, process, owner;
  int64_t write_id = 0;
  int64_t at_us = 0;
  std::string detail;
};

struct CheckResult {
  std::vector<Hold> holds;
  std::vector<Overlap> violations;           // overlaps of certain holds: mutual exclusion broken
  std::vector<Overlap> possible_violations;  // overlaps with a possible hold
  std::vector<Overlap> fenced_overlaps;  // overlaps of fenced holds (not violations by themselves)
  std::vector<ResourceViolation> resource_violations;
  int acquires_ok = 0, acquires_failed = 0, acquires_unknown = 0;
  int writes_accepted = 0, writes_rejected = 0;
  bool safe() const { return violations.empty() && resource_violations.empty(); }
};

// The holds of a history (exposed for the reports and tests).
std::vector<Hold> ComputeHolds(const std::vector<Op>& ops, int64_t end_us);

CheckResult Check(const std::vector<Op>& ops, int64_t end_us);
inline CheckResult Check(const History& h) { return Check(h.ops(), h.EndUs()); }

}  // namespace redlab::lab
