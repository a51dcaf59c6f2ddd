// Functions: FUNCTION LOAD and the library code's shebang, redis.register_function in both forms,
// the load-time sandbox, FCALL and FCALL_RO with the functions' flags, FUNCTION LIST, DELETE,
// FLUSH, STATS and HELP, with Redis's exact replies and error texts.
#include "conformance/function_util.h"
#include "conformance/help_reply.h"

namespace redlab::conformance {
namespace {

const std::string kBadName =
    "ERR Library names can only contain letters, numbers, or underscores(_) and must be at least "
    "one character long";

// The reply to FUNCTION LOAD of a library that fails while registering its functions.
Reply RegisterError(std::string_view message) {
  return Error("ERR Error registering functions: " + std::string(message));
}

TEST_F(FunctionTest, LoadAndCall) {
  EXPECT_EQ(Load(FunctionCode("test", "test", "return 'hello'")), Bulk("test"));
  EXPECT_EQ(c()({"FCALL", "test", "0"}), Bulk("hello"));
  // Function names are looked up ignoring case; library names are not.
  EXPECT_EQ(c()({"FCALL", "TEST", "0"}), Bulk("hello"));
  EXPECT_EQ(Load(FunctionCode("test", "other", "return 1")),
            Error("ERR Library 'test' already exists"));
  EXPECT_EQ(c()({"FUNCTION", "DELETE", "TEST"}), Error("ERR Library not found"));
  // The keys and arguments come as the function's two arguments; there are no KEYS or ARGV.
  EXPECT_EQ(Load(Library("args",
                         "redis.register_function('args', function(keys, args) "
                         "return {keys, args, #keys, #args} end)")),
            Bulk("args"));
  EXPECT_EQ(c()({"FCALL", "args", "2", "k1", "k2", "a1"}),
            Array({Array({Bulk("k1"), Bulk("k2")}), Array({Bulk("a1")}), Int(2), Int(1)}));
  EXPECT_EQ(Load(Library("globals",
                         "redis.register_function('globals', function()\n"
                         "  return KEYS\n"
                         "end)")),
            Bulk("globals"));
  EXPECT_EQ(c()({"FCALL", "globals", "0"}),
            Error("ERR user_function:3: Script attempted to access nonexistent global variable "
                  "'KEYS' script: globals, on @user_function:3."));
  // Library code shares local helpers between its functions and sees the default globals.
  EXPECT_EQ(Load(Library("shared",
                         "local function add1(a) return a + 1 end\n"
                         "local function ping() return redis.call('ping') end\n"
                         "redis.register_function('f1', function() return add1(1) end)\n"
                         "redis.register_function('f2', function() return ping() end)")),
            Bulk("shared"));
  EXPECT_EQ(c()({"FCALL", "f1", "0"}), Int(2));
  EXPECT_EQ(c()({"FCALL", "f2", "0"}), Status("PONG"));
  // A function can keep its keys table in an upvalue: each call gets new tables, so the table
  // kept from the first call still holds the first call's key.
  EXPECT_EQ(Load(Library("keep",
                         "local kept\n"
                         "redis.register_function('keep', function(keys)\n"
                         "  if kept == nil then kept = keys end\n"
                         "  return {kept[1], keys[1]}\n"
                         "end)")),
            Bulk("keep"));
  EXPECT_EQ(c()({"FCALL", "keep", "1", "a"}), Array({Bulk("a"), Bulk("a")}));
  EXPECT_EQ(c()({"FCALL", "keep", "1", "b"}), Array({Bulk("a"), Bulk("b")}));
}

TEST_F(FunctionTest, FcallArguments) {
  ASSERT_EQ(Load(FunctionCode("test", "test", "return 'hello'")), Bulk("test"));
  EXPECT_EQ(c()({"FCALL", "nosuch", "0"}), Error("ERR Function not found"));
  EXPECT_EQ(c()({"FCALL", "test", "bad_arg"}), Error("ERR Bad number of keys provided"));
  EXPECT_EQ(c()({"FCALL", "test", "10", "key1"}),
            Error("ERR Number of keys can't be greater than number of args"));
  EXPECT_EQ(c()({"FCALL", "test", "-1", "key1"}), Error("ERR Number of keys can't be negative"));
  EXPECT_EQ(c()({"FCALL", "test"}), Error("ERR wrong number of arguments for 'fcall' command"));
  EXPECT_EQ(c()({"COMMAND", "GETKEYS", "FCALL", "test", "1", "x", "foo"}), Array({Bulk("x")}));
  EXPECT_EQ(c()({"COMMAND", "GETKEYS", "FCALL_RO", "test", "2", "x", "y", "foo"}),
            Array({Bulk("x"), Bulk("y")}));
}

TEST_F(FunctionTest, LoadArguments) {
  std::string code = FunctionCode("test", "test", "return 'hello'");
  EXPECT_EQ(c().Call({"FUNCTION", "LOAD", "foo", "bar", code}),
            Error("ERR Unknown option given: foo"));
  EXPECT_EQ(c().Call({"FUNCTION", "LOAD", "replace", "replace", code}), Bulk("test"));
  EXPECT_EQ(c()({"FUNCTION", "LOAD"}),
            Error("ERR wrong number of arguments for 'function|load' command"));
}

TEST_F(FunctionTest, Shebang) {
  std::string body = "\nredis.register_function('foo', function() return 1 end)";
  EXPECT_EQ(Load("redis.register_function('foo', function() return 1 end)"),
            Error("ERR Missing library metadata"));
  EXPECT_EQ(Load("#!lua name=nonewline"), Error("ERR Invalid library metadata"));
  EXPECT_EQ(Load("#!lua name=\"unbalanced" + body), Error("ERR Invalid library metadata"));
  EXPECT_EQ(Load("#! name=test" + body), Error("ERR Engine '' not found"));
  EXPECT_EQ(Load("#!bad_engine name=test" + body), Error("ERR Engine 'bad_engine' not found"));
  EXPECT_EQ(Load("#!lua name=test foo=bar" + body),
            Error("ERR Invalid metadata value given: foo=bar"));
  EXPECT_EQ(Load("#!lua" + body), Error("ERR Library name was not given"));
  EXPECT_EQ(Load("#!lua name=foo name=bar" + body),
            Error("ERR Invalid metadata value, name argument was given multiple times"));
  // The shebang line ends at a NUL byte, as C's strchr sees it.
  EXPECT_EQ(Load(std::string("#!lua name=bad\0name", 19) + body),
            Error("ERR Invalid library metadata"));
  EXPECT_EQ(Load("#!lua name=bad-name" + body), Error(kBadName));
  EXPECT_EQ(Load("#!lua name=" + body), Error(kBadName));
  // The engine's name ignores case, the name may be quoted and NAME= is a name too.
  EXPECT_EQ(Load("#!LUA NAME=\"quoted\"" + body), Bulk("quoted"));
  EXPECT_EQ(c()({"FCALL", "foo", "0"}), Int(1));
}

TEST_F(FunctionTest, CompileAndRunErrorsAtLoad) {
  EXPECT_EQ(Load(FunctionCode("test", "test", "bad script")),
            Error("ERR Error compiling function: user_function:3: '=' expected near 'script'"));
  EXPECT_EQ(Load(Library("lib", "return 1")), Error("ERR No functions registered"));
  EXPECT_EQ(Load(Library("lib", "local x = nil + 1")),
            RegisterError("ERR user_function:2: attempt to perform arithmetic on a nil value"));
  // A failed REPLACE keeps the old library.
  ASSERT_EQ(Load(FunctionCode("test", "test", "return 'hello'")), Bulk("test"));
  EXPECT_EQ(LoadReplace(FunctionCode("test", "test", "bad script")).type, Reply::Type::kError);
  EXPECT_EQ(LoadReplace(Library("test", "return 1")), Error("ERR No functions registered"));
  EXPECT_EQ(c()({"FCALL", "test", "0"}), Bulk("hello"));
  EXPECT_EQ(LoadReplace(FunctionCode("test", "test", "return 'hello1'")), Bulk("test"));
  EXPECT_EQ(c()({"FCALL", "test", "0"}), Bulk("hello1"));
}

TEST_F(FunctionTest, RegisterFunctionErrors) {
  struct Case {
    std::string code;
    Reply expected;
  };
  std::vector<Case> cases = {
      {"redis.register_function()",
       RegisterError("ERR wrong number of arguments to redis.register_function")},
      {"redis.register_function('f1', function() return 1 end, {}, 'description', 'extra arg')",
       RegisterError("ERR wrong number of arguments to redis.register_function")},
      {"redis.register_function('f1')",
       RegisterError("ERR calling redis.register_function with a single argument is only "
                     "applicable to Lua table (representing named arguments).")},
      {"redis.register_function(nil, function() return 1 end)",
       RegisterError("ERR first argument to redis.register_function must be a string")},
      {"redis.register_function('f1', 'not a function')",
       RegisterError("ERR second argument to redis.register_function must be a function")},
      {"redis.register_function('test\\0test', function() return 1 end)", RegisterError(kBadName)},
      {"redis.register_function('', function() return 1 end)", RegisterError(kBadName)},
      {"redis.register_function('f1', function() return 1 end)\n"
       "redis.register_function('f1', function() return 1 end)",
       RegisterError("ERR Function already exists in the library")},
      {"redis.register_function{function_name=function() return 1 end, callback=function() "
       "return 'hello' end}",
       RegisterError(
           "ERR function_name argument given to redis.register_function must be a string")},
      {"redis.register_function{function_name='f1', callback='bad'}",
       RegisterError("ERR callback argument given to redis.register_function must be a function")},
      {"redis.register_function{function_name='f1', callback=function() return 1 end, "
       "description=function() return 1 end}",
       RegisterError("ERR description argument given to redis.register_function must be a string")},
      {"redis.register_function{function_name='f1', callback=function() return 1 end, "
       "some_unknown='unknown'}",
       RegisterError("ERR unknown argument given to redis.register_function")},
      {"redis.register_function{callback=function() return 'hello' end, description='desc'}",
       RegisterError("ERR redis.register_function must get a function name argument")},
      {"redis.register_function{function_name='f1', description='desc'}",
       RegisterError("ERR redis.register_function must get a callback argument")},
      {"redis.register_function{function_name='f1', callback=function() return 1 end, "
       "flags='bad flags type'}",
       RegisterError("ERR flags argument to redis.register_function must be a table "
                     "representing function flags")},
      {"redis.register_function{function_name='f1', callback=function() return 1 end, "
       "flags={function() return 1 end}}",
       RegisterError("ERR unknown flag given")},
      {"redis.register_function{function_name='f1', callback=function() return 1 end, "
       "flags={'unknown'}}",
       RegisterError("ERR unknown flag given")},
  };
  for (const Case& t : cases) {
    EXPECT_EQ(LoadReplace(Library("lib2", t.code)), t.expected) << t.code;
  }
  // None of them left a library or a function behind.
  EXPECT_EQ(c()({"FUNCTION", "LIST"}), Array({}));
}

TEST_F(FunctionTest, FailedRegistrationRevertsTheWholeLoad) {
  ASSERT_EQ(Load(Library("lib1",
                         "redis.register_function('f1', function() return 1 end)\n"
                         "redis.register_function('f2', function() return 2 end)")),
            Bulk("lib1"));
  EXPECT_EQ(LoadReplace(Library("lib1",
                                "redis.register_function('f1', function() return 3 end)\n"
                                "redis.register_function('f2', 'not a function')")),
            RegisterError("ERR second argument to redis.register_function must be a function"));
  EXPECT_EQ(c()({"FCALL", "f1", "0"}), Int(1));
  // A function name taken by another library fails the load, whatever the case.
  EXPECT_EQ(LoadReplace(Library("lib2", "redis.register_function('F1', function() return 4 end)")),
            Error("ERR Function F1 already exists"));
  EXPECT_EQ(c()({"FCALL", "f2", "0"}), Int(2));
  // Replacing a library may register its own functions again.
  EXPECT_EQ(LoadReplace(Library("lib1", "redis.register_function('f1', function() return 5 end)")),
            Bulk("lib1"));
  EXPECT_EQ(c()({"FCALL", "f1", "0"}), Int(5));
  EXPECT_EQ(c()({"FCALL", "f2", "0"}), Error("ERR Function not found"));
}

TEST_F(FunctionTest, LoadTimeSandbox) {
  std::string nonexistent =
      "ERR user_function:2: Script attempted to access nonexistent global "
      "variable ";
  EXPECT_EQ(Load(Library("lib", "return math.random()")), RegisterError(nonexistent + "'math'"));
  EXPECT_EQ(Load(Library("lib", "return redis.call('ping')")),
            RegisterError(nonexistent + "'call'"));
  EXPECT_EQ(Load(Library("lib", "return redis.setresp(3)")),
            RegisterError(nonexistent + "'setresp'"));
  EXPECT_EQ(Load(Library("lib", "return redis.set_repl(redis.REPL_NONE)")),
            RegisterError(nonexistent + "'set_repl'"));
  EXPECT_EQ(Load(Library("lib", "redis.math.random()")), RegisterError(nonexistent + "'math'"));
  EXPECT_EQ(Load(Library("lib", "redis.redis.call('ping')")),
            RegisterError(nonexistent + "'redis'"));
  EXPECT_EQ(Load(Library("lib", "mt = getmetatable(_G)")),
            RegisterError(nonexistent + "'getmetatable'"));
  EXPECT_EQ(Load(Library("lib", "a = 1")),
            RegisterError("ERR user_function:2: Attempt to modify a readonly table"));
  EXPECT_EQ(Load(Library("lib", "redis.x = 1")),
            RegisterError("ERR user_function:2: Attempt to modify a readonly table"));
  // What the load-time API has: logging and the version.
  EXPECT_EQ(Load(Library("lib",
                         "redis.log(redis.LOG_NOTICE, 'loading')\n"
                         "local v = redis.REDIS_VERSION .. ' ' .. redis.REDIS_VERSION_NUM\n"
                         "redis.register_function('v', function() return v end)")),
            Bulk("lib"));
  EXPECT_EQ(c()({"FCALL", "v", "0"}), Bulk("7.0.15 458767"));
}

TEST_F(FunctionTest, LoadTimeout) {
  // Code that runs past 500 ms while loading is stopped.
  EXPECT_EQ(Load(Library("lib", "local a = 1\nwhile 1 do a = a + 1 end")),
            RegisterError("ERR FUNCTION LOAD timeout"));
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
}

TEST_F(FunctionTest, RunTimeSandbox) {
  ASSERT_EQ(Load(Library("lib1",
                         "local lib = redis\n"
                         "lib.register_function('f1', function() lib.redis = redis end)\n"
                         "lib.register_function('f2', function()\n"
                         "  lib.register_function('f3', function() return 1 end)\n"
                         "end)\n"
                         "redis.register_function('f4', function()\n"
                         "  redis.register_function('f5', function() return 1 end)\n"
                         "end)\n"
                         "redis.register_function('f6', function() x = 1 end)\n"
                         "redis.register_function('f7', function()\n"
                         "  mt = getmetatable(_G)\n"
                         "end)\n"
                         "redis.register_function('f8', function()\n"
                         "  return {math.random(100) <= 100, type(cjson), redis.sha1hex('')}\n"
                         "end)")),
            Bulk("lib1"));
  EXPECT_EQ(c()({"FCALL", "f1", "0"}),
            Error("ERR user_function:3: Attempt to modify a readonly table script: f1, on "
                  "@user_function:3."));
  // The load-time API kept past the load refuses to register.
  EXPECT_EQ(c()({"FCALL", "f2", "0"}),
            Error("ERR redis.register_function can only be called on FUNCTION LOAD command "
                  "script: f2, on @user_function:5."));
  // The run-time redis table has no register_function.
  EXPECT_EQ(c()({"FCALL", "f4", "0"}),
            Error("ERR user_function:8: attempt to call field 'register_function' (a nil value) "
                  "script: f4, on @user_function:8."));
  EXPECT_EQ(c()({"FCALL", "f6", "0"}),
            Error("ERR user_function:10: Attempt to modify a readonly table script: f6, on "
                  "@user_function:10."));
  EXPECT_EQ(c()({"FCALL", "f7", "0"}),
            Error("ERR user_function:12: Attempt to modify a readonly table script: f7, on "
                  "@user_function:12."));
  EXPECT_EQ(c()({"FCALL", "f8", "0"}),
            Array({Int(1), Bulk("table"), Bulk("da39a3ee5e6b4b0d3255bfef95601890afd80709")}));
}

TEST_F(FunctionTest, FcallRoAndFlags) {
  ASSERT_EQ(Load(NoWritesFunctionCode("ro", "ro_set", "return redis.call('set', 'x', '1')")),
            Bulk("ro"));
  EXPECT_EQ(c()({"FCALL_RO", "ro_set", "0"}),
            Error("ERR Write commands are not allowed from read-only scripts. script: ro_set, on "
                  "@user_function:3."));
  EXPECT_EQ(c()({"FCALL", "ro_set", "0"}),
            Error("ERR Write commands are not allowed from read-only scripts. script: ro_set, on "
                  "@user_function:3."));
  // Commands that may replicate count as writes.
  ASSERT_EQ(LoadReplace(NoWritesFunctionCode("ro", "ro_publish",
                                             "return redis.call('publish', "
                                             "'ch', 'm')")),
            Bulk("ro"));
  EXPECT_EQ(c()({"FCALL", "ro_publish", "0"}),
            Error("ERR Write commands are not allowed from read-only scripts. script: "
                  "ro_publish, on @user_function:3."));
  ASSERT_EQ(LoadReplace(NoWritesFunctionCode("ro", "ro_get", "return redis.call('get', 'x')")),
            Bulk("ro"));
  c()({"SET", "x", "1"});
  EXPECT_EQ(c()({"FCALL_RO", "ro_get", "0"}), Bulk("1"));
  EXPECT_EQ(c()({"FCALL", "ro_get", "0"}), Bulk("1"));
  // A function that may write cannot run with FCALL_RO at all.
  ASSERT_EQ(Load(FunctionCode("rw", "rw_set", "return redis.call('set', KEYS[1], ARGV[1])")),
            Bulk("rw"));
  EXPECT_EQ(c()({"FCALL_RO", "rw_set", "1", "x", "foo"}),
            Error("ERR Can not execute a script with write flag using *_ro command."));
  EXPECT_EQ(c()({"FCALL", "rw_set", "1", "x", "foo"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "x"}), Bulk("foo"));
}

TEST_F(FunctionTest, FlagsOverMaxmemory) {
  ASSERT_EQ(Load(Library("lib",
                         "redis.register_function('plain', function() "
                         "return redis.call('set', 'x', '1') end)\n"
                         "redis.register_function{function_name='oom', callback=function() "
                         "return redis.call('set', 'x', '2') end, flags={'allow-oom'}}\n"
                         "redis.register_function{function_name='ro', callback=function() "
                         "return 'hello' end, flags={'no-writes'}}")),
            Bulk("lib"));
  std::string code = FunctionCode("other", "other", "return 1");
  ASSERT_EQ(c()({"CONFIG", "SET", "maxmemory", "1"}), Status("OK"));
  const Reply oom = Error("OOM command not allowed when used memory > 'maxmemory'.");
  EXPECT_EQ(c()({"FCALL", "plain", "1", "x"}), oom);
  EXPECT_EQ(c()({"FCALL", "oom", "1", "x"}), Status("OK"));
  EXPECT_EQ(c()({"FCALL", "ro", "1", "x"}), Bulk("hello"));
  EXPECT_EQ(c()({"FCALL_RO", "ro", "1", "x"}), Bulk("hello"));
  EXPECT_EQ(Load(code), oom);
  ASSERT_EQ(c()({"CONFIG", "SET", "maxmemory", "0"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "x"}), Bulk("2"));

  // A transaction holding such a call, queued before the node went over maxmemory, is refused
  // whole at EXEC.
  Client other = Connect();
  ASSERT_EQ(c()({"MULTI"}), Status("OK"));
  ASSERT_EQ(c()({"FCALL", "plain", "1", "x"}), Status("QUEUED"));
  ASSERT_EQ(other({"CONFIG", "SET", "maxmemory", "1"}), Status("OK"));
  EXPECT_EQ(c()({"EXEC"}), Error("EXECABORT Transaction discarded because of: OOM command not "
                                 "allowed when used memory > 'maxmemory'."));
  ASSERT_EQ(other({"CONFIG", "SET", "maxmemory", "0"}), Status("OK"));
  ASSERT_EQ(c()({"MULTI"}), Status("OK"));
  ASSERT_EQ(c()({"FCALL", "ro", "1", "x"}), Status("QUEUED"));
  ASSERT_EQ(other({"CONFIG", "SET", "maxmemory", "1"}), Status("OK"));
  EXPECT_EQ(c()({"EXEC"}), Array({Bulk("hello")}));
  ASSERT_EQ(other({"CONFIG", "SET", "maxmemory", "0"}), Status("OK"));
}

TEST_F(FunctionTest, AllowStale) {
  ASSERT_EQ(Load(Library("test",
                         "redis.register_function{function_name='f1', callback=function() "
                         "return 'hello' end, flags={'no-writes'}}\n"
                         "redis.register_function{function_name='f2', callback=function() "
                         "return 'hello' end, flags={'allow-stale', 'no-writes'}}\n"
                         "redis.register_function{function_name='f3', callback=function() "
                         "return redis.call('get', 'x') end, flags={'allow-stale', "
                         "'no-writes'}}\n"
                         "redis.register_function{function_name='f4', callback=function() "
                         "return redis.call('info', 'server') end, flags={'allow-stale', "
                         "'no-writes'}}")),
            Bulk("test"));
  ASSERT_EQ(c()({"CONFIG", "SET", "replica-serve-stale-data", "no"}), Status("OK"));
  // A master no one runs: the link stays down.
  ASSERT_EQ(c()({"REPLICAOF", "127.0.0.1", std::to_string(FreePort())}), Status("OK"));
  EXPECT_EQ(c()({"FCALL", "f1", "0"}),
            Error("MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to "
                  "'no'."));
  EXPECT_EQ(c()({"FCALL", "f2", "0"}), Bulk("hello"));
  EXPECT_EQ(c()({"FCALL", "f3", "0"}),
            Error("ERR Can not execute the command on a stale replica script: f3, on "
                  "@user_function:4."));
  Reply info = c()({"FCALL", "f4", "0"});
  EXPECT_NE(info.str.find("redis_version:"), std::string::npos) << info;
  // A script's shebang decides as a function's flags do.
  EXPECT_EQ(c()({"EVAL", "#!lua flags=no-writes\nreturn 1", "0"}),
            Error("MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to "
                  "'no'."));
  EXPECT_EQ(c()({"EVAL", "#!lua flags=no-writes,allow-stale\nreturn 1", "0"}), Int(1));
  EXPECT_EQ(c()({"EVAL", "return 1", "0"}),
            Error("MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to "
                  "'no'."));
  ASSERT_EQ(c()({"REPLICAOF", "NO", "ONE"}), Status("OK"));
  ASSERT_EQ(c()({"CONFIG", "SET", "replica-serve-stale-data", "yes"}), Status("OK"));
}

TEST_F(FunctionTest, FunctionsAreApartFromScripts) {
  ASSERT_EQ(Load(FunctionCode("test", "test", "return 'hello'")), Bulk("test"));
  Reply sha = c()({"SCRIPT", "LOAD", "return 1"});
  // FLUSHALL, SCRIPT FLUSH and FUNCTION FLUSH each leave the other's alone.
  EXPECT_EQ(c()({"FLUSHALL"}), Status("OK"));
  EXPECT_EQ(c()({"SCRIPT", "FLUSH"}), Status("OK"));
  EXPECT_EQ(c()({"FCALL", "test", "0"}), Bulk("hello"));
  sha = c()({"SCRIPT", "LOAD", "return 1"});
  EXPECT_EQ(c()({"FUNCTION", "FLUSH"}), Status("OK"));
  EXPECT_EQ(c()({"SCRIPT", "EXISTS", sha.str}), Array({Int(1)}));
  EXPECT_EQ(c()({"FCALL", "test", "0"}), Error("ERR Function not found"));
}

TEST_F(FunctionTest, FcallInTransaction) {
  ASSERT_EQ(Load(FunctionCode("test", "incr", "return redis.call('incr', KEYS[1])")), Bulk("test"));
  EXPECT_EQ(c()({"MULTI"}), Status("OK"));
  EXPECT_EQ(c()({"FCALL", "incr", "1", "n"}), Status("QUEUED"));
  EXPECT_EQ(c()({"FCALL", "incr", "1", "n"}), Status("QUEUED"));
  EXPECT_EQ(c()({"EXEC"}), Array({Int(1), Int(2)}));
  // FUNCTION commands cannot run from scripts.
  EXPECT_EQ(c()({"EVAL", "return redis.call('function', 'flush')", "0"}).str.substr(0, 47),
            "ERR This Redis command is not allowed from scri");
}

TEST_F(FunctionTest, DeleteAndFlush) {
  ASSERT_EQ(Load(FunctionCode("test", "test", "return 'hello'")), Bulk("test"));
  EXPECT_EQ(c()({"FUNCTION", "DELETE", "test1"}), Error("ERR Library not found"));
  EXPECT_EQ(c()({"FUNCTION", "DELETE", "test"}), Status("OK"));
  EXPECT_EQ(c()({"FCALL", "test", "0"}), Error("ERR Function not found"));
  EXPECT_EQ(c()({"FUNCTION", "LIST"}), Array({}));
  for (std::string_view mode : {"", "async", "SYNC"}) {
    ASSERT_EQ(Load(FunctionCode("test", "test", "return 'hello'")), Bulk("test"));
    std::vector<std::string> flush = {"FUNCTION", "FLUSH"};
    if (!mode.empty()) flush.emplace_back(mode);
    EXPECT_EQ(c().Call(flush), Status("OK"));
    EXPECT_EQ(c()({"FUNCTION", "LIST"}), Array({}));
  }
  EXPECT_EQ(c()({"FUNCTION", "FLUSH", "bad_arg"}),
            Error("ERR FUNCTION FLUSH only supports SYNC|ASYNC option"));
  EXPECT_EQ(c()({"FUNCTION", "flush", "sync", "extra_arg"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'flush'. Try FUNCTION "
                  "HELP."));
  EXPECT_EQ(c()({"FUNCTION", "bad_subcommand"}),
            Error("ERR unknown subcommand 'bad_subcommand'. Try FUNCTION HELP."));
}

TEST_F(FunctionTest, List) {
  ASSERT_EQ(Load(Library("library1", "redis.register_function('f6', function() return 7 end)")),
            Bulk("library1"));
  EXPECT_EQ(c()({"FUNCTION", "LIST"}), Array({ListEntry("library1", {"f6"})}));
  EXPECT_EQ(c()({"FUNCTION", "LIST", "WITHCODE"}),
            Array({Array({Bulk("library_name"), Bulk("library1"), Bulk("engine"), Bulk("LUA"),
                          Bulk("functions"),
                          Array({Array({Bulk("name"), Bulk("f6"), Bulk("description"), Nil(),
                                        Bulk("flags"), Array({})})}),
                          Bulk("library_code"),
                          Bulk(Library("library1",
                                       "redis.register_function('f6', function() "
                                       "return 7 end)"))})}));
  ASSERT_EQ(Load(Library("lib1",
                         "redis.register_function{function_name='f7', callback=function() "
                         "return 7 end, description='some desc', flags={'ALLOW-STALE', "
                         "'no-writes', 'allow-cross-slot-keys', 'no-cluster', 'allow-oom'}}")),
            Bulk("lib1"));
  // LIBRARYNAME is a glob pattern that ignores case; flags come in Redis's order.
  EXPECT_EQ(
      c()({"FUNCTION", "LIST", "LIBRARYNAME", "LIB?"}),
      Array({Array(
          {Bulk("library_name"), Bulk("lib1"), Bulk("engine"), Bulk("LUA"), Bulk("functions"),
           Array({Array({Bulk("name"), Bulk("f7"), Bulk("description"), Bulk("some desc"),
                         Bulk("flags"),
                         Array({Status("no-writes"), Status("allow-oom"), Status("allow-stale"),
                                Status("no-cluster"), Status("allow-cross-slot-keys")})})})})}));
  EXPECT_EQ(c()({"FUNCTION", "LIST", "libraryname", "library*"}),
            Array({ListEntry("library1", {"f6"})}));
  EXPECT_EQ(c()({"FUNCTION", "LIST", "libraryname", "none*"}), Array({}));
  EXPECT_EQ(c()({"FUNCTION", "LIST", "bad_argument"}), Error("ERR Unknown argument bad_argument"));
  EXPECT_EQ(c()({"FUNCTION", "LIST", "libraryname"}),
            Error("ERR library name argument was not given"));
  EXPECT_EQ(c()({"FUNCTION", "LIST", "withcode", "withcode"}),
            Error("ERR Unknown argument withcode"));
  EXPECT_EQ(c()({"FUNCTION", "LIST", "withcode", "libraryname", "foo", "libraryname", "foo"}),
            Error("ERR Unknown argument libraryname"));
}

TEST_F(FunctionTest, ListInResp3) {
  ASSERT_EQ(Load(Library("lib",
                         "redis.register_function{function_name='f', callback=function() "
                         "return 1 end, flags={'no-writes'}}")),
            Bulk("lib"));
  c()({"HELLO", "3"});
  EXPECT_EQ(c().Raw({"FUNCTION", "LIST"}),
            "*1\r\n%3\r\n$12\r\nlibrary_name\r\n$3\r\nlib\r\n$6\r\nengine\r\n$3\r\nLUA\r\n"
            "$9\r\nfunctions\r\n*1\r\n%3\r\n$4\r\nname\r\n$1\r\nf\r\n$11\r\ndescription\r\n_\r\n"
            "$5\r\nflags\r\n~1\r\n+no-writes\r\n");
  EXPECT_EQ(c().Raw({"FUNCTION", "STATS"}),
            "%2\r\n$14\r\nrunning_script\r\n_\r\n$7\r\nengines\r\n%1\r\n$3\r\nLUA\r\n%2\r\n"
            "$15\r\nlibraries_count\r\n:1\r\n$15\r\nfunctions_count\r\n:1\r\n");
}

TEST_F(FunctionTest, Stats) {
  auto stats = [](int64_t libraries, int64_t functions) {
    return Array({Bulk("running_script"), Nil(), Bulk("engines"),
                  Array({Bulk("LUA"), Array({Bulk("libraries_count"), Int(libraries),
                                             Bulk("functions_count"), Int(functions)})})});
  };
  EXPECT_EQ(c()({"FUNCTION", "STATS"}), stats(0, 0));
  ASSERT_EQ(Load(Library("test1",
                         "redis.register_function('f1', function() return 1 end)\n"
                         "redis.register_function('f2', function() return 1 end)")),
            Bulk("test1"));
  ASSERT_EQ(Load(Library("test2", "redis.register_function('f3', function() return 1 end)")),
            Bulk("test2"));
  EXPECT_EQ(c()({"FUNCTION", "STATS"}), stats(2, 3));
  EXPECT_EQ(Load(Library("test1", "redis.register_function('f4', function() return 1 end)")),
            Error("ERR Library 'test1' already exists"));
  EXPECT_EQ(c()({"FUNCTION", "STATS"}), stats(2, 3));
  EXPECT_EQ(c()({"FUNCTION", "DELETE", "test1"}), Status("OK"));
  EXPECT_EQ(c()({"FUNCTION", "STATS"}), stats(1, 1));
  EXPECT_EQ(c()({"FUNCTION", "FLUSH"}), Status("OK"));
  EXPECT_EQ(c()({"FUNCTION", "STATS"}), stats(0, 0));
  EXPECT_EQ(c()({"FUNCTION", "KILL"}), Error("NOTBUSY No scripts in execution right now."));
}

TEST_F(FunctionTest, InfoMemory) {
  EXPECT_EQ(InfoField(c(), "memory", "number_of_functions"), "0");
  EXPECT_EQ(InfoField(c(), "memory", "number_of_libraries"), "0");
  EXPECT_EQ(InfoField(c(), "memory", "used_memory_functions"), "200");
  ASSERT_EQ(Load(Library("test1",
                         "redis.register_function('f1', function() return 1 end)\n"
                         "redis.register_function('f2', function() return 1 end)")),
            Bulk("test1"));
  EXPECT_EQ(InfoField(c(), "memory", "number_of_functions"), "2");
  EXPECT_EQ(InfoField(c(), "memory", "number_of_libraries"), "1");
  int64_t functions = std::stoll(InfoField(c(), "memory", "used_memory_functions"));
  int64_t vm_functions = std::stoll(InfoField(c(), "memory", "used_memory_vm_functions"));
  int64_t vm_eval = std::stoll(InfoField(c(), "memory", "used_memory_vm_eval"));
  int64_t scripts_eval = std::stoll(InfoField(c(), "memory", "used_memory_scripts_eval"));
  EXPECT_GT(functions, 200);
  EXPECT_GT(vm_functions, 0);
  EXPECT_EQ(std::stoll(InfoField(c(), "memory", "used_memory_vm_total")), vm_eval + vm_functions);
  EXPECT_EQ(std::stoll(InfoField(c(), "memory", "used_memory_scripts")), scripts_eval + functions);
}

TEST_F(FunctionTest, Help) {
  ExpectHelp(c()({"FUNCTION", "HELP"}), 40,
             {{0, HelpHeader("FUNCTION")},
              {1, "LOAD [REPLACE] <FUNCTION CODE>"},
              {29,
               "    Return a serialized payload representing the current libraries, can be "
               "restored using FUNCTION RESTORE command"},
              {37, "      in case of functions name collision with another library)."},
              {39, "    Prints this help."}});
}

}  // namespace
}  // namespace redlab::conformance
