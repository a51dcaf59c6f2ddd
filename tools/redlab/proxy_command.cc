// redlab proxy: forwards TCP from a local port to HOST:PORT with injectable network faults
// (delay, hold/release, cut/heal, drop, toxiproxy's toxics), driven through a RESP control port.
// Put it on a real replica's link to its master to reproduce replication lag and the failover race.
#include <pthread.h>
#include <signal.h>

#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>

#include "tools/proxy/fault_proxy.h"
#include "tools/redlab/commands.h"

namespace redlab::tools {
namespace {

// HOST:PORT (an IPv6 address in brackets: [::1]:6379) with a port in 1..65535; false (and
// *error says why) otherwise. The host is resolved when the proxy starts.
bool ParseHostPort(const std::string& text, std::string* host, int* port, std::string* error) {
  size_t colon = text.rfind(':');
  bool bracketed = !text.empty() && text[0] == '[';
  if (colon == std::string::npos || colon == 0 ||
      (bracketed && (colon < 3 || text[colon - 1] != ']')) ||
      (!bracketed && text.find(':') != colon)) {
    *error = "must be HOST:PORT or [IPv6]:PORT, got '" + text + "'";
    return false;
  }
  std::string_view digits = std::string_view(text).substr(colon + 1);
  int value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || value < 1 ||
      value > 65535) {
    *error = "invalid port '" + std::string(digits) + "' (HOST:PORT, port 1-65535)";
    return false;
  }
  *host = bracketed ? text.substr(1, colon - 2) : text.substr(0, colon);
  *port = value;
  return true;
}

}  // namespace

SubcommandRun AddProxyCommand(CLI::App& app) {
  auto options = std::make_shared<ProxyOptions>();
  auto to = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "proxy", "forward TCP to HOST:PORT with faults set on a control port (redis-cli speaks it)");
  sub->add_option("--listen", options->listen_port, "port to accept connections on")
      ->required()
      ->check(CLI::Range(0, 65535));
  // Checked while parsing, so a bad address is a usage error like any other.
  sub->add_option("--to", *to, "where to forward, HOST:PORT")
      ->required()
      ->check(CLI::Validator(
          [](std::string& value) {
            std::string host, error;
            int port = 0;
            return ParseHostPort(value, &host, &port, &error) ? std::string() : error;
          },
          "HOST:PORT"));
  sub->add_option("--control", options->control_port,
                  "control port (RESP: DELAY ms, HOLD, RELEASE, CUT, HEAL, DROP, TOXIC ADD|REMOVE, "
                  "BUFFER, RESET, STATUS, HELP); "
                  "default: the listen port + 1")
      ->check(CLI::Range(0, 65535));
  sub->add_option("--bind", options->listen_host, "address or host name to listen on")
      ->capture_default_str();
  sub->add_option("--buffer", options->buffer_limit,
                  "bytes one direction of a connection holds before the proxy stops reading")
      ->capture_default_str()
      ->check(CLI::Range(size_t{1}, size_t{1} << 40));
  sub->footer(
      "Example: redlab proxy --listen 7001 --to 127.0.0.1:6379 --control 7002, then\n"
      "redis-server --port 6380 --replicaof 127.0.0.1 7001 and redis-cli -p 7002 HOLD.");
  return [options, to]() -> int {
    std::string error;
    if (!ParseHostPort(*to, &options->target_host, &options->target_port, &error)) {
      std::fprintf(stderr, "redlab proxy: --to %s\n", error.c_str());  // checked while parsing
      return kExitUsageError;
    }
    if (options->control_port < 0) {
      options->control_port = options->listen_port == 0 ? 0 : options->listen_port + 1;
    }
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
