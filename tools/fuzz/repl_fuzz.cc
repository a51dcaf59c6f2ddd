// libFuzzer target for Redis's replica side of replication (replication.c syncWithMaster,
// readSyncBulkPayload, and the master client's stream as processInputBuffer reads it): what a
// master sends a replica. With the first byte even, the harness plays a good handshake
// (+PONG, +OK, +OK, +CONTINUE) and the input is the command stream the master propagates; odd,
// the input is everything the master says from its first reply on (handshake, +FULLRESYNC, the
// RDB payload and the stream). Bytes arrive in two reads, split where the input says.
//
//   build-fuzz/bin/repl_fuzz tools/fuzz/corpus/repl -max_total_time=300
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tools/fuzz/fuzz_support.h"

namespace {

namespace replication = redlab::server::replication;

// The link to the "master": what the replica writes is dropped.
class FakeLink : public replication::LinkIo {
 public:
  void Write(std::string_view) override {}
  void Close() override { closed = true; }
  bool closed = false;
};

class FakeNetwork : public replication::ReplicationHost {
 public:
  replication::LinkIo* ConnectToMaster(const std::string&, int,
                                       replication::LinkHandler* h) override {
    handler = h;
    link = FakeLink();
    return &link;
  }
  void ScheduleReplicationTimer(int64_t) override {}
  replication::LinkHandler* handler = nullptr;
  FakeLink link;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  // One engine serves every input (a replica again each time); its data is flushed after each.
  static redlab::fuzz::FuzzEngine f{redlab::fuzz::ServerConfig()};
  auto* repl = dynamic_cast<replication::Replication*>(&f.engine.replication());
  if (repl == nullptr) return 0;
  FakeNetwork network;
  repl->set_host(&network);
  f.Run({"REPLICAOF", "127.0.0.1", "1"});
  if (network.handler == nullptr) return 0;
  network.handler->OnLinkConnected();
  std::string input;
  if ((data[0] & 1) == 0) input = "+PONG\r\n+OK\r\n+OK\r\n+CONTINUE\r\n";
  input.append(reinterpret_cast<const char*>(data) + 2, size - 2);
  size_t split = std::min<size_t>(data[1], input.size());
  std::string_view all(input);
  network.handler->OnLinkData(all.substr(0, split));
  if (!network.link.closed) network.handler->OnLinkData(all.substr(split));
  f.Run({"REPLICAOF", "NO", "ONE"});
  repl->set_host(nullptr);
  f.Run({"FLUSHALL"});
  f.Run({"SCRIPT", "FLUSH"});
  f.Run({"FUNCTION", "FLUSH"});
  return 0;
}
