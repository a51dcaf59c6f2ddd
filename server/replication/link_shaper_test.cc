// The replication-link faults on a byte stream: delay keeps order (jitter never reorders),
// pause holds everything until resumed, nothing bypasses bytes already held.
#include "server/replication/link_shaper.h"

#include <gtest/gtest.h>

namespace redlab::server::replication {
namespace {

TEST(LinkShaperTest, WithoutFaultsBytesPassThrough) {
  LinkShaper s;
  LinkFaults none;
  EXPECT_TRUE(s.PassThrough(none));
  EXPECT_EQ(s.NextDueMs(none), -1);
}

TEST(LinkShaperTest, DelayHoldsBytesUntilDue) {
  LinkShaper s;
  LinkFaults f;
  f.delay_ms = 100;
  EXPECT_FALSE(s.PassThrough(f));
  s.Push(1000, f, "abc");
  s.Push(1010, f, "def");
  std::string out;
  s.TakeDue(1099, f, &out);
  EXPECT_EQ(out, "");
  EXPECT_EQ(s.NextDueMs(f), 1100);
  s.TakeDue(1100, f, &out);
  EXPECT_EQ(out, "abc");
  s.TakeDue(1110, f, &out);
  EXPECT_EQ(out, "abcdef");
  EXPECT_TRUE(s.empty());
}

TEST(LinkShaperTest, JitterNeverReorders) {
  LinkShaper s(42);
  LinkFaults f;
  f.delay_ms = 10;
  f.jitter_ms = 500;
  std::string expected;
  for (int i = 0; i < 50; ++i) {
    std::string chunk = std::to_string(i) + ",";
    s.Push(1000 + i, f, chunk);
    expected += chunk;
  }
  std::string out;
  for (int64_t t = 1000; t < 3000; t += 7) s.TakeDue(t, f, &out);
  EXPECT_EQ(out, expected);
}

TEST(LinkShaperTest, PauseHoldsUntilResumedAndClearLoses) {
  LinkShaper s;
  LinkFaults f;
  f.paused = true;
  s.Push(0, f, "held");
  std::string out;
  s.TakeDue(1'000'000, f, &out);
  EXPECT_EQ(out, "");
  EXPECT_EQ(s.NextDueMs(f), -1);
  EXPECT_EQ(s.held_bytes(), 4u);
  // Once resumed, held bytes leave first, and new ones may not overtake them.
  f.paused = false;
  EXPECT_FALSE(s.PassThrough(f));
  s.TakeDue(1, f, &out);
  EXPECT_EQ(out, "held");
  EXPECT_TRUE(s.PassThrough(f));
  f.paused = true;
  s.Push(5, f, "lost");
  s.Clear();
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.held_bytes(), 0u);
}

}  // namespace
}  // namespace redlab::server::replication
