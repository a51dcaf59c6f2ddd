// ACL enforcement: NOPERM for commands, keys and channels (processCommand), inside MULTI/EXEC
// and scripts, authentication as ACL users (AUTH, HELLO, requirepass), and what happens to the
// clients of users that change or go away.
#include "conformance/acl_util.h"
#include "conformance/harness/topology.h"
#include "conformance/scripting_util.h"

namespace redlab::conformance {
namespace {

const Reply kKeyDenied =
    Error("NOPERM this user has no permissions to access one of the keys used as arguments");
const Reply kChannelDenied =
    Error("NOPERM this user has no permissions to access one of the channels used as arguments");
const Reply kWrongPass = Error("WRONGPASS invalid username-password pair or user is disabled.");

Reply CommandDenied(std::string_view name) {
  return Error("NOPERM this user has no permissions to run the '" + std::string(name) +
               "' command");
}

using AclEnforceTest = AclTest;

TEST_F(AclEnforceTest, CommandsAndSubcommands) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "on", ">pw", "allkeys", "+@all", "-ping", "-client|kill",
                   "-@string"}),
            Status("OK"));
  Client c = ConnectAs("u");
  EXPECT_EQ(c({"PING"}), CommandDenied("ping"));
  EXPECT_EQ(c({"SET", "foo", "bar"}), CommandDenied("set"));
  EXPECT_EQ(c({"CLIENT", "KILL", "TYPE", "master"}), CommandDenied("client|kill"));
  EXPECT_EQ(c({"SADD", "s", "a"}), Int(1));
  EXPECT_EQ(c({"CLIENT", "SETNAME", "x"}), Status("OK"));
  // Arity and unknown commands are found before permissions.
  EXPECT_EQ(c({"GET"}), Error("ERR wrong number of arguments for 'get' command"));
  // A first argument allowed on its own.
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "-@all", "+select|0"}), Status("OK"));
  EXPECT_EQ(c({"SELECT", "0"}), Status("OK"));
  EXPECT_EQ(c({"SELECT", "1"}), CommandDenied("select"));
  // Commands that need no authentication are never refused.
  EXPECT_EQ(c({"AUTH", "u", "pw"}), Status("OK"));
}

TEST_F(AclEnforceTest, Keys) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "on", ">pw", "+@all", "~foo:*", "%R~read*", "%W~write*"}),
            Status("OK"));
  EXPECT_EQ(admin({"SET", "readstr", "bar"}), Status("OK"));
  Client c = ConnectAs("u");
  EXPECT_EQ(c({"SET", "foo:1", "a"}), Status("OK"));
  EXPECT_EQ(c({"SET", "zap:3", "c"}), kKeyDenied);
  EXPECT_EQ(c({"MSET", "foo:1", "a", "zap", "b"}), kKeyDenied);
  EXPECT_EQ(c({"GET", "readstr"}), Bulk("bar"));
  EXPECT_EQ(c({"SET", "readstr", "x"}), kKeyDenied);
  EXPECT_EQ(c({"LPUSH", "writelist", "1"}), Int(1));
  EXPECT_EQ(c({"LRANGE", "writelist", "0", "-1"}), kKeyDenied);
  EXPECT_EQ(c({"SET", "writestr", "v"}), Status("OK"));
  EXPECT_EQ(c({"SET", "writestr", "v", "GET"}), kKeyDenied);
  EXPECT_EQ(c({"EXISTS", "writestr", "readstr"}), Int(2));
  EXPECT_EQ(c({"BITFIELD", "readstr", "GET", "u4", "0"}), Array({Int(6)}));
  EXPECT_EQ(c({"BITFIELD", "readstr", "INCRBY", "u4", "0", "1"}), kKeyDenied);
  // Commands without keys need no key pattern.
  EXPECT_EQ(c({"DBSIZE"}), Int(4));
}

