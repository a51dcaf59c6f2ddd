// libFuzzer target for Redis's Lua bridge (script_lua.c, eval.c, function_lua.c): scripts run by
// EVAL with every redis.* API and library reachable, and their replies converted both ways
// (redis.call's RESP2/RESP3 replies into Lua values, the script's return value into a reply).
// The first byte chooses RESP3 (bit 0) and FUNCTION LOAD of the body as a library (bit 1); the
// rest is the script. A script busy for more than 10 ms is killed (SCRIPT KILL, or SHUTDOWN
// NOSAVE once it has written), as a client would stop it. One engine serves every input; its
// data, protocol and library are reset after each, its script cache every 1000 inputs.
//
//   build-fuzz/bin/lua_fuzz tools/fuzz/corpus/lua -max_total_time=300
#include <cstddef>
#include <cstdint>
#include <string>

#include "tools/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  static redlab::fuzz::FuzzEngine f{[] {
    redlab::fuzz::ServerConfig config;
    config.busy_reply_threshold = 10;
    return config;
  }()};
  static redlab::fuzz::Client* killer = f.engine.CreateClient(nullptr);
  f.host.while_blocked = [&] {
    std::vector<std::string> kill = {"SCRIPT", "KILL"};
    if (f.engine.script_busy()) f.engine.Execute(*killer, kill);
    if (killer->reply_buffer().rfind("-UNKILLABLE", 0) == 0 ||
        killer->reply_buffer().rfind("-NOTBUSY", 0) == 0) {
      std::vector<std::string> fkill = {"FUNCTION", "KILL"};
      f.engine.Execute(*killer, fkill);
    }
    if (killer->reply_buffer().rfind("-UNKILLABLE", 0) == 0) {
      std::vector<std::string> shutdown = {"SHUTDOWN", "NOSAVE"};
      f.engine.Execute(*killer, shutdown);
    }
    killer->reply_buffer().clear();
  };
  f.Run({"HELLO", "2"});
  f.Run({"FLUSHALL"});
  // SCRIPT FLUSH makes a new Lua state, which costs more than most runs: the cache of scripts
  // is emptied every 1000 inputs only.
  static int runs = 0;
  if (++runs % 1000 == 0) f.Run({"SCRIPT", "FLUSH"});
  // Values of every type for redis.call to read.
  f.Run({"SET", "s", "1"});
  f.Run({"HSET", "h", "f", "v", "n", "1.5"});
  f.Run({"RPUSH", "l", "a", "b"});
  f.Run({"SADD", "set", "x", "y"});
  f.Run({"ZADD", "z", "1", "a", "2.5", "b"});
  f.Run({"XADD", "x", "1-1", "f", "v"});
  if ((data[0] & 1) != 0) f.Run({"HELLO", "3"});
  std::string body(reinterpret_cast<const char*>(data) + 1, size - 1);
  if ((data[0] & 2) != 0) {
    f.Run({"FUNCTION", "LOAD", "REPLACE", "#!lua name=fuzz\n" + body});
    f.Run({"FCALL", "f", "1", "k", "a", "1"});
    f.Run({"FUNCTION", "DELETE", "fuzz"});
  } else {
    f.Run({"EVAL", body, "1", "k", "a", "1"});
  }
  return 0;
}
