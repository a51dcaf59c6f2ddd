// EVALSHA of the lock's acquire script (lua/lock_acquire.lua), against an in-process redlab node
// and a real redis-server side by side: one connection, one call at a time (latency), and 50
// connections each pipelining calls (throughput), each beside a PING measured the same way so
// the script's own cost stands out from the I/O's.
#include <hiredis/hiredis.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "bench/connection.h"
#include "bench/side_by_side.h"
#include "lua/scripts.h"

namespace redlab::bench {
namespace {

constexpr int kConnections = 50;
constexpr int kDepth = 16;  // calls in flight per connection in the throughput runs

// A command as owned strings and the argv/argvlen arrays hiredis takes. Neither copied nor
// moved: argv points into args (short strings live inside their std::string).
struct Command {
  explicit Command(std::vector<std::string> a) : args(std::move(a)) {
    for (const std::string& s : args) {
      argv.push_back(s.data());
      lens.push_back(s.size());
    }
  }
  Command(const Command&) = delete;
  Command& operator=(const Command&) = delete;
  void Append(redisContext* c) const {
    // hiredis only reads argv; its signature just lacks the const.
    redisAppendCommandArgv(c, static_cast<int>(argv.size()), const_cast<const char**>(argv.data()),
                           lens.data());
  }
  std::vector<std::string> args;
  std::vector<const char*> argv;
  std::vector<size_t> lens;
};

// SCRIPT LOAD of lock_acquire, then the EVALSHA call as redis-benchmark would send it.
Command AcquireCall(int port) {
  std::string text(lua::ScriptText("lock_acquire"));
  Connection c = Connect(port);
  auto* r =
      static_cast<redisReply*>(redisCommand(c.get(), "SCRIPT LOAD %b", text.data(), text.size()));
  if (r == nullptr || r->type != REDIS_REPLY_STRING) {
    if (r) freeReplyObject(r);
    throw std::runtime_error("SCRIPT LOAD failed");
  }
  std::string sha(r->str, r->len);
  freeReplyObject(r);
  return Command({"EVALSHA", sha, "1", "bench:lock", "30000", "bench-owner:1"});
}

void RoundTrip(benchmark::State& state, int port, const Command& cmd) {
  Connection c = Connect(port);
  for (auto _ : state) {
    cmd.Append(c.get());
    void* reply = nullptr;
    if (redisGetReply(c.get(), &reply) != REDIS_OK) throw std::runtime_error("connection lost");
    Check(reply);
  }
}

// Per iteration: kDepth calls written on each of kConnections connections, then every reply
// read; the server has all the connections busy at once.
void ManyPipelined(benchmark::State& state, int port, const Command& cmd) {
  std::vector<Connection> conns;
  for (int i = 0; i < kConnections; ++i) conns.push_back(Connect(port));
  for (auto _ : state) {
    for (Connection& c : conns) {
      for (int i = 0; i < kDepth; ++i) cmd.Append(c.get());
      int done = 0;
      while (!done) {
        if (redisBufferWrite(c.get(), &done) != REDIS_OK) throw std::runtime_error("write failed");
      }
    }
    for (Connection& c : conns) {
      for (int i = 0; i < kDepth; ++i) {
        void* reply = nullptr;
        if (redisGetReply(c.get(), &reply) != REDIS_OK) throw std::runtime_error("read failed");
        Check(reply);
      }
    }
  }
  state.SetItemsProcessed(state.iterations() * kConnections * kDepth);
}

}  // namespace

void RegisterScriptBenchmarks(const Servers& servers) {
  static const Command kPing({"PING"});
  RegisterSideBySide("evalsha_acquire_roundtrip", servers, [](benchmark::State& s, int port) {
    Guarded(s, [&] { RoundTrip(s, port, AcquireCall(port)); });
  });
  RegisterSideBySide("evalsha_acquire_50conn_pipelined", servers,
                     [](benchmark::State& s, int port) {
                       Guarded(s, [&] { ManyPipelined(s, port, AcquireCall(port)); });
                     });
  RegisterSideBySide("ping_50conn_pipelined", servers, [](benchmark::State& s, int port) {
    Guarded(s, [&] { ManyPipelined(s, port, kPing); });
  });
  RatioReporter::SetBaseline("evalsha_acquire_roundtrip", "ping_roundtrip");
  RatioReporter::SetBaseline("evalsha_acquire_50conn_pipelined", "ping_50conn_pipelined");
}

}  // namespace redlab::bench
