// Scripting: the environment scripts run in — protected globals, the libraries Redis loads
// (cjson, cmsgpack, struct, bit), the redis.* helpers, math.random — and maxmemory's limits on
// scripts.
#include "conformance/scripting_util.h"

namespace redlab::conformance {
namespace {

class ScriptingSandboxTest : public ConformanceTest {
 protected:
  Reply Eval(std::string_view body) { return c()({"EVAL", body, "0"}); }
  // The error of a script failing on its first line.
  Reply Fails(std::string_view message, std::string_view body) {
    return ScriptError(message, body);
  }
};

TEST_F(ScriptingSandboxTest, GlobalsCannotBeCreated) {
  for (std::string body : {"x = 1", "function f() end", "KEYS = {}", "_G = {}", "redis = nil",
                           "redis = function() return 1 end"}) {
    EXPECT_EQ(Eval(body), Fails("ERR user_script:1: Attempt to modify a readonly table", body))
        << body;
  }
  std::string body = "return undefined_thing";
  EXPECT_EQ(Eval(body),
            Fails("ERR user_script:1: Script attempted to access nonexistent global variable "
                  "'undefined_thing'",
                  body));
  body = "local x = 5 return x";
  EXPECT_EQ(Eval(body), Int(5));
}

TEST_F(ScriptingSandboxTest, RemovedBuiltins) {
  for (std::string name : {"print", "dofile", "loadfile", "getfenv", "setfenv", "newproxy", "debug",
                           "require", "os", "io", "package", "module"}) {
    std::string body = "return " + name;
    EXPECT_EQ(Eval(body),
              Fails("ERR user_script:1: Script attempted to access nonexistent global variable '" +
                        name + "'",
                    body))
        << name;
  }
  std::string body = "print('x')";
  EXPECT_EQ(
      Eval(body),
      Fails("ERR user_script:1: Script attempted to access nonexistent global variable 'print'",
            body));
}

TEST_F(ScriptingSandboxTest, LibraryTablesAreReadOnly) {
  for (std::string body :
       {"redis.call = function() return 1 end", "cjson.encode = nil", "cmsgpack.pack = nil",
        "bit.lshift = nil", "struct.pack = nil", "string.len = nil", "math.pi = 3",
        "table.insert = nil", "coroutine.wrap = nil", "local s = string s.x = 1",
        "getmetatable(_G).__index = {}", "getmetatable('').__index = {}"}) {
    EXPECT_EQ(Eval(body), Fails("ERR user_script:1: Attempt to modify a readonly table", body))
        << body;
  }
  for (std::string body : {"setmetatable(_G, {})", "rawset(_G, 'x', 1)", "rawset(redis, 'x', 1)",
                           "table.insert(string, 'x')"}) {
    EXPECT_EQ(Eval(body), Fails("ERR Attempt to modify a readonly table", body)) << body;
  }
  std::string body = "loadstring('y = 1')()";
  EXPECT_EQ(Eval(body),
            Error("ERR [string \"y = 1\"]:1: Attempt to modify a readonly table script: " +
                  Sha1(body) + ", on y = 1:1."));
  // Raising a protected table fails inside Redis's error handler, on its line 10.
  body = "error(string)";
  EXPECT_EQ(Eval(body),
            Error("ERR err_handler_def:10: Attempt to modify a readonly table script: " +
                  Sha1(body) + ", on @err_handler_def:10."));
  // Reading through them works as usual.
  EXPECT_EQ(Eval("return {('abc'):upper(), string.rep('a', 3), rawget(_G, 'string') == string,"
                 " getmetatable('').__index == string, type(getmetatable(_G).__index),"
                 " type(rawget(redis, 'call'))}"),
            Array({Bulk("ABC"), Bulk("aaa"), Int(1), Int(1), Bulk("function"), Bulk("function")}));
}

TEST_F(ScriptingSandboxTest, GlobalNamesAndLibraryContents) {
  EXPECT_EQ(
      Eval("local r = {} for k in pairs(_G) do if k ~= 'KEYS' and k ~= 'ARGV' then"
           " r[#r + 1] = k end end table.sort(r) return table.concat(r, ' ')"),
      Bulk("_G _VERSION __redis__err__handler assert bit cjson cmsgpack collectgarbage coroutine "
           "error gcinfo getmetatable ipairs load loadstring math next pairs pcall rawequal rawget "
           "rawset redis select setmetatable string struct table tonumber tostring type unpack "
           "xpcall"));
  EXPECT_EQ(
      Eval("local r = {} for k in pairs(redis) do r[#r + 1] = k end table.sort(r)"
           " return table.concat(r, ' ')"),
      Bulk("LOG_DEBUG LOG_NOTICE LOG_VERBOSE LOG_WARNING REDIS_VERSION REDIS_VERSION_NUM REPL_ALL "
           "REPL_AOF REPL_NONE REPL_REPLICA REPL_SLAVE acl_check_cmd breakpoint call debug "
           "error_reply log pcall replicate_commands set_repl setresp sha1hex status_reply"));
  EXPECT_EQ(Eval("local n = 0 for k in pairs(string) do n = n + 1 end return n"), Int(15));
  EXPECT_EQ(Eval("return _VERSION"), Bulk("Lua 5.1"));
}

TEST_F(ScriptingSandboxTest, KeysAndArgvBelongToTheScript) {
  EXPECT_EQ(c()({"EVAL", "KEYS[1] = 'changed' table.insert(ARGV, 'more') return {KEYS[1], #ARGV}",
                 "1", "k"}),
            Array({Bulk("changed"), Int(1)}));
  EXPECT_EQ(c()({"EVAL", "return {KEYS[1], #ARGV}", "1", "k"}), Array({Bulk("k"), Int(0)}));
  // Each run of the same script gets new tables: what a run wrote into them (an index, a field,
  // a metatable) is gone at the next run, whatever the number of keys and arguments.
  std::string body =
      "local seen = {tostring(KEYS[3]), tostring(ARGV.extra), tostring(getmetatable(KEYS)),"
      " tostring(ARGV[9]), #KEYS, #ARGV}"
      " KEYS[3] = 'x' ARGV.extra = 'y' setmetatable(KEYS, {})"
      " setmetatable(ARGV, {__index = function() return 'z' end}) return seen";
  for (auto [nkeys, call] : std::vector<std::pair<int64_t, std::vector<std::string>>>{
           {1, {"EVAL", body, "1", "k", "a"}},
           {1, {"EVALSHA", Sha1(body), "1", "k2", "a2"}},
           {2, {"EVALSHA", Sha1(body), "2", "k", "k2"}},
           {0, {"EVALSHA", Sha1(body), "0", "a", "b", "c"}}}) {
    int64_t nargs = static_cast<int64_t>(call.size()) - 3 - nkeys;
    EXPECT_EQ(c().Call(call),
              Array({Bulk("nil"), Bulk("nil"), Bulk("nil"), Bulk("nil"), Int(nkeys), Int(nargs)}))
        << call[2];
  }
}

TEST_F(ScriptingSandboxTest, BytecodeCannotBeLoaded) {
  EXPECT_EQ(
      Eval("local f, e = loadstring(string.dump(function() return 1 end)) return {tostring(f), e}"),
      Array({Bulk("nil"), Bulk("[string \"\x1bLuaQ\"]:1: unexpected symbol near 'char(27)'")}));
  EXPECT_EQ(Eval("return loadstring('return 1 + 1')()"), Int(2));
  EXPECT_EQ(Eval("local f, e = loadstring('return +') return e"),
            Bulk("[string \"return +\"]:1: unexpected symbol near '+'"));
}

TEST_F(ScriptingSandboxTest, RedisHelpers) {
  EXPECT_EQ(Eval("return redis.sha1hex('')"), Bulk("da39a3ee5e6b4b0d3255bfef95601890afd80709"));
  EXPECT_EQ(Eval("return redis.sha1hex('Pizza & Mandolino')"), Bulk(Sha1("Pizza & Mandolino")));
  EXPECT_EQ(Eval("return redis.sha1hex(1)"), Bulk(Sha1("1")));
  std::string body = "return redis.sha1hex()";
  EXPECT_EQ(Eval(body), Fails("ERR wrong number of arguments", body));
  EXPECT_EQ(Eval("return {redis.REDIS_VERSION, redis.REDIS_VERSION_NUM}"),
            Array({Bulk("7.0.15"), Int(0x0007000f)}));
  EXPECT_EQ(Eval("return {redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING,"
                 " redis.REPL_NONE, redis.REPL_AOF, redis.REPL_SLAVE, redis.REPL_REPLICA, "
                 "redis.REPL_ALL}"),
            Array({Int(0), Int(1), Int(2), Int(3), Int(0), Int(1), Int(2), Int(2), Int(3)}));
  // Outside the debugger: breakpoint() is false and debug() returns nothing.
  EXPECT_EQ(Eval("return {tostring(redis.breakpoint()), select('#', redis.debug('x')),"
                 " tostring(redis.replicate_commands())}"),
            Array({Bulk("false"), Int(0), Bulk("true")}));
  EXPECT_EQ(Eval("redis.log(redis.LOG_WARNING, 'from a script', 1, {}) return 1"), Int(1));
  body = "redis.log(redis.LOG_WARNING)";
  EXPECT_EQ(Eval(body), Fails("ERR redis.log() requires two arguments or more.", body));
  body = "redis.log('x', 'y')";
  EXPECT_EQ(Eval(body), Fails("ERR First argument must be a number (log level).", body));
  body = "redis.log(7, 'y')";
  EXPECT_EQ(Eval(body), Fails("ERR Invalid debug level.", body));
  EXPECT_EQ(Eval("redis.set_repl(redis.REPL_ALL) return 1"), Int(1));
  body = "redis.set_repl(8)";
  EXPECT_EQ(
      Eval(body),
      Fails("ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.",
            body));
  body = "redis.set_repl()";
  EXPECT_EQ(Eval(body), Fails("ERR redis.set_repl() requires two arguments.", body));
  EXPECT_EQ(
      Eval("return {redis.acl_check_cmd('get', 'k'), redis.acl_check_cmd('config', 'get', 'x')}"),
      Array({Int(1), Int(1)}));
  body = "return redis.acl_check_cmd('nosuch')";
  EXPECT_EQ(Eval(body), Fails("ERR Invalid command passed to redis.acl_check_cmd()", body));
  body = "return redis.acl_check_cmd()";
  EXPECT_EQ(Eval(body),
            Fails("ERR Please specify at least one argument for this redis lib call", body));
}

TEST_F(ScriptingSandboxTest, MathRandomIsSeededLikeRedis) {
  // The generator is Redis's rand48: seeded, it gives the same numbers on every platform.
  EXPECT_EQ(Eval("math.randomseed(42) return {tostring(math.random()), math.random(100), "
                 "math.random(5, 7)}"),
            Array({Bulk("0.74452500033403"), Int(35), Int(5)}));
  std::string body = "return math.random(0)";
  EXPECT_EQ(Eval(body),
            Fails("ERR user_script:1: bad argument #1 to 'random' (interval is empty)", body));
  body = "return math.random(1, 2, 3)";
  EXPECT_EQ(Eval(body), Fails("ERR user_script:1: wrong number of arguments", body));
}

TEST_F(ScriptingSandboxTest, Cjson) {
  EXPECT_EQ(Eval("return cjson.encode({1, 'two', false, cjson.null, {a = {b = 1.5}}})"),
            Bulk("[1,\"two\",false,null,{\"a\":{\"b\":1.5}}]"));
  EXPECT_EQ(Eval("return cjson.encode({0.1, 1e20, 123456789012345})"),
            Bulk("[0.1,1e+20,1.2345678901234e+14]"));
  EXPECT_EQ(Eval("local t = cjson.decode('{\"a\":[1,2,{\"b\":null}],\"c\":true}')"
                 " return {t.a[2], t.a[3].b == cjson.null, tostring(t.c)}"),
            Array({Int(2), Int(1), Bulk("true")}));
  std::string body = "return cjson.decode('[1,2')";
  EXPECT_EQ(
      Eval(body),
      Fails("ERR user_script:1: Expected comma or array end but found T_END at character 5", body));
  body = "return cjson.encode({[1] = 1, [30] = 3})";
  EXPECT_EQ(Eval(body),
            Fails("ERR user_script:1: Cannot serialise table: excessively sparse array", body));
}

// A Lua function hex(s) to prepend to a script: the bytes of s as lowercase hex.
const std::string kHex =
    "local function hex(s) return (s:gsub('.', function(c) return string.format('%02x', "
    "c:byte()) end)) end ";

TEST_F(ScriptingSandboxTest, Cmsgpack) {
  EXPECT_EQ(Eval(kHex + "return hex(cmsgpack.pack({1, 'ab', {x = true}}, -200, 1.5, 0.1, 70000))"),
            Bulk("9301a2616281a178c3d1ff38ca3fc00000cb3fb999999999999ace00011170"));
  EXPECT_EQ(Eval("local t = cmsgpack.unpack(cmsgpack.pack({1, 'ab', {x = 3}})) return {t[1], t[2], "
                 "t[3].x}"),
            Array({Int(1), Bulk("ab"), Int(3)}));
  EXPECT_EQ(Eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 1)}"),
            Array({Int(2), Int(2)}));
  std::string body = "return cmsgpack.unpack('\\205\\1')";
  EXPECT_EQ(Eval(body), Fails("ERR user_script:1: Missing bytes in input.", body));
}

