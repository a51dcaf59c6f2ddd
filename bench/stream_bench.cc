// redlab-bench: stream commands side by side with redis-server: XADD (with an approximate
// MAXLEN, so the stream stays bounded), and a consumer-group round of XADD, XREADGROUP and XACK.
#include <hiredis/hiredis.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "bench/connection.h"
#include "bench/side_by_side.h"

namespace redlab::bench {
namespace {

redisReply* Command(Connection& c, std::initializer_list<const char*> args) {
  std::vector<const char*> argv(args);
  return static_cast<redisReply*>(
      redisCommandArgv(c.get(), static_cast<int>(argv.size()), argv.data(), nullptr));
}

void XAdd(benchmark::State& state, int port) {
  Connection c = Connect(port);
  Check(Command(c, {"DEL", "bench:stream"}));
  for (auto _ : state) {
    Check(Command(c, {"XADD", "bench:stream", "MAXLEN", "~", "10000", "*", "field",
                      "value-of-some-length"}));
  }
}

// One message through a group: added, read by a consumer, acknowledged (three round trips).
void XReadGroupAck(benchmark::State& state, int port) {
  Connection c = Connect(port);
  Check(Command(c, {"DEL", "bench:cg"}));
  Check(Command(c, {"XGROUP", "CREATE", "bench:cg", "g", "$", "MKSTREAM"}));
  for (auto _ : state) {
    Check(Command(c, {"XADD", "bench:cg", "MAXLEN", "~", "10000", "*", "field", "value"}));
    redisReply* read =
        Command(c, {"XREADGROUP", "GROUP", "g", "worker", "COUNT", "1", "STREAMS", "bench:cg", ">"});
    if (read == nullptr || read->type != REDIS_REPLY_ARRAY || read->elements != 1) {
      throw std::runtime_error("XREADGROUP read nothing");
    }
    std::string id(read->element[0]->element[1]->element[0]->element[0]->str,
                   read->element[0]->element[1]->element[0]->element[0]->len);
    freeReplyObject(read);
    Check(Command(c, {"XACK", "bench:cg", "g", id.c_str()}));
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

void RegisterStreamBenchmarks(const Servers& servers) {
  RegisterSideBySide("xadd_roundtrip", servers, XAdd);
  RegisterSideBySide("xreadgroup_xack", servers, XReadGroupAck);
}

}  // namespace redlab::bench
