// Scripting with the node's real commands: conversions of their replies in RESP2 and RESP3, a
// script's single instant for key expiry, and scripts in the style of the lock family (Redisson's
// acquire / release).
#include "conformance/scripting_util.h"

namespace redlab::conformance {
namespace {

class ScriptingCommandsTest : public ConformanceTest {
 protected:
  Reply Eval(std::string_view body, std::vector<std::string> keys_and_args = {}, int numkeys = 0) {
    std::vector<std::string> args = {"EVAL", std::string(body), std::to_string(numkeys)};
    args.insert(args.end(), keys_and_args.begin(), keys_and_args.end());
    return c().Call(args);
  }
};

TEST_F(ScriptingCommandsTest, RepliesOfCommandsInLua) {
  c()({"SET", "x", "0"});
  EXPECT_EQ(Eval("local v = redis.pcall('incr', KEYS[1]) return {type(v), v}", {"x"}, 1),
            Array({Bulk("number"), Int(1)}));
  c()({"SET", "s", "abc"});
  EXPECT_EQ(Eval("local v = redis.pcall('incr', KEYS[1]) return {type(v), v['err']}", {"s"}, 1),
            Array({Bulk("table"), Bulk("ERR value is not an integer or out of range")}));
  c()({"RPUSH", "l", "a", "b", "c"});
  EXPECT_EQ(Eval("local v = redis.call('lrange', KEYS[1], 0, -1) return {type(v), v[1], v[3], #v}",
                 {"l"}, 1),
            Array({Bulk("table"), Bulk("a"), Bulk("c"), Int(3)}));
  EXPECT_EQ(Eval("return redis.call('lrange', KEYS[1], 0, -1)", {"l"}, 1),
            Array({Bulk("a"), Bulk("b"), Bulk("c")}));
  EXPECT_EQ(
      Eval("return {type(redis.call('lpop', 'nolist')), tostring(redis.call('lpop', 'nolist'))}"),
      Array({Bulk("boolean"), Bulk("false")}));
}

TEST_F(ScriptingCommandsTest, Resp3RepliesOfCommands) {
  c()({"HSET", "h", "field", "value"});
  c()({"SADD", "st", "m"});
  // A RESP3 client gets a map back from a RESP3 script, a flat array from a RESP2 one.
  c()({"HELLO", "3"});
  EXPECT_EQ(c().Raw({"EVAL", "redis.setresp(3) return redis.call('hgetall', KEYS[1])", "1", "h"}),
            "%1\r\n$5\r\nfield\r\n$5\r\nvalue\r\n");
  EXPECT_EQ(c().Raw({"EVAL", "redis.setresp(2) return redis.call('hgetall', KEYS[1])", "1", "h"}),
            "*2\r\n$5\r\nfield\r\n$5\r\nvalue\r\n");
  EXPECT_EQ(c().Raw({"EVAL", "redis.setresp(3) return redis.call('smembers', KEYS[1])", "1", "st"}),
            "~1\r\n$1\r\nm\r\n");
  EXPECT_EQ(c().Raw({"EVAL", "redis.setresp(3) return redis.call('get', 'nokey')", "0"}), "_\r\n");
  c()({"HELLO", "2"});
  EXPECT_EQ(c().Raw({"EVAL", "redis.setresp(3) return redis.call('hgetall', KEYS[1])", "1", "h"}),
            "*2\r\n$5\r\nfield\r\n$5\r\nvalue\r\n");
  EXPECT_EQ(Eval("redis.setresp(3) local m = redis.call('hgetall', KEYS[1]).map return m.field",
                 {"h"}, 1),
            Bulk("value"));
  EXPECT_EQ(
      Eval("redis.setresp(3) local s = redis.call('smembers', KEYS[1]).set return tostring(s.m)",
           {"st"}, 1),
      Bulk("true"));
  EXPECT_EQ(Eval("redis.setresp(3) return redis.call('smembers', KEYS[1])", {"st"}, 1),
            Array({Bulk("m")}));
}

TEST_F(ScriptingCommandsTest, DecrIfGreaterThan) {
  const std::string script =
      "local current = redis.call('get', KEYS[1])\n"
      "if not current then return nil end\n"
      "if current > ARGV[1] then return redis.call('decr', KEYS[1]) end\n"
      "return redis.call('get', KEYS[1])";
  c()({"SET", "foo", "5"});
  std::vector<Reply> results;
  for (int i = 0; i < 5; ++i) results.push_back(Eval(script, {"foo", "2"}, 1));
  EXPECT_EQ(results, (std::vector<Reply>{Int(4), Int(3), Int(2), Bulk("2"), Bulk("2")}));
}

TEST_F(ScriptingCommandsTest, KeysExpireByTheScriptsInstant) {
  // A key that expires while the script runs is still there for the script; it is gone after.
  EXPECT_EQ(Eval("redis.call('set', KEYS[1], 'v', 'px', 1)\n"
                 "local t0 = redis.call('time')\n"
                 "local now\n"
                 "repeat now = redis.call('time') until (now[1] - t0[1]) * 1000000 + (now[2] - "
                 "t0[2]) > 5000\n"
                 "return {redis.call('get', KEYS[1]), redis.call('exists', KEYS[1])}",
                 {"k"}, 1),
            Array({Bulk("v"), Int(1)}));
  EXPECT_EQ(c()({"GET", "k"}), Nil());
}

TEST_F(ScriptingCommandsTest, LockScripts) {
  // Redisson's RLock acquire and release, as a lock client sends them.
  const std::string acquire =
      "if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) "
      "then "
      "redis.call('hincrby', KEYS[1], ARGV[2], 1); "
      "redis.call('pexpire', KEYS[1], ARGV[1]); "
      "return nil; "
      "end; "
      "return redis.call('pttl', KEYS[1]);";
  const std::string release =
      "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil; end; "
      "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); "
      "if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0; "
      "else redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], ARGV[1]); return 1; end; "
      "return nil;";
  EXPECT_EQ(Eval(acquire, {"lock", "30000", "uuid:1"}, 1), Nil());
  EXPECT_EQ(Eval(acquire, {"lock", "30000", "uuid:1"}, 1), Nil());  // re-entrant
  Reply held = Eval(acquire, {"lock", "30000", "uuid:2"}, 1);
  ASSERT_EQ(held.type, Reply::Type::kInteger);
  EXPECT_GT(held.integer, 29000);
  EXPECT_LE(held.integer, 30000);
  EXPECT_EQ(c()({"HGET", "lock", "uuid:1"}), Bulk("2"));
  const std::string channel = "redisson_lock__channel:{lock}";
  EXPECT_EQ(Eval(release, {"lock", channel, "0", "30000", "uuid:2"}, 2), Nil());
  EXPECT_EQ(Eval(release, {"lock", channel, "0", "30000", "uuid:1"}, 2), Int(0));
  EXPECT_EQ(Eval(release, {"lock", channel, "0", "30000", "uuid:1"}, 2), Int(1));
  EXPECT_EQ(c()({"EXISTS", "lock"}), Int(0));
}

}  // namespace
}  // namespace redlab::conformance
