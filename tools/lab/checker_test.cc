// The checker on hand-made histories: overlapping holds (certain and possible), leases, watchdog
// renewals and lost notices ending holds, re-entry, and the guarded resource's lost updates and stale tokens.
#include "tools/lab/checker.h"

#include <gtest/gtest.h>

namespace redlab::lab {
namespace {

constexpr int64_t kMs = 1000;  // the history counts microseconds

// The overlaps' spans in milliseconds, {from, to} each (exact: 40.5 is no 40).
using Spans = std::vector<std::pair<double, double>>;
Spans SpansMs(const std::vector<Overlap>& overlaps) {
  Spans out;
  for (const Overlap& o : overlaps) {
    out.emplace_back(static_cast<double>(o.from_us) / kMs, static_cast<double>(o.to_us) / kMs);
  }
  return out;
}

Op Acquire(std::string process, int64_t invoke_ms, int64_t complete_ms, Outcome outcome,
           int64_t lease_ms = 0, std::optional<int64_t> token = std::nullopt) {
  Op op;
  op.process = process;
  op.owner = process + "-owner";
  op.lock = "L";
  op.kind = OpKind::kAcquire;
  op.invoke_us = invoke_ms * kMs;
  op.complete_us = complete_ms * kMs;
  op.outcome = outcome;
  op.lease_ms = lease_ms;
  op.token = token;
  return op;
}

Op Simple(OpKind kind, std::string process, int64_t invoke_ms, int64_t complete_ms,
          Outcome outcome = Outcome::kOk) {
  Op op = Acquire(process, invoke_ms, complete_ms, outcome);
  op.kind = kind;
  return op;
}

Op Write(std::string process, int64_t at_ms, int64_t read_value, int64_t value, bool accepted,
         std::optional<int64_t> token = std::nullopt) {
  Op op =
      Simple(OpKind::kWrite, process, at_ms, at_ms + 1, accepted ? Outcome::kOk : Outcome::kFail);
  op.lock = "R";
  op.read_value = read_value;
  op.value = value;
  op.token = token;
  return op;
}

TEST(CheckerTest, SequentialHoldsAreSafe) {
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk), Simple(OpKind::kRelease, "A", 10, 11),
                       Acquire("B", 12, 13, Outcome::kOk), Simple(OpKind::kRelease, "B", 20, 21)};
  CheckResult r = Check(h, 30 * kMs);
  ASSERT_EQ(r.holds.size(), 2u);
  EXPECT_EQ(r.holds[0].from_us, 1 * kMs);
  EXPECT_EQ(r.holds[0].to_us, 10 * kMs);
  EXPECT_EQ(r.holds[1].from_us, 13 * kMs);
  EXPECT_EQ(r.holds[1].to_us, 20 * kMs);
  EXPECT_TRUE(r.violations.empty());
  EXPECT_TRUE(r.safe());
  EXPECT_EQ(r.acquires_ok, 2);
}

TEST(CheckerTest, TwoHoldersAtOnceAreAViolation) {
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk), Acquire("B", 5, 6, Outcome::kOk),
                       Simple(OpKind::kRelease, "B", 8, 9),
                       Simple(OpKind::kRelease, "A", 10, 11, Outcome::kFail)};
  CheckResult r = Check(h, 30 * kMs);
  ASSERT_EQ(r.violations.size(), 1u);
  const Overlap& o = r.violations[0];
  EXPECT_EQ(o.lock, "L");
  EXPECT_EQ(o.owners[0], "A-owner");
  EXPECT_EQ(o.owners[1], "B-owner");
  EXPECT_EQ(o.from_us, 6 * kMs);
  EXPECT_EQ(o.to_us, 8 * kMs);
  EXPECT_DOUBLE_EQ(o.overlap_ms(), 2.0);
  EXPECT_FALSE(o.possible);
  EXPECT_FALSE(r.safe());
}

TEST(CheckerTest, AFailedAcquireHoldsNothing) {
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk), Acquire("B", 2, 3, Outcome::kFail),
                       Simple(OpKind::kRelease, "A", 10, 11)};
  CheckResult r = Check(h, 30 * kMs);
  EXPECT_EQ(r.holds.size(), 1u);
  EXPECT_TRUE(r.safe());
  EXPECT_EQ(r.acquires_failed, 1);
}

