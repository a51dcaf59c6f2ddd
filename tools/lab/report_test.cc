// The reports of a hand-made run: the JSON document (schema, and its history read back gives the
// same verdict), the verdict table, and the HTML page's lanes, bars, marks and renewal ticks.
#include "tools/lab/report.h"

#include <gtest/gtest.h>

namespace redlab::lab {
namespace {

// A run where A and B hold "L" at once from 6 to 8 ms, with a crash of m0 and a held link on r0.
RunResult TwoHolders() {
  RunResult r;
  r.scenario = "failover-race";
  r.failure = "two holders";
  r.target = Target::kEmbedded;
  r.seed = 7;
  r.documented = Verdict::kUnsafe;
  auto op = [](int64_t id, std::string p, OpKind k, int64_t in, int64_t out, Outcome o) {
    Op op;
    op.id = id;
    op.process = p;
    op.owner = p + ":1";
    op.lock = "L";
    op.kind = k;
    op.invoke_us = in * 1000;
    op.complete_us = out * 1000;
    op.outcome = o;
    return op;
  };
  r.history = {op(1, "A", OpKind::kAcquire, 0, 1, Outcome::kOk),
               op(2, "B", OpKind::kAcquire, 5, 6, Outcome::kOk),
               op(3, "B", OpKind::kRelease, 8, 9, Outcome::kOk),
               op(4, "A", OpKind::kRelease, 10, 11, Outcome::kUnknown)};
  r.history[0].lease_ms = 10000;
  r.history[3].error = "IoError: connection refused";
  r.nodes = {"m0", "r0", "r1"};
  r.faults = {{2000, 4000, "repl-hold", "r0", "replication link held"},
              {3000, -1, "crash", "m0", ""}};
  r.end_us = 11000;
  r.duration_ms = 12;
  r.check = Check(r.history, r.end_us);
  r.verdict = r.check.safe() ? Verdict::kSafe : Verdict::kUnsafe;
  r.metrics["lost_notice_ms"] = 1.5;
  return r;
}

TEST(ReportTest, JsonFollowsTheSchema) {
  nlohmann::json j = RunsToJson({TwoHolders()});
  ASSERT_EQ(j["runs"].size(), 1u);
  const auto& run = j["runs"][0];
  EXPECT_EQ(run["scenario"], "failover-race");
  EXPECT_FALSE(run.contains("variant"));  // a base form has none
  EXPECT_EQ(run["target"], "embedded");
  EXPECT_EQ(run["seed"], 7);
  EXPECT_EQ(run["verdict"], "unsafe");
  EXPECT_EQ(run["documented"], "unsafe");
  ASSERT_EQ(run["violations"].size(), 1u);
  EXPECT_EQ(run["violations"][0]["lock"], "L");
  EXPECT_EQ(run["violations"][0]["owners"], nlohmann::json({"A:1", "B:1"}));
  EXPECT_EQ(run["violations"][0]["overlap_ms"], 2.0);
  EXPECT_EQ(run["history"].size(), 4u);
  EXPECT_EQ(run["history"][0]["op"], "acquire");
  EXPECT_EQ(run["history"][0]["lease_ms"], 10000);
  EXPECT_EQ(run["history"][3]["outcome"], "unknown");
  EXPECT_EQ(run["history"][3]["error"], "IoError: connection refused");
  EXPECT_EQ(run["faults"][0], nlohmann::json({{"kind", "repl-hold"},
                                              {"target", "r0"},
                                              {"at_ms", 2.0},
                                              {"end_ms", 4.0},
                                              {"detail", "replication link held"}}));
  EXPECT_EQ(run["faults"][1],
            nlohmann::json({{"kind", "crash"}, {"target", "m0"}, {"at_ms", 3.0}}));
  EXPECT_EQ(run["metrics"]["lost_notice_ms"], 1.5);
  EXPECT_EQ(run["nodes"], nlohmann::json({"m0", "r0", "r1"}));
}

TEST(ReportTest, TheHistoryReadBackGivesTheSameVerdict) {
  RunResult r = TwoHolders();
  nlohmann::json run = RunToJson(r);
  std::vector<Op> ops = OpsFromJson(nlohmann::json::parse(run.dump()));
  ASSERT_EQ(ops.size(), r.history.size());
  CheckResult c = Check(ops, r.end_us);
  ASSERT_EQ(c.violations.size(), 1u);
  EXPECT_EQ(c.violations[0].from_us, 6000);
  EXPECT_EQ(c.violations[0].to_us, 8000);
  EXPECT_EQ(ops[3].outcome, Outcome::kUnknown);
}

TEST(ReportTest, TheTableShowsVerdictAndDocumentedVerdict) {
  RunResult r = TwoHolders();
  std::string t = VerdictTable({r});
  EXPECT_NE(t.find("failover-race  embedded  unsafe   unsafe"), std::string::npos) << t;
  r.documented = Verdict::kSafe;
  EXPECT_NE(VerdictTable({r}).find("NOT AS DOCUMENTED"), std::string::npos);
}

TEST(ReportTest, TheHtmlPageDrawsLanesHoldsFaultsAndTheViolation) {
  std::string html = RenderHtml({TwoHolders()});
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // no other URL
  EXPECT_EQ(html.find("<script"), std::string::npos);
  for (const char* lane :
       {"data-lane=\"A\"", "data-lane=\"B\"", "data-lane=\"r0\"", "data-lane=\"m0\"",
        "data-lane=\"r1\""}) {  // r1 has no fault, and a lane
    EXPECT_NE(html.find(lane), std::string::npos) << lane;
  }
  auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (size_t p = html.find(needle); p != std::string::npos; p = html.find(needle, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<rect class=\"hold\""), 2u);
  EXPECT_EQ(count("<rect class=\"violation\""), 1u);
  EXPECT_EQ(count("<rect class=\"fault-band\""), 1u);
  EXPECT_EQ(count("<g class=\"fault-mark\""), 1u);
  EXPECT_NE(html.find("A and B both hold L for 2.0 ms"), std::string::npos);
}

TEST(ReportTest, RenewalsAppearInTheJsonAndAsTicksOnTheHoldBar) {
  RunResult r = TwoHolders();
  Op renew = r.history[0];
  renew.id = 5;
  renew.kind = OpKind::kRenew;
  renew.invoke_us = 3000;
  renew.complete_us = 3500;
  renew.lease_ms = 900;
  Op failed = renew;
  failed.id = 6;
  failed.invoke_us = 7000;
  failed.complete_us = 7500;
  failed.outcome = Outcome::kFail;
  failed.error = "the lock was gone";
  r.history.push_back(renew);
  r.history.push_back(failed);
  nlohmann::json run = RunToJson(r);
  ASSERT_EQ(run["history"].size(), 6u);
  EXPECT_EQ(run["history"][4]["op"], "renew");
  EXPECT_EQ(run["history"][4]["lease_ms"], 900);
  EXPECT_EQ(run["history"][4]["invoke_ms"], 3.0);
  EXPECT_EQ(run["history"][4]["complete_ms"], 3.5);
  EXPECT_EQ(run["history"][5]["outcome"], "fail");
  EXPECT_EQ(run["history"][5]["error"], "the lock was gone");
  std::vector<Op> ops = OpsFromJson(nlohmann::json::parse(run.dump()));
  ASSERT_EQ(ops.size(), 6u);
  EXPECT_EQ(ops[4].kind, OpKind::kRenew);
  EXPECT_EQ(ops[4].lease_ms, 900);
  std::string html = RenderHtml({r});
  EXPECT_NE(html.find("<line class=\"renew-tick ok\""), std::string::npos);
  EXPECT_NE(html.find("<line class=\"renew-tick fail\""), std::string::npos);
  EXPECT_NE(html.find("A renews L (ok, lease 900 ms) at 3.0 ms"), std::string::npos);
}

}  // namespace
}  // namespace redlab::lab
