// Pub/sub: subscriptions and their replies, message delivery in RESP2 and RESP3, the RESP2
// subscribed-state rules, PUBSUB introspection.
#include <algorithm>

#include "conformance/harness/fixture.h"
#include "conformance/harness/script.h"

namespace redlab::conformance {
namespace {

class PubSubTest : public ConformanceTest {};


TEST_F(PubSubTest, SubscribeRepliesPerChannel) {
  c().SendCommand({"SUBSCRIBE", "a", "b"});
  EXPECT_EQ(c().ReadRaw(), "*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n");
  EXPECT_EQ(c().ReadRaw(), "*3\r\n$9\r\nsubscribe\r\n$1\r\nb\r\n:2\r\n");
  c().SendCommand({"SUBSCRIBE", "a"});  // already subscribed: same count
  EXPECT_EQ(c().ReadRaw(), "*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:2\r\n");
}

// Inside EXEC a client must get one reply per command: SUBSCRIBE and PSUBSCRIBE are still
// allowed there (Redis keeps them for backward compatibility), SSUBSCRIBE is not.
TEST_F(PubSubTest, SubscribingInsideATransaction) {
  ExpectReplies(
      c(), {
               {{"MULTI"}, Status("OK")},
               {{"SUBSCRIBE", "a"}, Status("QUEUED")},
               {{"PSUBSCRIBE", "p*"}, Status("QUEUED")},
               {{"SSUBSCRIBE", "s"}, Status("QUEUED")},
               {{"EXEC"},
                Array({Array({Bulk("subscribe"), Bulk("a"), Int(1)}),
                       Array({Bulk("psubscribe"), Bulk("p*"), Int(2)}),
                       Error("ERR SSUBSCRIBE isn't allowed for a DENY BLOCKING client")})},
               {{"PUBSUB", "NUMSUB", "a"},
                Error("ERR Can't execute 'pubsub|numsub': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / "
                      "PING / QUIT / RESET are allowed in this context")},
           });
  EXPECT_EQ(Connect()({"PUBSUB", "SHARDCHANNELS"}), Array({}));
}

TEST_F(PubSubTest, PublishDeliversToSubscribersAndPatterns) {
  Client sub = Connect();
  sub.SendCommand({"SUBSCRIBE", "news"});
  sub.ReadRaw();
  sub.SendCommand({"PSUBSCRIBE", "n*"});
  EXPECT_EQ(sub.ReadRaw(), "*3\r\n$10\r\npsubscribe\r\n$2\r\nn*\r\n:2\r\n");
  EXPECT_EQ(c()({"PUBLISH", "news", "hello"}), Int(2));
  EXPECT_EQ(sub.ReadRaw(), "*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$5\r\nhello\r\n");
  EXPECT_EQ(sub.ReadRaw(), "*4\r\n$8\r\npmessage\r\n$2\r\nn*\r\n$4\r\nnews\r\n$5\r\nhello\r\n");
  EXPECT_EQ(c()({"PUBLISH", "other", "x"}), Int(0));
  EXPECT_EQ(c()({"PUBLISH", "nope", "y"}), Int(1));
  EXPECT_EQ(sub.ReadRaw(), "*4\r\n$8\r\npmessage\r\n$2\r\nn*\r\n$4\r\nnope\r\n$1\r\ny\r\n");
}

TEST_F(PubSubTest, Resp3MessagesArePushes) {
  Client sub = Connect();
  sub({"HELLO", "3"});
  sub.SendCommand({"SUBSCRIBE", "ch"});
  EXPECT_EQ(sub.ReadRaw(), ">3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n");
  // RESP3 clients may run any command while subscribed.
  EXPECT_EQ(sub.Raw({"GET", "missing"}), "_\r\n");
  EXPECT_EQ(c()({"PUBLISH", "ch", "m"}), Int(1));
  EXPECT_EQ(sub.ReadRaw(), ">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$1\r\nm\r\n");
  // A message to oneself arrives before the reply of the PUBLISH that sent it.
  EXPECT_EQ(sub.Raw({"PUBLISH", "ch", "self"}), ">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$4\r\nself\r\n");
  EXPECT_EQ(sub.ReadRaw(), ":1\r\n");
  sub.SendCommand({"UNSUBSCRIBE"});
  EXPECT_EQ(sub.ReadRaw(), ">3\r\n$11\r\nunsubscribe\r\n$2\r\nch\r\n:0\r\n");
  sub.SendCommand({"UNSUBSCRIBE"});
  EXPECT_EQ(sub.ReadRaw(), ">3\r\n$11\r\nunsubscribe\r\n_\r\n:0\r\n");
}

TEST_F(PubSubTest, SubscribedResp2ClientIsLimited) {
  c().SendCommand({"SUBSCRIBE", "q"});
  c().ReadRaw();
  EXPECT_EQ(c()({"GET", "x"}),
            Error("ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT "
                  "/ RESET are allowed in this context"));
  EXPECT_EQ(c().Raw({"PING"}), "*2\r\n$4\r\npong\r\n$0\r\n\r\n");
  EXPECT_EQ(c().Raw({"PING", "m"}), "*2\r\n$4\r\npong\r\n$1\r\nm\r\n");
  c().SendCommand({"UNSUBSCRIBE", "nope"});
  EXPECT_EQ(c().ReadRaw(), "*3\r\n$11\r\nunsubscribe\r\n$4\r\nnope\r\n:1\r\n");
  c().SendCommand({"UNSUBSCRIBE"});
  EXPECT_EQ(c().ReadRaw(), "*3\r\n$11\r\nunsubscribe\r\n$1\r\nq\r\n:0\r\n");
  // Out of subscribed mode again.
  EXPECT_EQ(c().Raw({"GET", "x"}), "$-1\r\n");
  EXPECT_EQ(c().Raw({"PUNSUBSCRIBE"}), "*3\r\n$12\r\npunsubscribe\r\n$-1\r\n:0\r\n");
}

TEST_F(PubSubTest, ShardChannels) {
  Client sub = Connect();
  sub.SendCommand({"SSUBSCRIBE", "s1"});
  EXPECT_EQ(sub.ReadRaw(), "*3\r\n$10\r\nssubscribe\r\n$2\r\ns1\r\n:1\r\n");
  sub.SendCommand({"SUBSCRIBE", "n1"});  // plain and shard subscriptions are counted apart
  EXPECT_EQ(sub.ReadRaw(), "*3\r\n$9\r\nsubscribe\r\n$2\r\nn1\r\n:1\r\n");
  EXPECT_EQ(c()({"SPUBLISH", "s1", "hi"}), Int(1));
  EXPECT_EQ(sub.ReadRaw(), "*3\r\n$8\r\nsmessage\r\n$2\r\ns1\r\n$2\r\nhi\r\n");
  EXPECT_EQ(c()({"PUBLISH", "s1", "plain"}), Int(0));  // different namespace
  EXPECT_EQ(c().Raw({"PUBSUB", "SHARDNUMSUB", "s1", "s2"}), "*4\r\n$2\r\ns1\r\n:1\r\n$2\r\ns2\r\n:0\r\n");
  EXPECT_EQ(c()({"PUBSUB", "SHARDCHANNELS"}), Array({Bulk("s1")}));
  sub.SendCommand({"SUNSUBSCRIBE", "s1"});
  EXPECT_EQ(sub.ReadRaw(), "*3\r\n$12\r\nsunsubscribe\r\n$2\r\ns1\r\n:0\r\n");
}

TEST_F(PubSubTest, PubsubIntrospection) {
  Client a = Connect();
  Client b = Connect();
  a.SendCommand({"SUBSCRIBE", "alpha", "beta"});
  a.ReadRaw();
  a.ReadRaw();
  b.SendCommand({"SUBSCRIBE", "alpha"});
  b.ReadRaw();
  b.SendCommand({"PSUBSCRIBE", "x*", "y*"});
  b.ReadRaw();
  b.ReadRaw();
  Reply channels = c()({"PUBSUB", "CHANNELS"});
  std::vector<std::string> names;
  for (const auto& r : channels.elements) names.push_back(r.str);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"alpha", "beta"}));
  EXPECT_EQ(c()({"PUBSUB", "CHANNELS", "a*"}), Array({Bulk("alpha")}));
  EXPECT_EQ(c().Raw({"PUBSUB", "NUMSUB", "alpha", "beta", "none"}),
            "*6\r\n$5\r\nalpha\r\n:2\r\n$4\r\nbeta\r\n:1\r\n$4\r\nnone\r\n:0\r\n");
  EXPECT_EQ(c()({"PUBSUB", "NUMSUB"}), Array({}));
  EXPECT_EQ(c()({"PUBSUB", "NUMPAT"}), Int(2));
  EXPECT_EQ(c()({"PUBSUB", "CHANNELS", "x", "y"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'CHANNELS'. Try PUBSUB "
                  "HELP."));
  Reply help = c()({"PUBSUB", "HELP"});
  EXPECT_EQ(help.elements.size(), 14u);
}

