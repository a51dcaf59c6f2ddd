#include "tools/redlab/lock_command.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "client/client.h"
#include "tools/redlab/commands.h"

extern char** environ;

namespace redlab::tools {
namespace {

using Millis = std::chrono::milliseconds;

// The running COMMAND, for the signal handlers that pass SIGINT/SIGTERM/SIGHUP on to it (a
// handler can only reach process-wide state) and for the loss reports, which come from the
// client's loop thread (OnLost) or the lease monitor's thread.
std::atomic<pid_t> g_child{0};
// The lock was lost; set before g_child is read, and read after g_child is set, so a loss
// reported while COMMAND is being started still gets its SIGTERM.
std::atomic<bool> g_lost{false};
std::atomic<bool> g_terminated{false};  // COMMAND got its SIGTERM

void ForwardSignal(int sig) {
  pid_t child = g_child.load();
  if (child > 0) kill(child, sig);
}

// Writes with write(2): losses are reported from other threads while main waits in waitpid.
void SayOnStderr(const std::string& text) {
  std::string line = "redlab lock: " + text + "\n";
  ssize_t ignored = write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

void TerminateChild() {
  pid_t child = g_child.load();
  if (child > 0 && !g_terminated.exchange(true)) kill(child, SIGTERM);
}

// The lock is gone while COMMAND runs (or is about to): say so once, and SIGTERM COMMAND.
void ReportLost(const std::string& what) {
  if (g_lost.exchange(true)) return;
  SayOnStderr(what + "; sending COMMAND SIGTERM");
  TerminateChild();
}

int StatusOf(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return kExitSoftware;
}

// Runs COMMAND to its end with the signals forwarded; its exit status (shell conventions).
int RunChild(const std::vector<std::string>& command) {
  std::vector<char*> argv;
  for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  struct sigaction forward {};
  forward.sa_handler = ForwardSignal;
  sigemptyset(&forward.sa_mask);
  struct sigaction old_int, old_term, old_hup;
  sigaction(SIGINT, &forward, &old_int);
  sigaction(SIGTERM, &forward, &old_term);
  sigaction(SIGHUP, &forward, &old_hup);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
  int status = kExitSoftware;
  if (rc != 0) {
    SayOnStderr(command[0] + ": " + std::strerror(rc));
    status = rc == ENOENT ? kExitNotFound : kExitCannotRun;
  } else {
    g_child = pid;
    // Lost before COMMAND had a pid to signal: ReportLost could not send the SIGTERM it
    // announced, so send it now.
    if (g_lost) TerminateChild();
    // Wait for the exit without reaping, so the pid cannot be reused while a loss report may
    // still signal it; then forget it and reap.
    siginfo_t info{};
    while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
    }
    g_child = 0;
    int wait_status = 0;
    while (waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
    }
    status = StatusOf(wait_status);
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  sigaction(SIGHUP, &old_hup, nullptr);
  return status;
}

// With --lease nothing renews the lock, and the client's OnLost stays silent about it (a lease
// running out is what a lease does): this thread watches it instead, checking that the owner
// still holds it every `period` (a third of the lease, as the watchdog would renew it) and when
// the lease ends. Not holding it while COMMAND runs is a loss: ReportLost.
class LeaseMonitor {
 public:
  // `held`: whether the owner still holds it (throws Error when that cannot be known now);
  // `remain`: the lock's TTL on the server (-2 ms: gone).
  LeaseMonitor(std::string name, std::function<bool()> held, std::function<Millis()> remain,
               Millis lease, Millis period)
      : name_(std::move(name)),
        held_(std::move(held)),
        remain_(std::move(remain)),
        lease_(lease),
        period_(std::max(period, Millis(1))),
        thread_([this] { Run(); }) {}
  ~LeaseMonitor() {
    RequestStop();
    thread_.join();
  }
  // COMMAND has ended. A check under way finishes (or fails once the client shuts down).
  void RequestStop() {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    cv_.notify_all();
  }

 private:
  using Clock = std::chrono::steady_clock;

  void Run() {
    Clock::time_point deadline = Clock::now() + lease_;
    Clock::time_point next = std::min(Clock::now() + period_, deadline);
    std::unique_lock<std::mutex> lock(mu_);
    while (!cv_.wait_until(lock, next, [this] { return stop_; })) {
      lock.unlock();
      std::optional<bool> held;
      Millis ttl(-2);
      try {
        held = held_();
        // Past the lease by our clock but not yet by the server's: look again when it says.
        if (*held && Clock::now() >= deadline) ttl = remain_();
      } catch (const Error&) {
        // The server cannot be asked right now: nothing is known, ask again next time.
      }
      lock.lock();
      if (stop_) return;
      Clock::time_point now = Clock::now();
      if (held && !*held) {
        lock.unlock();
        ReportLost("lock '" + name_ + "' was lost while COMMAND ran (" +
                   (now >= deadline
                        ? "its --lease of " + std::to_string(lease_.count()) + " ms ran out"
                        : std::string("its key is gone or held by another owner")) +
                   ")");
        return;
      }
      if (now < deadline) {
        next = std::min(now + period_, deadline);
      } else {
        next = now + (ttl.count() >= 0 ? std::min(ttl + Millis(1), period_) : period_);
      }
    }
  }

  const std::string name_;
  std::function<bool()> held_;
  std::function<Millis()> remain_;
  const Millis lease_;
  const Millis period_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;  // guarded by mu_
  std::thread thread_;
};

// Releases the lock after COMMAND ran. Whatever happens, COMMAND's status stands: a failure is
// only reported (the lock then expires by its TTL). Bounded by the client's timeout and retries.
void Release(const std::function<void()>& unlock, const LockCommandOptions& o) {
  try {
    unlock();
  } catch (const IllegalMonitorState&) {
    if (!g_lost) {
      SayOnStderr("lock '" + o.name + "' was no longer held when COMMAND ended" +
                  (o.lease_ms ? " (its --lease ran out)" : ""));
    }
  } catch (const std::exception& e) {
    int64_t ttl = o.lease_ms.value_or(o.watchdog_ms);
    SayOnStderr("could not release lock '" + o.name + "': " + e.what() +
                "; it stays locked until its TTL runs out (at most " + std::to_string(ttl) +
                " ms)");
  }
}

}  // namespace

CLI::App* AddLockCommand(CLI::App& app, LockCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "lock",
      "Run COMMAND while holding the distributed lock NAME, like flock(1) across machines.\n"
      "The lock is Redisson's reentrant lock (a hash NAME on the server), so Java services\n"
      "using Redisson's getLock(NAME) exclude each other with it.");
  CLI::Option* server =
      cmd->add_option("--server", o.server, "Server URL redis://[[user]:password@]host[:port][/db]")
          ->type_name("URL")
          ->capture_default_str();
  cmd->add_option("--servers", o.servers,
                  "Take a RedLock over these independent masters instead (comma-separated URLs): "
                  "held while a majority grants it; exit 75 when no majority was had within "
                  "--wait")
      ->delimiter(',')
      ->type_name("URL,URL,...")
      ->excludes(server);
  cmd->add_flag("--fenced", o.fenced,
                "Take the fenced lock (Redisson's getFencedLock) and give COMMAND its fencing "
                "token in REDLAB_LOCK_TOKEN (tokens grow with every acquisition)");
  cmd->add_flag("--read", o.read,
                "Take the read side of the read/write lock NAME (Redisson's getReadWriteLock: "
                "many readers at once, no writer)");
  cmd->add_flag("--write", o.write,
                "Take the write side of the read/write lock NAME (alone: no reader, no other "
                "writer)");
  cmd->add_option("--wait", o.wait_ms,
                  "Give up after MS milliseconds without the lock and exit 75 (default: wait "
                  "as long as it takes)")
      ->check(CLI::NonNegativeNumber)
      ->type_name("MS");
  cmd->add_option("--lease", o.lease_ms,
                  "Let the lock expire MS milliseconds after acquiring it; if COMMAND is still "
                  "running then, it has lost the lock and gets SIGTERM (default: a watchdog "
                  "renews the lock until COMMAND ends)")
      ->check(CLI::PositiveNumber)
      ->type_name("MS");
  cmd->add_option("--watchdog-timeout", o.watchdog_ms,
                  "Without --lease: the lock's TTL, renewed every third of it while COMMAND "
                  "runs; a crashed holder frees the lock this long after (Redisson's "
                  "lockWatchdogTimeout)")
      ->check(CLI::PositiveNumber)
      ->type_name("MS")
      ->capture_default_str();
  cmd->add_option("NAME", o.name, "The lock's name (its key on the server)")->required();
  cmd->add_option("COMMAND", o.command, "The command to run, after --, with its arguments")
      ->required();
  cmd->footer(
      "Example: redlab lock --wait 5000 nightly-report -- ./make-report.sh --full\n\n"
      "Exit status: COMMAND's own (128+N when a signal N ended it); 75 when the lock was not\n"
      "acquired within --wait; 69 when the server cannot be reached; 127 when COMMAND is not\n"
      "found, 126 when it cannot run; 64 on bad arguments; 70 on other failures.\n"
      "SIGINT, SIGTERM and SIGHUP are passed on to COMMAND; the lock is released when it ends\n"
      "(a failed release is reported on stderr; the exit status stays COMMAND's).\n"
      "If the lock is lost while COMMAND runs (its key deleted or expired: the watchdog finds\n"
      "it gone; with --lease, the lease ran out or the key is gone), redlab says so on stderr\n"
      "and sends COMMAND SIGTERM.");
  return cmd;
}

namespace {

// The lock as RunLockCommand uses it, whichever kind --fenced / --servers chose.
struct HeldLock {
  std::function<void()> unlock;    // Unlock(): throws as it does
  std::function<bool()> held;      // for the lease monitor
  std::function<Millis()> remain;  // the TTL, for the lease monitor
  std::optional<int64_t> token;    // --fenced: the fencing token
};

// Acquires as the options say; nullopt when not acquired within --wait.
// The lock NAME as the options choose it: the read or write side of the read/write lock, or
// the reentrant lock (the fenced lock is that lock too).
ReentrantLock ChosenLock(Client& client, const LockCommandOptions& o) {
  if (o.read) return client.GetReadWriteLock(o.name).ReadLock();
  if (o.write) return client.GetReadWriteLock(o.name).WriteLock();
  return client.GetLock(o.name);
}

std::optional<HeldLock> AcquireReentrant(Client& client, const LockCommandOptions& o) {
  auto lease = Millis(o.lease_ms.value_or(0));
  ThreadId owner = ThreadId::Current();
  HeldLock h;
  if (o.fenced) {
    FencedLock lock = client.GetFencedLock(o.name);
    if (o.wait_ms) {
      h.token = lock.TryLockWithToken(Millis(*o.wait_ms), lease);
      if (!h.token) return std::nullopt;
    } else {
      h.token = lock.LockWithToken(lease);
    }
  } else {
    ReentrantLock lock = ChosenLock(client, o);
    if (o.wait_ms) {
      bool acquired =
          o.lease_ms ? lock.TryLock(Millis(*o.wait_ms), lease) : lock.TryLock(Millis(*o.wait_ms));
      if (!acquired) return std::nullopt;
    } else if (o.lease_ms) {
      lock.Lock(lease);
    } else {
      lock.Lock();
    }
  }
  ReentrantLock lock = ChosenLock(client, o);  // the same lock: release and checks
  h.unlock = [lock]() mutable { lock.Unlock(); };
  h.held = [lock, owner]() mutable { return lock.IsHeldByThread(owner); };
  h.remain = [lock]() mutable { return lock.RemainTimeToLive(); };
  return h;
}

std::optional<HeldLock> AcquireRedLock(Client& client, const LockCommandOptions& o) {
  RedLock lock = client.GetRedLock(o.name);
  auto lease = Millis(o.lease_ms.value_or(0));
  if (o.wait_ms) {
    if (!lock.TryLock(Millis(*o.wait_ms), lease)) return std::nullopt;
  } else {
    lock.Lock(lease);
  }
  HeldLock h;
  h.unlock = [lock]() mutable { lock.Unlock(); };
  // A RedLock's hold is as good as its validity: past it, a majority may have let it go.
  h.held = [lock]() mutable { return lock.Validity().count() > 0; };
  h.remain = [lock]() mutable {
    return lock.Validity().count() > 0 ? lock.Validity() : Millis(-2);
  };
  return h;
}

}  // namespace

int RunLockCommand(const LockCommandOptions& o) {
  Config config;
  try {
    if (!o.servers.empty()) {
      if (o.fenced || o.read || o.write) {
        throw ConfigError("--servers takes a RedLock: not with --fenced, --read or --write");
      }
      config = Config::IndependentMasters(o.servers);
    } else {
      config = Config::SingleServer(o.server);
    }
    if (int(o.fenced) + int(o.read) + int(o.write) > 1) {
      throw ConfigError("--fenced, --read and --write choose different locks: one at most");
    }
    config.lock_watchdog_timeout = Millis(o.watchdog_ms);
    config.Validate();
  } catch (const Error& e) {
    SayOnStderr(e.what());
    return kExitUsage;
  }
  std::unique_ptr<Client> client;
  std::optional<HeldLock> held;
  try {
    try {
      client = std::make_unique<Client>(config);
    } catch (const std::exception& e) {
      // RedLock with --wait: fewer than a majority of the masters answering is no majority
      // within the wait (75), not an unreachable server.
      bool unreachable = dynamic_cast<const IoError*>(&e) || dynamic_cast<const TimeoutError*>(&e);
      if (o.servers.empty() || !o.wait_ms || !unreachable) throw;
      SayOnStderr("lock '" + o.name + "' not acquired: no majority of the masters answers (" +
                  e.what() + ")");
      return kExitNotAcquired;
    }
    auto on_lost = [name = o.name](const LockLost&) {
      ReportLost("lock '" + name + "' was lost while COMMAND ran (its key is gone or held by " +
                 "another owner)");
    };
    if (!o.servers.empty()) {
      client->GetRedLock(o.name).OnLost(on_lost);
      held = AcquireRedLock(*client, o);
    } else {
      ChosenLock(*client, o).OnLost(on_lost);
      held = AcquireReentrant(*client, o);
    }
    if (!held) {
      SayOnStderr("lock '" + o.name + "' not acquired within " + std::to_string(*o.wait_ms) +
                  " ms" + (o.servers.empty() ? "" : " (no majority of the masters)"));
      return kExitNotAcquired;
    }
  } catch (const std::exception& e) {
    SayOnStderr(std::string(e.what()));
    return FailureStatus(e);
  }
  if (held->token) setenv("REDLAB_LOCK_TOKEN", std::to_string(*held->token).c_str(), 1);
  // From here on COMMAND runs, and its status is the exit status whatever the lock does.
  std::unique_ptr<LeaseMonitor> monitor;
  if (o.lease_ms) {
    monitor = std::make_unique<LeaseMonitor>(o.name, held->held, held->remain, Millis(*o.lease_ms),
                                             Millis(std::min(*o.lease_ms, o.watchdog_ms) / 3));
  }
  int status = RunChild(o.command);
  if (monitor) monitor->RequestStop();
  Release(held->unlock, o);
  client->Shutdown();  // fails a check the monitor may still wait for
  monitor.reset();
  return status;
}

int FailureStatus(const std::exception& e) {
  if (dynamic_cast<const IoError*>(&e) || dynamic_cast<const TimeoutError*>(&e)) {
    return kExitUnavailable;
  }
  return kExitSoftware;
}

int RunCommandForwardingSignals(const std::vector<std::string>& command) {
  return RunChild(command);
}

SubcommandRun AddLockSubcommand(CLI::App& app) {
  auto options = std::make_shared<LockCommandOptions>();
  AddLockCommand(app, *options);
  return [options] { return RunLockCommand(*options); };
}

}  // namespace redlab::tools
