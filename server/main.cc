// redlab-server: runs a Redis 7.0-compatible node — or a topology of them in one process (a
// master and replicas, or independent masters) — in the foreground until SIGINT, SIGTERM or
// SHUTDOWN.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>
#include <variant>

#include "server/base/text.h"
#include "server/config_file.h"
#include "server/daemon.h"
#include "server/engine/core/help.h"
#include "server/log.h"
#include "server/net/listener.h"
#include "server/node.h"
#include "server/topology.h"

namespace {

// One `--name words...` of the expanded command line.
struct Option {
  std::string name;  // without the leading "--"
  std::vector<std::string> words;
};

// The directives whose words stay apart (quoted, as a redis.conf line, when joined): a `user`'s
// rules, and rename-command's names (the new one may be "").
bool KeepsWordsApart(std::string_view name) {
  return redlab::server::EqualsIgnoreCase(name, "user") ||
         redlab::server::EqualsIgnoreCase(name, "rename-command");
}

void AddDirectives(const std::vector<redlab::server::ConfigDirective>& directives,
                   std::vector<Option>* out) {
  for (const auto& d : directives) {
    if (KeepsWordsApart(d.name)) {  // as on the command line
      out->push_back({d.name, d.words});
      continue;
    }
    std::string value;
    for (const std::string& w : d.words) value += (value.empty() ? "" : " ") + w;
    out->push_back({d.name, {value}});
  }
}

// The options CLI11 parses itself take one value each: when the file (or standard input) and the
// command line both give one, only the last is kept, as redis-server's later line wins.
bool IsSingleValued(std::string name) {
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const char* const kNames[] = {"port", "bind", "requirepass", "loglevel", "replicaof",
                                       "slaveof", "replicas", "masters", "port-file"};
  for (const char* n : kNames) {
    if (name == n) return true;
  }
  return false;
}

std::string CanonicalName(std::string name) {
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name == "slaveof" ? "replicaof" : name;
}

// `redlab-server [redis.conf] [--name value ...] [-]`: as redis-server, the file's directives come
// first, then those read from standard input (`-` as the first or the last argument), then the
// command line's options (so they win). Each directive becomes `--name value`.
std::optional<std::vector<std::string>> ExpandConfigFile(int argc, char** argv) {
  std::vector<Option> options;
  int first = 1;
  if (argc > 1 && argv[1][0] != '-') {
    auto parsed = redlab::server::ReadConfigFile(argv[1]);
    if (auto* error = std::get_if<redlab::server::ConfigFileError>(&parsed)) {
      std::fputs(error->Report().c_str(), stderr);
      return std::nullopt;
    }
    AddDirectives(std::get<std::vector<redlab::server::ConfigDirective>>(parsed), &options);
    first = 2;
  }
  std::vector<std::string> rest;
  for (int j = first; j < argc; ++j) {
    if (std::string_view(argv[j]) == "-" && (j == 1 || j == argc - 1)) {
      std::ostringstream text;
      text << std::cin.rdbuf();
      auto parsed = redlab::server::ParseConfigTextWithIncludes(text.str());
      if (auto* error = std::get_if<redlab::server::ConfigFileError>(&parsed)) {
        std::fputs(error->Report().c_str(), stderr);
        return std::nullopt;
      }
      AddDirectives(std::get<std::vector<redlab::server::ConfigDirective>>(parsed), &options);
      continue;
    }
    rest.emplace_back(argv[j]);
  }
  // The command line's options: the words up to the next --option are an option's arguments.
  for (const std::string& arg : rest) {
    if (arg.rfind("--", 0) == 0) {
      options.push_back({arg.substr(2), {}});
    } else if (options.empty()) {
      options.push_back({std::string(), {arg}});  // a stray word: reported below
    } else {
      options.back().words.push_back(arg);
    }
  }
  std::vector<std::string> args = {argv[0]};
  for (size_t i = 0; i < options.size(); ++i) {
    const Option& o = options[i];
    bool overridden = false;
    for (size_t k = i + 1; !o.name.empty() && IsSingleValued(o.name) && k < options.size(); ++k) {
      overridden = overridden || CanonicalName(options[k].name) == CanonicalName(o.name);
    }
    if (overridden) continue;
    if (!o.name.empty()) args.push_back("--" + o.name);
    args.insert(args.end(), o.words.begin(), o.words.end());
  }
  return args;
}

// A parameter given again (in the file, then on the command line) takes the later value, as in
// Redis; `user`, `rename-command` (and a sentinel's `sentinel`) directives each add one, and
// `save` lines add their points to one another.
void AddSetting(std::vector<std::pair<std::string, std::string>>* settings, const std::string& name,
                const std::string& value) {
  using redlab::server::EqualsIgnoreCase;
  if (!KeepsWordsApart(name) && !EqualsIgnoreCase(name, "sentinel")) {
    for (auto& [existing, old_value] : *settings) {
      if (!EqualsIgnoreCase(existing, name)) continue;
      if (EqualsIgnoreCase(name, "save") && !old_value.empty() && !value.empty()) {
        old_value += " " + value;
      } else {
        old_value = value;
      }
      return;
    }
  }
  settings->emplace_back(name, value);
}

// The value `name` has among the settings (the last one given), or "".
std::string SettingOf(const redlab::server::NodeOptions& options, std::string_view name) {
  std::string value;
  for (const auto& [setting, v] : options.settings) {
    if (redlab::server::EqualsIgnoreCase(setting, name)) value = v;
  }
  return value;
}

// --port-file: the ports bound, one per line (masters, replicas, then sentinels), written to a
// temporary name and renamed, so a test suite that sees the file sees all of it.
bool WritePortFile(const std::string& path, redlab::server::Topology& topology) {
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    for (redlab::server::Node* n : topology.nodes()) out << n->port() << "\n";
    for (size_t i = 0; i < topology.num_sentinels(); ++i)
      out << topology.sentinel(i).port() << "\n";
    if (!out.flush()) return false;
  }
  return std::rename(temporary.c_str(), path.c_str()) == 0;
}

