// What the engine's unit tests share: an engine driven directly (no sockets, no host), one
// client, and a recorder of the effects it propagates.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "server/engine/core/engine.h"
#include "server/replication/replication.h"

namespace redlab::server::engine::testing {

using Args = std::vector<std::string>;

// Records each propagated effect's arguments, and the batches they came in.
class RecordingSink : public EffectSink {
 public:
  void OnEffects(std::span<const Effect> effects) override {
    batches.emplace_back(effects.begin(), effects.end());
    for (const Effect& e : effects) args.push_back(e.args);
  }
  std::vector<std::vector<Effect>> batches;
  std::vector<Args> args;
};

class EngineTest : public ::testing::Test {
 protected:
  EngineTest() : engine_(ServerConfig{}, nullptr, replication::MakeReplication) {
    engine_.propagation().set_sink(&sink_);
    client_ = engine_.CreateClient(nullptr);
  }

  // Runs a command as the test's client; returns its reply bytes.
  std::string Run(Args args) { return RunAs(client_, std::move(args)); }
  std::string RunAs(Client* client, Args args) {
    client->reply_buffer().clear();
    engine_.Execute(*client, args);
    return client->reply_buffer();
  }
  // Runs a command and returns what it propagated; *dirty gets what it added to server.dirty.
  std::vector<Args> Effects(Args args, uint64_t* dirty = nullptr) {
    sink_.args.clear();
    uint64_t before = engine_.stats().dirty();
    Run(std::move(args));
    if (dirty != nullptr) *dirty = engine_.stats().dirty() - before;
    return std::exchange(sink_.args, {});
  }
  // The effects recorded since the last call.
  std::vector<Args> TakeEffects() { return std::exchange(sink_.args, {}); }
  // Whether running the command breaks a WATCH on `key` (signalModifiedKey).
  bool Touches(std::string_view key, Args args) {
    if (watcher_ == nullptr) watcher_ = engine_.CreateClient(nullptr);
    engine_.signals().UnwatchAll(watcher_);
    watcher_->clear_dirty_cas();
    engine_.signals().Watch(watcher_, 0, key, /*expired=*/false);
    Run(std::move(args));
    return watcher_->dirty_cas();
  }
  int64_t Now() { return engine_.clock().NowMs(); }

  Engine engine_;
  RecordingSink sink_;
  Client* client_ = nullptr;
  Client* watcher_ = nullptr;
};

}  // namespace redlab::server::engine::testing