TEST_F(PubSubTest, NumSubIsAFlatArrayInResp3) {
  c()({"HELLO", "3"});
  EXPECT_EQ(c().Raw({"PUBSUB", "NUMSUB", "x"}), "*2\r\n$1\r\nx\r\n:0\r\n");
}

TEST_F(PubSubTest, DisconnectDropsSubscriptions) {
  {
    Client gone = Connect();
    gone.SendCommand({"SUBSCRIBE", "temp"});
    gone.ReadRaw();
    EXPECT_EQ(c()({"PUBLISH", "temp", "x"}), Int(1));
  }
  EXPECT_TRUE(Eventually([&] { return c()({"PUBLISH", "temp", "x"}) == Int(0); }));
}

TEST_F(PubSubTest, ResetUnsubscribes) {
  c().SendCommand({"SUBSCRIBE", "r"});
  c().ReadRaw();
  EXPECT_EQ(c()({"RESET"}), Status("RESET"));
  EXPECT_EQ(c().Raw({"GET", "x"}), "$-1\r\n");
  EXPECT_EQ(Connect()({"PUBLISH", "r", "x"}), Int(0));
}

TEST_F(PubSubTest, ClientListShowsSubscriptions) {
  c().SendCommand({"SUBSCRIBE", "a", "b"});
  c().ReadRaw();
  c().ReadRaw();
  c().SendCommand({"PSUBSCRIBE", "p*"});
  c().ReadRaw();
  Reply list = Connect()({"CLIENT", "LIST"});
  EXPECT_NE(list.str.find("flags=P db=0 sub=2 psub=1 ssub=0"), std::string::npos) << list.str;
}

