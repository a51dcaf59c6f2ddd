// redlab-server: runs a Redis 7.0-compatible node in the foreground until SIGINT, SIGTERM or
// SHUTDOWN.
#include <pthread.h>
#include <signal.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <thread>

#include "server/node.h"

int main(int argc, char** argv) {
  redlab::server::NodeOptions options;
  CLI::App app{
      "redlab-server: an in-memory, Redis 7.0-compatible server for testing distributed locks"};
  app.add_option("--port", options.port, "TCP port to listen on (0 picks a free one)")
      ->capture_default_str();
  app.add_option("--bind", options.bind, "address to listen on")->capture_default_str();
  app.add_option("--requirepass", options.requirepass,
                 "password clients must send with AUTH before other commands");
  app.add_option("--loglevel", options.loglevel, "debug, verbose, notice, warning or nothing")
      ->capture_default_str()
      ->check(CLI::IsMember({"debug", "verbose", "notice", "warning", "nothing"}));
  app.allow_extras();
  app.footer(
      "Any other Redis configuration parameter redlab honours may be given as --name value, as "
      "with redis-server (e.g. --maxclients 100 --hz 50).");
  CLI11_PARSE(app, argc, argv);
  std::vector<std::string> extras = app.remaining();
  for (size_t i = 0; i < extras.size(); ++i) {
    if (extras[i].rfind("--", 0) != 0 || i + 1 >= extras.size()) {
      std::fprintf(stderr, "redlab-server: expected --name value, got '%s'\n", extras[i].c_str());
      return 1;
    }
    options.settings.emplace_back(extras[i].substr(2), extras[i + 1]);
    ++i;
  }

  // SIGINT and SIGTERM are taken by a dedicated thread (blocked everywhere else, including the
  // node threads started below, which inherit this mask).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  std::unique_ptr<redlab::server::Node> node;
  try {
    node = redlab::server::Node::Start(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "redlab-server listening on %s:%d\n", options.bind.c_str(), node->port());

  std::thread([&node, signals] {
    int sig = 0;
    sigwait(&signals, &sig);
    std::fprintf(stderr, "Received %s scheduling shutdown...\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    node->RequestStop();
  }).detach();

  node->WaitUntilStopped();
  node->Stop();
  return 0;
}