// SORT's BY and GET read keys no key spec names: they need a selector that may run the SORT and
// read every key (acl-v2.tcl's "Test sort with ACL permissions").
TEST_F(AclEnforceTest, SortByAndGetNeedAccessToEveryKey) {
  Client admin = Connect();
  ASSERT_EQ(admin({"SET", "v1", "1"}), Status("OK"));
  ASSERT_EQ(admin({"LPUSH", "mylist", "1"}), Int(1));
  ASSERT_EQ(admin({"ACL", "SETUSER", "s", "on", ">pw", "(+sort ~mylist)"}), Status("OK"));
  Client c = ConnectAs("s");
  const Reply by_denied = Error("ERR BY option of SORT denied due to insufficient ACL permissions.");
  const Reply get_denied =
      Error("ERR GET option of SORT denied due to insufficient ACL permissions.");
  EXPECT_EQ(c({"SORT", "mylist", "BY", "v*"}), by_denied);
  EXPECT_EQ(c({"SORT", "mylist", "GET", "v*"}), get_denied);
  // A constant BY pattern reads nothing: it only means "do not sort".
  EXPECT_EQ(c({"SORT", "mylist", "BY", "nosort"}), Array({Bulk("1")}));
  ASSERT_EQ(admin({"ACL", "SETUSER", "s", "(+sort ~mylist ~v*)"}), Status("OK"));
  EXPECT_EQ(c({"SORT", "mylist", "BY", "v*"}), by_denied);
  ASSERT_EQ(admin({"ACL", "SETUSER", "s", "(+sort ~mylist %W~*)"}), Status("OK"));
  EXPECT_EQ(c({"SORT", "mylist", "GET", "v*"}), get_denied);
  ASSERT_EQ(admin({"ACL", "SETUSER", "s", "(+sort ~mylist %R~*)"}), Status("OK"));
  EXPECT_EQ(c({"SORT", "mylist", "BY", "v*", "GET", "v*"}), Array({Bulk("1")}));
  ASSERT_EQ(admin({"ACL", "SETUSER", "s", "(+sort allkeys)"}), Status("OK"));
  EXPECT_EQ(c({"SORT", "mylist", "GET", "#"}), Array({Bulk("1")}));
}

TEST_F(AclEnforceTest, SelectorsAreNotAdditive) {
  Client admin = Connect();
  EXPECT_EQ(
      admin({"ACL", "SETUSER", "split", "on", ">pw", "(%R~read* +@all)", "(%W~write* +@all)"}),
      Status("OK"));
  EXPECT_EQ(admin({"ACL", "SETUSER", "joined", "on", ">pw", "%R~read*", "%W~write*", "+@all"}),
            Status("OK"));
  EXPECT_EQ(admin({"SADD", "read", "m"}), Int(1));
  Client split = ConnectAs("split");
  EXPECT_EQ(split({"SMEMBERS", "read"}), Strings({"m"}));
  EXPECT_EQ(split({"SADD", "write", "m"}), Int(1));
  EXPECT_EQ(split({"SUNIONSTORE", "write", "read"}), kKeyDenied);
  Client joined = ConnectAs("joined");
  EXPECT_EQ(joined({"SUNIONSTORE", "write", "read"}), Int(1));
  EXPECT_EQ(joined({"SUNIONSTORE", "read", "write"}), kKeyDenied);
  // Commands of one selector, keys of another.
  EXPECT_EQ(admin({"ACL", "SETUSER", "s", "on", ">pw", "(+@write ~write::*)", "(+@read ~read::*)"}),
            Status("OK"));
  Client s = ConnectAs("s");
  EXPECT_EQ(s({"PING"}), CommandDenied("ping"));
  EXPECT_EQ(s({"SET", "write::foo", "bar"}), Status("OK"));
  EXPECT_EQ(s({"GET", "read::foo"}), Nil());
  EXPECT_EQ(s({"GET", "write::foo"}), kKeyDenied);
}

