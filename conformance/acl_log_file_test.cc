// The ACL log (ACL LOG), the ACL file (aclfile, ACL LOAD, ACL SAVE) and users given at startup
// (`user` directives, acl-pubsub-default).
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "conformance/acl_util.h"

namespace redlab::conformance {
namespace {

using AclLogTest = AclTest;

std::vector<std::string> Summaries(const Reply& log) {
  std::vector<std::string> out;
  for (const Reply& entry : log.elements) out.push_back(LogSummary(entry));
  return out;
}

TEST_F(AclLogTest, RefusalsAreLogged) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "antirez", ">foo", "on", "+set", "~object:1234", "+eval",
                   "+multi", "+exec", "resetchannels", "+publish"}),
            Status("OK"));
  Client c = ConnectAs("antirez", "foo");
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(c({"GET", "foo"}).is_error());
  EXPECT_TRUE(c({"SET", "somekeynotallowed", "1234"}).is_error());
  EXPECT_TRUE(c({"PUBLISH", "somechannelnotallowed", "m"}).is_error());
  EXPECT_EQ(c({"MULTI"}), Status("OK"));
  EXPECT_TRUE(c({"INCR", "foo"}).is_error());
  EXPECT_TRUE(c({"EXEC"}).is_error());
  EXPECT_TRUE(c({"EVAL", "redis.call('incr','foo')", "0"}).is_error());
  EXPECT_TRUE(c({"AUTH", "antirez", "wrong-password"}).is_error());
  Client h = Connect();
  EXPECT_TRUE(h({"hello", "2", "AUTH", "nobody", "x"}).is_error());
  Reply log = admin({"ACL", "LOG"});
  EXPECT_EQ(Summaries(log),
            (std::vector<std::string>{
                "auth toplevel hello nobody x1", "auth toplevel AUTH antirez x1",
                "command lua incr antirez x1", "command multi incr antirez x1",
                "channel toplevel somechannelnotallowed antirez x1",
                "key toplevel somekeynotallowed antirez x1", "command toplevel get antirez x3"}));
  // Each entry: seven fields in this order; the client as CLIENT LIST shows it.
  const Reply& newest = log.elements[0];
  ASSERT_EQ(newest.elements.size(), 14u);
  std::vector<std::string> keys;
  for (size_t i = 0; i < newest.elements.size(); i += 2) keys.push_back(newest.elements[i].str);
  EXPECT_EQ(keys, (std::vector<std::string>{"count", "reason", "context", "object", "username",
                                            "age-seconds", "client-info"}));
  EXPECT_NE(Field(newest, "client-info").str.find(" user=default "), std::string::npos);
  EXPECT_NE(Field(log.elements[1], "client-info").str.find(" user=antirez "), std::string::npos);
  // The script's refusal shows the client that ran the script.
  EXPECT_NE(Field(log.elements[2], "client-info").str.find(" cmd=eval "), std::string::npos);
  EXPECT_EQ(
      Summaries(admin({"ACL", "LOG", "2"})),
      (std::vector<std::string>{"auth toplevel hello nobody x1", "auth toplevel AUTH antirez x1"}));
  EXPECT_EQ(admin({"ACL", "LOG", "-1"}), Array({}));
  EXPECT_EQ(admin({"ACL", "LOG", "x"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(admin({"ACL", "LOG", "1", "2"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'LOG'. Try ACL HELP."));
  EXPECT_EQ(admin({"ACL", "LOG", "reset"}), Status("OK"));
  EXPECT_EQ(admin({"ACL", "LOG"}), Array({}));
}

TEST_F(AclLogTest, ChangedRulesAreLoggedAtExec) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "on", ">pw", "~*", "+multi", "+exec", "+incr"}),
            Status("OK"));
  Client c = ConnectAs("u");
  EXPECT_EQ(c({"MULTI"}), Status("OK"));
  EXPECT_EQ(c({"INCR", "object:1234"}), Status("QUEUED"));
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "-incr"}), Status("OK"));
  EXPECT_TRUE(c({"EXEC"}).elements.at(0).is_error());
  EXPECT_EQ(Summaries(admin({"ACL", "LOG"})),
            (std::vector<std::string>{"command multi incr u x1"}));
}

