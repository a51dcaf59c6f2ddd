// What `redlab bench` runs against: redlab nodes started in this process (server/topology.h),
// real redis-server processes with the same topology (the conformance harness's, with a fault
// proxy on each replica link when faults are asked for), or any server given by URL. Also the
// setup each run needs first: AUTH/SELECT, SCRIPT LOAD or FUNCTION LOAD, and the faults.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace redlab::tools::bench {

struct TargetSpec {
  int replicas = 0;  // replicas of the master, synced before the run
  // FAULT arguments, e.g. {"REPL", "DELAY", "5"}, applied to the master before the run.
  std::vector<std::vector<std::string>> faults;
  // Settings for every node of both targets, as Redis config names and values.
  std::vector<std::pair<std::string, std::string>> config;
};

class Target {
 public:
  virtual ~Target() = default;
  const std::string& name() const { return name_; }
  const std::string& host() const { return host_; }
  int port() const { return port_; }
  const std::string& user() const { return user_; }
  const std::string& password() const { return password_; }
  int db() const { return db_; }
  // Applies the spec's faults. redlab: the master's FAULT (in process, or the FAULT command for
  // a server given by URL). Real Redis: the fault proxy's equivalent (REPL DELAY -> delay,
  // REPL PAUSE -> hold, REPL CUT -> cut); a fault with none throws std::runtime_error.
  virtual void ApplyFaults(const std::vector<std::vector<std::string>>& faults) = 0;

 protected:
  std::string name_, host_ = "127.0.0.1", user_, password_;
  int port_ = 0;
  int db_ = 0;
};

// Throw std::runtime_error when the servers cannot be started or do not sync.
std::unique_ptr<Target> StartRedlab(const TargetSpec& spec);
std::unique_ptr<Target> StartRedis(const TargetSpec& spec);
// A running server: redis://[[user]:password@]host[:port][/db]. Throws on a malformed URL.
std::unique_ptr<Target> ExistingServer(const std::string& url);

// Loads what the calls need on `target` over one connection, checking AUTH and SELECT on the
// way: a script (SCRIPT LOAD, returns its SHA1) or a function library (FUNCTION LOAD REPLACE,
// returns ""). Throws std::runtime_error with the server's error.
std::string LoadScript(const Target& target, const std::string& source);
void LoadFunctionLibrary(const Target& target, const std::string& source);
// Checks the connection and credentials (PING).
void CheckReachable(const Target& target);

// CPU pinning (--pin): the servers this process starts run on one CPU and the load generator on
// another, so neither takes the other's CPU time, and both targets get the same CPU. The first
// two CPUs this process may run on, or nothing when it may run on fewer than two.
struct PinnedCpus {
  int server = 0;
  int load = 1;
};
std::optional<PinnedCpus> CpusToPin();
// Binds the calling thread to `cpu`; the threads and processes it starts from then on inherit
// the binding. False when the kernel refuses.
bool PinCallingThread(int cpu);

}  // namespace redlab::tools::bench