TEST_F(PubSubTest, SlowSubscriberPastItsOutputLimitIsDisconnected) {
  ASSERT_EQ(c()({"CONFIG", "SET", "client-output-buffer-limit", "pubsub 1mb 0 0"}), Status("OK"));
  Client slow = Connect();
  slow.SendCommand({"SUBSCRIBE", "firehose"});
  slow.ReadRaw();
  // The subscriber reads nothing; once the kernel's buffers are full its pending output grows
  // past the hard limit and the server drops it.
  std::string message(64 * 1024, 'm');
  bool dropped = false;
  for (int i = 0; i < 2000 && !dropped; ++i) {
    dropped = c()({"PUBLISH", "firehose", message}) == Int(0);
  }
  EXPECT_TRUE(dropped);
  c()({"CONFIG", "SET", "client-output-buffer-limit", "pubsub 33554432 8388608 60"});
}

TEST_F(PubSubTest, OutputBufferLimitConfig) {
  ExpectReplies(
      c(),
      {
          {{"CONFIG", "SET", "client-output-buffer-limit", "pubsub 1mb 512kb 10"}, Status("OK")},
          {{"CONFIG", "GET", "client-output-buffer-limit"},
           Array({Bulk("client-output-buffer-limit"),
                  Bulk("normal 0 0 0 slave 268435456 67108864 60 pubsub 1048576 524288 10")})},
          {{"CONFIG", "SET", "client-output-buffer-limit", "foo 1 2 3"},
           Error(
               "ERR CONFIG SET failed (possibly related to argument 'client-output-buffer-limit') "
               "- Invalid client class specified in buffer limit configuration.")},
          {{"CONFIG", "SET", "client-output-buffer-limit", "normal 1 2"},
           Error(
               "ERR CONFIG SET failed (possibly related to argument 'client-output-buffer-limit') "
               "- Wrong number of arguments in buffer limit configuration.")},
          {{"CONFIG", "SET", "client-output-buffer-limit", "normal 1x 2 3"},
           Error(
               "ERR CONFIG SET failed (possibly related to argument 'client-output-buffer-limit') "
               "- Error in hard, soft or soft_seconds setting in buffer limit configuration.")},
          {{"CONFIG", "SET", "client-output-buffer-limit",
            "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60"},
           Status("OK")},
      });
}

}  // namespace
}  // namespace redlab::conformance