TEST_F(AclLogTest, LengthIsLimited) {
  Client admin = Connect();
  EXPECT_EQ(admin({"ACL", "SETUSER", "u", "on", ">pw", "+set"}), Status("OK"));
  EXPECT_EQ(admin({"CONFIG", "SET", "acllog-max-len", "5"}), Status("OK"));
  Client c = ConnectAs("u");
  for (int j = 0; j < 10; ++j) EXPECT_TRUE(c({"SET", "obj:" + std::to_string(j), "1"}).is_error());
  Reply log = admin({"ACL", "LOG", "100"});
  ASSERT_EQ(log.elements.size(), 5u);
  EXPECT_EQ(Field(log.elements[0], "object"), Bulk("obj:9"));
  EXPECT_EQ(Field(log.elements[4], "object"), Bulk("obj:5"));
  EXPECT_EQ(admin({"CONFIG", "SET", "acllog-max-len", "0"}), Status("OK"));
  EXPECT_TRUE(c({"SET", "other", "1"}).is_error());
  EXPECT_EQ(admin({"ACL", "LOG"}), Array({}));
}

TEST_F(AclLogTest, NoAclFile) {
  Client c = Connect();
  Reply error = Error(
      "ERR This Redis instance is not configured to use an ACL file. You may want to specify "
      "users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a "
      "Redis configuration file set) in order to store users in the Redis configuration.");
  EXPECT_EQ(c({"ACL", "LOAD"}), error);
  EXPECT_EQ(c({"ACL", "SAVE"}), error);
  EXPECT_EQ(c({"CONFIG", "GET", "aclfile"}), Strings({"aclfile", ""}));
  EXPECT_EQ(c({"CONFIG", "SET", "aclfile", "x.acl"}),
            Error("ERR CONFIG SET failed (possibly related to argument 'aclfile') - can't set "
                  "immutable config"));
}

