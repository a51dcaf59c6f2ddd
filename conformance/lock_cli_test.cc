// `redlab lock NAME -- COMMAND`: runs COMMAND holding the lock and releases it after, exits
// with COMMAND's status, 75 when not acquired within --wait, and SIGTERMs COMMAND when the
// lock is lost. The built `redlab` binary against the suite's server (embedded redlab or real
// redis-server).
#include <signal.h>

#include "conformance/harness/child_process.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

// The `redlab` tool as a child process.
class CliProcess : public ChildProcess {
 public:
  explicit CliProcess(const std::vector<std::string>& args) : ChildProcess(REDLAB_CLI_PATH, args) {}
  void WriteLine(const std::string& s) { ASSERT_TRUE(ChildProcess::WriteLine(s)); }
};

class LockCliTest : public LockTest {
 protected:
  std::string Server() { return "redis://127.0.0.1:" + std::to_string(port()); }
};

TEST_F(LockCliTest, RunsTheCommandHoldingTheLockAndExitsWithItsStatus) {
  CliProcess cli(
      {"lock", "--server", Server(), "job", "--", "sh", "-c", "echo started; read line; exit 7"});
  ASSERT_EQ(cli.ReadLine(), "started");
  // Held while the command runs: Redisson's layout, and the watchdog's TTL.
  Reply fields = c()({"HGETALL", "job"});
  ASSERT_EQ(fields.elements.size(), 2u);
  EXPECT_EQ(fields.elements[1], Bulk("1"));
  EXPECT_GT(c()({"PTTL", "job"}).integer, 0);
  cli.WriteLine("go");
  EXPECT_EQ(cli.Wait(), 7);
  EXPECT_EQ(c()({"EXISTS", "job"}), Int(0));  // released after
}

TEST_F(LockCliTest, WaitsForTheHolderThenRuns) {
  auto holder = NewClient();
  redlab::Lock held = holder->GetLock("queue");
  held.Lock();
  CliProcess cli({"lock", "--server", Server(), "queue", "--", "sh", "-c", "echo ran"});
  // It subscribed to the unlock channel: it is waiting.
  ASSERT_TRUE(Eventually([&] { return Subscribers(ChannelOf("queue")) == 1; }));
  EXPECT_TRUE(held.IsHeldByCurrentThread());
  held.Unlock();
  EXPECT_EQ(cli.ReadLine(), "ran");
  EXPECT_EQ(cli.Wait(), 0);
  EXPECT_EQ(c()({"EXISTS", "queue"}), Int(0));
}

TEST_F(LockCliTest, Exits75WhenNotAcquiredWithinWait) {
  auto holder = NewClient();
  holder->GetLock("taken").Lock(milliseconds(60000));
  CliProcess cli({"lock", "--server", Server(), "--wait", "100", "taken", "--", "sh", "-c",
                  "echo should-not-run"});
  EXPECT_EQ(cli.Wait(), 75);
  EXPECT_NE(cli.Stderr().find("not acquired within 100 ms"), std::string::npos) << cli.Stderr();
  EXPECT_EQ(cli.ReadLine(), "");  // the command never ran
}

TEST_F(LockCliTest, LostLockSigtermsTheCommand) {
  CliProcess cli({"lock", "--server", Server(), "--watchdog-timeout", "300", "fragile", "--", "sh",
                  "-c", "echo started; exec cat"});
  ASSERT_EQ(cli.ReadLine(), "started");
  EXPECT_EQ(c()({"DEL", "fragile"}), Int(1));
  EXPECT_EQ(cli.Wait(), 128 + SIGTERM);
  EXPECT_NE(cli.Stderr().find("lock 'fragile' was lost"), std::string::npos) << cli.Stderr();
}

TEST_F(LockCliTest, LeaseRunningOutSigtermsTheCommand) {
  CliProcess cli({"lock", "--server", Server(), "--lease", "300", "short-lease", "--", "sh", "-c",
                  "echo started; exec cat"});
  ASSERT_EQ(cli.ReadLine(), "started");
  EXPECT_EQ(cli.Wait(), 128 + SIGTERM);
  EXPECT_NE(cli.Stderr().find("lock 'short-lease' was lost while COMMAND ran (its --lease of 300 "
                              "ms ran out); sending COMMAND SIGTERM"),
            std::string::npos)
      << cli.Stderr();
}