TEST(CheckerTest, AnUnknownAcquireIsAPossibleHoldFromItsInvocation) {
  // B's acquire never got a reply: it may have taken the lock as soon as it was sent, and B never
  // released it, so it may hold it to the end of the history.
  std::vector<Op> h = {Acquire("B", 2, 7, Outcome::kUnknown), Acquire("A", 4, 5, Outcome::kOk),
                       Simple(OpKind::kRelease, "A", 10, 11)};
  CheckResult r = Check(h, 30 * kMs);
  EXPECT_TRUE(r.violations.empty());
  ASSERT_EQ(r.possible_violations.size(), 1u);
  EXPECT_TRUE(r.possible_violations[0].possible);
  EXPECT_EQ(r.possible_violations[0].from_us, 5 * kMs);
  EXPECT_EQ(r.possible_violations[0].to_us, 10 * kMs);
  EXPECT_EQ(r.acquires_unknown, 1);
  // B's acquire may never have happened: that explains the history, as Jepsen would have it.
  EXPECT_TRUE(r.safe());
}

TEST(CheckerTest, AnUnknownAcquireEndsAtItsOwnersNextAcquire) {
  // B's first acquire got no answer; B tried again and got the lock, then released it. B may have
  // held the lock from 2 ms, and surely from 9 ms to 10 ms; A's hold at 4..6 overlaps only the
  // possible one.
  std::vector<Op> h = {Acquire("B", 2, 3, Outcome::kUnknown), Acquire("A", 4, 5, Outcome::kOk),
                       Simple(OpKind::kRelease, "A", 6, 7),   Acquire("B", 8, 9, Outcome::kOk),
                       Simple(OpKind::kRelease, "B", 10, 11), Acquire("A", 12, 13, Outcome::kOk),
                       Simple(OpKind::kRelease, "A", 14, 15)};
  CheckResult r = Check(h, 30 * kMs);
  ASSERT_EQ(r.holds.size(), 4u);
  EXPECT_TRUE(r.holds[0].possible);
  EXPECT_EQ(r.holds[0].to_us, 8 * kMs);
  EXPECT_TRUE(r.violations.empty());
  EXPECT_EQ(SpansMs(r.possible_violations), (Spans{{5, 6}}));
}

TEST(CheckerTest, APossibleHoldBesideACertainOverlapLeavesItCounted) {
  std::vector<Op> h = {Acquire("C", 0, 1, Outcome::kUnknown), Acquire("A", 2, 3, Outcome::kOk),
                       Acquire("B", 4, 5, Outcome::kOk), Simple(OpKind::kRelease, "B", 6, 7),
                       Simple(OpKind::kRelease, "A", 8, 9)};
  CheckResult r = Check(h, 10 * kMs);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].processes[0], "A");
  EXPECT_EQ(r.violations[0].processes[1], "B");
  EXPECT_EQ(r.possible_violations.size(), 2u);  // C's possible hold against A's and B's
  EXPECT_FALSE(r.safe());
}

TEST(CheckerTest, AnUnknownAcquireWithALeaseEndsWithTheLease) {
  std::vector<Op> h = {Acquire("B", 2, 7, Outcome::kUnknown, /*lease_ms=*/3),
                       Acquire("A", 6, 7, Outcome::kOk), Simple(OpKind::kRelease, "A", 10, 11)};
  CheckResult r = Check(h, 30 * kMs);
  EXPECT_TRUE(r.safe());  // B's possible hold ended at 5 ms, before A had the lock
  ASSERT_EQ(r.holds.size(), 2u);
  EXPECT_EQ(r.holds[0].to_us, 5 * kMs);
}

TEST(CheckerTest, TheLeaseAsTheClientKnewItEndsTheHold) {
  // A's lease of 10 ms ran out at 10 ms; B took the lock at 12; A released (late) at 20.
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk, 10), Acquire("B", 11, 12, Outcome::kOk),
                       Simple(OpKind::kRelease, "A", 20, 21, Outcome::kFail),
                       Simple(OpKind::kRelease, "B", 22, 23)};
  CheckResult r = Check(h, 30 * kMs);
  EXPECT_TRUE(r.safe());
  ASSERT_EQ(r.holds.size(), 2u);
  EXPECT_EQ(r.holds[0].to_us, 10 * kMs);
}

TEST(CheckerTest, ARenewalExtendsTheLease) {
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk, 10), Acquire("B", 11, 12, Outcome::kOk)};
  Op renew = Simple(OpKind::kRenew, "A", 8, 9);
  renew.lease_ms = 10;
  h.insert(h.begin() + 1, renew);
  h.push_back(Simple(OpKind::kRelease, "A", 15, 16));
  CheckResult r = Check(h, 30 * kMs);
  EXPECT_EQ(SpansMs(r.violations), (Spans{{12, 15}}));
}

