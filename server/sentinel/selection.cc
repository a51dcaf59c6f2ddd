// Redis 7.0.15's src/sentinel.c: the replica a failover promotes (sentinelSelectSlave,
// compareSlavesForPromotion).
#include <algorithm>

#include "server/base/text.h"
#include "server/sentinel/sentinel.h"

namespace redlab::server::sentinel {

bool BetterForPromotion(const Instance& a, const Instance& b) {
  if (a.slave_priority != b.slave_priority) return a.slave_priority < b.slave_priority;
  if (a.slave_repl_offset != b.slave_repl_offset) return a.slave_repl_offset > b.slave_repl_offset;
  // A missing run id is bigger than any other.
  if (a.runid.empty() || b.runid.empty()) return !a.runid.empty() && b.runid.empty();
  std::string la = ToLower(a.runid), lb = ToLower(b.runid);
  return la < lb;
}

Instance* SelectSlave(const Instance& master, int64_t now, const Timing& timing) {
  int64_t max_master_down_time = 0;
  if (master.flags & kSDown) max_master_down_time += now - master.s_down_since_time;
  max_master_down_time += master.down_after * 10;
  Instance* best = nullptr;
  for (const auto& [_, s] : master.slaves) {
    Instance* slave = s.get();
    if (slave->flags & (kSDown | kODown)) continue;
    if (slave->disconnected) continue;
    if (now - slave->last_avail_time > timing.ping_period * 5) continue;
    if (slave->slave_priority == 0) continue;
    // With the master SDOWN replicas' INFO comes every second; otherwise every info-period.
    int64_t info_validity_time =
        (master.flags & kSDown) ? timing.ping_period * 5 : timing.info_period * 3;
    if (now - slave->info_refresh > info_validity_time) continue;
    if (slave->master_link_down_time > max_master_down_time) continue;
    if (best == nullptr || BetterForPromotion(*slave, *best)) best = slave;
  }
  return best;
}

}  // namespace redlab::server::sentinel
