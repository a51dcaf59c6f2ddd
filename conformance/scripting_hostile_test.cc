// Hostile scripts (script_lua.c and deps/lua as Redis 7.0.15 builds them): sandbox escapes —
// bytecode, string.dump, the protected tables' metatables, debug/os/io/package/require/dofile/
// setfenv, coroutine tricks — deep recursion, huge strings and tables, library limits and
// replies that try to inject protocol. Each answers exactly as redis-server does, and the node
// keeps serving after every one.
#include "conformance/scripting_util.h"

namespace redlab::conformance {
namespace {

struct Case {
  std::string body;
  std::string reply;  // the exact bytes
};

// The reply of a script failing with `message` on line 1.
std::string Failed(std::string_view message, std::string_view body) {
  return "-" + std::string(message) + " script: " + Sha1(body) + ", on @user_script:1.\r\n";
}

std::string Repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

class ScriptingHostileTest : public ConformanceTest {
 protected:
  void Run(const std::vector<Case>& cases) {
    for (const Case& k : cases) {
      EXPECT_EQ(c().Raw({"EVAL", k.body, "0"}), k.reply) << k.body;
      ASSERT_EQ(c()({"PING"}), Status("PONG")) << "after " << k.body;
    }
  }
  // A script stopped by the sandbox on line 1 with `message`.
  Case Refused(std::string body, std::string_view message) {
    std::string reply = Failed(message, body);
    return {std::move(body), std::move(reply)};
  }
  Case NoGlobal(std::string body, std::string_view name) {
    return Refused(std::move(body),
                   "ERR user_script:1: Script attempted to access nonexistent global variable '" +
                       std::string(name) + "'");
  }
};

TEST_F(ScriptingHostileTest, BytecodeIsNeverLoaded) {
  Run({
      Refused("return loadstring(string.dump(function() return 1 end))()",
              "ERR user_script:1: attempt to call a nil value"),
      // load() with a reader function is refused bytecode the same way.
      {"local n = 0 local d = string.dump(function() return 7 end) local f, e = load(function() "
       "n = n + 1 if n == 1 then return d end end) return {tostring(f), e}",
       "*2\r\n$3\r\nnil\r\n$43\r\n(load):1: unexpected symbol near 'char(27)'\r\n"},
      {"local n = 0 local f = load(function() n = n + 1 if n == 1 then return 'return 5' end "
       "end) return f()",
       ":5\r\n"},
      {"return loadstring('\x1bLua')", "$-1\r\n"},
      {"return type(string.dump(function() return 1 end))", "$6\r\nstring\r\n"},
      Refused("return string.dump(string.len)",
              "ERR user_script:1: unable to dump given function"),
  });
}

TEST_F(ScriptingHostileTest, ProtectedTablesAndTheirMetatables) {
  Run({
      Refused("getmetatable('').__index = nil",
              "ERR user_script:1: Attempt to modify a readonly table"),
      Refused("getmetatable('').__index.upper = nil",
              "ERR user_script:1: Attempt to modify a readonly table"),
      Refused("string.upper = nil", "ERR user_script:1: Attempt to modify a readonly table"),
      Refused("setmetatable(getmetatable(_G), nil)", "ERR Attempt to modify a readonly table"),
      Refused("return setmetatable(redis, nil)", "ERR Attempt to modify a readonly table"),
      Refused("rawset(getmetatable(_G), '__newindex', nil)",
              "ERR Attempt to modify a readonly table"),
      {"return {pcall(rawset, _G, 'x', 1)}",
       "*2\r\n$-1\r\n$34\r\nAttempt to modify a readonly table\r\n"},
      {"return getmetatable(redis)", "$-1\r\n"},
      {"return getmetatable(cjson)", "$-1\r\n"},
      {"return getmetatable('').__metatable", "$-1\r\n"},
      {"return rawget(getmetatable(_G), '__index') == nil", "$-1\r\n"},
      {"return _G._G == _G", ":1\r\n"},
  });
}

TEST_F(ScriptingHostileTest, NoWayOutOfTheSandbox) {
  Run({
      NoGlobal("return debug.getinfo(1)", "debug"),
      NoGlobal("return debug.sethook", "debug"),
      NoGlobal("return os.execute('id')", "os"),
      NoGlobal("return io.popen('id')", "io"),
      NoGlobal("return io.open('/etc/passwd')", "io"),
      NoGlobal("return package.loaded", "package"),
      NoGlobal("return require('os')", "require"),
      NoGlobal("return dofile('/etc/passwd')", "dofile"),
      NoGlobal("return loadfile('/etc/passwd')", "loadfile"),
      NoGlobal("setfenv(1, {})", "setfenv"),
      NoGlobal("return getfenv(1)", "getfenv"),
      NoGlobal("return {pcall(setfenv, 1, {})}", "setfenv"),
      NoGlobal("return module('x')", "module"),
      NoGlobal("return newproxy(true)", "newproxy"),
      Refused("return redis.call('eval', 'return 1', 0)",
              "ERR This Redis command is not allowed from script"),
      {"return _VERSION", "$7\r\nLua 5.1\r\n"},
  });
}

TEST_F(ScriptingHostileTest, CoroutineTricks) {
  Run({
      {"local co = coroutine.create(function() return redis.call('ping') end) "
       "return {coroutine.resume(co)}",
       "*2\r\n:1\r\n+PONG\r\n"},
      {"local co = coroutine.wrap(function() coroutine.yield(redis.call('set', 'cokey', 'v')) "
       "end) co() return redis.call('get', 'cokey')",
       "$1\r\nv\r\n"},
      {"local co = coroutine.create(function() error('inside') end) "
       "return {coroutine.resume(co)}",
       "*2\r\n$-1\r\n$21\r\nuser_script:1: inside\r\n"},
      Refused("local co = coroutine.wrap(function() local x = setmetatable({}, {__index = "
              "function() coroutine.yield(1) end}) return x.y end) return co()",
              "ERR user_script:1: attempt to yield across metamethod/C-call boundary"),
      {"return {pcall(coroutine.yield, 1)}",
       "*2\r\n$-1\r\n$50\r\nattempt to yield across metamethod/C-call boundary\r\n"},
      Refused("coroutine.yield(1)", "ERR attempt to yield across metamethod/C-call boundary"),
      Refused("local co = coroutine.wrap(function() error({err='from coroutine'}) end) co()",
              "from coroutine"),
      {"local cos = {} for i = 1, 10000 do cos[i] = coroutine.create(function() "
       "coroutine.yield() end) coroutine.resume(cos[i]) end return #cos",
       ":10000\r\n"},
      {"local co = coroutine.create(function() redis.setresp(3) return redis.call('hgetall', "
       "'nokey') end) return {coroutine.resume(co)}",
       "*2\r\n:1\r\n*0\r\n"},
  });
}

TEST_F(ScriptingHostileTest, DeepRecursion) {
  Run({
      Refused("local function f(n) return 1 + f(n + 1) end return f(1)",
              "ERR user_script:1: stack overflow"),
      Refused("local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end "
              "return f(100000)",
              "ERR user_script:1: stack overflow"),
      {"local function f() pcall(f) end f() return 'survived'", "$8\r\nsurvived\r\n"},
      {"local function f() return pcall(f) end return {f()}",
       "*200\r\n" + Repeat(":1\r\n", 198) + "$-1\r\n$16\r\nC stack overflow\r\n"},
      // A reply nested deeper than the Lua stack allows is cut there.
      {"local t = {} local c = t for i = 1, 100000 do c[1] = {} c = c[1] end return t",
       Repeat("*1\r\n", 7995) + "-ERR reached lua stack limit\r\n"},
      {"local t = {} local c = t for i = 1, 100 do c[1] = {} c = c[1] end return t",
       Repeat("*1\r\n", 100) + "*0\r\n"},
  });
}

TEST_F(ScriptingHostileTest, HugeStringsAndTables) {
  std::string array = "*100000\r\n";
  for (int i = 1; i <= 100000; ++i) array += ":" + std::to_string(i) + "\r\n";
  Run({
      Refused("return unpack({}, 1, 1e7)", "ERR user_script:1: too many results to unpack"),
      Refused("return select('#', unpack({}, 1, 7999))",
              "ERR user_script:1: too many results to unpack"),
      // A range whose size overflows 32 bits (stock Lua 5.1 built with optimisation crashes).
      Refused("return unpack({1,2,3}, -2^31, 2^31-1)",
              "ERR user_script:1: too many results to unpack"),
      {"return unpack({1,2,3}, 2^31-1, -2^31)", "$-1\r\n"},
      {"return {unpack({1,2,3}, 2^31-2, 2^31-1)}", "*0\r\n"},
      Refused("return table.concat({}, '', 1, 1e8)",
              "ERR user_script:1: invalid value (nil) at index 1 in table for 'concat'"),
      Refused("return string.format('%099999d', 1)",
              "ERR user_script:1: invalid format (width or precision too long)"),
      {"return #string.rep('x', 1e7)", ":10000000\r\n"},
      {"return #(string.rep('x', 1e7) .. string.rep('y', 1e7))", ":20000000\r\n"},
      {"return #string.rep('ab', 2^20, ',')", ":2097152\r\n"},
      {"return string.rep('a', 1e6):gsub('a', '%0%0'):len()", ":2000000\r\n"},
      {"return string.rep('x', -5)", "$0\r\n\r\n"},
      {"local t = {} for i = 1, 1e6 do t[i] = i end return #t", ":1000000\r\n"},
      {"local t = {} for i = 1, 100000 do t[i] = i end return t", array},
      {"return redis.sha1hex(string.rep('x', 1e6))",
       "$40\r\n55b443b60176235ef09801153cca4e6da7494a0c\r\n"},
  });
}

TEST_F(ScriptingHostileTest, LibraryLimits) {
  Run({
      Refused("return cjson.decode(string.rep('[', 100000))",
              "ERR user_script:1: Found too many nested data structures (1001) at character 1001"),
      Refused("local t = {} t[1] = t return cjson.encode(t)",
              "ERR user_script:1: Cannot serialise, excessive nesting (1001)"),
      Refused("return cmsgpack.unpack(string.rep('\\145', 100000))",
              "ERR user_script:1: stack overflow (in function mp_decode_to_lua_array)"),
      {"local t = {} t[1] = t return #cmsgpack.pack(t)", ":17\r\n"},
      Refused("return struct.pack('i' .. string.rep('9', 30), 1)",
              "ERR user_script:1: integral size overflow"),
      Refused("return struct.unpack('c9999999', 'x')",
              "ERR user_script:1: bad argument #2 to 'unpack' (data string too short)"),
      Refused("return struct.pack('>!17i', 1)",
              "ERR user_script:1: alignment 17 is not a power of 2"),
      Refused("return {struct.unpack('s', 'abc')}", "ERR user_script:1: unfinished string in data"),
      // A count of -2^31 (stock lua-bitop negates it into a negative length and crashes).
      {"return bit.tohex(1, 2^31)", "$8\r\n00000001\r\n"},
      {"return {bit.tohex(255, 2^31), bit.tohex(255, -2^31), bit.tohex(255, 2^32+2^31)}",
       "*3\r\n$8\r\n000000FF\r\n$8\r\n000000FF\r\n$8\r\n000000FF\r\n"},
      Refused("return string.find(string.rep('a', 500), string.rep('(a)', 40))",
              "ERR user_script:1: too many captures"),
      Refused("return string.match('x', '%')",
              "ERR user_script:1: malformed pattern (ends with '%')"),
  });
}

// Numbers far outside an int where the scripting API keeps one (Redis's (int) casts, which
// give INT_MIN on x86-64) are refused like any other bad value.
TEST_F(ScriptingHostileTest, NumbersBeyondAnInt) {
  Run({
      Refused("redis.setresp(38888888888888888)", "ERR RESP version must be 2 or 3."),
      Refused("redis.setresp(0/0)", "ERR RESP version must be 2 or 3."),
      Refused("redis.setresp(-2^31 - 0.5)", "ERR RESP version must be 2 or 3."),
      {"redis.setresp(3.9) return redis.setresp(2.5)", "$-1\r\n"},
      Refused("redis.set_repl(2^40 + 3)",
              "ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or "
              "REPL_NONE."),
      Refused("redis.set_repl(math.huge)",
              "ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or "
              "REPL_NONE."),
      Refused("redis.log(2^32 + 3, 'x')", "ERR Invalid debug level."),
      Refused("redis.log(-math.huge, 'x')", "ERR Invalid debug level."),
      // A 'c0' length is (size_t) of the number before it: 1e30 comes out 0, NaN and -1 huge.
      {"return struct.unpack('dc0', struct.pack('d', 1e30) .. 'x')", "$0\r\n\r\n"},
      Refused("return struct.unpack('dc0', struct.pack('d', 0/0) .. 'x')",
              "ERR user_script:1: bad argument #2 to 'unpack' (data string too short)"),
      {"return struct.unpack('dc0', struct.pack('d', 1.9) .. 'xy')", "$1\r\nx\r\n"},
      Refused("return struct.unpack('dc0', struct.pack('d', -1) .. 'x')",
              "ERR user_script:1: bad argument #2 to 'unpack' (data string too short)"),
      Refused("return struct.unpack('dc0', struct.pack('d', 2^63 + 2^11) .. 'xy')",
              "ERR user_script:1: bad argument #2 to 'unpack' (data string too short)"),
  });
}

TEST_F(ScriptingHostileTest, RepliesCannotInjectProtocol) {
  Run({
      {"return redis.status_reply('a\\r\\nb')", "+a  b\r\n"},
      {"return redis.error_reply('a\\r\\nb')", "-ERR a  b\r\n"},
      {"return {err='x\\r\\ny'}", "-x  y\r\n"},
      {"return {ok='x\\r\\ny'}", "+x  y\r\n"},
      {"return {big_number='1\\r\\n2'}", "$4\r\n1  2\r\n"},
      {"return {err=''}", "-\r\n"},
      {"return {err={}}", "*0\r\n"},
      {"return {double='x'}", "*0\r\n"},
      {"return redis.error_reply({})", "-ERR wrong number or type of arguments\r\n"},
      // Numbers beyond an integer's range become LLONG_MIN, as in Redis's build.
      {"return {math.huge, 0/0, -math.huge, 2^63, 1e300}",
       "*5\r\n" + Repeat(":-9223372036854775808\r\n", 5)},
      {"return {3.99, -3.99}", "*2\r\n:3\r\n:-3\r\n"},
      {"return redis.call('echo', 0/0)", "$4\r\n-nan\r\n"},
      {"return redis.call('echo', 2^63)", "$22\r\n9.2233720368547758e+18\r\n"},
  });
}

TEST_F(ScriptingHostileTest, ErrorValues) {
  Run({
      Refused("error(nil)", "ERR nil"),
      Refused("error()", "ERR nil"),
      Refused("error(123)", "ERR user_script:1: 123"),
      Refused("error({err='custom'})", "custom"),
      {"return setmetatable({}, {__index=function() error('in index') end})", "*0\r\n"},
  });
}

// Redis 7.0.15 crashes (a NULL in sdscatfmt) on an error that is a table without an `err`
// field; redlab answers a generic error and keeps serving.
TEST_F(ScriptingHostileTest, ErrorTableWithoutErrField) {
  REDLAB_ONLY("redis-server 7.0.15 crashes on error({})");
  Run({
      Refused("error({})", "ERR unknown error"),
      Refused("error(setmetatable({}, {__tostring=function() return 'ts' end}))",
              "ERR unknown error"),
  });
}

}  // namespace
}  // namespace redlab::conformance