// A server reading its users from users.acl in a directory of its own.
class AclFileTest : public AclTest {
 protected:
  ServerOptions Options() override {
    char pattern[] = "/tmp/redlab-acl-XXXXXX";
    dir_ = mkdtemp(pattern);
    Write(
        "user alice on allcommands allkeys &* >alice\n"
        "user bob on -@all +@set +acl ~set* &* >bob\n"
        "user default on nopass ~* &* +@all\n");
    return {.config = {{"dir", dir_}, {"aclfile", "users.acl"}}};
  }
  void TearDown() override {
    server_->Stop();
    std::remove(path().c_str());
    rmdir(dir_.c_str());
  }
  std::string path() const { return dir_ + "/users.acl"; }
  void Write(std::string_view content) { std::ofstream(path()) << content; }
  std::string Read() const {
    std::ifstream in(path());
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::string dir_;
};

TEST_F(AclFileTest, LoadAndSave) {
  Client c = Connect();
  std::string alice =
      "user alice on #2bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90 ~* &* +@all";
  std::string bob =
      "user bob on #81b637d8fcd2c6da6359e6963113a1170de795e4b725b84d1e0b4cfd9ec58ce9 ~set* &* "
      "-@all +@set +acl";
  EXPECT_EQ(c({"ACL", "LIST"}), Strings({alice, bob, "user default on nopass ~* &* +@all"}));
  EXPECT_EQ(c({"AUTH", "bob", "bob"}), Status("OK"));
  EXPECT_EQ(c({"SADD", "set", "1"}), Int(1));
  EXPECT_EQ(c({"SET", "key", "value"}),
            Error("NOPERM this user has no permissions to run the 'set' command"));
  EXPECT_EQ(c({"AUTH", "alice", "alice"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "SETUSER", "eve", "+get", "allkeys", ">eve", "on"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "SAVE"}), Status("OK"));
  EXPECT_EQ(Read(),
            alice + "\n" + bob +
                "\nuser default on nopass ~* &* +@all\n"
                "user eve on #85262adf74518bbb70c7cb94cd6159d91669e5a81edf1efebd543eadbda9fa2b ~* "
                "resetchannels -@all +get\n");
  // Loading replaces every user: the clients of the previous ones are disconnected (this one
  // after its reply), the default user's stay.
  Client by_default = Connect();
  EXPECT_EQ(c({"ACL", "LOAD"}), Status("OK"));
  EXPECT_TRUE(c.WaitClosed());
  EXPECT_EQ(by_default({"PING"}), Status("PONG"));
  Client d = Connect();
  EXPECT_EQ(d({"AUTH", "eve", "eve"}), Status("OK"));
  EXPECT_EQ(d({"GET", "key"}), Nil());
  EXPECT_EQ(d({"SET", "key", "value"}),
            Error("NOPERM this user has no permissions to run the 'set' command"));
}

TEST_F(AclFileTest, LoadErrorsChangeNothing) {
  Client c = Connect();
  Write(
      "user alice on nopass ~* +@all\n"
      "user alice on nopass ~* -@all\n"
      "user x on +nosuchcmd #abc\n"
      "foo bar\n");
  EXPECT_EQ(c({"ACL", "LOAD"}),
            Error("ERR WARNING: Duplicate user 'alice' found on line 2. users.acl:3: Error in "
                  "applying operation '+nosuchcmd': Unknown command or category name in ACL. "
                  "users.acl:3: The password hash must be exactly 64 characters and contain only "
                  "lowercase hexadecimal characters. users.acl:4 should start with user keyword "
                  "followed by the username. WARNING: ACL errors detected, no change to the "
                  "previously active ACL rules was performed"));
  EXPECT_EQ(c({"ACL", "USERS"}), Strings({"alice", "bob", "default"}));
  EXPECT_EQ(Field(c({"ACL", "GETUSER", "alice"}), "commands"), Bulk("+@all"));
  std::remove(path().c_str());
  EXPECT_EQ(c({"ACL", "LOAD"}),
            Error("ERR Error loading ACLs, opening file 'users.acl': No such file or directory"));
  // A file without the default user gives it its initial rules.
  Write("user carol on nopass +@all\n");
  EXPECT_EQ(c({"ACL", "LOAD"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "LIST"}), Strings({"user carol on nopass resetchannels +@all",
                                         "user default on nopass ~* &* +@all"}));
}

class AclStartupUsersTest : public AclTest {
 protected:
  ServerOptions Options() override {
    return {.config = {{"user", "alice on >pw ~* +@all (+get ~rw*)"},
                       {"user", "default on nopass ~* +@all"}}};
  }
};

TEST_F(AclStartupUsersTest, UserDirectives) {
  Client c = Connect();
  EXPECT_EQ(
      c({"ACL", "LIST"}),
      Strings({"user alice on #30c952fab122c3f9759f02a6d95c3758b246b4fee239957b2d4fee46e26170c4 "
               "~* resetchannels +@all (~rw* resetchannels -@all +get)",
               "user default on nopass sanitize-payload ~* resetchannels +@all"}));
  // The default user was reset first: no channels.
  EXPECT_EQ(c({"SUBSCRIBE", "foo"}),
            Error("NOPERM this user has no permissions to access one of the channels used as "
                  "arguments"));
}

class AclPubsubDefaultTest : public AclTest {
 protected:
  ServerOptions Options() override { return {.config = {{"acl-pubsub-default", "allchannels"}}}; }
};

TEST_F(AclPubsubDefaultTest, NewUsersGetAllChannels) {
  Client c = Connect();
  EXPECT_EQ(c({"ACL", "SETUSER", "u"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "LIST"}),
            Strings({"user default on nopass ~* &* +@all", "user u off &* -@all"}));
  EXPECT_EQ(c({"ACL", "SETUSER", "default", "reset", "on", "nopass", "~*", "+@all"}), Status("OK"));
  EXPECT_EQ(c({"PUBLISH", "hello", "world"}), Int(0));
}

}  // namespace
}  // namespace redlab::conformance