TEST_F(LockCliTest, LeasedKeyDeletedSigtermsTheCommand) {
  // A lease of a minute, checked every third of the (short) watchdog timeout.
  CliProcess cli({"lock", "--server", Server(), "--lease", "60000", "--watchdog-timeout", "300",
                  "deleted-lease", "--", "sh", "-c", "echo started; exec cat"});
  ASSERT_EQ(cli.ReadLine(), "started");
  EXPECT_EQ(c()({"DEL", "deleted-lease"}), Int(1));
  EXPECT_EQ(cli.Wait(), 128 + SIGTERM);
  EXPECT_NE(cli.Stderr().find("lock 'deleted-lease' was lost while COMMAND ran (its key is gone"),
            std::string::npos)
      << cli.Stderr();
}

TEST_F(LockCliTest, LossBeforeTheCommandStartsStillSigtermsIt) {
  // A 1 ms lease is over before COMMAND has a pid: the loss is found while it is being
  // started, and the SIGTERM announced then must still reach it.
  CliProcess cli(
      {"lock", "--server", Server(), "--lease", "1", "instant", "--", "sh", "-c", "exec cat"});
  EXPECT_EQ(cli.Wait(), 128 + SIGTERM);
  EXPECT_NE(cli.Stderr().find("lock 'instant' was lost"), std::string::npos) << cli.Stderr();
}

TEST_F(LockCliTest, FailedReleaseKeepsTheCommandsStatus) {
  auto proxy = std::make_unique<TcpProxy>(port());
  CliProcess cli({"lock", "--server", "redis://127.0.0.1:" + std::to_string(proxy->port()),
                  "unreleased", "--", "sh", "-c", "echo started; read line; exit 3"});
  ASSERT_EQ(cli.ReadLine(), "started");
  proxy.reset();  // the server is out of reach when COMMAND ends
  cli.WriteLine("go");
  EXPECT_EQ(cli.Wait(), 3);
  EXPECT_NE(cli.Stderr().find("could not release lock 'unreleased'"), std::string::npos)
      << cli.Stderr();
}

TEST_F(LockCliTest, LeaseAndMissingCommand) {
  CliProcess leased({"lock", "--server", Server(), "--lease", "60000", "leased", "--", "sh", "-c",
                     "echo started; read line"});
  ASSERT_EQ(leased.ReadLine(), "started");
  int64_t pttl = c()({"PTTL", "leased"}).integer;
  EXPECT_GT(pttl, 30000);  // the lease, not the 30 s watchdog timeout
  EXPECT_LE(pttl, 60000);
  leased.WriteLine("go");
  EXPECT_EQ(leased.Wait(), 0);
  EXPECT_EQ(c()({"EXISTS", "leased"}), Int(0));

  CliProcess missing({"lock", "--server", Server(), "nothing", "--", "/nonexistent/command"});
  EXPECT_EQ(missing.Wait(), 127);
  EXPECT_EQ(c()({"EXISTS", "nothing"}), Int(0));  // released though the command never ran
}

TEST_F(LockCliTest, HelpUsageAndUnreachableServer) {
  CliProcess help({"lock", "--help"});
  std::string first = help.ReadLine();
  EXPECT_NE(first.find("Run COMMAND while holding the distributed lock NAME"), std::string::npos)
      << first;
  EXPECT_EQ(help.Wait(), 0);
  CliProcess usage({"lock", "--server", Server(), "only-a-name"});
  EXPECT_EQ(usage.Wait(), 64);
  CliProcess down(
      {"lock", "--server", "redis://127.0.0.1:" + std::to_string(FreePort()), "x", "--", "true"});
  EXPECT_EQ(down.Wait(), 69);
}

}  // namespace
}  // namespace redlab::conformance
