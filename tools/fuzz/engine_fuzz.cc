// libFuzzer target: arbitrary bytes through the request parser and, for every request it
// yields, through the engine, as one connection's input would go. The engine must never crash,
// hang or leak on any input; replies are discarded.
//
//   cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DREDLAB_FUZZ=ON
//   cmake --build build-fuzz --target engine_fuzz && build-fuzz/bin/engine_fuzz -max_total_time=300
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "server/engine/core/engine.h"
#include "server/replication/replication.h"
#include "server/resp/parser.h"

namespace {

using redlab::server::engine::Client;
using redlab::server::engine::Engine;
using redlab::server::engine::EngineHost;
using redlab::server::engine::ServerConfig;

class FuzzHost : public EngineHost {
 public:
  void RequestShutdown() override {}
  int TcpPort() const override { return 0; }
  void ProcessEventsWhileBlocked() override {}
  void ScheduleTimer(int64_t) override {}
};

// Commands that stop the process or wait in real time are left out.
bool Skipped(const std::string& name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "debug" || lower == "shutdown";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static FuzzHost host;
  ServerConfig config;
  config.busy_reply_threshold = 0;
  Engine engine(config, &host, redlab::server::replication::MakeReplication);
  engine.clock().SetManual();
  Client* client = engine.CreateClient(nullptr);
  redlab::server::resp::RequestParser parser;
  redlab::server::resp::ArgList args;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  while (!input.empty()) {
    size_t consumed = 0;
    auto status = parser.Parse(input, {}, &consumed, &args);
    input.remove_prefix(consumed);
    if (status != redlab::server::resp::ParseStatus::kCommand) break;
    if (args.empty() || Skipped(args[0])) continue;
    engine.Execute(*client, args.span());
    client->reply_buffer().clear();
    if (client->blocked() || engine.blocking().paused()) {
      engine.clock().Advance(24LL * 3600 * 1000);  // let WAIT and CLIENT PAUSE run out
      engine.OnTimer();
      engine.blocking().Unpause();
      // A pop blocked without a timeout waits for a push that no one else will make.
      if (client->blocked()) engine.blocking().UnblockById(client->id(), /*with_error=*/false);
    }
    if (client->close_after_reply()) break;
  }
  engine.DestroyClient(client);
  return 0;
}
