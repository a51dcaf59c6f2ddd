// `redlab lock`: run a command while holding a distributed lock, like flock(1) across machines.
// A subcommand of the `redlab` tool (tools/redlab/main.cc registers it).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace redlab::tools {

struct LockCommandOptions {
  std::string server = "redis://127.0.0.1:6379";
  std::vector<std::string> servers;  // --servers: a RedLock over these independent masters
  bool fenced = false;               // --fenced: a FencedLock; its token in REDLAB_LOCK_TOKEN
  bool read = false;                 // --read: the read side of the read/write lock
  bool write = false;                // --write: its write side
  std::optional<int64_t> wait_ms;    // none: wait as long as it takes
  std::optional<int64_t> lease_ms;   // none: the watchdog keeps the lock while COMMAND runs
  int64_t watchdog_ms = 30000;
  std::string name;
  std::vector<std::string> command;
};

/// Exit statuses of `redlab lock` (sysexits.h), besides COMMAND's own.
inline constexpr int kExitUsage = 64;        // EX_USAGE: bad arguments
inline constexpr int kExitUnavailable = 69;  // EX_UNAVAILABLE: the server cannot be reached
inline constexpr int kExitSoftware = 70;     // EX_SOFTWARE: any other failure of redlab itself
inline constexpr int kExitNotAcquired = 75;  // EX_TEMPFAIL: not acquired within --wait
inline constexpr int kExitCannotRun = 126;   // COMMAND found but not executable (as shells)
inline constexpr int kExitNotFound = 127;    // COMMAND not found (as shells)

/// Adds the `lock` subcommand to `app`, filling `options` when parsed.
CLI::App* AddLockCommand(CLI::App& app, LockCommandOptions& options);

/// Runs it: acquires, runs COMMAND, releases. Returns the process exit status.
int RunLockCommand(const LockCommandOptions& options);

/// Runs COMMAND to its end, SIGINT/SIGTERM/SIGHUP passed on to it; its exit status as shells
/// give it (128+N for signal N, 127 not found, 126 not executable). Shared with `semaphore`.
int RunCommandForwardingSignals(const std::vector<std::string>& command);

/// The exit status for a failure of redlab itself: kExitUnavailable when the server could not be
/// reached or did not answer in time (IoError, TimeoutError), else kExitSoftware. Shared with
/// `semaphore`.
int FailureStatus(const std::exception& e);

}  // namespace redlab::tools
