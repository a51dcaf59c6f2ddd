#include "server/fault/reply_faults.h"

#include <gtest/gtest.h>

namespace redlab::server::fault {
namespace {

ReplyTarget Named(std::string name) {
  return ReplyTarget{.kind = ReplyTarget::Kind::kName, .text = std::move(name)};
}

TEST(ReplyFaultsTest, TheNarrowestActiveTargetWins) {
  ReplyFaults f;
  EXPECT_EQ(f.For(7, "127.0.0.1:5000", "w"), nullptr);
  f.RuleFor(ReplyTarget{}).delay_ms = 10;
  f.RuleFor(Named("w")).drop_probability = 1;
  f.RuleFor(ReplyTarget{.kind = ReplyTarget::Kind::kAddr, .text = "127.0.0.1:5000"}).delay_ms = 20;
  f.RuleFor(ReplyTarget{.kind = ReplyTarget::Kind::kClient, .id = 7}).delay_ms = 30;
  EXPECT_EQ(f.For(7, "127.0.0.1:5000", "w")->delay_ms, 30);
  EXPECT_EQ(f.For(8, "127.0.0.1:5000", "w")->delay_ms, 20);
  EXPECT_EQ(f.For(8, "127.0.0.1:5001", "w")->drop_probability, 1);
  EXPECT_EQ(f.For(8, "127.0.0.1:5001", "")->delay_ms, 10);  // no name never matches a NAME
  // The same target is one rule; a rule doing nothing is forgotten.
  f.RuleFor(ReplyTarget{.kind = ReplyTarget::Kind::kClient, .id = 7}).delay_ms = 0;
  f.Prune();
  EXPECT_EQ(f.rules().size(), 3u);
  EXPECT_EQ(f.For(7, "127.0.0.1:5000", "w")->delay_ms, 20);
  EXPECT_EQ(Named("w").Describe(), " NAME w");
  EXPECT_EQ(ReplyTarget{}.Describe(), "");
  f.Clear();
  EXPECT_FALSE(f.any());
}

}  // namespace
}  // namespace redlab::server::fault