TEST_F(AclEnforceTest, Channels) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "ps", "on", ">pw", "+@all", "~*", "resetchannels", "&foo:1",
                   "&bar:*"}),
            Status("OK"));
  Client c = ConnectAs("ps", "pw");
  EXPECT_EQ(c({"PUBLISH", "foo:1", "m"}), Int(0));
  EXPECT_EQ(c({"PUBLISH", "bar:2", "m"}), Int(0));
  EXPECT_EQ(c({"PUBLISH", "zap:3", "m"}), kChannelDenied);
  EXPECT_EQ(c({"SPUBLISH", "zap:3", "m"}), kChannelDenied);
  EXPECT_EQ(c({"SUBSCRIBE", "foo:1", "zap:3"}), kChannelDenied);
  EXPECT_EQ(c({"SSUBSCRIBE", "zap:3"}), kChannelDenied);
  // A PSUBSCRIBE pattern must be one of the user's patterns, literally.
  EXPECT_EQ(c({"PSUBSCRIBE", "bar:baz"}), kChannelDenied);
  EXPECT_EQ(c({"UNSUBSCRIBE", "zap:3"}), Array({Bulk("unsubscribe"), Bulk("zap:3"), Int(0)}));
  EXPECT_EQ(c({"PSUBSCRIBE", "bar:*"}), Array({Bulk("psubscribe"), Bulk("bar:*"), Int(1)}));
  EXPECT_EQ(c({"SUBSCRIBE", "foo:1"}), Array({Bulk("subscribe"), Bulk("foo:1"), Int(2)}));
}

TEST_F(AclEnforceTest, TransactionsQueueAndExecCheck) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "on", ">pw", "~*", "+multi", "+exec", "+discard", "+incr",
                   "&allowed"}),
            Status("OK"));
  Client c = ConnectAs("u");
  EXPECT_EQ(c({"MULTI"}), Status("OK"));
  EXPECT_EQ(c({"GET", "x"}), CommandDenied("get"));
  EXPECT_EQ(c({"INCR", "x"}), Status("QUEUED"));
  EXPECT_EQ(c({"EXEC"}), Error("EXECABORT Transaction discarded because of previous errors."));
  // Rules that change between MULTI and EXEC are checked again when EXEC runs the commands.
  EXPECT_EQ(c({"MULTI"}), Status("OK"));
  EXPECT_EQ(c({"INCR", "x"}), Status("QUEUED"));
  EXPECT_EQ(c({"INCR", "y"}), Status("QUEUED"));
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "resetkeys", "~y"}), Status("OK"));
  EXPECT_EQ(c({"EXEC"}),
            Array({Error("NOPERM ACLs rules changed between the moment the transaction was "
                         "accumulated and the EXEC call. This command is no longer allowed for "
                         "the following reason: no permission to touch the specified keys"),
                   Int(1)}));
  EXPECT_EQ(c({"MULTI"}), Status("OK"));
  EXPECT_EQ(c({"INCR", "y"}), Status("QUEUED"));
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "-incr"}), Status("OK"));
  EXPECT_EQ(c({"EXEC"}),
            Array({Error("NOPERM ACLs rules changed between the moment the transaction was "
                         "accumulated and the EXEC call. This command is no longer allowed for "
                         "the following reason: no permission to execute the command or "
                         "subcommand")}));
  EXPECT_EQ(admin({"GET", "x"}), Nil());
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "-exec"}), Status("OK"));
  EXPECT_EQ(c({"MULTI"}), Status("OK"));
  EXPECT_EQ(c({"EXEC"}),
            Error("EXECABORT Transaction discarded because of: NOPERM this user has no "
                  "permissions to run the 'exec' command"));
}

