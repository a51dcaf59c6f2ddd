// FAULT REPLY DELAY / DROP act on pushes as on replies (pub/sub messages, keyspace
// notifications, tracking invalidations: a lost unlock message can be reproduced), and can be
// aimed at one client by CLIENT <id>, ADDR <ip:port> or NAME <name>. Real Redis has no FAULT.
#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

constexpr char kRedlabOnly[] = "FAULT REPLY is redlab's fault injection; Redis has no FAULT";

class FaultReplyTest : public ConformanceTest {
 protected:
  void SetUp() override {
    REDLAB_ONLY(kRedlabOnly);
    ConformanceTest::SetUp();
  }
  void TearDown() override {
    if (IsRealRedis()) return;
    Client c = Connect();
    c({"FAULT", "RESET"});
    c({"CONFIG", "SET", "notify-keyspace-events", ""});
  }
  // A field of CLIENT INFO ("id", "addr") of `client`.
  static std::string Info(Client& client, const std::string& field) {
    std::string info = client({"CLIENT", "INFO"}).str;
    size_t at = info.find(field + "=");
    return info.substr(at + field.size() + 1, info.find(' ', at) - at - field.size() - 1);
  }
  static Reply Message(std::string channel, std::string message) {
    return Array({Bulk("message"), Bulk(std::move(channel)), Bulk(std::move(message))});
  }
};

TEST_F(FaultReplyTest, ALostPubSubMessageToOneSubscriber) {
  Client sub(port(), std::chrono::seconds(5));
  std::string id = Info(sub, "id");
  ASSERT_EQ(sub({"SUBSCRIBE", "unlock"}), Array({Bulk("subscribe"), Bulk("unlock"), Int(1)}));
  ASSERT_EQ(c()({"FAULT", "REPLY", "DROP", "1", "CLIENT", id}), Status("OK"));
  EXPECT_EQ(c()({"FAULT", "LIST"}), Array({Bulk("REPLY DROP 1 CLIENT " + id)}));
  EXPECT_EQ(c()({"PUBLISH", "unlock", "first"}), Int(1));  // delivered, as far as Redis knows
  EXPECT_EQ(c()({"PING"}), Status("PONG"));                // the publisher is not the target
  ASSERT_EQ(c()({"FAULT", "REPLY", "DROP", "0", "CLIENT", id}), Status("OK"));  // lifted
  EXPECT_EQ(c()({"FAULT", "LIST"}), Array({}));
  EXPECT_EQ(c()({"PUBLISH", "unlock", "second"}), Int(1));
  EXPECT_EQ(sub.Read(), Message("unlock", "second"));  // "first" never came
}

TEST_F(FaultReplyTest, ADelayedPubSubMessageArrivesLate) {
  Client sub(port(), std::chrono::seconds(5));
  ASSERT_EQ(sub({"CLIENT", "SETNAME", "waiter"}), Status("OK"));
  ASSERT_EQ(sub({"SUBSCRIBE", "unlock"}), Array({Bulk("subscribe"), Bulk("unlock"), Int(1)}));
  ASSERT_EQ(c()({"FAULT", "REPLY", "DELAY", "400", "NAME", "waiter"}), Status("OK"));
  EXPECT_EQ(c()({"PUBLISH", "unlock", "m"}), Int(1));
  EXPECT_FALSE(sub.Readable(std::chrono::milliseconds(50)));  // not yet
  EXPECT_EQ(sub.Read(), Message("unlock", "m"));
}

TEST_F(FaultReplyTest, ALostKeyspaceNotification) {
  ASSERT_EQ(c()({"CONFIG", "SET", "notify-keyspace-events", "Eg"}), Status("OK"));
  Client sub(port(), std::chrono::seconds(5));
  std::string addr = Info(sub, "addr");
  ASSERT_EQ(sub({"SUBSCRIBE", "__keyevent@0__:del"}).elements.size(), 3u);
  ASSERT_EQ(c()({"FAULT", "REPLY", "DROP", "1", "ADDR", addr}), Status("OK"));
  ASSERT_EQ(c()({"MSET", "a", "1", "b", "2"}), Status("OK"));
  EXPECT_EQ(c()({"DEL", "a"}), Int(1));
  ASSERT_EQ(c()({"FAULT", "RESET"}), Status("OK"));
  EXPECT_EQ(c()({"DEL", "b"}), Int(1));
  EXPECT_EQ(sub.Read(), Message("__keyevent@0__:del", "b"));
}

