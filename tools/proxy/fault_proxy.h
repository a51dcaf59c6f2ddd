// A TCP proxy that injects the network's failures between two real processes — what redlab's
// FAULT REPL does inside a node, for real redis-server: put it on a replica's link to its master
// (the replica connects to the proxy, the proxy to the master) and delay, hold, release, cut or
// drop the link, or add toxiproxy's toxics to one direction of every connection or of one. It
// runs on its own thread; it is driven in process (this class) or through its control port,
// which speaks RESP so redis-cli works:
//
//   redis-cli -p <control> HOLD        # stop forwarding; bytes are kept (up to the buffer limit,
//                                      # then reading stops and the sender's TCP window fills)
//   redis-cli -p <control> RELEASE     # forward what was held, in order
//   redis-cli -p <control> DELAY 200   # every byte arrives 200 ms later (both directions)
//   redis-cli -p <control> CUT         # connections close; new ones are refused until HEAL
//   redis-cli -p <control> DROP        # connections close now (held bytes lost); new ones pass
//   redis-cli -p <control> TOXIC ADD downstream bandwidth rate 10 [CONN <id>]
//   redis-cli -p <control> TOXIC REMOVE downstream bandwidth [CONN <id>]
//   redis-cli -p <control> BUFFER <bytes> | RESET | STATUS | PING | HELP
//
// Holding beats SIGSTOP for reproducing the failover race: bytes already in the stopped
// process's socket buffers still arrive after SIGCONT, while held bytes never leave the proxy.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tools/proxy/toxics.h"

namespace redlab::tools {

struct ProxyOptions {
  // Host names are resolved (getaddrinfo); IPv6 addresses are written bare or in brackets.
  std::string listen_host = "127.0.0.1";
  int listen_port = 0;  // 0: a free port (see FaultProxy::port())
  std::string target_host = "127.0.0.1";
  int target_port = 0;
  int control_port = -1;  // -1: no control port; 0: a free one
  // Bytes one direction of a connection may hold (held, delayed or throttled, plus what its
  // receiver has not taken yet) before the proxy stops reading from the sender.
  size_t buffer_limit = 1 << 20;
};

class FaultProxy {
 public:
  // Starts forwarding; throws std::runtime_error when a name cannot be resolved or a port
  // cannot be bound.
  static std::unique_ptr<FaultProxy> Start(const ProxyOptions& options);
  ~FaultProxy();
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  int port() const;
  int control_port() const;

  // Each returns once the proxy applies it. These act on both directions of every connection.
  void Delay(int64_t ms, int64_t jitter_ms = 0);  // the latency toxic, both ways
  void Hold();
  void Release();
  void Cut();
  void Heal();
  void Drop();
  void Reset();  // no toxics, released, healed
  // The toxics of one direction, of every connection (conn 0) or of the connection `conn`
  // (whose own toxics win over the proxy-wide ones, type by type).
  void SetToxics(Direction direction, const Toxics& toxics, uint64_t conn = 0);
  // The ids of the live connections, oldest first (STATUS lists them too).
  std::vector<uint64_t> Connections();
  // Runs one control-port command (e.g. {"TOXIC", "ADD", ...}); returns its RESP reply.
  std::string Command(const std::vector<std::string>& args);
  // One line per setting, toxic and connection.
  std::string Status();
  void Stop();

  class Impl;

 private:
  explicit FaultProxy(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace redlab::tools