TEST_F(AclEnforceTest, ScriptsRunAsTheirCaller) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "lua", "on", ">pw", "+eval", "+get", "~a*", "resetchannels",
                   "+publish"}),
            Status("OK"));
  Client c = ConnectAs("lua");
  std::string set = "return redis.call('set','a','y')";
  EXPECT_EQ(
      c({"EVAL", set, "0"}),
      ScriptError("ERR The user executing the script can't run this command or subcommand", set));
  std::string get = "return redis.call('get','b')";
  EXPECT_EQ(c({"EVAL", get, "0"}),
            ScriptError("ERR The user executing the script can't access at least one of the keys "
                        "mentioned in the command arguments",
                        get));
  std::string publish = "return redis.call('publish','b','m')";
  EXPECT_EQ(c({"EVAL", publish, "0"}),
            ScriptError("ERR The user executing the script can't publish to the channel "
                        "mentioned in the command",
                        publish));
  EXPECT_EQ(c({"EVAL", "return redis.pcall('set','a','y')", "0"}),
            Error("ERR The user executing the script can't run this command or subcommand"));
  EXPECT_EQ(c({"EVAL", "return redis.call('get','a')", "0"}), Nil());
  EXPECT_EQ(c({"EVAL", "return redis.acl_check_cmd('get','a')", "0"}), Int(1));
  EXPECT_EQ(c({"EVAL", "return redis.acl_check_cmd('get','b')", "0"}), Nil());
  EXPECT_EQ(c({"EVAL", "return redis.acl_check_cmd('set','a','b')", "0"}), Nil());
  // The default user may run it all.
  EXPECT_EQ(admin({"EVAL", "return redis.acl_check_cmd('set','b','c')", "0"}), Int(1));
}

TEST_F(AclEnforceTest, AuthAndHello) {
  Client admin = Connect();
  EXPECT_EQ(admin({"AUTH", "pw"}),
            Error("ERR AUTH <password> called without any password configured for the default "
                  "user. Are you sure your configuration is correct?"));
  EXPECT_EQ(admin({"ACL", "SETUSER", "newuser", ">passwd1"}), Status("OK"));
  Client c = Connect();
  EXPECT_EQ(c({"AUTH", "newuser", "passwd1"}), kWrongPass);  // off
  EXPECT_EQ(admin({"ACL", "SETUSER", "newuser", "on", "+acl"}), Status("OK"));
  EXPECT_EQ(c({"AUTH", "newuser", "passwd2"}), kWrongPass);
  EXPECT_EQ(c({"AUTH", "nobody", "passwd1"}), kWrongPass);
  EXPECT_EQ(c({"AUTH", "newuser", "passwd1"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "WHOAMI"}), Bulk("newuser"));
  EXPECT_EQ(c({"AUTH", "a", "b", "c"}), Error("ERR syntax error"));
  EXPECT_EQ(admin({"ACL", "SETUSER", "any", "on", "nopass", "+@all"}), Status("OK"));
  EXPECT_EQ(c({"AUTH", "any", "zipzapblabla"}), Status("OK"));
  Client h = Connect();
  EXPECT_EQ(h({"HELLO", "2", "AUTH", "newuser", "bad"}), kWrongPass);
  EXPECT_EQ(h({"HELLO", "2", "AUTH", "newuser", "passwd1"}).elements[0], Bulk("server"));
  EXPECT_EQ(h({"ACL", "WHOAMI"}), Bulk("newuser"));
  // RESET goes back to the default user.
  EXPECT_EQ(h({"RESET"}), Status("RESET"));
  EXPECT_EQ(h({"ACL", "WHOAMI"}), Bulk("default"));
}

TEST_F(AclEnforceTest, DefaultUserOffOrWithoutCommands) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "secure", ">supass", "on", "+@all"}), Status("OK"));
  EXPECT_EQ(admin({"ACL", "SETUSER", "default", "off"}), Status("OK"));
  Client c = Connect();
  EXPECT_EQ(c({"PING"}), Error("NOAUTH Authentication required."));
  EXPECT_EQ(c({"AUTH", "default", ""}), kWrongPass);
  // Connections made before keep the default user.
  EXPECT_EQ(admin({"ACL", "SETUSER", "default", "on", "-@all"}), Status("OK"));
  EXPECT_EQ(admin({"PING"}), CommandDenied("ping"));
  Client h = Connect();
  EXPECT_EQ(h({"HELLO", "2", "AUTH", "secure", "supass"}).elements[0], Bulk("server"));
  EXPECT_EQ(h({"ACL", "SETUSER", "default", "nopass", "+@all"}), Status("OK"));
  EXPECT_EQ(admin({"PING"}), Status("PONG"));
}

