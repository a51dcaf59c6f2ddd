// `redlab bench` (see bench_command.h): options, the targets, the rounds and the output.
#include "tools/bench/bench_command.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "tools/bench/report.h"
#include "tools/bench/runner.h"
#include "tools/bench/targets.h"
#include "tools/bench/workload.h"

namespace redlab::tools::bench {
namespace {

std::vector<std::string> Words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

void WriteTo(const std::string& path, const std::function<void(std::ostream&)>& write) {
  if (path == "-") {
    write(std::cout);
    return;
  }
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  write(out);
}

}  // namespace

double ParseDuration(const std::string& text) {
  size_t end = 0;
  double v = 0;
  try {
    v = std::stod(text, &end);
  } catch (const std::exception&) {
    throw std::invalid_argument("bad duration '" + text + "'");
  }
  std::string unit = text.substr(end);
  double scale = unit == "" || unit == "s" ? 1 : unit == "ms" ? 1e-3 : unit == "m" ? 60 : -1;
  if (scale < 0 || v < 0) throw std::invalid_argument("bad duration '" + text + "'");
  return v * scale;
}

std::function<int()> AddBenchCommand(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  auto duration = std::make_shared<std::string>();
  auto warmup = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "bench",
      "Benchmark a Lua script, a function or any command: HDR latency percentiles, throughput\n"
      "and errors, closed-loop or open-loop (--rate), against redlab and real redis-server side\n"
      "by side (--target both), with replicas, WAIT and faults.");
  cmd->add_option("--server", o->server,
                  "Benchmark a running server: redis://[[user]:password@]host[:port][/db]")
      ->type_name("URL");
  cmd->add_option("--target", o->target,
                  "Start the servers: redlab (in process), redis (redis-server processes) or "
                  "both, alternately in rounds")
      ->check(CLI::IsMember({"redlab", "redis", "both"}))
      ->capture_default_str();
  cmd->add_option("--script", o->script,
                  "A Lua script: SCRIPT LOAD once, then EVALSHA per call (EVAL on NOSCRIPT); "
                  "with --function, the library to FUNCTION LOAD")
      ->type_name("FILE.lua");
  cmd->add_option("--library", o->library, "The function library to FUNCTION LOAD")
      ->type_name("FILE.lua");
  cmd->add_option("--function", o->function, "FCALL this function (LIB.FN or FN)")
      ->type_name("LIB.FN");
  cmd->add_option("--keys", o->keys, "KEYS of each call, as patterns (see below)")
      ->type_name("PATTERN...");
  cmd->add_option("--args", o->args, "ARGV of each call, as patterns")->type_name("PATTERN...");
  cmd->add_option("--clients", o->clients, "Connections")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--pipeline", o->pipeline, "Calls in flight per connection")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  auto* req =
      cmd->add_option("--requests", o->requests, "Measured calls per target (default 100000)")
          ->check(CLI::PositiveNumber);
  cmd->add_option("--duration", *duration, "Measure for this long per target (10s, 500ms, 2m)")
      ->excludes(req);
  cmd->add_option("--rate", o->rate,
                  "Open loop: this many calls per second in all, latency from each call's "
                  "intended start (default: closed loop)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--warmup", *warmup, "Calls for this long first, not measured");
  cmd->add_option("--rounds", o->rounds,
                  "Split the run into rounds, the targets taking turns (default 3 with "
                  "--target both)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--replicas", o->replicas, "Replicas of the started master")
      ->check(CLI::Range(0, 16));
  cmd->add_option("--wait", o->wait,
                  "WAIT N TIMEOUT after every call on its connection, as Redisson's replica "
                  "sync (TIMEOUT in ms, default 1000)")
      ->type_name("N[/TIMEOUT]");
  cmd->add_option("--fault", o->faults,
                  "FAULT arguments for the redlab master, e.g. \"REPL DELAY 5\" (repeatable; on "
                  "redis the fault proxy's REPL DELAY, PAUSE and CUT)")
      ->type_name("\"FAULT ARGS\"");
  cmd->add_option("--config", o->config,
                  "A setting for every started node, \"name value\" (repeatable)")
      ->type_name("\"NAME VALUE\"");
  cmd->add_option("--json", o->json, "Write every figure as JSON (- for stdout)")
      ->type_name("FILE");
  cmd->add_option("--hdr", o->hdr, "Write the per-second histograms in HdrHistogram's log format")
      ->type_name("FILE");
  cmd->add_option("--seed", o->seed, "Seed of the random patterns")->capture_default_str();
  cmd->add_flag("--pin,!--no-pin", o->pin,
                "Run the started servers on one CPU and the load generator on another "
                "(default when there are two CPUs or more; not with --server)");
  cmd->add_option("COMMAND", o->command,
                  "The command to benchmark, after --, with its arguments "
                  "(patterns allowed)");
  cmd->footer(
      "Patterns (keys, args, command words) are expanded for every call:\n"
      "  {rand:A..B}   a random integer in A..B        {seq:A..B}  A, A+1, ..., B, A, ...\n"
      "  {client}      the connection's number, from 0  {randstr:N} N random characters\n"
      "Other braces are literal (hash tags stay as written).\n\n"
      "Examples:\n"
      "  redlab bench --target both --script lua/lock_acquire.lua \\\n"
      "      --keys 'lock:{rand:1..100000}' --args 30000 'owner-{client}:1'\n"
      "  redlab bench --target both --replicas 1 --wait 1/100 --script lua/lock_acquire.lua \\\n"
      "      --keys 'lock:{rand:1..100000}' --args 30000 'owner-{client}:1'\n"
      "  redlab bench --server redis://127.0.0.1:6379 --rate 20000 --duration 10s -- "
      "SET 'k:{rand:1..1000}' '{randstr:32}'\n\n"
      "Exit status: 0 when the benchmark ran (errors are counted, not fatal); 64 on bad\n"
      "arguments; 69 when a server cannot be started or reached; 70 on other failures.");
  return [o, duration, warmup]() {
    try {
      if (!duration->empty()) o->duration_s = ParseDuration(*duration);
      if (!warmup->empty()) o->warmup_s = ParseDuration(*warmup);
    } catch (const std::exception& e) {
      std::cerr << "redlab bench: " << e.what() << "\n";
      return kExitBenchUsage;
    }
    return RunBench(*o);
  };
}

