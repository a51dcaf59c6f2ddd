// redlab: the command-line tool around redlab-server and Redis — `redlab proxy` (a fault proxy
// for real Redis), `redlab lock` (a command run under a distributed lock), `redlab lab` (the
// failover lab) and `redlab bench` (script latency, side by side with real Redis). One main;
// each subcommand in its own file (see commands.h; bench in tools/bench/, lab in tools/lab/).
#include <utility>
#include <vector>

#include "tools/bench/bench_command.h"
#include "tools/redlab/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"redlab: tools for testing distributed locks against redlab-server and Redis"};
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, redlab::tools::SubcommandRun>> commands;
  auto add = [&](redlab::tools::SubcommandRun run) {
    commands.emplace_back(app.get_subcommands({}).back(), std::move(run));
  };
  add(redlab::tools::AddProxyCommand(app));
  add(redlab::tools::AddLockSubcommand(app));
  add(redlab::tools::bench::AddBenchCommand(app));
  add(redlab::tools::AddLabCommand(app));
  add(redlab::tools::AddSemaphoreSubcommand(app));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);  // prints the help or the error
    return code == 0 ? 0 : redlab::tools::kExitUsageError;
  }
  for (auto& [sub, run] : commands) {
    if (sub->parsed()) return run();
  }
  return redlab::tools::kExitUsageError;
}
