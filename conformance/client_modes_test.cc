// Per-connection switches of CLIENT: REPLY ON|OFF|SKIP, NO-EVICT, and the client-side caching
// subcommands (TRACKING, CACHING, GETREDIR, TRACKINGINFO) as a client that is not tracking sees
// them, with the option errors of TRACKING (tracking itself: tracking_*_test.cc).
#include <string>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {
namespace {

using ClientModesTest = ConformanceTest;

TEST_F(ClientModesTest, ReplyOffSilencesEverythingUntilOn) {
  c().SendCommand({"CLIENT", "REPLY", "OFF"});
  c().SendCommand({"PING", "pong"});
  c().SendCommand({"NOSUCHCOMMAND"});  // errors are silenced too
  c().SendCommand({"SET", "k", "v"});  // but commands still run
  EXPECT_EQ(c()({"CLIENT", "REPLY", "ON"}), Status("OK"));
  EXPECT_EQ(c()({"PING", "pong3"}), Bulk("pong3"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
}

TEST_F(ClientModesTest, ReplySkipSilencesTheNextCommandOnly) {
  c().SendCommand({"CLIENT", "REPLY", "SKIP"});
  c().SendCommand({"PING", "pong"});
  EXPECT_EQ(c()({"PING", "pong2"}), Bulk("pong2"));
  // ON right after SKIP answers, and cancels the skip.
  c().SendCommand({"CLIENT", "REPLY", "SKIP"});
  EXPECT_EQ(c()({"CLIENT", "REPLY", "ON"}), Status("OK"));
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
  // SKIP while OFF does nothing.
  c().SendCommand({"CLIENT", "REPLY", "OFF"});
  c().SendCommand({"CLIENT", "REPLY", "SKIP"});
  EXPECT_EQ(c()({"CLIENT", "REPLY", "ON"}), Status("OK"));
  EXPECT_EQ(c()({"PING", "x"}), Bulk("x"));
}

// Pushes are not replies: pub/sub messages and subscription confirmations still arrive.
TEST_F(ClientModesTest, ReplyOffKeepsPubSubPushes) {
  ASSERT_EQ(c()({"HELLO", "3"}).type, Reply::Type::kMap);
  ASSERT_EQ(c()({"SUBSCRIBE", "ch"}).type, Reply::Type::kPush);
  c().SendCommand({"CLIENT", "REPLY", "OFF"});
  c().SendCommand({"PING"});
  c().SendCommand({"SUBSCRIBE", "ch2"});
  Reply confirmation = c().Read();
  EXPECT_EQ(confirmation.type, Reply::Type::kPush);
  EXPECT_EQ(confirmation.elements.at(1), Bulk("ch2"));
  Client publisher = Connect();
  EXPECT_EQ(publisher({"PUBLISH", "ch", "while-off"}), Int(1));
  Reply message = c().Read();
  ASSERT_EQ(message.type, Reply::Type::kPush);
  EXPECT_EQ(message.elements.at(2), Bulk("while-off"));
  EXPECT_EQ(c()({"CLIENT", "REPLY", "ON"}), Status("OK"));
  // A client publishing to itself under SKIP gets the message but not PUBLISH's count.
  c().SendCommand({"CLIENT", "REPLY", "SKIP"});
  c().SendCommand({"PUBLISH", "ch", "to-self"});
  message = c().Read();
  ASSERT_EQ(message.type, Reply::Type::kPush);
  EXPECT_EQ(message.elements.at(2), Bulk("to-self"));
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
}

TEST_F(ClientModesTest, ReplyErrors) {
  EXPECT_EQ(c()({"CLIENT", "REPLY", "MAYBE"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"CLIENT", "REPLY"}),
            Error("ERR wrong number of arguments for 'client|reply' command"));
  // RESET turns replies back on.
  c().SendCommand({"CLIENT", "REPLY", "OFF"});
  EXPECT_EQ(c()({"RESET"}), Status("RESET"));
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
}

TEST_F(ClientModesTest, NoEvict) {
  EXPECT_EQ(c()({"CLIENT", "NO-EVICT", "on"}), Status("OK"));
  EXPECT_NE(c()({"CLIENT", "INFO"}).str.find(" flags=e "), std::string::npos);
  EXPECT_EQ(c()({"CLIENT", "NO-EVICT", "OFF"}), Status("OK"));
  EXPECT_NE(c()({"CLIENT", "INFO"}).str.find(" flags=N "), std::string::npos);
  EXPECT_EQ(c()({"CLIENT", "NO-EVICT", "maybe"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"CLIENT", "NO-EVICT"}),
            Error("ERR wrong number of arguments for 'client|no-evict' command"));
}

TEST_F(ClientModesTest, TrackingStateOfAClientNotTracking) {
  EXPECT_EQ(c()({"CLIENT", "GETREDIR"}), Int(-1));
  EXPECT_EQ(c()({"CLIENT", "TRACKINGINFO"}),
            Array({Bulk("flags"), Array({Bulk("off")}), Bulk("redirect"), Int(-1), Bulk("prefixes"),
                   Array({})}));
  EXPECT_EQ(c().Raw({"HELLO", "3"}).substr(0, 1), "%");
  EXPECT_EQ(c().Raw({"CLIENT", "TRACKINGINFO"}),
            "%3\r\n$5\r\nflags\r\n~1\r\n$3\r\noff\r\n$8\r\nredirect\r\n:-1\r\n$8\r\nprefixes\r\n"
            "*0\r\n");
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "OFF"}), Status("OK"));
  EXPECT_EQ(c()({"CLIENT", "CACHING", "YES"}),
            Error("ERR CLIENT CACHING can be called only when the client is in tracking mode with "
                  "OPTIN or OPTOUT mode enabled"));
}

TEST_F(ClientModesTest, TrackingOptionErrors) {
  std::string me = std::to_string(c()({"CLIENT", "ID"}).integer);
  auto tracking = [&](std::vector<std::string> options) {
    std::vector<std::string> args = {"CLIENT", "TRACKING"};
    args.insert(args.end(), options.begin(), options.end());
    return c().Call(args);
  };
  EXPECT_EQ(tracking({"MAYBE"}), Error("ERR syntax error"));
  EXPECT_EQ(tracking({"ON", "FOO"}), Error("ERR syntax error"));
  EXPECT_EQ(tracking({"ON", "PREFIX"}), Error("ERR syntax error"));
  EXPECT_EQ(tracking({"OFF", "REDIRECT", "x"}),
            Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(tracking({"OFF", "REDIRECT", "999999"}),
            Error("ERR The client ID you want redirect to does not exist"));
  EXPECT_EQ(tracking({"ON", "REDIRECT", me, "REDIRECT", me}),
            Error("ERR A client can only redirect to a single other client"));
  EXPECT_EQ(tracking({"ON", "PREFIX", "a"}),
            Error("ERR PREFIX option requires BCAST mode to be enabled"));
  EXPECT_EQ(tracking({"ON", "BCAST", "OPTIN"}),
            Error("ERR OPTIN and OPTOUT are not compatible with BCAST"));
  EXPECT_EQ(tracking({"ON", "OPTIN", "OPTOUT"}),
            Error("ERR You can't specify both OPTIN mode and OPTOUT mode"));
  EXPECT_EQ(tracking({"ON", "BCAST", "PREFIX", "ab", "PREFIX", "a"}),
            Error("ERR Prefix 'ab' overlaps with another provided prefix 'a'. Prefixes for a "
                  "single client must not overlap."));
  EXPECT_EQ(tracking({}), Error("ERR wrong number of arguments for 'client|tracking' command"));
}

}  // namespace
}  // namespace redlab::conformance