Op Renew(std::string process, int64_t invoke_ms, int64_t complete_ms, Outcome outcome,
         int64_t lease_ms) {
  Op op = Simple(OpKind::kRenew, process, invoke_ms, complete_ms, outcome);
  op.lease_ms = lease_ms;
  return op;
}

TEST(CheckerTest, AWatchdogHoldEndsAtItsLastRenewalPlusTheLease) {
  // A's watchdog (lease 30 ms) renewed at 10 and 20, then nothing: its lease, as A knew it,
  // ended at 50; B took the lock at 60; A's release at 70 comes too late to matter.
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk),
                       Renew("A", 10, 11, Outcome::kOk, 30),
                       Renew("A", 20, 21, Outcome::kOk, 30),
                       Acquire("B", 59, 60, Outcome::kOk),
                       Simple(OpKind::kRelease, "A", 70, 71, Outcome::kFail),
                       Simple(OpKind::kRelease, "B", 80, 81)};
  CheckResult r = Check(h, 90 * kMs);
  ASSERT_EQ(r.holds.size(), 2u);
  EXPECT_EQ(r.holds[0].from_us, 1 * kMs);
  EXPECT_EQ(r.holds[0].to_us, 50 * kMs);
  EXPECT_TRUE(r.violations.empty());
  EXPECT_TRUE(r.safe());
}

TEST(CheckerTest, AWatchdogHoldRenewedPastAnotherAcquireOverlapsIt) {
  // A's renewals keep it until its release at 70; B's acquire at 40 overlaps.
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk),
                       Renew("A", 10, 11, Outcome::kOk, 30),
                       Renew("A", 30, 31, Outcome::kOk, 30),
                       Acquire("B", 39, 40, Outcome::kOk),
                       Renew("A", 50, 52, Outcome::kOk, 30),
                       Simple(OpKind::kRelease, "A", 70, 71),
                       Simple(OpKind::kRelease, "B", 75, 76)};
  CheckResult r = Check(h, 90 * kMs);
  EXPECT_EQ(SpansMs(r.violations), (Spans{{40, 70}}));
}

TEST(CheckerTest, AFailedRenewalEndsTheHoldAtItsCompletion) {
  // The renewal at 20 found the lock gone (answered at 22); the lost notice follows at 23.
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk),
                       Renew("A", 10, 11, Outcome::kOk, 30),
                       Acquire("B", 15, 16, Outcome::kOk),
                       Renew("A", 20, 22, Outcome::kFail, 30),
                       Simple(OpKind::kLost, "A", 23, 23),
                       Simple(OpKind::kRelease, "B", 40, 41)};
  CheckResult r = Check(h, 50 * kMs);
  ASSERT_EQ(r.holds.size(), 2u);
  EXPECT_EQ(r.holds[0].to_us, 22 * kMs);
  EXPECT_EQ(SpansMs(r.violations), (Spans{{16, 22}}));
}

TEST(CheckerTest, ARenewalWithoutAnAnswerExtendsNothing) {
  // The renewal at 20 timed out (unknown): A can count only on 10 + 30 = 40.
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk),
                       Renew("A", 10, 11, Outcome::kOk, 30),
                       Renew("A", 20, 25, Outcome::kUnknown, 30),
                       Acquire("B", 44, 45, Outcome::kOk),
                       Simple(OpKind::kRelease, "B", 60, 61)};
  CheckResult r = Check(h, 70 * kMs);
  ASSERT_EQ(r.holds.size(), 2u);
  EXPECT_EQ(r.holds[0].to_us, 40 * kMs);
  EXPECT_TRUE(r.safe());
}

TEST(CheckerTest, AWatchdogHoldNeverRenewedRunsUntilItsRelease) {
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk), Simple(OpKind::kRelease, "A", 500, 501)};
  CheckResult r = Check(h, 600 * kMs);
  ASSERT_EQ(r.holds.size(), 1u);
  EXPECT_EQ(r.holds[0].to_us, 500 * kMs);
}

TEST(CheckerTest, ALostNoticeEndsTheHold) {
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk), Acquire("B", 5, 6, Outcome::kOk),
                       Simple(OpKind::kLost, "A", 9, 9), Simple(OpKind::kRelease, "B", 20, 21)};
  CheckResult r = Check(h, 30 * kMs);
  EXPECT_EQ(SpansMs(r.violations), (Spans{{6, 9}}));
}