TEST_F(AclEnforceTest, RequirepassIsTheDefaultUsersPassword) {
  Client admin = Connect();
  EXPECT_EQ(admin({"CONFIG", "SET", "requirepass", "foo"}), Status("OK"));
  EXPECT_EQ(
      admin({"ACL", "LIST"}),
      Strings({"user default on #2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae "
               "~* &* +@all"}));
  EXPECT_EQ(admin({"ACL", "SETUSER", "default", ">other"}), Status("OK"));
  Client c = Connect();
  EXPECT_EQ(c({"AUTH", "other"}), Status("OK"));
  // Setting requirepass again unchanged does nothing; a new one drops the other passwords.
  EXPECT_EQ(admin({"CONFIG", "SET", "requirepass", "foo"}), Status("OK"));
  EXPECT_EQ(c({"AUTH", "other"}), Status("OK"));
  EXPECT_EQ(admin({"CONFIG", "SET", "requirepass", "bar"}), Status("OK"));
  EXPECT_EQ(c({"AUTH", "other"}), kWrongPass);
  EXPECT_EQ(c({"AUTH", "default", "bar"}), Status("OK"));
  EXPECT_EQ(admin({"CONFIG", "SET", "requirepass", std::string_view("abc\0def", 7)}), Status("OK"));
  EXPECT_EQ(c({"AUTH", "abc"}), kWrongPass);
  EXPECT_EQ(c({"AUTH", std::string_view("abc\0def", 7)}), Status("OK"));
  EXPECT_EQ(admin({"CONFIG", "SET", "requirepass", ""}), Status("OK"));
  EXPECT_EQ(admin({"ACL", "LIST"}), Strings({"user default on nopass ~* &* +@all"}));
  Client d = Connect();
  EXPECT_EQ(d({"PING"}), Status("PONG"));
}

TEST_F(AclEnforceTest, ClientListAndKillByUser) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "on", ">pw", "+@all"}), Status("OK"));
  Client c = ConnectAs("u");
  std::string info = c({"CLIENT", "INFO"}).str;
  EXPECT_NE(info.find(" user=u "), std::string::npos) << info;
  EXPECT_NE(admin({"CLIENT", "INFO"}).str.find(" user=default "), std::string::npos);
  EXPECT_EQ(admin({"CLIENT", "KILL", "USER", "nosuch"}), Error("ERR No such user 'nosuch'"));
  EXPECT_EQ(admin({"CLIENT", "KILL", "USER", "u"}), Int(1));
  EXPECT_TRUE(c.WaitClosed());
  EXPECT_EQ(admin({"CLIENT", "KILL", "USER", "default"}), Int(0));  // skipme
}

TEST_F(AclEnforceTest, DeletedUsersLoseTheirClients) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "using", "on", "+acl", ">pw"}), Status("OK"));
  EXPECT_EQ(admin({"ACL", "SETUSER", "not_used", "on", ">pw"}), Status("OK"));
  Client other = ConnectAs("using");
  Client self = ConnectAs("using");
  EXPECT_EQ(admin({"ACL", "DELUSER", "not_used"}), Int(1));
  EXPECT_EQ(admin({"PING"}), Status("PONG"));
  // The client deleting its own user still gets the reply, then the connection closes.
  EXPECT_EQ(self({"ACL", "DELUSER", "using"}), Int(1));
  EXPECT_TRUE(self.WaitClosed());
  EXPECT_TRUE(other.WaitClosed());
}

TEST_F(AclEnforceTest, DisabledUsersKeepTheirClients) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "on", ">pw", "+@all"}), Status("OK"));
  Client c = ConnectAs("u");
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "off"}), Status("OK"));
  EXPECT_EQ(c({"PING"}), Status("PONG"));
  EXPECT_EQ(Connect()({"AUTH", "u", "pw"}), kWrongPass);
}

