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

}  // namespace redlab::tools
