// redlab-bench: how fast a node comes and goes. An in-process Node from Start to listening and
// from Stop to joined (what a test fixture pays per test), and a server process from exec to its
// first PONG, redlab-server beside redis-server (what a test suite that spawns servers pays).
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/side_by_side.h"
#include "server/node.h"

extern char** environ;

namespace redlab::bench {
namespace {

using Clock = std::chrono::steady_clock;

server::NodeOptions QuietNode() {
  server::NodeOptions options;
  options.port = 0;
  options.settings = {{"save", ""}, {"logfile", "/dev/null"}};
  return options;
}

void NodeStart(benchmark::State& state) {
  for (auto _ : state) {
    auto t0 = Clock::now();
    auto node = server::Node::Start(QuietNode());
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - t0).count());
    node->Stop();
  }
}

void NodeStop(benchmark::State& state) {
  for (auto _ : state) {
    auto node = server::Node::Start(QuietNode());
    auto t0 = Clock::now();
    node->Stop();
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - t0).count());
  }
}

// One PING on a fresh connection to 127.0.0.1:port: whether +PONG came back.
bool Pong(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = false;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      write(fd, "PING\r\n", 6) == 6) {
    char buf[8];
    ok = read(fd, buf, sizeof(buf)) >= 5 && std::memcmp(buf, "+PONG", 5) == 0;
  }
  close(fd);
  return ok;
}

// Spawns `program` on `port`, waits for its first PONG (up to 10 s), and stops it.
double ExecToPing(const std::string& program, int port) {
  std::vector<std::string> args = {program, "--port", std::to_string(port), "--bind", "127.0.0.1",
                                   "--save", "", "--logfile", "/dev/null"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  auto t0 = Clock::now();
  pid_t pid = 0;
  if (posix_spawnp(&pid, program.c_str(), nullptr, nullptr, argv.data(), environ) != 0) {
    throw std::runtime_error("cannot start " + program);
  }
  double seconds = -1;
  while (Clock::now() - t0 < std::chrono::seconds(10)) {
    if (Pong(port)) {
      seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      break;
    }
    usleep(100);
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  if (seconds < 0) throw std::runtime_error(program + " never answered PING");
  return seconds;
}

void RegisterExecToPing(const std::string& label, const std::string& program, int port) {
  benchmark::RegisterBenchmark(("process_exec_to_ping/" + label).c_str(),
                               [program, port](benchmark::State& state) {
                                 Guarded(state, [&] {
                                   for (auto _ : state) {
                                     state.SetIterationTime(ExecToPing(program, port));
                                   }
                                 });
                               })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

}  // namespace

void RegisterStartupBenchmarks() {
  benchmark::RegisterBenchmark("node_start", NodeStart)->UseManualTime()->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("node_stop", NodeStop)->UseManualTime()->Unit(benchmark::kMicrosecond);
  RegisterExecToPing("redlab", REDLAB_SERVER_PATH, 17961);
  RegisterExecToPing("redis", "redis-server", 17962);
}

}  // namespace redlab::bench