TEST_F(ScriptingSandboxTest, StructAndBit) {
  EXPECT_EQ(Eval(kHex + "return hex(struct.pack('>i2<i4Bs', -2, 7, 255, 'ab'))"),
            Bulk("fffe07000000ff616200"));
  EXPECT_EQ(Eval("return {struct.unpack('>i2<i4B', struct.pack('>i2<i4B', -2, 7, 255))}"),
            Array({Int(-2), Int(7), Int(255), Int(8)}));
  EXPECT_EQ(Eval("return struct.size('>i2 !8 d')"), Int(16));
  std::string body = "return struct.pack('q', 1)";
  EXPECT_EQ(
      Eval(body),
      Fails("ERR user_script:1: bad argument #1 to 'pack' (invalid format option 'q')", body));
  // A missing value reads as nil (struct's own separator), not as "no value".
  for (const auto& [fmt, expected] :
       std::vector<std::pair<std::string, std::string>>{{"'b'", "#2 to 'pack' (number"},
                                                        {"'d'", "#2 to 'pack' (number"},
                                                        {"'s'", "#2 to 'pack' (string"},
                                                        {"'bb', 1", "#3 to 'pack' (number"}}) {
    body = "return struct.pack(" + fmt + ")";
    EXPECT_EQ(Eval(body),
              Fails("ERR user_script:1: bad argument " + expected + " expected, got nil)", body));
  }
  EXPECT_EQ(
      Eval("return {bit.band(0xff, 0x0f), bit.bxor(3, 1), bit.lshift(1, 31), bit.tohex(255)}"),
      Array({Int(15), Int(2), Int(INT32_MIN), Bulk("000000ff")}));
}