namespace {

struct Plan {
  WorkloadSpec workload;
  TargetSpec target;
  RunnerOptions runner;
  std::vector<std::string> names;  // targets to start; empty with --server
  int rounds = 1;
};

Plan MakePlan(const BenchOptions& o) {
  Plan p;
  int modes =
      (!o.function.empty()) + (!o.script.empty() && o.function.empty()) + (!o.command.empty());
  if (modes != 1) {
    throw UsageError("give one of --script FILE, --function LIB.FN, or -- COMMAND ARGS...");
  }
  if (!o.function.empty()) {
    p.workload.kind = CallKind::kFunction;
    size_t dot = o.function.find('.');
    p.workload.function = dot == std::string::npos ? o.function : o.function.substr(dot + 1);
    std::string lib = !o.library.empty() ? o.library : o.script;
    if (!lib.empty()) p.workload.script_source = ReadFile(lib);  // loaded with FUNCTION LOAD
  } else if (!o.script.empty()) {
    p.workload.kind = CallKind::kScript;
    p.workload.script_source = ReadFile(o.script);
  } else {
    p.workload.kind = CallKind::kCommand;
    p.workload.command = o.command;
    if (!o.keys.empty() || !o.args.empty()) {
      throw UsageError(
          "--keys and --args go with --script or --function; put a command's "
          "arguments after --");
    }
  }
  p.workload.keys = o.keys;
  p.workload.args = o.args;
  p.workload.seed = o.seed;

  p.target.replicas = o.replicas;
  for (const auto& f : o.faults) {
    auto w = Words(f);
    if (w.empty()) throw UsageError("--fault needs FAULT's arguments, e.g. \"REPL DELAY 5\"");
    if (w[0] == "FAULT" || w[0] == "fault") w.erase(w.begin());
    p.target.faults.push_back(w);
  }
  for (const auto& c : o.config) {
    auto w = Words(c);
    if (w.size() < 2) throw UsageError("--config needs \"name value\"");
    std::string value = c.substr(c.find(w[0]) + w[0].size());
    value = value.substr(value.find_first_not_of(' '));
    p.target.config.emplace_back(w[0], value);
  }
  if (!o.server.empty()) {
    if (o.replicas > 0 || !o.config.empty()) {
      throw UsageError("--replicas and --config start servers; not with --server");
    }
  } else if (o.target == "both") {
    p.names = {"redlab", "redis"};
  } else {
    p.names = {o.target};
  }

  RunnerOptions& r = p.runner;
  r.clients = o.clients;
  r.pipeline = o.pipeline;
  r.requests = o.duration_s > 0 ? 0 : (o.requests > 0 ? o.requests : 100000);
  r.duration_s = o.duration_s;
  r.rate = o.rate;
  r.warmup_s = o.warmup_s;
  if (!o.wait.empty()) {
    size_t slash = o.wait.find('/');
    try {
      r.wait_replicas = std::stoi(o.wait.substr(0, slash));
      r.wait_timeout_ms = slash == std::string::npos ? 1000 : std::stoll(o.wait.substr(slash + 1));
    } catch (const std::exception&) {
      throw UsageError("--wait takes N[/TIMEOUT], e.g. 1/100");
    }
    if (r.wait_replicas < 0 || r.wait_timeout_ms < 0) throw UsageError("--wait: negative");
  }
  r.progress = true;
  p.rounds = o.rounds > 0 ? o.rounds : (p.names.size() == 2 ? 3 : 1);
  if (r.requests > 0 && r.requests < p.rounds) p.rounds = static_cast<int>(r.requests);
  return p;
}

// Loads the script or library on `t` and applies the faults.
void Prepare(Target& t, Workload& w, const TargetSpec& spec, bool both) {
  CheckReachable(t);
  if (w.kind() == CallKind::kScript) {
    w.set_sha(LoadScript(t, w.spec().script_source));
  } else if (w.kind() == CallKind::kFunction && !w.spec().script_source.empty()) {
    LoadFunctionLibrary(t, w.spec().script_source);
  }
  if (spec.faults.empty()) return;
  try {
    t.ApplyFaults(spec.faults);
  } catch (const std::runtime_error& e) {
    if (!both || t.name() != "redis") throw;
    std::cerr << "redlab bench: " << e.what() << "; redis runs without it\n";
  }
}

}  // namespace

