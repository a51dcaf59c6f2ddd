// Scripting: EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT; how values convert between Redis
// replies and Lua in both directions; Redis's error formats for failing scripts and calls.
#include "conformance/harness/script.h"
#include "conformance/help_reply.h"
#include "conformance/scripting_util.h"

namespace redlab::conformance {
namespace {

class ScriptingTest : public ConformanceTest {
 protected:
  Reply Eval(std::string_view body) { return c()({"EVAL", body, "0"}); }
  std::string RawEval(std::string_view body) { return c().Raw({"EVAL", body, "0"}); }
};

TEST_F(ScriptingTest, LuaValuesBecomeReplies) {
  EXPECT_EQ(Eval("return 'hello'"), Bulk("hello"));
  EXPECT_EQ(Eval("return 42"), Int(42));
  EXPECT_EQ(Eval("return 3.99"), Int(3));  // numbers are truncated toward zero
  EXPECT_EQ(Eval("return -3.99"), Int(-3));
  EXPECT_EQ(Eval("return 1e20"), Int(INT64_MIN));
  EXPECT_EQ(Eval("return true"), Int(1));
  EXPECT_EQ(RawEval("return false"), "$-1\r\n");
  EXPECT_EQ(RawEval("return nil"), "$-1\r\n");
  EXPECT_EQ(RawEval("return {1, 'a', {2, {3}}, nil, 4}"),
            "*3\r\n:1\r\n$1\r\na\r\n*2\r\n:2\r\n*1\r\n:3\r\n");
  EXPECT_EQ(RawEval("return {1, false, 2}"), "*3\r\n:1\r\n$-1\r\n:2\r\n");
  EXPECT_EQ(RawEval("return {}"), "*0\r\n");
  EXPECT_EQ(RawEval("return {ok='fine'}"), "+fine\r\n");
  EXPECT_EQ(RawEval("return {err='MY error'}"), "-MY error\r\n");
  EXPECT_EQ(RawEval("return {err='x\\ny'}"), "-x y\r\n");
  EXPECT_EQ(RawEval("return {1, {ok='a'}, {err='b c'}}"), "*3\r\n:1\r\n+a\r\n-b c\r\n");
  EXPECT_EQ(RawEval("return {double=1.5}"), "$3\r\n1.5\r\n");
  EXPECT_EQ(RawEval("return {map={a=1}}"), "*2\r\n$1\r\na\r\n:1\r\n");
  EXPECT_EQ(RawEval("return {set={a=true}}"), "*1\r\n$1\r\na\r\n");
  EXPECT_EQ(RawEval("return {big_number='123456789012345678901234567890'}"),
            "$30\r\n123456789012345678901234567890\r\n");
  EXPECT_EQ(RawEval("return {verbatim_string={format='txt', string='hi'}}"), "$2\r\nhi\r\n");
  EXPECT_EQ(RawEval("return function() end"), "$-1\r\n");
}

TEST_F(ScriptingTest, LuaValuesBecomeResp3Replies) {
  c()({"HELLO", "3"});
  EXPECT_EQ(RawEval("return false"), "_\r\n");
  EXPECT_EQ(RawEval("return nil"), "_\r\n");
  EXPECT_EQ(RawEval("return true"), ":1\r\n");
  EXPECT_EQ(RawEval("redis.setresp(3) return true"), "#t\r\n");
  EXPECT_EQ(RawEval("redis.setresp(3) return false"), "#f\r\n");
  EXPECT_EQ(RawEval("return {double=1.5}"), ",1.5\r\n");
  EXPECT_EQ(RawEval("return {map={a=1}}"), "%1\r\n$1\r\na\r\n:1\r\n");
  EXPECT_EQ(RawEval("return {set={a=true}}"), "~1\r\n$1\r\na\r\n");
  EXPECT_EQ(RawEval("return {big_number='123'}"), "(123\r\n");
  EXPECT_EQ(RawEval("return {verbatim_string={format='txt', string='hi'}}"), "=6\r\ntxt:hi\r\n");
  c()({"HELLO", "2"});
  EXPECT_EQ(RawEval("redis.setresp(3) return true"), ":1\r\n");
  EXPECT_EQ(RawEval("redis.setresp(3) return false"), ":0\r\n");
}

TEST_F(ScriptingTest, DeepAndLargeValues) {
  // A table that contains itself nests until the Lua stack is full, then an error closes it.
  std::string raw = RawEval("local a = {} local b = {a} a[1] = b return a");
  size_t depth = 0;
  while (raw.compare(depth * 4, 4, "*1\r\n") == 0) ++depth;
  EXPECT_EQ(raw.substr(depth * 4), "-ERR reached lua stack limit\r\n");
  EXPECT_EQ(depth, 7995u);
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
  EXPECT_EQ(RawEval("return {big_number='123\\r\\n123'}"), "$8\r\n123  123\r\n");
  // Thousands of arguments to one call.
  EXPECT_EQ(Eval("local a = {} for i = 1, 7999 do a[i] = 'k' .. i end return redis.call('del', "
                 "unpack(a))"),
            Int(0));
  EXPECT_EQ(Eval("redis.call('set', 'foo', 9007199254740991) return redis.call('get', 'foo')"),
            Bulk("9007199254740991"));
  EXPECT_EQ(
      Eval("redis.call('set', 'key', '12039611435714932082') return redis.call('get', 'key')"),
      Bulk("12039611435714932082"));
  EXPECT_EQ(Eval("return 'hello' --trailing comment"), Bulk("hello"));
}

TEST_F(ScriptingTest, KeysAndArgv) {
  EXPECT_EQ(c()({"EVAL", "return {KEYS[1], KEYS[2], ARGV[1], ARGV[2], #KEYS, #ARGV}", "2", "k1",
                 "k2", "a1", "a2"}),
            Array({Bulk("k1"), Bulk("k2"), Bulk("a1"), Bulk("a2"), Int(2), Int(2)}));
  EXPECT_EQ(c()({"EVAL", "return {#KEYS, #ARGV}", "0", "a"}), Array({Int(0), Int(1)}));
  EXPECT_EQ(c()({"EVAL", "return {#KEYS, #ARGV}", "1", "k"}), Array({Int(1), Int(0)}));
}

TEST_F(ScriptingTest, NumKeysErrors) {
  ExpectReplies(
      c(), {
               {{"EVAL", "return 1", "x"}, Error("ERR value is not an integer or out of range")},
               {{"EVAL", "return 1", "2", "a"},
                Error("ERR Number of keys can't be greater than number of args")},
               {{"EVAL", "return 1", "-1"}, Error("ERR Number of keys can't be negative")},
               {{"EVAL", "return 1"}, Error("ERR wrong number of arguments for 'eval' command")},
               {{"EVALSHA", std::string(40, 'a'), "x"},
                Error("ERR value is not an integer or out of range")},
               // EVALSHA looks at the sha's length before anything else.
               {{"EVALSHA", "abc", "x"}, Error("NOSCRIPT No matching script. Please use EVAL.")},
           });
}

TEST_F(ScriptingTest, RedisCallConvertsReplies) {
  c()({"SET", "s", "v"});
  EXPECT_EQ(Eval("return redis.call('get', 's')"), Bulk("v"));
  EXPECT_EQ(Eval("return type(redis.call('get', 'nokey'))"), Bulk("boolean"));
  EXPECT_EQ(Eval("return tostring(redis.call('get', 'nokey'))"), Bulk("false"));
  EXPECT_EQ(Eval("return redis.call('set', 's', 'w').ok"), Bulk("OK"));
  EXPECT_EQ(Eval("return redis.call('set', 's', 'w')"), Status("OK"));
  EXPECT_EQ(Eval("return type(redis.call('dbsize'))"), Bulk("number"));
  EXPECT_EQ(Eval("return redis.call('del', 's', 'nokey')"), Int(1));
  EXPECT_EQ(Eval("local t = redis.call('time') return {type(t), #t}"),
            Array({Bulk("table"), Int(2)}));
  EXPECT_EQ(Eval("return redis.call('echo', 'x')"), Bulk("x"));
  EXPECT_EQ(Eval("return redis.call('ping')"), Status("PONG"));
  // Numbers passed to commands keep their precision (%.17g).
  EXPECT_EQ(Eval("redis.call('set', 'n', 0.1) return redis.call('get', 'n')"),
            Bulk("0.10000000000000001"));
  EXPECT_EQ(Eval("redis.call('set', 'n', 3) return redis.call('get', 'n')"), Bulk("3"));
  EXPECT_EQ(Eval("redis.call('set', 'n', -0.0) return redis.call('get', 'n')"), Bulk("-0"));
  EXPECT_EQ(Eval("redis.call('set', 'n', 1/0) return redis.call('get', 'n')"), Bulk("inf"));
}

TEST_F(ScriptingTest, RedisCallInResp3) {
  EXPECT_EQ(Eval("redis.setresp(3) return tostring(redis.call('get', 'nokey'))"), Bulk("nil"));
  EXPECT_EQ(Eval("redis.setresp(2) return tostring(redis.call('get', 'nokey'))"), Bulk("false"));
  // A map reply arrives as {map = {...}}.
  EXPECT_EQ(Eval("redis.setresp(3) local d = redis.call('command', 'docs', 'get')"
                 " return {type(d.map), d.map.get.map.since}"),
            Array({Bulk("table"), Bulk("1.0.0")}));
  EXPECT_EQ(Eval("redis.setresp(2) local d = redis.call('command', 'docs', 'get')"
                 " return {d[1], type(d[2])}"),
            Array({Bulk("get"), Bulk("table")}));
  EXPECT_EQ(Eval("return redis.setresp(4)"),
            ScriptError("ERR RESP version must be 2 or 3.", "return redis.setresp(4)"));
  EXPECT_EQ(Eval("return redis.setresp()"),
            ScriptError("ERR redis.setresp() requires one argument.", "return redis.setresp()"));
}

TEST_F(ScriptingTest, CallErrorsStopTheScript) {
  std::string body = "redis.call('nosuch')";
  EXPECT_EQ(Eval(body), ScriptError("ERR Unknown Redis command called from script", body));
  body = "redis.call('get')";
  EXPECT_EQ(Eval(body),
            ScriptError("ERR Wrong number of args calling Redis command from script", body));
  body = "redis.call('config', 'nosuch')";
  EXPECT_EQ(Eval(body), ScriptError("ERR Unknown Redis command called from script", body));
  body = "redis.call('config')";
  EXPECT_EQ(Eval(body),
            ScriptError("ERR Wrong number of args calling Redis command from script", body));
  for (std::string cmd : {"'multi'", "'eval', 'return 1', 0", "'client', 'id'",
                          "'config', 'get', 'x'", "'hello'", "'script', 'flush'", "'shutdown'"}) {
    body = "redis.call(" + cmd + ")";
    EXPECT_EQ(Eval(body), ScriptError("ERR This Redis command is not allowed from script", body))
        << cmd;
  }
  body = "redis.call()";
  EXPECT_EQ(Eval(body),
            ScriptError("ERR Please specify at least one argument for this redis lib call", body));
  body = "redis.call('get', {})";
  EXPECT_EQ(Eval(body),
            ScriptError("ERR Lua redis lib command arguments must be strings or integers", body));
  body = "redis.call('set', 'k', true)";
  EXPECT_EQ(Eval(body),
            ScriptError("ERR Lua redis lib command arguments must be strings or integers", body));
  // An error reply of the command stops the script too; the line is where the call is.
  c()({"SET", "s", "v"});
  body = "local x = 1\nreturn redis.call('hget', 's', 'f')";
  EXPECT_EQ(
      Eval(body),
      ScriptError("WRONGTYPE Operation against a key holding the wrong kind of value", body, 2));
}

TEST_F(ScriptingTest, PcallReturnsErrors) {
  EXPECT_EQ(Eval("return redis.pcall('nosuch')"),
            Error("ERR Unknown Redis command called from script"));
  EXPECT_EQ(Eval("return redis.pcall()"),
            Error("ERR Please specify at least one argument for this redis lib call"));
  c()({"SET", "s", "v"});
  EXPECT_EQ(Eval("return redis.pcall('hget', 's', 'f')"),
            Error("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_EQ(Eval("local e = redis.pcall('hget', 's', 'f') return {e.err, "
                 "tostring(e.ignore_error_stats_update)}"),
            Array({Bulk("WRONGTYPE Operation against a key holding the wrong kind of value"),
                   Bulk("true")}));
  // The script goes on after a failed pcall.
  EXPECT_EQ(Eval("redis.pcall('nosuch') return 'after'"), Bulk("after"));
  // Lua's pcall turns Redis's error tables into their message.
  EXPECT_EQ(
      Eval("local ok, e = pcall(function() redis.call('nosuch') end) return {tostring(ok), e}"),
      Array({Bulk("false"), Bulk("ERR Unknown Redis command called from script")}));
  EXPECT_EQ(Eval("local ok, e = pcall(function() error('x') end) return e"),
            Bulk("user_script:1: x"));
  EXPECT_EQ(Eval("local ok, e = pcall(function() error({err='X y'}) end) return e"), Bulk("X y"));
  EXPECT_EQ(Eval("return {select('#', pcall(function() error({x=1}) end))}"), Array({Int(3)}));
  EXPECT_EQ(
      Eval("local ok, e = xpcall(function() redis.call('nosuch') end, function(e) return e end)"
           " return type(e)"),
      Bulk("table"));
  EXPECT_EQ(Eval("return {pcall(redis.call, 'get', 'nokey')}"), Array({Int(1), Nil()}));
}

TEST_F(ScriptingTest, ScriptErrorFormats) {
  std::string body = "error('boom')";
  EXPECT_EQ(Eval(body), ScriptError("ERR user_script:1: boom", body));
  body = "\n\nerror('on line three')";
  EXPECT_EQ(Eval(body), ScriptError("ERR user_script:3: on line three", body, 3));
  body = "error({err='MY own error'})";
  EXPECT_EQ(Eval(body), ScriptError("MY own error", body));
  body = "error('plain', 0)";
  EXPECT_EQ(Eval(body), ScriptError("ERR plain", body));
  body = "error(nil)";
  EXPECT_EQ(Eval(body), ScriptError("ERR nil", body));
  body = "error(42)";
  EXPECT_EQ(Eval(body), ScriptError("ERR user_script:1: 42", body));
  body = "error('a\\nb')";
  EXPECT_EQ(Eval(body), ScriptError("ERR user_script:1: a b", body));
  body = "local t = nil return t.x";
  EXPECT_EQ(Eval(body),
            ScriptError("ERR user_script:1: attempt to index local 't' (a nil value)", body));
  body = "return 1 + {}";
  EXPECT_EQ(Eval(body),
            ScriptError("ERR user_script:1: attempt to perform arithmetic on a table value", body));
  EXPECT_EQ(Eval("return 'x' +"), Error("ERR Error compiling script (new function): user_script:1: "
                                        "unexpected symbol near '<eof>'"));
  EXPECT_EQ(
      Eval("return 1 end local function f() return 2"),
      Error(
          "ERR Error compiling script (new function): user_script:1: '<eof>' expected near 'end'"));
  EXPECT_EQ(Eval("return redis.error_reply('My error')"), Error("My error"));
  EXPECT_EQ(Eval("return redis.error_reply('-MY error')"), Error("MY error"));
  EXPECT_EQ(Eval("return redis.error_reply('ERR')"), Error("ERR ERR"));
  EXPECT_EQ(c().Raw({"EVAL", "return redis.error_reply('')", "0"}), "-ERR \r\n");
  EXPECT_EQ(Eval("return redis.error_reply(1)"), Error("ERR wrong number or type of arguments"));
  EXPECT_EQ(Eval("return redis.status_reply('Fine')"), Status("Fine"));
  EXPECT_EQ(Eval("return redis.status_reply()"), Error("ERR wrong number or type of arguments"));
  EXPECT_EQ(Eval("local e = redis.error_reply('x') return {e.err, tostring(e.source)}"),
            Array({Bulk("ERR x"), Bulk("nil")}));
}

TEST_F(ScriptingTest, ScriptWritesAndDatabases) {
  EXPECT_EQ(c()({"EVAL", "redis.call('set', KEYS[1], ARGV[1]) return redis.call('get', KEYS[1])",
                 "1", "k", "v"}),
            Bulk("v"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
  // The script runs in the caller's database; SELECT inside it does not move the caller.
  c()({"SELECT", "3"});
  EXPECT_EQ(
      Eval("redis.call('set', 'in3', 'x') redis.call('select', 5) redis.call('set', 'in5', 'y')"
           " return 1"),
      Int(1));
  EXPECT_EQ(c()({"GET", "in3"}), Bulk("x"));
  EXPECT_EQ(c()({"GET", "in5"}), Nil());
  c()({"SELECT", "5"});
  EXPECT_EQ(c()({"GET", "in5"}), Bulk("y"));
  EXPECT_EQ(Eval("return redis.call('get', 'in5')"), Bulk("y"));
}

TEST_F(ScriptingTest, EvalShaAndTheScriptCache) {
  std::string body = "return 'cached'";
  std::string sha = Sha1(body);
  EXPECT_EQ(c()({"EVALSHA", sha, "0"}), Error("NOSCRIPT No matching script. Please use EVAL."));
  EXPECT_EQ(c()({"SCRIPT", "LOAD", body}), Bulk(sha));
  EXPECT_EQ(c()({"EVALSHA", sha, "0"}), Bulk("cached"));
  // SHA1s are matched ignoring case.
  std::string upper = sha;
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  EXPECT_EQ(c()({"EVALSHA", upper, "0"}), Bulk("cached"));
  EXPECT_EQ(c()({"SCRIPT", "EXISTS", sha, upper, Sha1("other"), sha}),
            Array({Int(1), Int(1), Int(0), Int(1)}));
  // EVAL caches the scripts it runs.
  EXPECT_EQ(Eval("return 'evaled'"), Bulk("evaled"));
  EXPECT_EQ(c()({"EVALSHA", Sha1("return 'evaled'"), "0"}), Bulk("evaled"));
  // ...even one that fails at run time, but not one that does not compile.
  Eval("error('x')");
  EXPECT_EQ(c()({"SCRIPT", "EXISTS", Sha1("error('x')"), Sha1("return +")}),
            Array({Int(1), Int(0)}));
  Eval("return +");
  EXPECT_EQ(c()({"SCRIPT", "EXISTS", Sha1("return +")}), Array({Int(0)}));
  EXPECT_EQ(
      c()({"SCRIPT", "LOAD", "return +"}),
      Error(
          "ERR Error compiling script (new function): user_script:1: unexpected symbol near '+'"));
  EXPECT_EQ(c()({"EVALSHA", sha + "0", "0"}),
            Error("NOSCRIPT No matching script. Please use EVAL."));
  EXPECT_EQ(c()({"EVALSHA_RO", sha, "0"}), Bulk("cached"));

  EXPECT_EQ(c()({"SCRIPT", "FLUSH"}), Status("OK"));
  EXPECT_EQ(c()({"SCRIPT", "EXISTS", sha}), Array({Int(0)}));
  EXPECT_EQ(c()({"EVALSHA", sha, "0"}), Error("NOSCRIPT No matching script. Please use EVAL."));
  c()({"SCRIPT", "LOAD", body});
  EXPECT_EQ(c()({"SCRIPT", "FLUSH", "SYNC"}), Status("OK"));
  c()({"SCRIPT", "LOAD", body});
  EXPECT_EQ(c()({"SCRIPT", "FLUSH", "async"}), Status("OK"));
  EXPECT_EQ(c()({"SCRIPT", "EXISTS", sha}), Array({Int(0)}));
  EXPECT_EQ(c()({"SCRIPT", "FLUSH", "now"}),
            Error("ERR SCRIPT FLUSH only support SYNC|ASYNC option"));
  EXPECT_EQ(c()({"SCRIPT", "FLUSH", "sync", "sync"}),
            Error("ERR SCRIPT FLUSH only support SYNC|ASYNC option"));
}

TEST_F(ScriptingTest, InfoCountsCachedScripts) {
  auto cached = [&] {
    std::string info = c()({"INFO", "memory"}).str;
    size_t at = info.find("number_of_cached_scripts:");
    return at == std::string::npos ? std::string("absent")
                                   : info.substr(at, info.find('\r', at) - at);
  };
  c()({"SCRIPT", "FLUSH"});
  EXPECT_EQ(cached(), "number_of_cached_scripts:0");
  c()({"SCRIPT", "LOAD", "return 1"});
  Eval("return 2");
  Eval("return 2");
  Eval("return +");
  EXPECT_EQ(cached(), "number_of_cached_scripts:2");
  c()({"SCRIPT", "FLUSH"});
  EXPECT_EQ(cached(), "number_of_cached_scripts:0");
}

TEST_F(ScriptingTest, ScriptSubcommandErrors) {
  ExpectReplies(
      c(),
      {
          {{"SCRIPT"}, Error("ERR wrong number of arguments for 'script' command")},
          {{"SCRIPT", "nosuch"}, Error("ERR unknown subcommand 'nosuch'. Try SCRIPT HELP.")},
          {{"SCRIPT", "LOAD"}, Error("ERR wrong number of arguments for 'script|load' command")},
          {{"SCRIPT", "LOAD", "a", "b"},
           Error("ERR wrong number of arguments for 'script|load' command")},
          {{"SCRIPT", "EXISTS"},
           Error("ERR wrong number of arguments for 'script|exists' command")},
          {{"SCRIPT", "KILL", "x"},
           Error("ERR wrong number of arguments for 'script|kill' command")},
          {{"SCRIPT", "KILL"}, Error("NOTBUSY No scripts in execution right now.")},
          {{"SCRIPT", "DEBUG", "no"}, Status("OK")},
          {{"SCRIPT", "DEBUG", "maybe"}, Error("ERR Use SCRIPT DEBUG YES/SYNC/NO")},
      });
  ExpectHelp(c()({"SCRIPT", "HELP"}), 17,
             {{0, HelpHeader("SCRIPT")},
              {1, "DEBUG (YES|SYNC|NO)"},
              {13, "LOAD <script>"},
              {16, "    Prints this help."}});
}

TEST_F(ScriptingTest, ReadOnlyScripts) {
  c()({"SET", "k", "v"});
  EXPECT_EQ(c()({"EVAL_RO", "return redis.call('get', KEYS[1])", "1", "k"}), Bulk("v"));
  std::string body = "return redis.call('set', KEYS[1], 'x')";
  EXPECT_EQ(c()({"EVAL_RO", body, "1", "k"}),
            ScriptError("ERR Write commands are not allowed from read-only scripts.", body));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
  EXPECT_EQ(c()({"EVAL_RO", "return redis.pcall('del', 'k')", "0"}),
            Error("ERR Write commands are not allowed from read-only scripts."));
  std::string sha = Sha1(body);
  EXPECT_EQ(c()({"EVALSHA_RO", sha, "1", "k"}),
            ScriptError("ERR Write commands are not allowed from read-only scripts.", body));
  EXPECT_EQ(c()({"EVALSHA", sha, "1", "k"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("x"));
}

TEST_F(ScriptingTest, ShebangFlags) {
  std::string body = "#!lua flags=no-writes\nreturn redis.call('set', 'k', 'v')";
  EXPECT_EQ(Eval(body),
            ScriptError("ERR Write commands are not allowed from read-only scripts.", body, 2));
  EXPECT_EQ(Eval("#!lua flags=no-writes\nreturn redis.call('get', 'k')"), Nil());
  EXPECT_EQ(c()({"EVAL_RO", "#!lua flags=no-writes\nreturn 1", "0"}), Int(1));
  EXPECT_EQ(c()({"EVAL_RO", "#!lua\nreturn 1", "0"}),
            Error("ERR Can not execute a script with write flag using *_ro command."));
  EXPECT_EQ(Eval("#!lua\nreturn redis.call('set', 'k', 'v')"), Status("OK"));
  EXPECT_EQ(Eval("#!lua flags=allow-oom,allow-stale,no-cluster,allow-cross-slot-keys\nreturn 2"),
            Int(2));
  EXPECT_EQ(Eval("#!lua flags=\nreturn 3"), Int(3));
  EXPECT_EQ(Eval("#!lua  \"flags=no-writes\"   \r\nreturn 4"), Int(4));
  // The shebang line keeps its line: errors report the script's own line numbers.
  body = "#!lua\nlocal x = 1\nerror('here')";
  EXPECT_EQ(Eval(body), ScriptError("ERR user_script:3: here", body, 3));
  EXPECT_EQ(Eval("#!lua"), Error("ERR Invalid script shebang"));
  EXPECT_EQ(Eval("#!luajit\nreturn 1"), Error("ERR Unexpected engine in script shebang: #!luajit"));
  EXPECT_EQ(Eval("#! lua\nreturn 1"), Error("ERR Unexpected engine in script shebang: #!"));
  EXPECT_EQ(Eval("#!lua \"open\nreturn 1"), Error("ERR Invalid engine in script shebang"));
  EXPECT_EQ(Eval("#!lua name=x\nreturn 1"), Error("ERR Unknown lua shebang option: name=x"));
  EXPECT_EQ(Eval("#!lua flags=no-writes,fast\nreturn 1"),
            Error("ERR Unexpected flag in script shebang: fast"));
  EXPECT_EQ(Eval("#!lua flags=no-writes,\nreturn 1"),
            Error("ERR Unexpected flag in script shebang: "));
  EXPECT_EQ(c()({"SCRIPT", "LOAD", "#!lua flags=nope\nreturn 1"}),
            Error("ERR Unexpected flag in script shebang: nope"));
}

TEST_F(ScriptingTest, EvalInsideATransaction) {
  EXPECT_EQ(c()({"MULTI"}), Status("OK"));
  EXPECT_EQ(c()({"EVAL", "redis.call('set', 'k', 'v') return redis.call('get', 'k')", "0"}),
            Status("QUEUED"));
  EXPECT_EQ(c()({"EVAL", "return redis.call('nosuch')", "0"}), Status("QUEUED"));
  Reply exec = c()({"EXEC"});
  ASSERT_EQ(exec.elements.size(), 2u);
  EXPECT_EQ(exec.elements[0], Bulk("v"));
  EXPECT_EQ(exec.elements[1], ScriptError("ERR Unknown Redis command called from script",
                                          "return redis.call('nosuch')"));
}

TEST_F(ScriptingTest, EvalKeysForCommandGetKeys) {
  EXPECT_EQ(c()({"COMMAND", "GETKEYS", "EVAL", "return 1", "2", "a", "b", "c"}),
            Array({Bulk("a"), Bulk("b")}));
  EXPECT_EQ(c()({"COMMAND", "GETKEYS", "EVALSHA_RO", "x", "1", "k"}), Array({Bulk("k")}));
}

TEST_F(ScriptingTest, ErrorStatistics) {
  c()({"SET", "s", "v"});
  c()({"CONFIG", "RESETSTAT"});
  Eval("redis.call('nosuch')");                 // a refused call: counted once
  Eval("return redis.call('hget', 's', 'f')");  // counted by HGET, not again by EVAL
  Eval("return redis.pcall('get')");            // refused, returned: counted once
  Eval("return {err='MINE here'}");
  Eval("error('plain')");
  EXPECT_EQ(c()({"INFO", "errorstats"}).str,
            "# Errorstats\r\nerrorstat_ERR:count=3\r\nerrorstat_MINE:count=1\r\n"
            "errorstat_WRONGTYPE:count=1\r\n");
  std::string stats = c()({"INFO", "commandstats"}).str;
  EXPECT_NE(stats.find("cmdstat_eval:calls=5,"), std::string::npos) << stats;
  EXPECT_NE(stats.find(",rejected_calls=0,failed_calls=5\r\n"), std::string::npos) << stats;
  EXPECT_NE(
      stats.find("cmdstat_get:calls=0,usec=0,usec_per_call=0.00,rejected_calls=1,failed_calls=0"),
      std::string::npos)
      << stats;
  EXPECT_NE(stats.find("cmdstat_hget:calls=1,"), std::string::npos) << stats;
}

// A script whose redis.pcall is refused (OOM) and which then returns normally did not fail: the
// refusal took that error reply for itself (Redis's "Consistent eval error reporting").
TEST_F(ScriptingTest, ARefusalCaughtByPcallIsNotTheScriptsFailure) {
  c()({"CONFIG", "RESETSTAT"});
  ASSERT_EQ(c()({"CONFIG", "SET", "maxmemory", "1"}), Status("OK"));
  Reply caught = Eval(
      "local t = redis.pcall('set', 'x', 'y') "
      "return t['err'] == \"OOM command not allowed when used memory > 'maxmemory'.\" and 1 or 0");
  ASSERT_EQ(c()({"CONFIG", "SET", "maxmemory", "0"}), Status("OK"));
  EXPECT_EQ(caught, Int(1));
  std::string stats = c()({"INFO", "commandstats"}).str;
  EXPECT_NE(stats.find("cmdstat_set:calls=0,usec=0,usec_per_call=0.00,rejected_calls=1,"
                       "failed_calls=0"),
            std::string::npos)
      << stats;
  size_t eval = stats.find("cmdstat_eval:calls=1,");
  ASSERT_NE(eval, std::string::npos) << stats;
  EXPECT_EQ(stats.substr(stats.find(",rejected_calls", eval),
                         stats.find("\r\n", eval) - stats.find(",rejected_calls", eval)),
            ",rejected_calls=0,failed_calls=0");
  EXPECT_EQ(c()({"INFO", "errorstats"}).str, "# Errorstats\r\nerrorstat_OOM:count=1\r\n");
}

}  // namespace
}  // namespace redlab::conformance
