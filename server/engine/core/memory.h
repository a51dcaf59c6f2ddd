// The node's memory: what it uses (INFO used_memory, peak, startup), maxmemory and eviction
// (Redis's evict.c) and the clients' output-buffer limits (networking.c's
// checkClientOutputBufferLimits, server.c's clientsCronTrackExpansiveClients). The engine owns
// one; eviction.cc and output_limits.cc define its work.
#pragma once

#include <cstddef>
#include <cstdint>

#include "server/engine/core/client.h"
#include "server/engine/core/client_registry.h"

namespace redlab::server::engine {

class Engine;

class Memory {
 public:
  // `clients`: the engine's, whose peak buffers TrackExpensiveClients records.
  Memory(Engine& engine, ClientRegistry& clients) : engine_(engine), clients_(clients) {}
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  // Bytes the node uses: what its thread allocated and has not freed (server/base/memory.h).
  size_t Used() const;
  size_t Peak() const { return peak_; }
  // What the node used once started, before any client (Redis's initial_memory_usage, INFO
  // used_memory_startup); the host marks it when the node is ready.
  void MarkStartup() { startup_ = Used(); }
  size_t Startup() const { return startup_; }

  // maxmemory: evicts keys by the configured policy until the node is under the limit; false
  // when it stays over it (noeviction, or nothing left to evict). Redis's performEvictions.
  bool EnforceMaxmemory();
  bool EvictUntilUnder();
  // CONFIG SET maxmemory: eviction starts at once, before any command arrives (Redis's
  // startEvictionTimeProc), at the end of the current loop iteration (RunPendingEviction).
  void StartEviction();
  // Engine::BeforeSleep: the eviction StartEviction asked for, unless a script is busy.
  void RunPendingEviction() {
    if (eviction_pending_) RunEviction();
  }

  // Whether a client with `pending` bytes of replies not yet sent has passed its class's
  // client-output-buffer-limit and must be disconnected (Redis's checkClientOutputBufferLimits,
  // with its log line when it is).
  bool OutputBufferLimitReached(Client& client, size_t pending);
  // Cron: every client's buffers for INFO's recent maxima, and those past a soft limit for too
  // long closed (clientsCronTrackExpansiveClients, closeClientOnOutputBufferLimitReached).
  void TrackExpensiveClients();

 private:
  void RunEviction();

  Engine& engine_;
  ClientRegistry& clients_;
  mutable size_t peak_ = 0;
  size_t startup_ = 0;
  bool eviction_pending_ = false;  // see StartEviction
};

}  // namespace redlab::server::engine
