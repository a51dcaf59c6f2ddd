// The interpreter on its own, through its host callback (no engine, no sockets): conversions in
// both directions, Redis's error formats, the sandbox, math.random and the interrupt hook.
#include "server/scripting/interpreter.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "server/scripting/sha1hex.h"

namespace redlab::server::scripting {
namespace {

// Answers redis.call with canned RESP replies by command name, and records what it was asked.
class FakeHost : public ScriptHost {
 public:
  bool Call(std::span<std::string> args, int resp, std::string* reply,
            std::string* error) override {
    calls.emplace_back(args.begin(), args.end());
    resps.push_back(resp);
    auto it = replies.find(args[0]);
    if (it == replies.end()) {
      *error = "Unknown Redis command called from script";
      return false;
    }
    *reply = it->second;
    return true;
  }
  std::optional<bool> AclCheckCommand(std::span<const std::string> args) override {
    if (replies.count(args[0]) == 0) return std::nullopt;
    return denied.count(args[0]) == 0;
  }
  bool Interrupt() override {
    ++interrupts;
    return on_interrupt ? on_interrupt() : false;
  }
  void SetRepl(int flags) override { repl = flags; }
  void Log(int level, std::string_view message) override {
    logs.push_back(std::to_string(level) + " " + std::string(message));
  }

  std::map<std::string, std::string> replies;
  std::set<std::string> denied;  // commands acl_check_cmd refuses
  std::vector<std::vector<std::string>> calls;
  std::vector<int> resps;
  std::vector<std::string> logs;
  std::function<bool()> on_interrupt;
  int interrupts = 0;
  int repl = -1;
};

class InterpreterTest : public ::testing::Test {
 protected:
  // Runs `body` as EVAL would, returning the reply bytes in `protocol`.
  std::string Eval(std::string_view body, std::vector<std::string> keys = {},
                   std::vector<std::string> args = {}, int protocol = 2, bool hook = false) {
    std::string sha = Sha1Hex(body);
    std::string name = "f_" + sha;
    std::string out;
    resp::ReplyWriter writer(&out, protocol);
    if (!interpreter_.Defined(name)) {
      std::string error;
      if (!interpreter_.Define(name, body, &error)) {
        writer.Error(error);
        return out;
      }
    }
    interpreter_.Execute(
        {.function = name, .sha = sha, .keys = keys, .args = args, .interrupt_hook = hook}, host_,
        writer);
    return out;
  }
  // The error line of a failed script, without the " script: <sha>, on ..." suffix.
  std::string ErrorOf(std::string_view body, bool hook = false) {
    std::string reply = Eval(body, {}, {}, 2, hook);
    size_t suffix = reply.find(" script: ");
    return suffix == std::string::npos ? reply : reply.substr(0, suffix);
  }

