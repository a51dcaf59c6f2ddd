// Connection commands: PING, ECHO, SELECT, QUIT, RESET, AUTH, HELLO, CLIENT.
#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

class ConnectionTest : public ConformanceTest {};

TEST_F(ConnectionTest, Ping) {
  EXPECT_EQ(c().Raw({"PING"}), "+PONG\r\n");
  EXPECT_EQ(c().Raw({"PING", "hello"}), "$5\r\nhello\r\n");
  EXPECT_EQ(c().Raw({"PING", "a", "b"}), "-ERR wrong number of arguments for 'ping' command\r\n");
  EXPECT_EQ(c().Raw({"ping"}), "+PONG\r\n");
}

TEST_F(ConnectionTest, Echo) {
  EXPECT_EQ(c().Raw({"ECHO", "x y"}), "$3\r\nx y\r\n");
  EXPECT_EQ(c().Raw({"ECHO", ""}), "$0\r\n\r\n");
  EXPECT_EQ(c().Raw({"ECHO"}), "-ERR wrong number of arguments for 'echo' command\r\n");
}

TEST_F(ConnectionTest, SelectSwitchesDatabase) {
  EXPECT_EQ(c()({"SET", "k", "db0"}), Status("OK"));
  EXPECT_EQ(c()({"SELECT", "1"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  EXPECT_EQ(c()({"SET", "k", "db1"}), Status("OK"));
  EXPECT_EQ(c()({"SELECT", "0"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("db0"));
  EXPECT_EQ(c()({"SELECT", "15"}), Status("OK"));
}

TEST_F(ConnectionTest, SelectErrors) {
  EXPECT_EQ(c()({"SELECT", "16"}), Error("ERR DB index is out of range"));
  EXPECT_EQ(c()({"SELECT", "-1"}), Error("ERR DB index is out of range"));
  EXPECT_EQ(c()({"SELECT", "abc"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c()({"SELECT", "99999999999"}),
            Error("ERR value is out of range, value must between -2147483648 and 2147483647"));
}

TEST_F(ConnectionTest, QuitRepliesOkAndCloses) {
  c().SendCommand({"QUIT"});
  c().SendCommand({"PING"});  // must not run: the connection closes after QUIT's reply
  EXPECT_EQ(c().ReadUntilClosed(), "+OK\r\n");
}

TEST_F(ConnectionTest, UnknownCommand) {
  EXPECT_EQ(c().Raw({"NOSUCH", "a", "b"}),
            "-ERR unknown command 'NOSUCH', with args beginning with: 'a' 'b' \r\n");
  EXPECT_EQ(c().Raw({"NOSUCH"}), "-ERR unknown command 'NOSUCH', with args beginning with: \r\n");
  // The argument list stops once it passes 128 characters.
  std::string long_arg(200, 'x');
  EXPECT_EQ(c().Raw({"NOSUCH", long_arg, "next"}),
            "-ERR unknown command 'NOSUCH', with args beginning with: '" + std::string(128, 'x') +
                "' \r\n");
}

TEST_F(ConnectionTest, UnknownSubcommand) {
  EXPECT_EQ(c()({"CLIENT", "NOPE"}), Error("ERR unknown subcommand 'NOPE'. Try CLIENT HELP."));
  EXPECT_EQ(c()({"client", "nope"}), Error("ERR unknown subcommand 'nope'. Try CLIENT HELP."));
  EXPECT_EQ(c()({"CLIENT"}), Error("ERR wrong number of arguments for 'client' command"));
  EXPECT_EQ(c()({"CLIENT", "ID", "x"}),
            Error("ERR wrong number of arguments for 'client|id' command"));
}

TEST_F(ConnectionTest, ClientNames) {
  EXPECT_EQ(c()({"CLIENT", "GETNAME"}), Nil());
  EXPECT_EQ(c()({"CLIENT", "SETNAME", "worker-1"}), Status("OK"));
  EXPECT_EQ(c()({"CLIENT", "GETNAME"}), Bulk("worker-1"));
  EXPECT_EQ(c()({"CLIENT", "SETNAME", "a b"}),
            Error("ERR Client names cannot contain spaces, newlines or special characters."));
  EXPECT_EQ(c()({"CLIENT", "SETNAME", ""}), Status("OK"));
  EXPECT_EQ(c()({"CLIENT", "GETNAME"}), Nil());
}

TEST_F(ConnectionTest, ClientIdAndList) {
  Reply id = c()({"CLIENT", "ID"});
  ASSERT_EQ(id.type, Reply::Type::kInteger);
  c()({"CLIENT", "SETNAME", "lister"});
  Reply list = c()({"CLIENT", "LIST"});
  ASSERT_EQ(list.type, Reply::Type::kBulk);
  std::string me = "id=" + std::to_string(id.integer) + " ";
  size_t pos = list.str.find(me);
  ASSERT_NE(pos, std::string::npos) << list.str;
  std::string line = list.str.substr(pos, list.str.find('\n', pos) - pos);
  EXPECT_NE(line.find(" name=lister "), std::string::npos) << line;
  EXPECT_NE(line.find(" db=0 "), std::string::npos) << line;
  EXPECT_NE(line.find(" cmd=client|list "), std::string::npos) << line;
  EXPECT_NE(line.find(" resp=2"), std::string::npos) << line;
  Reply info = c()({"CLIENT", "INFO"});
  ASSERT_EQ(info.type, Reply::Type::kBulk);
  EXPECT_EQ(info.str.rfind(me, 0), 0u) << info.str;
  EXPECT_EQ(info.str.back(), '\n');
  EXPECT_EQ(c()({"CLIENT", "LIST", "TYPE", "bogus"}), Error("ERR Unknown client type 'bogus'"));
  EXPECT_EQ(c()({"CLIENT", "LIST", "ID", "abc"}), Error("ERR Invalid client ID"));
  EXPECT_EQ(c()({"CLIENT", "LIST", "ID", "0", "-1"}), Bulk(""));
  Reply by_id = c()({"CLIENT", "LIST", "ID", std::to_string(id.integer)});
  EXPECT_EQ(by_id.str.rfind(me, 0), 0u);
}

// qbuf counts the query buffer as read, the running command included: CLIENT INFO sent alone
// is 26 bytes ("*2\r\n$6\r\nCLIENT\r\n$4\r\nINFO\r\n"), pipelined behind a PING 40.
TEST_F(ConnectionTest, ClientInfoShowsTheQueryBufferOfTheRunningCommand) {
  Reply info = c()({"CLIENT", "INFO"});
  EXPECT_NE(info.str.find(" qbuf=26 "), std::string::npos) << info.str;
  c().Send("*1\r\n$4\r\nPING\r\n*2\r\n$6\r\nCLIENT\r\n$4\r\nINFO\r\n");
  EXPECT_EQ(c().Read(), Status("PONG"));
  info = c().Read();
  EXPECT_NE(info.str.find(" qbuf=40 "), std::string::npos) << info.str;
}

TEST_F(ConnectionTest, ClientKill) {
  Client victim = Connect();
  Reply victim_id = victim({"CLIENT", "ID"});
  EXPECT_EQ(c()({"CLIENT", "KILL", "ID", std::to_string(victim_id.integer)}), Int(1));
  EXPECT_TRUE(victim.WaitClosed());
  EXPECT_EQ(c()({"CLIENT", "KILL", "ID", "999999"}), Int(0));
  EXPECT_EQ(c()({"CLIENT", "KILL", "ID", "abc"}), Error("ERR client-id should be greater than 0"));
  EXPECT_EQ(c()({"CLIENT", "KILL", "1.2.3.4:5"}), Error("ERR No such client"));
  EXPECT_EQ(c()({"CLIENT", "KILL", "FOO", "bar"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"CLIENT", "KILL", "USER", "wrong_user"}), Error("ERR No such user 'wrong_user'"));
  // SKIPME defaults to yes: killing by our own address spares us.
  Reply me = c()({"CLIENT", "INFO"});
  size_t a = me.str.find("addr=") + 5;
  std::string addr = me.str.substr(a, me.str.find(' ', a) - a);
  EXPECT_EQ(c()({"CLIENT", "KILL", "ADDR", addr}), Int(0));
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
  // The old form kills us after the reply.
  c().SendCommand({"CLIENT", "KILL", addr});
  EXPECT_EQ(c().ReadUntilClosed(), "+OK\r\n");
}

TEST_F(ConnectionTest, HelloSwitchesProtocol) {
  Reply hello = c()({"HELLO", "3"});
  ASSERT_EQ(hello.type, Reply::Type::kMap);
  ASSERT_EQ(hello.elements.size(), 14u);
  EXPECT_EQ(hello.elements[0], Bulk("server"));
  EXPECT_EQ(hello.elements[1], Bulk("redis"));
  EXPECT_EQ(hello.elements[2], Bulk("version"));
  EXPECT_EQ(hello.elements[4], Bulk("proto"));
  EXPECT_EQ(hello.elements[5], Int(3));
  EXPECT_EQ(hello.elements[8], Bulk("mode"));
  EXPECT_EQ(hello.elements[9], Bulk("standalone"));
  EXPECT_EQ(hello.elements[10], Bulk("role"));
  EXPECT_EQ(hello.elements[11], Bulk("master"));
  EXPECT_EQ(hello.elements[12], Bulk("modules"));
  EXPECT_EQ(c().Raw({"GET", "missing"}), "_\r\n");
  Reply back = c()({"HELLO", "2"});
  EXPECT_EQ(back.type, Reply::Type::kArray);
  EXPECT_EQ(c().Raw({"GET", "missing"}), "$-1\r\n");
}

TEST_F(ConnectionTest, HelloErrors) {
  EXPECT_EQ(c()({"HELLO", "4"}), Error("NOPROTO unsupported protocol version"));
  EXPECT_EQ(c()({"HELLO", "1"}), Error("NOPROTO unsupported protocol version"));
  EXPECT_EQ(c()({"HELLO", "x"}), Error("ERR Protocol version is not an integer or out of range"));
  EXPECT_EQ(c()({"HELLO", "3", "FOO"}), Error("ERR Syntax error in HELLO option 'FOO'"));
  EXPECT_EQ(c()({"HELLO", "3", "SETNAME", "a b"}),
            Error("ERR Client names cannot contain spaces, newlines or special characters."));
  // A failed HELLO leaves the protocol unchanged.
  EXPECT_EQ(c().Raw({"GET", "missing"}), "$-1\r\n");
}

TEST_F(ConnectionTest, HelloSetName) {
  Reply hello = c()({"HELLO", "2", "SETNAME", "named"});
  ASSERT_EQ(hello.type, Reply::Type::kArray);
  EXPECT_EQ(c()({"CLIENT", "GETNAME"}), Bulk("named"));
  // Options apply one by one: a bad option after SETNAME fails HELLO, the name stays.
  EXPECT_EQ(c()({"HELLO", "2", "SETNAME", "renamed", "extra"}),
            Error("ERR Syntax error in HELLO option 'extra'"));
  EXPECT_EQ(c()({"CLIENT", "GETNAME"}), Bulk("renamed"));
}

TEST_F(ConnectionTest, ResetRestoresDefaults) {
  c()({"HELLO", "3"});
  c()({"SELECT", "2"});
  c()({"CLIENT", "SETNAME", "x"});
  EXPECT_EQ(c().Raw({"RESET"}), "+RESET\r\n");
  EXPECT_EQ(c().Raw({"GET", "missing"}), "$-1\r\n");
  EXPECT_EQ(c()({"CLIENT", "GETNAME"}), Nil());
  c()({"SET", "where", "db0"});
  EXPECT_EQ(c()({"GET", "where"}), Bulk("db0"));
}

TEST_F(ConnectionTest, AuthWithoutPasswordConfigured) {
  EXPECT_EQ(c()({"AUTH", "secret"}),
            Error("ERR AUTH <password> called without any password configured for the default "
                  "user. Are you sure your configuration is correct?"));
  // With a user name, the default user without a password accepts anything.
  EXPECT_EQ(c()({"AUTH", "default", "anything"}), Status("OK"));
  EXPECT_EQ(c()({"AUTH", "nobody", "x"}),
            Error("WRONGPASS invalid username-password pair or user is disabled."));
  EXPECT_EQ(c()({"AUTH", "a", "b", "c"}), Error("ERR syntax error"));
}

class AuthTest : public ::testing::Test {
 protected:
  void SetUp() override { server_ = StartServer({.requirepass = "s3cret"}); }
  std::unique_ptr<Server> server_;
};

TEST_F(AuthTest, RequirePass) {
  Client c(server_->port());
  EXPECT_EQ(c({"GET", "k"}), Error("NOAUTH Authentication required."));
  EXPECT_EQ(c({"PING"}), Error("NOAUTH Authentication required."));
  EXPECT_EQ(c({"AUTH", "wrong"}),
            Error("WRONGPASS invalid username-password pair or user is disabled."));
  EXPECT_EQ(c({"AUTH", "s3cret"}), Status("OK"));
  EXPECT_EQ(c({"PING"}), Status("PONG"));
  Client d(server_->port());
  EXPECT_EQ(d({"AUTH", "default", "s3cret"}), Status("OK"));
  EXPECT_EQ(d({"AUTH", "someone", "s3cret"}),
            Error("WRONGPASS invalid username-password pair or user is disabled."));
}

TEST_F(AuthTest, HelloAuthenticates) {
  Client c(server_->port());
  EXPECT_EQ(c({"HELLO", "3"}),
            Error("NOAUTH HELLO must be called with the client already authenticated, otherwise "
                  "the HELLO AUTH <user> <pass> option can be used to authenticate the "
                  "client and select the RESP protocol version at the same time"));
  EXPECT_EQ(c({"HELLO", "3", "AUTH", "default", "bad"}),
            Error("WRONGPASS invalid username-password pair or user is disabled."));
  Reply ok = c({"HELLO", "3", "AUTH", "default", "s3cret"});
  EXPECT_EQ(ok.type, Reply::Type::kMap);
  EXPECT_EQ(c.Raw({"GET", "k"}), "_\r\n");
  // An AUTH that passed stands even when a later option fails HELLO (the protocol stays).
  Client d(server_->port());
  EXPECT_EQ(d({"HELLO", "3", "AUTH", "default", "s3cret", "SETNAME", "bad name"}),
            Error("ERR Client names cannot contain spaces, newlines or special characters."));
  EXPECT_EQ(d.Raw({"GET", "k"}), "$-1\r\n");
}

TEST_F(AuthTest, ResetForgetsAuthentication) {
  Client c(server_->port());
  EXPECT_EQ(c({"AUTH", "s3cret"}), Status("OK"));
  EXPECT_EQ(c({"RESET"}), Status("RESET"));
  EXPECT_EQ(c({"GET", "k"}), Error("NOAUTH Authentication required."));
}

TEST_F(AuthTest, UnknownCommandIsReportedBeforeAuth) {
  Client c(server_->port());
  EXPECT_EQ(c({"NOSUCH"}), Error("ERR unknown command 'NOSUCH', with args beginning with: "));
  EXPECT_EQ(c({"GET"}), Error("ERR wrong number of arguments for 'get' command"));
}

}  // namespace
}  // namespace redlab::conformance
