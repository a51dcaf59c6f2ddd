#include "server/engine/stats/slowlog.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace redlab::server::engine {
namespace {

TEST(SlowLogTest, NewestFirstAndTrimmedToMaxLen) {
  SlowLog log;
  std::vector<std::string> args = {"ping"};
  for (int i = 0; i < 5; ++i) log.Push(args, {}, 100 + i, 7, "127.0.0.1:1", "", 3);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log.entries()[0].id, 4);
  EXPECT_EQ(log.entries()[2].id, 2);
  log.Trim(1);
  EXPECT_EQ(log.size(), 1u);
  EXPECT_EQ(log.entries()[0].time_s, 104);
  log.Reset();
  EXPECT_EQ(log.size(), 0u);
  log.Push(args, {}, 1, 1, "", "", 10);
  EXPECT_EQ(log.entries()[0].id, 5);  // ids keep counting after RESET, as Redis's
}

TEST(SlowLogTest, ShortensArgumentsAsRedis) {
  SlowLog log;
  std::vector<std::string> args = {"sadd", "set"};
  for (int i = 0; i < 31; ++i) args.push_back(std::to_string(i));
  args.push_back(std::string(130, 'A'));
  log.Push(args, {}, 0, 0, "", "", 10);
  const auto& kept = log.entries()[0].args;
  ASSERT_EQ(kept.size(), SlowLog::kMaxArgs);
  EXPECT_EQ(kept[30], "28");
  EXPECT_EQ(kept[31], "... (3 more arguments)");

  log.Push(std::vector<std::string>{"set", std::string(129, 'B'), "pw"}, std::vector<size_t>{2}, 0,
           0, "", "", 10);
  const auto& cut = log.entries()[0].args;
  EXPECT_EQ(cut[1], std::string(128, 'B') + "... (1 more bytes)");
  EXPECT_EQ(cut[2], "(redacted)");
}

}  // namespace
}  // namespace redlab::server::engine