int RunBench(const BenchOptions& o) {
  Plan plan;
  try {
    plan = MakePlan(o);
  } catch (const std::invalid_argument& e) {
    std::cerr << "redlab bench: " << e.what() << "\n";
    return kExitBenchUsage;
  }
  std::vector<std::unique_ptr<Target>> targets;
  std::vector<std::unique_ptr<Workload>> workloads;
  // The servers' threads and processes inherit the CPU of the thread starting them.
  std::optional<PinnedCpus> cpus;
  if (o.pin && !plan.names.empty()) cpus = CpusToPin();
  if (cpus && !PinCallingThread(cpus->server)) cpus.reset();
  try {
    if (plan.names.empty()) {
      targets.push_back(ExistingServer(o.server));
    }
    for (const auto& name : plan.names) {
      targets.push_back(name == "redlab" ? StartRedlab(plan.target) : StartRedis(plan.target));
    }
    if (cpus && !PinCallingThread(cpus->load)) {
      throw std::runtime_error("cannot move the load generator to CPU " +
                               std::to_string(cpus->load));
    }
    for (auto& t : targets) {
      workloads.push_back(std::make_unique<Workload>(plan.workload));
      Prepare(*t, *workloads.back(), plan.target, targets.size() == 2);
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << "redlab bench: " << e.what() << "\n";
    return kExitBenchUsage;
  } catch (const std::exception& e) {
    std::cerr << "redlab bench: " << e.what() << "\n";
    return kExitBenchUnavailable;
  }

  Report report;
  report.call = workloads[0]->Describe();
  report.wait = plan.runner.wait_replicas >= 0;
  const RunnerOptions& r = plan.runner;
  nlohmann::json pinned;  // null when not pinned
  if (cpus) pinned = {{"server_cpu", cpus->server}, {"load_cpu", cpus->load}};
  report.config = {{"clients", r.clients},
                   {"pipeline", r.pipeline},
                   {"requests", r.requests},
                   {"duration_s", r.duration_s},
                   {"rate", r.rate},
                   {"loop", r.rate > 0 ? "open" : "closed"},
                   {"warmup_s", r.warmup_s},
                   {"rounds", plan.rounds},
                   {"replicas", plan.target.replicas},
                   {"wait", o.wait},
                   {"faults", o.faults},
                   {"seed", o.seed},
                   {"pinned", pinned}};
  // With --json -, stdout carries the JSON alone and the table goes to stderr.
  std::ostream& text = o.json == "-" ? std::cerr : std::cout;
  if (!plan.names.empty() && plan.runner.wait_replicas > plan.target.replicas) {
    std::cerr << fmt::format(
        "redlab bench: WAIT {} with {} replica(s): every WAIT waits its {} ms timeout\n",
        plan.runner.wait_replicas, plan.target.replicas, plan.runner.wait_timeout_ms);
  }
  text << fmt::format(
      "redlab bench: {} x pipeline {}, {} loop{}, {}{}{}\n", r.clients, r.pipeline,
      r.rate > 0 ? "open" : "closed", r.rate > 0 ? fmt::format(" at {:.0f}/s", r.rate) : "",
      r.requests > 0 ? fmt::format("{} calls", r.requests) : fmt::format("{:.1f} s", r.duration_s),
      plan.target.replicas > 0 ? fmt::format(", {} replica(s)", plan.target.replicas) : "",
      report.wait ? fmt::format(", WAIT {} {}", r.wait_replicas, r.wait_timeout_ms) : "");
  if (cpus) {
    text << fmt::format("pinned: servers on CPU {}, load generator on CPU {}\n", cpus->server,
                        cpus->load);
  }
  text.flush();
  double start_epoch =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  for (auto& t : targets) report.targets.push_back({t->name(), RunStats{}});
  try {
    for (int round = 0; round < plan.rounds; ++round) {
      for (size_t i = 0; i < targets.size(); ++i) {
        RunnerOptions ro = plan.runner;
        ro.host = targets[i]->host();
        ro.port = targets[i]->port();
        ro.user = targets[i]->user();
        ro.password = targets[i]->password();
        ro.db = targets[i]->db();
        ro.progress_label = targets[i]->name();
        if (round > 0) ro.warmup_s = 0;
        if (ro.requests > 0) {
          ro.requests = r.requests / plan.rounds + (round < r.requests % plan.rounds ? 1 : 0);
        } else {
          ro.duration_s = r.duration_s / plan.rounds;
        }
        report.targets[i].stats.Merge(Run(ro, *workloads[i]));
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "redlab bench: " << e.what() << "\n";
    return kExitBenchUnavailable;
  }
  text << FormatTable(report);
  try {
    if (!o.json.empty()) {
      WriteTo(o.json, [&](std::ostream& out) { out << ToJson(report).dump(2) << "\n"; });
    }
    if (!o.hdr.empty()) {
      WriteTo(o.hdr, [&](std::ostream& out) { WriteHdrLog(report, start_epoch, out); });
    }
  } catch (const std::exception& e) {
    std::cerr << "redlab bench: " << e.what() << "\n";
    return kExitBenchSoftware;
  }
  return 0;
}

}  // namespace redlab::tools::bench