TEST_F(AclEnforceTest, SubscribersLosingTheirChannelsAreDisconnected) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "ps", "on", ">pw", "+@all", "resetchannels", "&foo:1",
                   "&bar:*", "&orders"}),
            Status("OK"));
  Client kept = ConnectAs("ps");
  EXPECT_EQ(kept({"CLIENT", "SETNAME", "pardoned"}), Status("OK"));
  EXPECT_EQ(kept({"SUBSCRIBE", "foo:1"}), Array({Bulk("subscribe"), Bulk("foo:1"), Int(1)}));
  EXPECT_EQ(kept({"SSUBSCRIBE", "orders"}), Array({Bulk("ssubscribe"), Bulk("orders"), Int(1)}));
  Client killed = ConnectAs("ps");
  EXPECT_EQ(killed({"CLIENT", "SETNAME", "deathrow"}), Status("OK"));
  EXPECT_EQ(killed({"PSUBSCRIBE", "bar:*"}), Array({Bulk("psubscribe"), Bulk("bar:*"), Int(1)}));
  Client idle = ConnectAs("ps");  // not subscribed: it stays
  // More channels, or all of them, keep everyone.
  EXPECT_EQ(admin({"ACL", "SETUSER", "ps", "&baz:qaz", "&zoo:*"}), Status("OK"));
  EXPECT_EQ(admin({"ACL", "SETUSER", "ps", "allchannels"}), Status("OK"));
  EXPECT_NE(admin({"CLIENT", "LIST"}).str.find("deathrow"), std::string::npos);
  // Losing bar:* loses the PSUBSCRIBE client only.
  EXPECT_EQ(admin({"ACL", "SETUSER", "ps", "resetchannels", "&foo:1", "&orders"}), Status("OK"));
  EXPECT_TRUE(killed.WaitClosed());
  std::string list = admin({"CLIENT", "LIST"}).str;
  EXPECT_EQ(list.find("deathrow"), std::string::npos) << list;
  EXPECT_NE(list.find("pardoned"), std::string::npos) << list;
  EXPECT_EQ(admin({"ACL", "SETUSER", "ps", "resetchannels"}), Status("OK"));
  EXPECT_TRUE(kept.WaitClosed());
  EXPECT_EQ(idle({"PING"}), Status("PONG"));
}

TEST_F(AclEnforceTest, NodeCommandsNeedAnUnrestrictedUser) {
  REDLAB_ONLY("FAULT and TOPOLOGY are redlab's own commands");
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "on", ">pw", "+@all", "~*"}), Status("OK"));
  Client c = ConnectAs("u");
  EXPECT_EQ(c({"FAULT", "LIST"}), CommandDenied("fault"));
  EXPECT_EQ(c({"TOPOLOGY", "NODES"}), CommandDenied("topology"));
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "&*"}), Status("OK"));
  EXPECT_EQ(c({"FAULT", "LIST"}), Array({}));
}

TEST(AclReplicationTest, TheMastersStreamIsNotChecked) {
  std::unique_ptr<Topology> t = StartTopology({.replicas = 1, .fault_proxy = false});
  ASSERT_TRUE(t->WaitForSync());
  Client replica = t->ConnectReplica(0);
  EXPECT_EQ(replica({"ACL", "SETUSER", "admin", "on", ">pw", "+@all", "~*", "&*"}), Status("OK"));
  EXPECT_EQ(replica({"AUTH", "admin", "pw"}), Status("OK"));
  EXPECT_EQ(replica({"ACL", "SETUSER", "default", "resetkeys", "-@all"}), Status("OK"));
  Client master = t->ConnectMaster();
  EXPECT_EQ(master({"SET", "k", "v"}), Status("OK"));
  EXPECT_EQ(master({"WAIT", "1", "0"}), Int(1));
  EXPECT_EQ(replica({"GET", "k"}), Bulk("v"));
  std::string link = replica({"CLIENT", "LIST", "TYPE", "master"}).str;
  EXPECT_NE(link.find(" user=(superuser) "), std::string::npos) << link;
}

}  // namespace
}  // namespace redlab::conformance
