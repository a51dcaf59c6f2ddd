// Redis 7.0.15's src/sentinel.c: ODOWN (sentinelCheckObjectivelyDown), the other sentinels'
// view asked with SENTINEL IS-MASTER-DOWN-BY-ADDR (sentinelAskMasterStateToOtherSentinels,
// sentinelReceiveIsMasterDownReply), this sentinel's vote (sentinelVoteLeader) and the count of
// the votes for the leader of an epoch (sentinelGetLeader).
#include <map>

#include "server/base/text.h"
#include "server/sentinel/sentinel.h"

namespace redlab::server::sentinel {

constexpr int64_t kMaxDesync = 1000;  // SENTINEL_MAX_DESYNC

std::string CountLeader(const std::vector<std::string>& votes,
                        const std::function<std::string(const std::string&)>& vote,
                        size_t voters, int quorum) {
  std::map<std::string, uint64_t> counters;
  for (const std::string& v : votes) {
    if (!v.empty()) ++counters[v];
  }
  std::string winner;
  uint64_t max_votes = 0;
  for (const auto& [runid, n] : counters) {
    if (n > max_votes) {
      max_votes = n;
      winner = runid;
    }
  }
  // This sentinel votes for the most voted one, or for itself when nobody has votes.
  std::string mine = vote(winner);
  if (!mine.empty()) {
    uint64_t n = ++counters[mine];
    if (n > max_votes) {
      max_votes = n;
      winner = mine;
    }
  }
  uint64_t voters_quorum = voters / 2 + 1;
  if (!winner.empty() &&
      (max_votes < voters_quorum || max_votes < static_cast<uint64_t>(quorum))) {
    winner.clear();
  }
  return winner;
}

// sentinelCheckObjectivelyDown: SDOWN here and at enough other sentinels (by their last
// IS-MASTER-DOWN-BY-ADDR answers) for the quorum.
void Sentinel::CheckObjectivelyDown(Instance* master) {
  int quorum = 0;
  bool odown = false;
  if (master->flags & kSDown) {
    quorum = 1;
    for (auto& [_, s] : master->sentinels) {
      if (s->flags & kMasterDown) ++quorum;
    }
    odown = quorum >= master->quorum;
  }
  if (odown) {
    if (!(master->flags & kODown)) {
      Event(3, "+odown", master, true,
            " #quorum " + std::to_string(quorum) + "/" + std::to_string(master->quorum));
      master->flags |= kODown;
      master->o_down_since_time = Now();
    }
  } else if (master->flags & kODown) {
    Event(3, "-odown", master, true);
    master->flags &= ~kODown;
  }
}

// sentinelAskMasterStateToOtherSentinels: while the master is SDOWN here, every ask-period
// (or now, `forced`), each connected sentinel is asked; the runid asks for its vote once this
// sentinel is in a failover.
void Sentinel::AskMasterStateToOtherSentinels(Instance* master, bool forced) {
  int64_t now = Now();
  for (auto& [_, s] : master->sentinels) {
    Instance* ri = s.get();
    if (now - ri->last_master_down_reply_time > timing.ask_period * 5) {
      ri->flags &= ~kMasterDown;
      ri->leader.clear();
    }
    if (!(master->flags & kSDown)) continue;
    if (ri->disconnected || ri->cc == nullptr) continue;
    if (!forced && now - ri->last_master_down_reply_time < timing.ask_period) continue;
    std::string runid = master->failover_state > FailoverState::kNone ? myid_ : "*";
    ri->cc->Send({"SENTINEL", "is-master-down-by-addr", master->ip, std::to_string(master->port),
                  std::to_string(current_epoch_), runid},
                 [this, ri](const Reply& r) {
                   if (r.type != '*' || r.elements.size() != 3 || r.elements[0].type != ':' ||
                       (r.elements[1].type != '$' && r.elements[1].type != '+') ||
                       r.elements[2].type != ':') {
                     return;
                   }
                   ri->last_master_down_reply_time = Now();
                   if (r.elements[0].integer == 1) {
                     ri->flags |= kMasterDown;
                   } else {
                     ri->flags &= ~kMasterDown;
                   }
                   if (r.elements[1].str != "*") {
                     if (static_cast<int64_t>(ri->leader_epoch) != r.elements[2].integer &&
                         engine().host() != nullptr) {
                       engine().host()->Log(3, ri->name + " voted for " + r.elements[1].str +
                                                   " " + std::to_string(r.elements[2].integer));
                     }
                     ri->leader = r.elements[1].str;
                     ri->leader_epoch = static_cast<uint64_t>(r.elements[2].integer);
                   }
                 });
  }
}

// sentinelVoteLeader.
std::string Sentinel::VoteLeader(Instance* master, uint64_t epoch, const std::string& runid,
                                 uint64_t* leader_epoch) {
  if (epoch > current_epoch_) {
    current_epoch_ = epoch;
    FlushConfig();
    Event(3, "+new-epoch", master, false, std::to_string(current_epoch_));
  }
  if (master->leader_epoch < epoch && current_epoch_ <= epoch) {
    master->leader = runid;
    master->leader_epoch = current_epoch_;
    FlushConfig();
    Event(3, "+vote-for-leader", master, false,
          master->leader + " " + std::to_string(master->leader_epoch));
    // Voting for another delays this sentinel's own failover attempt.
    if (!EqualsIgnoreCase(master->leader, myid_)) {
      master->failover_start_time = Now() + std::rand() % kMaxDesync;
    }
  }
  *leader_epoch = master->leader_epoch;
  return master->leader;
}

// sentinelGetLeader: the votes of the other sentinels in the current epoch, and this one's.
std::string Sentinel::GetLeader(Instance* master, uint64_t epoch) {
  std::vector<std::string> votes;
  for (auto& [_, s] : master->sentinels) {
    votes.push_back(s->leader_epoch == current_epoch_ ? s->leader : std::string());
  }
  auto vote = [&](const std::string& candidate) {
    uint64_t leader_epoch = 0;
    std::string mine = VoteLeader(master, epoch, candidate.empty() ? myid_ : candidate,
                                  &leader_epoch);
    return leader_epoch == epoch ? mine : std::string();
  };
  return CountLeader(votes, vote, master->sentinels.size() + 1, master->quorum);
}

}  // namespace redlab::server::sentinel
