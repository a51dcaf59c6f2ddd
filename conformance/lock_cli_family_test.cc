// `redlab lock --fenced` (the token in REDLAB_LOCK_TOKEN), `--read` / `--write` (the sides of
// the read/write lock), `redlab lock --servers` (a RedLock
// over independent masters, 75 without a majority) and `redlab semaphore` (a permit held while
// COMMAND runs): the built `redlab` binary against servers of the current target.
#include "conformance/harness/child_process.h"
#include "conformance/harness/target.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

class CliProcess : public ChildProcess {
 public:
  explicit CliProcess(const std::vector<std::string>& args) : ChildProcess(REDLAB_CLI_PATH, args) {}
  void WriteLine(const std::string& s) { ASSERT_TRUE(ChildProcess::WriteLine(s)); }
};

class LockCliFamilyTest : public LockTest {
 protected:
  static std::string Url(int p) { return "redis://127.0.0.1:" + std::to_string(p); }
  std::string Server() { return Url(port()); }
};

TEST_F(LockCliFamilyTest, FencedGivesTheCommandItsToken) {
  for (const char* expected : {"1", "2"}) {
    CliProcess cli({"lock", "--fenced", "--server", Server(), "ledger", "--", "sh", "-c",
                    "echo \"token=$REDLAB_LOCK_TOKEN\""});
    EXPECT_EQ(cli.ReadLine(), std::string("token=") + expected);
    EXPECT_EQ(cli.Wait(), 0);
  }
  EXPECT_EQ(c()({"GET", "redisson_lock_token:{ledger}"}), Bulk("2"));
  EXPECT_EQ(c()({"EXISTS", "ledger"}), Int(0));
}

TEST_F(LockCliFamilyTest, ReadersShareTheReadWriteLockAndAWriterWaits) {
  CliProcess first({"lock", "--read", "--server", Server(), "catalog", "--", "sh", "-c",
                    "echo reading; read line"});
  ASSERT_EQ(first.ReadLine(), "reading");
  CliProcess second({"lock", "--read", "--server", Server(), "catalog", "--", "sh", "-c",
                     "echo reading too; read line"});
  ASSERT_EQ(second.ReadLine(), "reading too");  // two readers at once
  EXPECT_EQ(c()({"HGET", "catalog", "mode"}), Bulk("read"));
  EXPECT_EQ(c()({"HLEN", "catalog"}), Int(3));
  CliProcess writer({"lock", "--write", "--server", Server(), "--wait", "100", "catalog", "--",
                     "sh", "-c", "echo should-not-run"});
  EXPECT_EQ(writer.Wait(), 75);
  first.WriteLine("go");
  second.WriteLine("go");
  EXPECT_EQ(first.Wait(), 0);
  EXPECT_EQ(second.Wait(), 0);
  CliProcess writes({"lock", "--write", "--server", Server(), "catalog", "--", "sh", "-c",
                     "echo writing; read line"});
  ASSERT_EQ(writes.ReadLine(), "writing");
  EXPECT_EQ(c()({"HGET", "catalog", "mode"}), Bulk("write"));
  writes.WriteLine("go");
  EXPECT_EQ(writes.Wait(), 0);
  EXPECT_EQ(c()({"EXISTS", "catalog"}), Int(0));
  CliProcess both({"lock", "--read", "--write", "--server", Server(), "x", "--", "true"});
  EXPECT_EQ(both.Wait(), 64);
}

TEST_F(LockCliFamilyTest, ServersTakeARedLockOnAMajority) {
  std::vector<std::unique_ptr<conformance::Server>> masters;
  for (int i = 0; i < 3; ++i) masters.push_back(StartServer());
  std::string urls =
      Url(masters[0]->port()) + "," + Url(masters[1]->port()) + "," + Url(masters[2]->port());
  masters[2]->Stop();  // one of three down: still a majority
  CliProcess cli({"lock", "--servers", urls, "--wait", "2000", "--lease", "60000", "red", "--",
                  "sh", "-c", "echo started; read line"});
  ASSERT_EQ(cli.ReadLine(), "started");
  for (int i : {0, 1}) {
    Client m(masters[i]->port());
    Reply fields = m({"HGETALL", "red"});
    ASSERT_EQ(fields.elements.size(), 2u) << "master " << i;
    EXPECT_EQ(fields.elements[1], Bulk("1"));
  }
  cli.WriteLine("go");
  EXPECT_EQ(cli.Wait(), 0);
  for (int i : {0, 1}) EXPECT_EQ(Client(masters[i]->port())({"EXISTS", "red"}), Int(0));

  masters[1]->Stop();  // two of three down: no majority
  CliProcess refused(
      {"lock", "--servers", urls, "--wait", "300", "red", "--", "sh", "-c", "echo should-not-run"});
  EXPECT_EQ(refused.Wait(), 75);
  EXPECT_NE(refused.Stderr().find("no majority"), std::string::npos) << refused.Stderr();
  EXPECT_EQ(Client(masters[0]->port())({"EXISTS", "red"}), Int(0));  // given back
}

TEST_F(LockCliFamilyTest, SemaphoreHoldsAPermitWhileTheCommandRuns) {
  CliProcess first({"semaphore", "--server", Server(), "--permits", "1", "slots", "--", "sh", "-c",
                    "echo in; read line; exit 4"});
  ASSERT_EQ(first.ReadLine(), "in");
  EXPECT_EQ(c()({"GET", "slots"}), Bulk("0"));
  CliProcess second({"semaphore", "--server", Server(), "--permits", "1", "--wait", "100", "slots",
                     "--", "sh", "-c", "echo should-not-run"});
  EXPECT_EQ(second.Wait(), 75);
  EXPECT_NE(second.Stderr().find("no permit of semaphore 'slots' within 100 ms"), std::string::npos)
      << second.Stderr();
  // A waiting one gets the permit when the first gives it back.
  CliProcess third({"semaphore", "--server", Server(), "--permits", "1", "slots", "--", "sh", "-c",
                    "echo third"});
  ASSERT_TRUE(Eventually([&] { return Subscribers("redisson_sc:{slots}") == 1; }));
  first.WriteLine("go");
  EXPECT_EQ(first.Wait(), 4);
  EXPECT_EQ(third.ReadLine(), "third");
  EXPECT_EQ(third.Wait(), 0);
  EXPECT_EQ(c()({"GET", "slots"}), Bulk("1"));
}

}  // namespace
}  // namespace redlab::conformance
