// Shared by the libFuzzer targets (Redis has no counterpart): an engine with no network, its
// clock manual, and a helper that runs one command and drops the reply.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "server/engine/core/engine.h"
#include "server/replication/replication.h"

namespace redlab::fuzz {

using server::engine::Client;
using server::engine::Engine;
using server::engine::EngineHost;
using server::engine::ServerConfig;

// No sockets, no timers; `while_blocked` (if set) runs when a busy script lets other clients in.
class FuzzHost : public EngineHost {
 public:
  void RequestShutdown() override {}
  int TcpPort() const override { return 0; }
  void ProcessEventsWhileBlocked() override {
    if (while_blocked) while_blocked();
  }
  void ScheduleTimer(int64_t) override {}
  std::function<void()> while_blocked;
};

// An engine of its own per input, so that no state carries from one input to the next.
struct FuzzEngine {
  explicit FuzzEngine(const ServerConfig& config)
      : engine(config, &host, server::replication::MakeReplication) {
    engine.clock().SetManual();
    client = engine.CreateClient(nullptr);
    Run({"CONFIG", "SET", "save", ""});  // FLUSHALL would write dump.rdb each time
  }
  ~FuzzEngine() { engine.DestroyClient(client); }

  // Runs one command as `client` and returns its reply's bytes.
  std::string Run(std::vector<std::string> args) {
    engine.Execute(*client, args);
    std::string reply = std::move(client->reply_buffer());
    client->reply_buffer().clear();
    return reply;
  }

  FuzzHost host;
  Engine engine;
  Client* client = nullptr;
};

}  // namespace redlab::fuzz