std::string AbsolutePath(const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof(cwd)) == nullptr) return path;
  return std::string(cwd) + "/" + path;
}

}  // namespace

int main(int raw_argc, char** raw_argv) {
  if (raw_argc >= 2 &&
      (std::string_view(raw_argv[1]) == "-v" || std::string_view(raw_argv[1]) == "--version")) {
    // redis-server's version line (its build id is a hash of the build; redlab has none).
    std::printf("Redis server v=%s sha=00000000:0 malloc=libc bits=64 build=0\n",
                std::string(redlab::server::engine::kRedisVersion).c_str());
    return 0;
  }
  std::optional<std::vector<std::string>> expanded = ExpandConfigFile(raw_argc, raw_argv);
  if (!expanded) return 1;
  // `--sentinel` alone (redis-server --sentinel) runs a sentinel; `--sentinel WORDS` (a
  // sentinel.conf's `sentinel monitor ...` lines) configures it.
  bool sentinel = false;
  for (size_t i = 1; i < expanded->size();) {
    bool alone = (*expanded)[i] == "--sentinel" &&
                 (i + 1 == expanded->size() || (*expanded)[i + 1].rfind("--", 0) == 0);
    if (alone) {
      sentinel = true;
      expanded->erase(expanded->begin() + static_cast<long>(i));
    } else {
      ++i;
    }
  }
  std::vector<char*> arg_pointers;
  for (std::string& a : *expanded) arg_pointers.push_back(a.data());
  int argc = static_cast<int>(arg_pointers.size());
  char** argv = arg_pointers.data();
  redlab::server::NodeOptions options;
  // redis-server's default: every interface (protected mode refuses other machines' clients
  // while the default user has no password).
  options.bind = redlab::server::net::kDefaultBind;
  std::vector<std::string> replicaof;
  int replicas = 0;
  int masters = 1;
  int sentinels = 0;
  int sentinel_port = 26379;
  int64_t down_after_ms = 30000;
  int64_t failover_timeout_ms = 180000;
  std::string port_file;
  CLI::App app{
      "redlab-server: an in-memory, Redis 7.0-compatible server for testing distributed locks"};
  auto* port_opt =
      app.add_option("--port", options.port, "TCP port to listen on (0 picks a free one)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  app.add_option("--port-file", port_file,
                 "once listening, write the ports bound to FILE, one per line (the master first, "
                 "then replicas, then sentinels): with --port 0, how a test suite learns them")
      ->type_name("FILE");
  app.add_option("--bind", options.bind, "address to listen on")->capture_default_str();
  app.add_option("--requirepass", options.requirepass,
                 "password clients must send with AUTH before other commands");
  app.add_option("--loglevel", options.loglevel, "debug, verbose, notice or warning")
      ->capture_default_str()
      ->check(CLI::IsMember({"debug", "verbose", "notice", "warning"}));
  // Two words, or one holding both ("127.0.0.1 6379"), as redis-server takes it.
  auto* replicaof_opt =
      app.add_option("--replicaof,--slaveof", replicaof, "replicate from the master at HOST PORT")
          ->expected(1, 2)
          ->type_name("HOST PORT");
  auto* replicas_opt =
      app.add_option(
             "--replicas", replicas,
             "also start N replicas of this node, on ports P+1..P+N (free ones with --port 0), in "
             "this process")
          ->check(CLI::Range(0, 1000));
  auto* masters_opt =
      app.add_option(
             "--masters", masters,
             "start N independent masters on ports P..P+N-1 (free ones with --port 0; RedLock), "
             "in this process")
          ->check(CLI::Range(1, 1000));
  app.add_option("--sentinels", sentinels,
                 "also start N sentinels in this process, monitoring the master as mymaster with "
                 "a quorum of a majority of them")
      ->check(CLI::Range(0, 100));
  app.add_option("--sentinel-port", sentinel_port, "the first sentinel's port (then P+1...)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  app.add_option("--down-after-ms", down_after_ms,
                 "the sentinels' down-after-milliseconds for mymaster")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40));
  app.add_option("--failover-timeout-ms", failover_timeout_ms,
                 "the sentinels' failover-timeout for mymaster")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40));
  replicas_opt->excludes(replicaof_opt);
  masters_opt->excludes(replicaof_opt);
  masters_opt->excludes(replicas_opt);
  app.allow_extras();
  app.footer(
      "Any other Redis configuration parameter redlab honours may be given as --name value, as "
      "with redis-server (e.g. --maxclients 100 --hz 50). Every node of a topology gets them.\n"
      "A redis.conf file may come first: redlab-server /path/to/redis.conf [OPTIONS]; the "
      "options given after it win.\n"
      "redlab-server /path/to/sentinel.conf --sentinel runs a Redis Sentinel (default port "
      "26379) monitoring the masters its `sentinel monitor NAME HOST PORT QUORUM` lines name.\n"
      "Every node also takes FAULT (FAULT HELP: replication lag, pauses and cuts, clock jumps, "
      "drift and freezes, stalls, late or lost replies and pushes per client, partitions "
      "between the nodes, crashes) and TOPOLOGY (NODES; RESTART <port> [EMPTY|KEEP|LOSE <ms>] "
      "brings a crashed node back).");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Help is a success; any bad argument is status 1, as redis-server's own config errors.
    return app.exit(e) == 0 ? 0 : 1;
  }
  std::vector<std::string> extras = app.remaining();
  for (size_t i = 0; i < extras.size();) {
    if (extras[i].rfind("--", 0) != 0 || i + 1 >= extras.size()) {
      std::fprintf(stderr, "redlab-server: expected --name value, got '%s'\n", extras[i].c_str());
      return 1;
    }
    // As with redis-server, the words up to the next --option are the option's arguments
    // (--user alice on '>pw' +@all): a `user` directive keeps them as a quoted config line,
    // other settings take them joined by spaces.
    std::string name = extras[i].substr(2);
    std::vector<std::string> words;
    for (++i; i < extras.size() && (words.empty() || extras[i].rfind("--", 0) != 0); ++i) {
      words.push_back(extras[i]);
    }
    std::string value = words.size() == 1 ? words[0] : std::string();
    for (size_t w = 0; words.size() > 1 && w < words.size(); ++w) {
      if (w > 0) value += ' ';
      if (KeepsWordsApart(name)) {
        redlab::server::AppendRepr(&value, words[w]);
      } else {
        value += words[w];
      }
    }
    AddSetting(&options.settings, name, value);
  }
  if (!replicaof.empty()) {
    std::vector<std::string> words;
    for (const std::string& arg : replicaof) {
      std::istringstream split(arg);
      for (std::string w; split >> w;) words.push_back(w);
    }
    if (words.size() != 2) {
      std::fprintf(stderr, "redlab-server: --replicaof takes HOST PORT\n");
      return 1;
    }
    options.replicaof = words[0] + " " + words[1];
  }
  if (sentinel) {
    options.sentinel = true;
    if (port_opt->count() == 0) options.port = 26379;  // Sentinel's default port
    if (replicas > 0 || masters > 1 || sentinels > 0 || !replicaof.empty()) {
      std::fprintf(stderr, "redlab-server: --sentinel runs a sentinel alone\n");
      return 1;
    }
  }
  // The file the node started from, which CONFIG REWRITE rewrites (a sentinel keeps its state
  // there), as an absolute path (Redis's getAbsolutePath). The nodes of a topology share the
  // command line, so none of them owns the file.
  bool lone_node = replicas == 0 && masters <= 1 && sentinels == 0;
  if (raw_argc > 1 && raw_argv[1][0] != '-' && (lone_node || sentinel)) {
    options.config_file = AbsolutePath(raw_argv[1]);
  }
  redlab::server::Logger::SetPortTags(replicas > 0 || masters > 1);

  // daemonize and pidfile, as redis-server: in the background, the parent returning once the
  // server listens (or with the reason it could not start); the pid written to the pidfile
  // (/var/run/redis.pid by default when daemonized) and removed at exit.
  const bool daemonize = redlab::server::EqualsIgnoreCase(SettingOf(options, "daemonize"), "yes");
  std::string pidfile = SettingOf(options, "pidfile");
  if (daemonize && pidfile.empty()) pidfile = "/var/run/redis.pid";
  redlab::server::Daemon daemon(daemonize);
  if (!redlab::server::WritePidFile(pidfile)) {
    std::fprintf(stderr, "redlab-server: failed to write PID file %s\n", pidfile.c_str());
    pidfile.clear();  // nothing of ours to remove at exit
  }

  // SIGINT and SIGTERM are taken by a dedicated thread (blocked everywhere else, including the
  // node threads started below, which inherit this mask).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  std::unique_ptr<redlab::server::Topology> topology;
  try {
    redlab::server::TopologyOptions t;
    // A lone node keeps no data history: its FAULT CRASH ends the process (below), so no node
    // is left to run TOPOLOGY RESTART LOSE, and its snapshots would only cost a write-heavy load
    // up to a twentieth of the loop's time.
    options.keep_history = replicas > 0 || masters > 1 || sentinels > 0;
    t.base = options;
    t.port = options.port;
    t.replicas = replicas;
    t.masters = masters;
    t.sentinels = sentinels;
    t.sentinel_port = sentinel_port;
    t.down_after_ms = down_after_ms;
    t.failover_timeout_ms = failover_timeout_ms;
    // Even one node runs as a topology of one, so TOPOLOGY NODES and RESTART work the same way.
    topology = redlab::server::Topology::Start(t);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    daemon.Failed(e.what());
    if (!pidfile.empty()) unlink(pidfile.c_str());
    return 1;
  }
  // Where a client on this machine connects (loopback for the default, every interface).
  const std::string address = redlab::server::net::LocalAddressOf(options.bind);
  for (redlab::server::Node* n : topology->nodes()) {
    std::fprintf(stderr, "redlab-server listening on %s:%d\n", address.c_str(), n->port());
  }
  for (size_t i = 0; i < topology->num_sentinels(); ++i) {
    std::fprintf(stderr, "redlab-server sentinel listening on %s:%d\n", address.c_str(),
                 topology->sentinel(i).port());
  }
  if (!port_file.empty() && !WritePortFile(port_file, *topology)) {
    std::fprintf(stderr, "redlab-server: cannot write the port file %s\n", port_file.c_str());
    daemon.Failed("redlab-server: cannot write the port file " + port_file);
    topology->Stop();
    if (!pidfile.empty()) unlink(pidfile.c_str());
    return 1;
  }
  daemon.Ready();
  // FAULT CRASH of the last live node: nobody is left to run TOPOLOGY RESTART, so the process
  // dies too, as a crashed redis-server's would.
  std::atomic<bool> all_crashed{false};
  topology->registry()->SetOnAllCrashed([&topology, &all_crashed] {
    all_crashed = true;
    for (redlab::server::Node* n : topology->nodes()) n->RequestStop();
  });

  std::thread([&topology, signals, logfile = SettingOf(options, "logfile")] {
    int sig = 0;
    sigwait(&signals, &sig);
    redlab::server::Logger::LogFromSignalHandler(
        logfile, sig == SIGINT ? "Received SIGINT scheduling shutdown..."
                               : "Received SIGTERM scheduling shutdown...");
    for (redlab::server::Node* n : topology->nodes()) n->RequestStop();
    for (size_t i = 0; i < topology->num_sentinels(); ++i) topology->sentinel(i).RequestStop();
  }).detach();

  // The process ends when its first node (the master) stops, by signal or SHUTDOWN; the others
  // follow it.
  topology->master().WaitUntilStopped();
  topology->Stop();
  if (!pidfile.empty()) unlink(pidfile.c_str());
  if (all_crashed) {
    std::fprintf(stderr, "redlab-server: every node has crashed (FAULT CRASH); exiting\n");
    return 1;
  }
  return 0;
}
