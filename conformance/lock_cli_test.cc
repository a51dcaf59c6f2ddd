// `redlab lock NAME -- COMMAND`: runs COMMAND holding the lock and releases it after, exits
// with COMMAND's status, 75 when not acquired within --wait, and SIGTERMs COMMAND when the
// lock is lost. The built `redlab` binary against the suite's server (embedded redlab or real
// redis-server).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

// The `redlab` tool as a child process, with pipes to its stdin, stdout and stderr.
class CliProcess {
 public:
  explicit CliProcess(const std::vector<std::string>& args) {
    int in[2], out[2], err[2];
    if (pipe(in) || pipe(out) || pipe(err)) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      dup2(err[1], 2);
      // Nothing else of the test process (a TcpProxy's sockets) may live on in the tool.
      close_range(3, ~0U, 0);
      std::vector<char*> argv{const_cast<char*>(REDLAB_CLI_PATH)};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(REDLAB_CLI_PATH, argv.data());
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    stdin_ = in[1];
    stdout_ = out[0];
    stderr_ = err[0];
  }
  ~CliProcess() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    for (int fd : {stdin_, stdout_, stderr_}) {
      if (fd >= 0) close(fd);
    }
  }

  // Reads stdout until it has a whole line; "" at EOF or after 20 s.
  std::string ReadLine() {
    std::string line;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{stdout_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char ch;
      if (read(stdout_, &ch, 1) != 1) return line;
      if (ch == '\n') return line;
      line += ch;
    }
    return line;
  }
  void WriteLine(const std::string& s) {
    std::string line = s + "\n";
    ASSERT_EQ(write(stdin_, line.data(), line.size()), static_cast<ssize_t>(line.size()));
  }
  // Waits for the exit (up to 20 s); the exit status, or -1.
  int Wait() {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    int status = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      pollfd p{stderr_, POLLIN, 0};
      if (poll(&p, 1, 5) > 0) DrainStderr();
    }
    return -1;
  }
  std::string Stderr() {
    DrainStderr();
    return err_text_;
  }

 private:
  void DrainStderr() {
    char buf[4096];
    int flags = fcntl(stderr_, F_GETFL);
    fcntl(stderr_, F_SETFL, flags | O_NONBLOCK);
    ssize_t n;
    while ((n = read(stderr_, buf, sizeof(buf))) > 0) err_text_.append(buf, n);
    fcntl(stderr_, F_SETFL, flags);
  }

  pid_t pid_ = -1;
  bool exited_ = false;
  int stdin_ = -1, stdout_ = -1, stderr_ = -1;
  std::string err_text_;
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
