// redlab proxy: forwards TCP from a local port to HOST:PORT with injectable network faults
// (delay, hold/release, cut/heal, drop), driven through a RESP control port. Put it on a real
// replica's link to its master to reproduce replication lag and the failover race.
#include <pthread.h>
#include <signal.h>

#include <cstdio>
#include <string>

#include "tools/proxy/fault_proxy.h"
#include "tools/redlab/commands.h"

namespace redlab::tools {

SubcommandRun AddProxyCommand(CLI::App& app) {
  auto options = std::make_shared<ProxyOptions>();
  auto to = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "proxy", "forward TCP to HOST:PORT with faults set on a control port (redis-cli speaks it)");
  sub->add_option("--listen", options->listen_port, "port to accept connections on")->required();
  sub->add_option("--to", *to, "where to forward, HOST:PORT")->required();
  sub->add_option("--control", options->control_port,
                  "control port (RESP: DELAY ms, HOLD, RELEASE, CUT, HEAL, DROP, RESET, STATUS); "
                  "default: the listen port + 1");
  sub->add_option("--bind", options->listen_host, "address to listen on")->capture_default_str();
  sub->footer(
      "Example: redlab proxy --listen 7001 --to 127.0.0.1:6379 --control 7002, then\n"
      "redis-server --port 6380 --replicaof 127.0.0.1 7001 and redis-cli -p 7002 HOLD.");
  return [options, to]() -> int {
    size_t colon = to->rfind(':');
    if (colon == std::string::npos) {
      std::fprintf(stderr, "redlab proxy: --to must be HOST:PORT\n");
      return 1;
    }
    options->target_host = to->substr(0, colon);
    options->target_port = std::stoi(to->substr(colon + 1));
    if (options->control_port < 0) options->control_port = options->listen_port + 1;
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::unique_ptr<FaultProxy> proxy;
    try {
      proxy = FaultProxy::Start(*options);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 1;
    }
    std::fprintf(stderr, "redlab proxy: %s:%d -> %s, control port %d\n",
                 options->listen_host.c_str(), proxy->port(), to->c_str(), proxy->control_port());
    int sig = 0;
    sigwait(&signals, &sig);
    proxy->Stop();
    return 0;
  };
}

}  // namespace redlab::tools