  Interpreter interpreter_;
  FakeHost host_;
};

TEST_F(InterpreterTest, LuaValuesToResp2) {
  EXPECT_EQ(Eval("return 'hello'"), "$5\r\nhello\r\n");
  EXPECT_EQ(Eval("return 3.99"), ":3\r\n");
  EXPECT_EQ(Eval("return -3.99"), ":-3\r\n");
  EXPECT_EQ(Eval("return 1e20"), ":-9223372036854775808\r\n");
  EXPECT_EQ(Eval("return 0/0"), ":-9223372036854775808\r\n");
  EXPECT_EQ(Eval("return true"), ":1\r\n");
  EXPECT_EQ(Eval("return false"), "$-1\r\n");
  EXPECT_EQ(Eval("return nil"), "$-1\r\n");
  EXPECT_EQ(Eval("return {1, 'a', {2}, nil, 3}"), "*3\r\n:1\r\n$1\r\na\r\n*1\r\n:2\r\n");
  EXPECT_EQ(Eval("return {ok='fine'}"), "+fine\r\n");
  EXPECT_EQ(Eval("return {ok='a\\r\\nb'}"), "+a  b\r\n");
  EXPECT_EQ(Eval("return {err='MY fault'}"), "-MY fault\r\n");
  EXPECT_EQ(Eval("return {err=''}"), "-\r\n");
  EXPECT_EQ(Eval("return {err=1}"), "*0\r\n");
  EXPECT_EQ(Eval("return {double=1.5}"), "$3\r\n1.5\r\n");
  EXPECT_EQ(Eval("return {map={a=1}}"), "*2\r\n$1\r\na\r\n:1\r\n");
  EXPECT_EQ(Eval("return {set={a=true}}"), "*1\r\n$1\r\na\r\n");
  EXPECT_EQ(Eval("return {big_number='123'}"), "$3\r\n123\r\n");
  EXPECT_EQ(Eval("return {verbatim_string={format='txt', string='hi'}}"), "$2\r\nhi\r\n");
  EXPECT_EQ(Eval("return function() end"), "$-1\r\n");
}

TEST_F(InterpreterTest, LuaValuesToResp3) {
  EXPECT_EQ(Eval("return false", {}, {}, 3), "_\r\n");
  EXPECT_EQ(Eval("redis.setresp(3) return false", {}, {}, 3), "#f\r\n");
  EXPECT_EQ(Eval("redis.setresp(3) return true", {}, {}, 2), ":1\r\n");
  EXPECT_EQ(Eval("redis.setresp(3) return false", {}, {}, 2), ":0\r\n");
  EXPECT_EQ(Eval("return {double=1.5}", {}, {}, 3), ",1.5\r\n");
  EXPECT_EQ(Eval("return {map={a=1}}", {}, {}, 3), "%1\r\n$1\r\na\r\n:1\r\n");
  EXPECT_EQ(Eval("return {set={a=true}}", {}, {}, 3), "~1\r\n$1\r\na\r\n");
  EXPECT_EQ(Eval("return {big_number='123'}", {}, {}, 3), "(123\r\n");
  EXPECT_EQ(Eval("return {verbatim_string={format='txt', string='hi'}}", {}, {}, 3),
            "=6\r\ntxt:hi\r\n");
  EXPECT_EQ(Eval("return nil", {}, {}, 3), "_\r\n");
}

TEST_F(InterpreterTest, KeysAndArgv) {
  EXPECT_EQ(Eval("return {KEYS[1], KEYS[2], ARGV[1], #KEYS, #ARGV}", {"k1", "k2"}, {"a1"}),
            "*5\r\n$2\r\nk1\r\n$2\r\nk2\r\n$2\r\na1\r\n:2\r\n:1\r\n");
  EXPECT_EQ(Eval("return #KEYS + #ARGV"), ":0\r\n");
}

TEST_F(InterpreterTest, RespRepliesToLua) {
  host_.replies["int"] = ":-42\r\n";
  host_.replies["bulk"] = "$3\r\nabc\r\n";
  host_.replies["nullbulk"] = "$-1\r\n";
  host_.replies["nullarray"] = "*-1\r\n";
  host_.replies["status"] = "+OK\r\n";
  host_.replies["array"] = "*3\r\n:1\r\n$-1\r\n*1\r\n+x\r\n";
  EXPECT_EQ(Eval("return redis.call('int')"), ":-42\r\n");
  EXPECT_EQ(Eval("return type(redis.call('int'))"), "$6\r\nnumber\r\n");
  EXPECT_EQ(Eval("return redis.call('bulk')"), "$3\r\nabc\r\n");
  EXPECT_EQ(Eval("return tostring(redis.call('nullbulk'))"), "$5\r\nfalse\r\n");
  EXPECT_EQ(Eval("return tostring(redis.call('nullarray'))"), "$5\r\nfalse\r\n");
  EXPECT_EQ(Eval("return redis.call('status').ok"), "$2\r\nOK\r\n");
  EXPECT_EQ(Eval("local t = redis.call('array') return {#t, t[1], tostring(t[2]), t[3][1].ok}"),
            "*4\r\n:3\r\n:1\r\n$5\r\nfalse\r\n$1\r\nx\r\n");
}

TEST_F(InterpreterTest, Resp3RepliesToLua) {
  host_.replies["map"] = "%2\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n#t\r\n";
  host_.replies["set"] = "~2\r\n$1\r\nx\r\n$1\r\ny\r\n";
  host_.replies["double"] = ",3.25\r\n";
  host_.replies["inf"] = ",inf\r\n";
  host_.replies["null"] = "_\r\n";
  host_.replies["bool"] = "#f\r\n";
  host_.replies["big"] = "(12345678901234567890\r\n";
  host_.replies["verbatim"] = "=8\r\ntxt:abcd\r\n";
  host_.replies["attr"] = "|1\r\n+key\r\n:1\r\n$2\r\nok\r\n";
  EXPECT_EQ(Eval("local m = redis.call('map').map return {m.a, tostring(m.b)}"),
            "*2\r\n:1\r\n$4\r\ntrue\r\n");
  EXPECT_EQ(Eval("local s = redis.call('set').set return {tostring(s.x), tostring(s.y)}"),
            "*2\r\n$4\r\ntrue\r\n$4\r\ntrue\r\n");
  EXPECT_EQ(Eval("return tostring(redis.call('double').double)"), "$4\r\n3.25\r\n");
  EXPECT_EQ(Eval("return redis.call('double')", {}, {}, 3), ",3.25\r\n");
  EXPECT_EQ(Eval("return redis.call('inf')", {}, {}, 2), "$3\r\ninf\r\n");
  EXPECT_EQ(Eval("return tostring(redis.call('null'))"), "$3\r\nnil\r\n");
  EXPECT_EQ(Eval("return tostring(redis.call('bool'))"), "$5\r\nfalse\r\n");
  EXPECT_EQ(Eval("return redis.call('big').big_number"), "$20\r\n12345678901234567890\r\n");
  EXPECT_EQ(Eval("local v = redis.call('verbatim').verbatim_string return {v.format, v.string}"),
            "*2\r\n$3\r\ntxt\r\n$4\r\nabcd\r\n");
  EXPECT_EQ(Eval("return redis.call('attr')"), "$2\r\nok\r\n");
  // A map reply round-trips as a map.
  EXPECT_EQ(Eval("redis.setresp(3) return redis.call('map')", {}, {}, 3),
            "%2\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n#t\r\n");
}

TEST_F(InterpreterTest, CallArgumentsAndProtocol) {
  host_.replies["set"] = "+OK\r\n";
  Eval("redis.call('set', 'k', 3.5, 10, 0.1, 1/0)");
  ASSERT_EQ(host_.calls.size(), 1u);
  EXPECT_EQ(host_.calls[0],
            (std::vector<std::string>{"set", "k", "3.5", "10", "0.10000000000000001", "inf"}));
  EXPECT_EQ(host_.resps[0], 2);
  Eval("redis.call('set', -0.0)");
  EXPECT_EQ(host_.calls[1], (std::vector<std::string>{"set", "-0"}));
  Eval("redis.setresp(3) redis.call('set')");
  EXPECT_EQ(host_.resps[2], 3);
  // Every run starts with RESP2 again.
  Eval("redis.call('set')");
  EXPECT_EQ(host_.resps[3], 2);
}

TEST_F(InterpreterTest, CallErrors) {
  host_.replies["fail"] = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
  EXPECT_EQ(ErrorOf("redis.call('nosuch')"), "-ERR Unknown Redis command called from script");
  EXPECT_EQ(Eval("return redis.pcall('nosuch')"),
            "-ERR Unknown Redis command called from script\r\n");
  EXPECT_EQ(ErrorOf("return redis.call('fail')"),
            "-WRONGTYPE Operation against a key holding the wrong kind of value");
  EXPECT_EQ(Eval("return redis.pcall('fail')"),
            "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
  EXPECT_EQ(ErrorOf("redis.call()"),
            "-ERR Please specify at least one argument for this redis lib call");
  EXPECT_EQ(ErrorOf("redis.call('get', {})"),
            "-ERR Lua redis lib command arguments must be strings or integers");
  EXPECT_EQ(
      Eval("local e = redis.pcall('nosuch') return {e.err, tostring(e.ignore_error_stats_update)}"),
      "*2\r\n$44\r\nERR Unknown Redis command called from script\r\n$4\r\ntrue\r\n");
  EXPECT_EQ(
      Eval("local ok, e = pcall(function() redis.call('nosuch') end) return {tostring(ok), e}"),
      "*2\r\n$5\r\nfalse\r\n$44\r\nERR Unknown Redis command called from script\r\n");
}

TEST_F(InterpreterTest, ScriptErrorFormats) {
  std::string sha = Sha1Hex("error('boom')");
  EXPECT_EQ(Eval("error('boom')"),
            "-ERR user_script:1: boom script: " + sha + ", on @user_script:1.\r\n");
  EXPECT_EQ(ErrorOf("error({err='X boom'})"), "-X boom");
  EXPECT_EQ(ErrorOf("error(nil)"), "-ERR nil");
  EXPECT_EQ(ErrorOf("error('x', 0)"), "-ERR x");
  EXPECT_EQ(ErrorOf("error('a\\nb')"), "-ERR user_script:1: a b");
  EXPECT_EQ(ErrorOf("\n\nerror('line three')"), "-ERR user_script:3: line three");
  std::string compile = Eval("return 'x' +");
  EXPECT_EQ(compile,
            "-ERR Error compiling script (new function): user_script:1: unexpected symbol near "
            "'<eof>'\r\n");
  EXPECT_EQ(Eval("return redis.error_reply('My err')"), "-My err\r\n");
  EXPECT_EQ(Eval("return redis.error_reply('-MY err')"), "-MY err\r\n");
  EXPECT_EQ(Eval("return redis.error_reply('')"), "-ERR \r\n");
  EXPECT_EQ(Eval("return redis.error_reply(1)"), "-ERR wrong number or type of arguments\r\n");
  EXPECT_EQ(Eval("return redis.status_reply('fine')"), "+fine\r\n");
}

TEST_F(InterpreterTest, FailingMetamethodsWhileReplying) {
  // Redis crashes reading these values; redlab answers an error instead.
  std::string body = "error(setmetatable({}, {__index = function() error('inner') end}))";
  EXPECT_EQ(Eval(body),
            "-ERR Error running script " + Sha1Hex(body) + ", user_script:1: inner\r\n");
  body = "return {1, setmetatable({err='x'}, {__index = function() error('bad') end})}";
  EXPECT_EQ(Eval(body), "-ERR Error running script " + Sha1Hex(body) + ", user_script:1: bad\r\n");
  // The interpreter is still fine afterwards.
  EXPECT_EQ(Eval("return 1"), ":1\r\n");
}

TEST_F(InterpreterTest, GlobalsAreProtected) {
  EXPECT_EQ(ErrorOf("x = 1"), "-ERR user_script:1: Attempt to modify a readonly table");
  EXPECT_EQ(ErrorOf("return x"),
            "-ERR user_script:1: Script attempted to access nonexistent global variable 'x'");
  EXPECT_EQ(ErrorOf("print('hi')"),
            "-ERR user_script:1: Script attempted to access nonexistent global variable 'print'");
  for (const char* name : {"dofile", "loadfile", "getfenv", "setfenv", "newproxy", "debug"}) {
    EXPECT_EQ(ErrorOf(std::string("return ") + name),
              std::string(
                  "-ERR user_script:1: Script attempted to access nonexistent global variable '") +
                  name + "'");
  }
  EXPECT_EQ(ErrorOf("rawset(_G, 'x', 1)"), "-ERR Attempt to modify a readonly table");
  EXPECT_EQ(ErrorOf("setmetatable(_G, {})"), "-ERR Attempt to modify a readonly table");
  EXPECT_EQ(ErrorOf("redis.call = function() end"),
            "-ERR user_script:1: Attempt to modify a readonly table");
  EXPECT_EQ(ErrorOf("string.len = nil"), "-ERR user_script:1: Attempt to modify a readonly table");
  EXPECT_EQ(ErrorOf("local s = cjson s.encode = nil"),
            "-ERR user_script:1: Attempt to modify a readonly table");
  EXPECT_EQ(ErrorOf("getmetatable(_G).__index = nil"),
            "-ERR user_script:1: Attempt to modify a readonly table");
  EXPECT_EQ(ErrorOf("getmetatable('').__index = nil"),
            "-ERR user_script:1: Attempt to modify a readonly table");
  EXPECT_EQ(ErrorOf("table.insert(string, 1)"), "-ERR Attempt to modify a readonly table");
  EXPECT_EQ(ErrorOf("_G = {}"), "-ERR user_script:1: Attempt to modify a readonly table");
  EXPECT_EQ(ErrorOf("KEYS = {}"), "-ERR user_script:1: Attempt to modify a readonly table");
  EXPECT_EQ(ErrorOf("loadstring('y = 1')()"),
            "-ERR [string \"y = 1\"]:1: Attempt to modify a readonly table");
  // Reads see through the protection.
  EXPECT_EQ(Eval("return {rawget(_G, 'string') == string, getmetatable('').__index == string,"
                 " type(getmetatable(_G).__index), ('abc'):len(), rawget(string, 'len') ~= nil}"),
            "*5\r\n:1\r\n:1\r\n$8\r\nfunction\r\n:3\r\n:1\r\n");
  EXPECT_EQ(Eval("local n = 0 for k, v in pairs(_G) do n = n + 1 end return n > 20"), ":1\r\n");
  EXPECT_EQ(Eval("local n = 0 for k, v in pairs(string) do n = n + 1 end return n"), ":15\r\n");
  // KEYS and ARGV are the script's own.
  EXPECT_EQ(Eval("KEYS[1] = 'z' table.insert(ARGV, 'q') return {KEYS[1], ARGV[1]}"),
            "*2\r\n$1\r\nz\r\n$1\r\nq\r\n");
  // Nothing a script did leaks into the next one.
  EXPECT_EQ(Eval("return tostring(rawget(string, 1))"), "$3\r\nnil\r\n");
}

TEST_F(InterpreterTest, GlobalNames) {
  EXPECT_EQ(
      Eval("local r = {} for k in pairs(_G) do r[#r + 1] = k end table.sort(r)"
           " return table.concat(r, ' ')"),
      "$271\r\nARGV KEYS _G _VERSION __redis__err__handler assert bit cjson cmsgpack "
      "collectgarbage "
      "coroutine error gcinfo getmetatable ipairs load loadstring math next pairs pcall rawequal "
      "rawget rawset redis select setmetatable string struct table tonumber tostring type unpack "
      "xpcall\r\n");
}

TEST_F(InterpreterTest, BytecodeIsRefused) {
  EXPECT_EQ(
      Eval("local f, e = loadstring(string.dump(function() return 1 end)) return {tostring(f), e}"),
      "*2\r\n$3\r\nnil\r\n$53\r\n[string \"\x1bLuaQ\"]:1: unexpected symbol near 'char(27)'\r\n");
  EXPECT_EQ(Eval("return loadstring('return 7')()"), ":7\r\n");
  EXPECT_EQ(Eval("local done = false return load(function() if done then return nil end done = true"
                 " return 'return 8' end)()"),
            ":8\r\n");
}

TEST_F(InterpreterTest, MathRandomIsRedisRand48) {
  // Redis 7.0's first values after start (its PRNG is never reseeded between scripts).
  EXPECT_EQ(Eval("return {tostring(math.random()), tostring(math.random())}"),
            "*2\r\n$16\r\n0.39646477363839\r\n$16\r\n0.84048536971234\r\n");
  EXPECT_EQ(Eval("return {tostring(math.random()), math.random(10), math.random(5, 7)}"),
            "*3\r\n$16\r\n0.35333609737146\r\n:5\r\n:5\r\n");
  EXPECT_EQ(Eval("math.randomseed(42) return {tostring(math.random()), math.random(100)}"),
            "*2\r\n$16\r\n0.74452500033403\r\n:35\r\n");
  EXPECT_EQ(ErrorOf("math.random(0)"),
            "-ERR user_script:1: bad argument #1 to 'random' (interval is empty)");
  EXPECT_EQ(ErrorOf("math.random(1, 2, 3)"), "-ERR user_script:1: wrong number of arguments");
}

TEST_F(InterpreterTest, RedisHelpers) {
  EXPECT_EQ(Eval("return redis.sha1hex('')"),
            "$40\r\nda39a3ee5e6b4b0d3255bfef95601890afd80709\r\n");
  EXPECT_EQ(ErrorOf("redis.sha1hex()"), "-ERR wrong number of arguments");
  EXPECT_EQ(Eval("return {redis.REDIS_VERSION, redis.REDIS_VERSION_NUM}"),
            "*2\r\n$6\r\n7.0.15\r\n:458767\r\n");
  EXPECT_EQ(Eval("return {tostring(redis.breakpoint()), redis.replicate_commands()}"),
            "*2\r\n$5\r\nfalse\r\n:1\r\n");
  Eval("redis.log(redis.LOG_WARNING, 'hi', 1, {}, 'there')");
  ASSERT_EQ(host_.logs.size(), 1u);
  EXPECT_EQ(host_.logs[0], "3 hi 1 there");
  EXPECT_EQ(ErrorOf("redis.log(9, 'x')"), "-ERR Invalid debug level.");
  Eval("redis.set_repl(redis.REPL_AOF)");
  EXPECT_EQ(host_.repl, kReplAof);
  EXPECT_EQ(ErrorOf("redis.set_repl(5)"),
            "-ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
  EXPECT_EQ(ErrorOf("redis.setresp(4)"), "-ERR RESP version must be 2 or 3.");
  host_.replies["get"] = "$-1\r\n";
  EXPECT_EQ(Eval("return redis.acl_check_cmd('get')"), ":1\r\n");
  host_.denied.insert("get");
  EXPECT_EQ(Eval("return redis.acl_check_cmd('get')"), "$-1\r\n");  // false: a nil reply
  EXPECT_EQ(ErrorOf("redis.acl_check_cmd('nosuch')"),
            "-ERR Invalid command passed to redis.acl_check_cmd()");
}

TEST_F(InterpreterTest, InterruptHookKillsTheScript) {
  int polls = 0;
  host_.on_interrupt = [&] { return ++polls >= 3; };
  std::string sha = Sha1Hex("while true do end");
  EXPECT_EQ(
      Eval("while true do end", {}, {}, 2, /*hook=*/true),
      "-ERR Script killed by user with SCRIPT KILL... script: " + sha + ", on @user_script:1.\r\n");
  EXPECT_EQ(polls, 3);
  // A pcall cannot swallow the kill: the hook fires again on the next line.
  polls = 0;
  EXPECT_EQ(
      ErrorOf(
          "local i = 0\nwhile true do\n pcall(function() while true do end end)\n i = i + 1\nend",
          /*hook=*/true),
      "-ERR Script killed by user with SCRIPT KILL...");
  // Without the hook nothing is polled.
  host_.on_interrupt = nullptr;
  host_.interrupts = 0;
  Eval("for i = 1, 300000 do end");
  EXPECT_EQ(host_.interrupts, 0);
  Eval("for i = 1, 300000 do end", {}, {}, 2, true);
  EXPECT_GE(host_.interrupts, 2);
}

TEST_F(InterpreterTest, ResetForgetsFunctions) {
  Eval("return 1");
  std::string name = "f_" + Sha1Hex("return 1");
  EXPECT_TRUE(interpreter_.Defined(name));
  interpreter_.Reset();
  EXPECT_FALSE(interpreter_.Defined(name));
  EXPECT_EQ(Eval("return 1"), ":1\r\n");
}

}  // namespace
}  // namespace redlab::server::scripting
