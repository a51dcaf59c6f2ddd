// A TCP proxy that injects the network's failures between two real processes — what redlab's
// FAULT REPL does inside a node, for real redis-server: put it on a replica's link to its master
// (the replica connects to the proxy, the proxy to the master) and delay, hold, release, cut or
// drop the link. It runs on its own thread; it is driven in process (this class) or through its
// control port, which speaks RESP so redis-cli works:
//
//   redis-cli -p <control> HOLD        # stop forwarding; bytes are kept, the link stays up
//   redis-cli -p <control> RELEASE     # forward what was held, in order
//   redis-cli -p <control> DELAY 200   # every byte arrives 200 ms later
//   redis-cli -p <control> CUT         # connections close; new ones are refused until HEAL
//   redis-cli -p <control> DROP        # connections close now (held bytes lost); new ones pass
//   redis-cli -p <control> RESET | STATUS | PING | HELP
//
// Holding beats SIGSTOP for reproducing the failover race: bytes already in the stopped
// process's socket buffers still arrive after SIGCONT, while held bytes never leave the proxy.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace redlab::tools {

struct ProxyOptions {
  std::string listen_host = "127.0.0.1";
  int listen_port = 0;  // 0: a free port (see FaultProxy::port())
  std::string target_host = "127.0.0.1";
  int target_port = 0;
  int control_port = -1;  // -1: no control port; 0: a free one
};

class FaultProxy {
 public:
  // Starts forwarding; throws std::runtime_error when a port cannot be bound.
  static std::unique_ptr<FaultProxy> Start(const ProxyOptions& options);
  ~FaultProxy();
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  int port() const;
  int control_port() const;

  // Each returns once the proxy applies it. Faults act on both directions.
  void Delay(int64_t ms, int64_t jitter_ms = 0);
  void Hold();
  void Release();
  void Cut();
  void Heal();
  void Drop();
  void Reset();  // no delay, released, healed
  // One line per setting and the number of live connections.
  std::string Status();
  void Stop();

  class Impl;

 private:
  explicit FaultProxy(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace redlab::tools
