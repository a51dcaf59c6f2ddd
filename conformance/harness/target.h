// What the conformance suite runs against, chosen by REDLAB_TARGET:
//   embedded  redlab nodes started in this process (the default)
//   spawn     redlab-server processes
//   redis     real redis-server processes (Debian's 7.0), started on free ports and stopped
// Every test runs unchanged on each; a test that real Redis fails is a wrong test.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace redlab::conformance {

enum class Target { kEmbedded, kSpawn, kRedis };

Target CurrentTarget();
const char* TargetName(Target t);
inline bool IsRealRedis() { return CurrentTarget() == Target::kRedis; }

struct ServerOptions {
  std::string requirepass;
  // Further settings as Redis config names and values, applied at startup. A ("user", "alice on
  // >pw +@all") setting is a `user` directive, its words separated by spaces; it may repeat.
  std::vector<std::pair<std::string, std::string>> config;
  // A sentinel (redis-server sentinel.conf --sentinel): the ("sentinel", "monitor ...") entries
  // of `config` become the lines of the sentinel.conf it is started with.
  bool sentinel = false;
};

// A running server of the current target.
class Server {
 public:
  virtual ~Server() = default;
  virtual int port() const = 0;
  // Stops the server (SIGKILL for processes); idempotent.
  virtual void Stop() = 0;
  // Whether the server has exited (e.g. after SHUTDOWN); waits up to `timeout`.
  virtual bool WaitExited(std::chrono::milliseconds timeout) = 0;
};

// A server of the current target (REDLAB_TARGET).
std::unique_ptr<Server> StartServer(const ServerOptions& options = {});
// A server of a given target, whatever REDLAB_TARGET says (benchmarks run both side by side).
std::unique_ptr<Server> StartServerOf(Target target, const ServerOptions& options = {});

// A port no one listens on right now (for starting processes on it).
int FreePort();
// The first of `n` consecutive ports nobody has bound (redlab-server --port P --replicas N takes
// P..P+N), below the usual ephemeral range so outgoing connections do not take them meanwhile.
int ConsecutiveFreePorts(int n);

// Polls `condition` until it holds or `timeout` passes; returns the last result. For state that
// changes with time (expiry), where there is no event to wait on.
bool Eventually(const std::function<bool()>& condition,
                std::chrono::milliseconds timeout = std::chrono::seconds(5));

}  // namespace redlab::conformance