TEST_F(FaultReplyTest, ALostTrackingInvalidation) {
  Client reader(port(), std::chrono::seconds(5));
  ASSERT_EQ(reader({"HELLO", "3"}).type, Reply::Type::kMap);
  std::string id = Info(reader, "id");
  ASSERT_EQ(reader({"CLIENT", "TRACKING", "on"}), Status("OK"));
  ASSERT_EQ(c()({"MSET", "a", "1", "b", "2"}), Status("OK"));
  ASSERT_EQ(reader({"GET", "a"}), Bulk("1"));
  ASSERT_EQ(reader({"GET", "b"}), Bulk("2"));
  ASSERT_EQ(c()({"FAULT", "REPLY", "DROP", "1", "CLIENT", id}), Status("OK"));
  ASSERT_EQ(c()({"SET", "a", "changed"}), Status("OK"));  // its invalidation is lost
  ASSERT_EQ(c()({"FAULT", "RESET"}), Status("OK"));
  ASSERT_EQ(c()({"SET", "b", "changed"}), Status("OK"));
  Reply push = reader.Read();
  EXPECT_EQ(push.type, Reply::Type::kPush);
  ASSERT_EQ(push.elements.size(), 2u);
  EXPECT_EQ(push.elements[0], Bulk("invalidate"));
  EXPECT_EQ(push.elements[1], Array({Bulk("b")}));  // not a's: that one was lost
}

TEST_F(FaultReplyTest, ATargetedFaultLeavesOtherClientsAlone) {
  Client victim(port(), std::chrono::seconds(5));
  ASSERT_EQ(c()({"FAULT", "REPLY", "DROP", "1", "NAME", "victim"}), Status("OK"));
  EXPECT_EQ(victim({"ECHO", "before its name"}), Bulk("before its name"));
  // The name is matched at each reply: from CLIENT SETNAME on, its replies are lost (that one's
  // too: the name is set when the reply leaves).
  victim.SendCommand({"CLIENT", "SETNAME", "victim"});
  victim.SendCommand({"ECHO", "lost"});
  EXPECT_FALSE(victim.Readable(std::chrono::milliseconds(100)));
  EXPECT_EQ(c()({"ECHO", "kept"}), Bulk("kept"));
  // A node-wide delay beside it: the narrower target wins for the victim.
  ASSERT_EQ(c()({"FAULT", "REPLY", "DELAY", "1"}), Status("OK"));
  EXPECT_EQ(c()({"FAULT", "LIST"}),
            Array({Bulk("REPLY DROP 1 NAME victim"), Bulk("REPLY DELAY 1")}));
  ASSERT_EQ(c()({"FAULT", "REPLY", "DROP", "0", "NAME", "victim"}), Status("OK"));
  victim.SendCommand({"ECHO", "back"});
  EXPECT_EQ(victim.Read(), Bulk("back"));
}

TEST_F(FaultReplyTest, TargetArgumentErrors) {
  EXPECT_EQ(c()({"FAULT", "REPLY", "DROP", "1", "CLIENT", "0"}),
            Error("ERR client-id should be greater than 0"));
  EXPECT_EQ(c()({"FAULT", "REPLY", "DROP", "1", "CLIENT", "x"}),
            Error("ERR client-id should be greater than 0"));
  EXPECT_EQ(c()({"FAULT", "REPLY", "DELAY", "5", "ADDR", "127.0.0.1"}),
            Error("ERR ADDR takes an ip:port, as CLIENT LIST's addr= shows it"));
  EXPECT_EQ(c()({"FAULT", "REPLY", "DELAY", "5", "ADDR", "127.0.0.1:65536"}),
            Error("ERR value is out of range, value must between 0 and 65535"));
  EXPECT_EQ(c()({"FAULT", "REPLY", "DELAY", "5", "SEED", "1"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"FAULT", "REPLY", "DELAY", "5", "NAME", "a", "NAME", "b"}),
            Error("ERR syntax error"));
  EXPECT_EQ(c()({"FAULT", "REPLY", "DROP", "1", "NAME"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"FAULT", "LIST"}), Array({}));
  EXPECT_EQ(c()({"FAULT", "REPLY", "DROP", "0.5", "NAME", "w", "SEED", "3"}), Status("OK"));
  EXPECT_EQ(c()({"FAULT", "LIST"}), Array({Bulk("REPLY DROP 0.5 SEED 3 NAME w")}));
}

}  // namespace
}  // namespace redlab::conformance
