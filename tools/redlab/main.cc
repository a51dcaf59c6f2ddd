// redlab: the command-line tool around redlab-server (fault proxy for real Redis, and later
// lock and scenario helpers). One main; each subcommand in its own file (see commands.h).
#include <cstdio>
#include <vector>

#include "tools/redlab/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"redlab: tools for testing distributed locks against redlab-server and Redis"};
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, redlab::tools::SubcommandRun>> commands;
  size_t before = app.get_subcommands({}).size();
  auto add = [&](redlab::tools::SubcommandRun run) {
    std::vector<CLI::App*> subs = app.get_subcommands({});
    commands.emplace_back(subs.back(), std::move(run));
  };
  (void)before;
  add(redlab::tools::AddProxyCommand(app));
  CLI11_PARSE(app, argc, argv);
  for (auto& [sub, run] : commands) {
    if (sub->parsed()) return run();
  }
  return 1;
}