TEST(CheckerTest, AReentrantHoldEndsWithItsLastRelease) {
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk),    Acquire("A", 2, 3, Outcome::kOk),
                       Simple(OpKind::kRelease, "A", 4, 5), Simple(OpKind::kRelease, "A", 8, 9),
                       Acquire("B", 6, 7, Outcome::kOk),    Simple(OpKind::kRelease, "B", 12, 13)};
  CheckResult r = Check(h, 30 * kMs);
  ASSERT_EQ(r.holds.size(), 2u);
  EXPECT_EQ(r.holds[0].to_us, 8 * kMs);
  EXPECT_EQ(SpansMs(r.violations), (Spans{{7, 8}}));
}

TEST(CheckerTest, AHoldNeverReleasedRunsToTheEndOfTheHistory) {
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk), Acquire("B", 5, 6, Outcome::kOk)};
  CheckResult r = Check(h, 30 * kMs);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].to_us, 30 * kMs);
}

TEST(CheckerTest, DifferentLocksDoNotConflict) {
  Op b = Acquire("B", 5, 6, Outcome::kOk);
  b.lock = "M";
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk), b};
  EXPECT_TRUE(Check(h, 30 * kMs).safe());
}

TEST(CheckerTest, AWriteNotBasedOnTheLastAcceptedOneIsALostUpdate) {
  // A read 0, paused; B read 0 and wrote 1; A resumed and wrote 1 over B's 1.
  std::vector<Op> h = {Write("B", 5, 0, 1, true), Write("A", 9, 0, 1, true)};
  CheckResult r = Check(h, 30 * kMs);
  ASSERT_EQ(r.resource_violations.size(), 1u);
  EXPECT_EQ(r.resource_violations[0].kind, "lost-update");
  EXPECT_EQ(r.resource_violations[0].process, "A");
  EXPECT_EQ(r.resource_violations[0].detail,
            "wrote 1 computed from 0 over 1: the update that wrote 1 is lost");
  EXPECT_FALSE(r.safe());
  EXPECT_EQ(r.writes_accepted, 2);
}

TEST(CheckerTest, ARejectedWriteLosesNothing) {
  std::vector<Op> h = {Write("B", 5, 0, 1, true, 2), Write("A", 9, 0, 1, false, 1),
                       Write("B", 12, 1, 2, true, 2)};
  CheckResult r = Check(h, 30 * kMs);
  EXPECT_TRUE(r.resource_violations.empty());
  EXPECT_EQ(r.writes_rejected, 1);
  EXPECT_TRUE(r.safe());
}

TEST(CheckerTest, AnAcceptedStaleTokenIsAViolation) {
  std::vector<Op> h = {Write("B", 5, 0, 1, true, 2), Write("A", 9, 1, 2, true, 1)};
  CheckResult r = Check(h, 30 * kMs);
  ASSERT_EQ(r.resource_violations.size(), 1u);
  EXPECT_EQ(r.resource_violations[0].kind, "stale-token");
  EXPECT_EQ(r.resource_violations[0].detail, "accepted token 1 after token 2");
}

TEST(CheckerTest, FencedOverlapsAreJudgedThroughTheResource) {
  // Both holders had tokens and the resource rejected the older one: no violation.
  std::vector<Op> h = {Acquire("A", 0, 1, Outcome::kOk, 0, 1),
                       Acquire("B", 5, 6, Outcome::kOk, 0, 2),
                       Write("B", 7, 0, 1, true, 2),
                       Write("A", 9, 0, 1, false, 1),
                       Simple(OpKind::kRelease, "A", 10, 11, Outcome::kFail),
                       Simple(OpKind::kRelease, "B", 12, 13)};
  CheckResult r = Check(h, 30 * kMs);
  EXPECT_TRUE(r.violations.empty());
  ASSERT_EQ(r.fenced_overlaps.size(), 1u);
  EXPECT_EQ(r.fenced_overlaps[0].from_us, 6 * kMs);
  EXPECT_TRUE(r.safe());
  // Without token-carrying writes, the same holds are a plain violation.
  std::vector<Op> holds_only(h.begin(), h.begin() + 2);
  EXPECT_EQ(Check(holds_only, 30 * kMs).violations.size(), 1u);
}

}  // namespace
}  // namespace redlab::lab
