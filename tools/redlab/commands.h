// The subcommands of the `redlab` command-line tool. Each lives in its own file and adds itself
// to the app; main() only runs the one chosen.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace redlab::tools {

// What a subcommand registers: its CLI11 subcommand, and what runs when it was chosen (the exit
// status of the process).
using SubcommandRun = std::function<int()>;

// redlab proxy --listen PORT --to HOST:PORT [--control PORT]
SubcommandRun AddProxyCommand(CLI::App& app);
// redlab lock [--server URL] [--wait MS] [--lease MS] NAME -- COMMAND [ARGS...]
SubcommandRun AddLockSubcommand(CLI::App& app);
// redlab lab list | run [SCENARIO...] [--target T] [--seed N] [--runs N] [--json F] [--html F]
SubcommandRun AddLabCommand(CLI::App& app);
// redlab semaphore [--server URL] --permits N [--wait MS] NAME -- COMMAND [ARGS...]
SubcommandRun AddSemaphoreSubcommand(CLI::App& app);

// Exit status for bad arguments (sysexits.h EX_USAGE).
inline constexpr int kExitUsageError = 64;

}  // namespace redlab::tools
