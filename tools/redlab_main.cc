// The `redlab` command line: one program, one CLI11 subcommand per tool (each in its own file,
// registered here).
#include <CLI/CLI.hpp>

#include "tools/lock_command.h"

int main(int argc, char** argv) {
  CLI::App app{"redlab: tools for Redis-based distributed locks"};
  app.require_subcommand(1);
  redlab::tools::LockCommandOptions lock_options;
  CLI::App* lock = redlab::tools::AddLockCommand(app, lock_options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);  // prints help or the error
    return code == 0 ? 0 : redlab::tools::kExitUsage;
  }
  if (lock->parsed()) return redlab::tools::RunLockCommand(lock_options);
  return redlab::tools::kExitUsage;
}