TEST_F(ScriptingSandboxTest, ScriptsOverMaxmemory) {
  // Over maxmemory (1 byte: always), scripts may not grow memory before their first write.
  ASSERT_EQ(c()({"CONFIG", "SET", "maxmemory", "1"}), Status("OK"));
  std::string body = "return redis.call('set', 'k', 'v')";
  Reply denied = Eval(body);
  std::string read = Eval("return redis.call('get', 'k')").Describe();
  Reply flagged = Eval("#!lua\nreturn 1");
  Reply no_writes = Eval("#!lua flags=no-writes\nreturn 1");
  Reply allowed = Eval("#!lua flags=allow-oom\nreturn redis.call('set', 'k', 'v')");
  Reply after_write = Eval("redis.call('del', 'k') return redis.call('set', 'k', 'v')");
  ASSERT_EQ(c()({"CONFIG", "SET", "maxmemory", "0"}), Status("OK"));
  EXPECT_EQ(denied, Fails("OOM command not allowed when used memory > 'maxmemory'.", body));
  EXPECT_EQ(read, "(nil)");
  EXPECT_EQ(flagged, Error("OOM command not allowed when used memory > 'maxmemory'."));
  EXPECT_EQ(no_writes, Int(1));  // no-writes implies allow-oom
  EXPECT_EQ(allowed, Status("OK"));
  EXPECT_EQ(after_write, Status("OK"));
}

}  // namespace
}  // namespace redlab::conformance
