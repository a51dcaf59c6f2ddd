// The node's counters (Redis's server.stat_*, afterErrorReply's errorstats, CONFIG RESETSTAT).
#include "server/engine/stats/server_stats.h"

#include <gtest/gtest.h>

namespace redlab::server::engine {
namespace {

TEST(StatsTest, CallsAndFailuresByCommand) {
  Command get;
  get.id = 1;
  Stats stats(2);
  stats.BeginCall();
  stats.RecordCall(get, 10, /*record_latency=*/false);  // no error: not failed
  stats.BeginCall();
  stats.OnErrorReply("ERR wrong");
  stats.RecordCall(get, 5, /*record_latency=*/false);  // an error since its start: failed
  stats.CountRejectedCall(get);
  stats.AddCommandTime(get, 7);
  stats.CountFailedCall(get);
  EXPECT_EQ(stats.command(get).calls, 2u);
  EXPECT_EQ(stats.command(get).usec, 22u);
  EXPECT_EQ(stats.command(get).failed_calls, 2u);
  EXPECT_EQ(stats.command(get).rejected_calls, 1u);
  EXPECT_EQ(stats.totals().total_commands_processed, 2u);
}

// Redis's incrCommandStatsOnError: an error a refusal inside the call took for itself is not
// the call's failure; an uncounted error reply (a script's, counted by the command it called) is.
TEST(StatsTest, AFailureIsAnErrorSinceTheLastOneTaken) {
  Command eval, set;
  eval.id = 0;
  set.id = 1;
  Stats stats(2);
  stats.BeginCall();
  stats.OnErrorReply("OOM command not allowed");
  stats.CountScriptRefusal(set);
  stats.RecordCall(eval, 1, false);
  EXPECT_EQ(stats.command(set).rejected_calls, 1u);
  EXPECT_EQ(stats.command(eval).failed_calls, 0u);
  stats.BeginCall();
  stats.OnErrorReply("OOM command not allowed");
  stats.CountScriptRefusal(set);
  stats.OnUncountedErrorReply();
  stats.RecordCall(eval, 1, false);
  EXPECT_EQ(stats.command(eval).failed_calls, 1u);
  EXPECT_EQ(stats.error_replies(), 2u);
}

TEST(StatsTest, ErrorRepliesByCodeUpTo128Codes) {
  Stats stats(1);
  stats.OnErrorReply("ERR wrong");
  stats.OnErrorReply("ERR other");
  stats.OnErrorReply("WRONGTYPE Operation");
  EXPECT_EQ(stats.error_replies(), 3u);
  EXPECT_EQ(stats.totals().errors.at("ERR"), 2u);
  EXPECT_EQ(stats.totals().errors.at("WRONGTYPE"), 1u);
  for (int i = 0; i < 200; ++i) stats.OnErrorReply("E" + std::to_string(i) + " x");
  // Redis's ERROR_STATS_NUMBER: new codes stop being tracked, replies are still counted.
  EXPECT_EQ(stats.totals().errors.size(), 128u);
  EXPECT_EQ(stats.error_replies(), 203u);
}

TEST(StatsTest, ResetKeepsDirty) {
  Command set;
  Stats stats(1);
  stats.AddDirty(3);
  stats.CountNetInput(100);
  stats.CountNetOutput(50, 2);
  stats.RecordCall(set, 1, false);
  EXPECT_EQ(stats.totals().total_net_input_bytes, 100u);
  EXPECT_EQ(stats.totals().total_reads_processed, 1u);
  EXPECT_EQ(stats.totals().total_writes_processed, 2u);
  stats.Reset();
  EXPECT_EQ(stats.dirty(), 3u);
  EXPECT_EQ(stats.totals().total_net_input_bytes, 0u);
  EXPECT_EQ(stats.command(set).calls, 0u);
  stats.SetDirty(0);
  EXPECT_EQ(stats.dirty(), 0u);
}

TEST(StatsTest, EvictionExceededTimeAddsClosedPeriods) {
  Stats stats(1);
  stats.TrackEvictionExceeded(/*under=*/false, 1000);
  stats.TrackEvictionExceeded(/*under=*/false, 1500);  // still over: the period goes on
  EXPECT_EQ(stats.totals().eviction_exceeded_since_us, 1000);
  stats.TrackEvictionExceeded(/*under=*/true, 3000);
  EXPECT_EQ(stats.totals().eviction_exceeded_us, 2000u);
  EXPECT_EQ(stats.totals().eviction_exceeded_since_us, 0);
}

}  // namespace
}  // namespace redlab::server::engine
