#include "tools/redlab/lock_command.h"

#include <memory>

#include "tools/redlab/commands.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <iostream>

#include "client/client.h"

extern char** environ;

namespace redlab::tools {
namespace {

// The running COMMAND, for the signal handlers that pass SIGINT/SIGTERM/SIGHUP on to it (a
// handler can only reach process-wide state) and for OnLost.
std::atomic<pid_t> g_child{0};

void ForwardSignal(int sig) {
  pid_t child = g_child.load();
  if (child > 0) kill(child, sig);
}

// Writes with write(2): OnLost runs on the client's loop thread while main waits in waitpid.
void SayOnStderr(const std::string& text) {
  std::string line = "redlab lock: " + text + "\n";
  ssize_t ignored = write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
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
    int wait_status = 0;
    while (waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
    }
    g_child = 0;
    status = StatusOf(wait_status);
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  sigaction(SIGHUP, &old_hup, nullptr);
  return status;
}

int FailureStatus(const std::exception& e) {
  if (dynamic_cast<const IoError*>(&e) || dynamic_cast<const TimeoutError*>(&e)) {
    return kExitUnavailable;
  }
  return kExitSoftware;
}

}  // namespace

CLI::App* AddLockCommand(CLI::App& app, LockCommandOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "lock",
      "Run COMMAND while holding the distributed lock NAME, like flock(1) across machines.\n"
      "The lock is Redisson's reentrant lock (a hash NAME on the server), so Java services\n"
      "using Redisson's getLock(NAME) exclude each other with it.");
  cmd->add_option("--server", o.server, "Server URL redis://[[user]:password@]host[:port][/db]")
      ->type_name("URL")
      ->capture_default_str();
  cmd->add_option("--wait", o.wait_ms,
                  "Give up after MS milliseconds without the lock and exit 75 (default: wait "
                  "as long as it takes)")
      ->check(CLI::NonNegativeNumber)
      ->type_name("MS");
  cmd->add_option("--lease", o.lease_ms,
                  "Let the lock expire MS milliseconds after acquiring it, even if COMMAND is "
                  "still running (default: a watchdog renews it until COMMAND ends)")
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
      "SIGINT, SIGTERM and SIGHUP are passed on to COMMAND; the lock is released when it ends.\n"
      "If the lock is lost while COMMAND runs (its key deleted or expired: the watchdog finds\n"
      "it gone), redlab says so on stderr and sends COMMAND SIGTERM.");
  return cmd;
}

int RunLockCommand(const LockCommandOptions& o) {
  Config config;
  try {
    config = Config::SingleServer(o.server);
    config.lock_watchdog_timeout = std::chrono::milliseconds(o.watchdog_ms);
    config.Validate();
  } catch (const Error& e) {
    SayOnStderr(e.what());
    return kExitUsage;
  }
  try {
    Client client(config);
    ReentrantLock lock = client.GetLock(o.name);
    lock.OnLost([](const LockLost& lost) {
      SayOnStderr("lock '" + lost.name + "' was lost while COMMAND ran (its key is gone or " +
                  "held by another owner); sending COMMAND SIGTERM");
      pid_t child = g_child.load();
      if (child > 0) kill(child, SIGTERM);
    });
    bool acquired = true;
    auto lease = std::chrono::milliseconds(o.lease_ms.value_or(0));
    if (o.wait_ms) {
      acquired = o.lease_ms ? lock.TryLock(std::chrono::milliseconds(*o.wait_ms), lease)
                            : lock.TryLock(std::chrono::milliseconds(*o.wait_ms));
    } else if (o.lease_ms) {
      lock.Lock(lease);
    } else {
      lock.Lock();
    }
    if (!acquired) {
      SayOnStderr("lock '" + o.name + "' not acquired within " + std::to_string(*o.wait_ms) +
                  " ms");
      return kExitNotAcquired;
    }
    int status = RunChild(o.command);
    try {
      lock.Unlock();
    } catch (const IllegalMonitorState&) {
      SayOnStderr("lock '" + o.name + "' was no longer held when COMMAND ended" +
                  (o.lease_ms ? " (its --lease ran out)" : ""));
    }
    return status;
  } catch (const std::exception& e) {
    SayOnStderr(std::string(e.what()));
    return FailureStatus(e);
  }
}

SubcommandRun AddLockSubcommand(CLI::App& app) {
  auto options = std::make_shared<LockCommandOptions>();
  AddLockCommand(app, *options);
  return [options] { return RunLockCommand(*options); };
}

}  // namespace redlab::tools
