// `redlab semaphore`: run a command holding one permit of a distributed semaphore (Redisson's
// RSemaphore), like GNU parallel's `sem` across machines. A subcommand of the `redlab` tool.
#include <unistd.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/client.h"
#include "tools/redlab/commands.h"
#include "tools/redlab/lock_command.h"

namespace redlab::tools {
namespace {

using Millis = std::chrono::milliseconds;

struct SemaphoreOptions {
  std::string server = "redis://127.0.0.1:6379";
  int64_t permits = 1;
  std::optional<int64_t> wait_ms;
  std::string name;
  std::vector<std::string> command;
};

void Say(const std::string& text) {
  std::string line = "redlab semaphore: " + text + "\n";
  ssize_t ignored = write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

int Run(const SemaphoreOptions& o) {
  Config config;
  try {
    config = Config::SingleServer(o.server);
    config.Validate();
  } catch (const Error& e) {
    Say(e.what());
    return kExitUsage;
  }
  std::unique_ptr<Client> client;
  std::optional<Semaphore> semaphore;
  try {
    client = std::make_unique<Client>(config);
    semaphore = client->GetSemaphore(o.name);
    // The first user creates it; later ones find it (trySetPermits changes nothing then).
    semaphore->TrySetPermits(o.permits);
    if (o.wait_ms) {
      if (!semaphore->TryAcquire(1, Millis(*o.wait_ms))) {
        Say("no permit of semaphore '" + o.name + "' within " + std::to_string(*o.wait_ms) + " ms");
        return kExitNotAcquired;
      }
    } else {
      semaphore->Acquire();
    }
  } catch (const std::exception& e) {
    Say(e.what());
    return FailureStatus(e);
  }
  int status = RunCommandForwardingSignals(o.command);
  try {
    semaphore->Release();
  } catch (const std::exception& e) {
    Say("could not give back the permit of semaphore '" + o.name + "': " + e.what());
  }
  client->Shutdown();
  return status;
}

}  // namespace

SubcommandRun AddSemaphoreSubcommand(CLI::App& app) {
  auto o = std::make_shared<SemaphoreOptions>();
  CLI::App* cmd = app.add_subcommand(
      "semaphore",
      "Run COMMAND holding one permit of the distributed semaphore NAME, like sem(1) across\n"
      "machines. The semaphore is Redisson's RSemaphore (a string NAME holding the free\n"
      "permits), so Java services using Redisson's getSemaphore(NAME) share it.");
  cmd->add_option("--server", o->server, "Server URL redis://[[user]:password@]host[:port][/db]")
      ->type_name("URL")
      ->capture_default_str();
  cmd->add_option("--permits", o->permits,
                  "The semaphore's permits, set when it does not exist yet (trySetPermits)")
      ->check(CLI::PositiveNumber)
      ->type_name("N")
      ->required();
  cmd->add_option("--wait", o->wait_ms,
                  "Give up after MS milliseconds without a permit and exit 75 (default: wait "
                  "as long as it takes)")
      ->check(CLI::NonNegativeNumber)
      ->type_name("MS");
  cmd->add_option("NAME", o->name, "The semaphore's name (its key on the server)")->required();
  cmd->add_option("COMMAND", o->command, "The command to run, after --, with its arguments")
      ->required();
  cmd->footer(
      "Example: redlab semaphore --permits 4 render-slots -- ./render.sh scene.blend\n\n"
      "Exit status: COMMAND's own (128+N when a signal N ended it); 75 when no permit was had\n"
      "within --wait; 69 when the server cannot be reached; 127/126 when COMMAND is not found\n"
      "or cannot run; 64 on bad arguments; 70 on other failures. The permit is given back when\n"
      "COMMAND ends; a holder that dies without giving it back keeps it (Redisson's semaphore\n"
      "has no leases).");
  return [o] { return Run(*o); };
}

}  // namespace redlab::tools
