// Client-side caching in BCAST mode (every key under the client's prefixes, one message per
// prefix and loop iteration, prefix overlap rules), and what shows a client's tracking state:
// CLIENT TRACKINGINFO, GETREDIR, CLIENT LIST, INFO; tracking-table-max-keys.
#include <set>
#include <string>
#include <vector>

#include "conformance/tracking_support.h"

namespace redlab::conformance {
namespace {

using TrackingBcastTest = TrackingTest;

TEST_F(TrackingBcastTest, OneMessagePerPrefixWithItsKeysSorted) {
  std::string redirect_id;
  Client redirect = Subscriber(&redirect_id);
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "BCAST", "REDIRECT", redirect_id, "PREFIX",
                 "b:", "PREFIX", "a:"}),
            Status("OK"));
  // Nothing needs to have been read; keys outside the prefixes are not reported.
  EXPECT_EQ(c()({"MULTI"}), Status("OK"));
  for (const char* key : {"b:2", "a:2", "b:1", "a:1", "c:1"}) {
    EXPECT_EQ(c()({"INCR", key}), Status("QUEUED"));
  }
  EXPECT_EQ(c()({"EXEC"}), Array({Int(1), Int(1), Int(1), Int(1), Int(1)}));
  EXPECT_EQ(redirect.ReadRaw(), InvalidateMessage(KeyArray({"a:1", "a:2"})));
  EXPECT_EQ(redirect.ReadRaw(), InvalidateMessage(KeyArray({"b:1", "b:2"})));
  // ON again adds prefixes to those the client has.
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "BCAST", "REDIRECT", redirect_id, "PREFIX", "c:"}),
            Status("OK"));
  EXPECT_EQ(c()({"CLIENT", "TRACKINGINFO"}),
            Array({Bulk("flags"), Array({Bulk("on"), Bulk("bcast")}), Bulk("redirect"),
                   Int(std::stoll(redirect_id)), Bulk("prefixes"),
                   Array({Bulk("a:"), Bulk("b:"), Bulk("c:")})}));
  EXPECT_EQ(c()({"INCR", "c:1234"}), Int(1));
  EXPECT_EQ(redirect.ReadRaw(), InvalidateMessage(KeyArray({"c:1234"})));
}

TEST_F(TrackingBcastTest, TheEmptyPrefixCoversEveryKey) {
  Client c3 = Resp3();
  Client writer = Connect();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON", "BCAST"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"CLIENT", "TRACKINGINFO"}),
            "%3\r\n$5\r\nflags\r\n~2\r\n$2\r\non\r\n$5\r\nbcast\r\n$8\r\nredirect\r\n:0\r\n$8\r\n"
            "prefixes\r\n*1\r\n$0\r\n\r\n");
  EXPECT_EQ(writer({"MSET", "c", "3", "a", "1", "b", "2"}), Status("OK"));
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"a", "b", "c"}));
  // Its own changes too, after its reply.
  EXPECT_EQ(c3.Raw({"SET", "mine", "1"}), "+OK\r\n");
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"mine"}));
}

TEST_F(TrackingBcastTest, NoloopLeavesOutTheClientsOwnChanges) {
  std::string redirect_id;
  Client redirect = Subscriber(&redirect_id);
  Client writer = Connect();
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "BCAST", "REDIRECT", redirect_id, "NOLOOP"}),
            Status("OK"));
  EXPECT_EQ(writer({"SET", "otherkey1", "1"}), Status("OK"));
  EXPECT_EQ(redirect.ReadRaw(), InvalidateMessage(KeyArray({"otherkey1"})));
  EXPECT_EQ(c()({"SET", "loopkey", "1"}), Status("OK"));
  EXPECT_EQ(writer({"SET", "otherkey2", "1"}), Status("OK"));
  EXPECT_EQ(redirect.ReadRaw(), InvalidateMessage(KeyArray({"otherkey2"})));
  // Within one loop iteration, only the keys whose last change is its own are left out.
  EXPECT_EQ(c()({"MULTI"}), Status("OK"));
  EXPECT_EQ(c()({"SET", "mine", "1"}), Status("QUEUED"));
  EXPECT_EQ(c()({"EVAL", "return redis.call('set', 'script', '1')", "0"}), Status("QUEUED"));
  EXPECT_EQ(c()({"EXEC"}), Array({Status("OK"), Status("OK")}));
  EXPECT_EQ(writer({"SET", "zzz", "1"}), Status("OK"));
  // A script's change is not the client's own: the script ran it. (Messages of two iterations
  // may come apart or together; read until zzz's.)
  std::string seen;
  while (seen.find("zzz") == std::string::npos) seen += redirect.ReadRaw();
  EXPECT_EQ(seen.find("mine"), std::string::npos) << seen;
  EXPECT_NE(seen.find("script"), std::string::npos) << seen;
}

TEST_F(TrackingBcastTest, KeysReadBeforeSwitchingToBcastAreNotReportedTwice) {
  Client c3 = Resp3();
  Client writer = Connect();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(writer({"SET", "key1", "1"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"GET", "key1"}), "$1\r\n1\r\n");
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "OFF"}), Status("OK"));
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON", "BCAST"}), Status("OK"));
  EXPECT_EQ(writer({"INCR", "key1"}), Int(2));
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"key1"}));
  EXPECT_EQ(c3.Raw({"PING"}), "+PONG\r\n");
}

TEST_F(TrackingBcastTest, PrefixesMustNotOverlap) {
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "FOOBAR", "PREFIX", "FOO"}),
            Error("ERR Prefix 'FOOBAR' overlaps with another provided prefix 'FOO'. Prefixes for "
                  "a single client must not overlap."));
  EXPECT_EQ(c()({"CLIENT", "GETREDIR"}), Int(-1));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "FOO", "PREFIX", "BAR"}),
            Status("OK"));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "FO"}),
            Error("ERR Prefix 'FO' overlaps with an existing prefix 'FOO'. Prefixes for a single "
                  "client must not overlap."));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "BARB"}),
            Error("ERR Prefix 'BARB' overlaps with an existing prefix 'BAR'. Prefixes for a "
                  "single client must not overlap."));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "BAR"}),
            Error("ERR Prefix 'BAR' overlaps with an existing prefix 'BAR'. Prefixes for a single "
                  "client must not overlap."));
  // Without PREFIX, BCAST adds the empty prefix, unchecked; every prefix overlaps it then.
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "BCAST"}), Status("OK"));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "zz"}),
            Error("ERR Prefix 'zz' overlaps with an existing prefix ''. Prefixes for a single "
                  "client must not overlap."));
  EXPECT_EQ(c()({"CLIENT", "TRACKINGINFO"}).elements.at(5),
            Array({Bulk(""), Bulk("BAR"), Bulk("FOO")}));
}

// Redis 7.0.15 reports an overlap among the new prefixes as an error, but when the overlapping
// prefix is not the first given, it enables tracking anyway and answers +OK as well: two
// replies to one command.
TEST_F(TrackingBcastTest, OverlapAfterTheFirstPrefixRepliesTwice) {
  c().SendCommand(
      {"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "d", "PREFIX", "e", "PREFIX", "ef"});
  EXPECT_EQ(c().ReadRaw(),
            "-ERR Prefix 'e' overlaps with another provided prefix 'ef'. Prefixes for a single "
            "client must not overlap.\r\n");
  EXPECT_EQ(c().ReadRaw(), "+OK\r\n");
  EXPECT_EQ(c()({"CLIENT", "TRACKINGINFO"}).elements.at(5),
            Array({Bulk("d"), Bulk("e"), Bulk("ef")}));
}

TEST_F(TrackingBcastTest, TrackingInfoAndGetRedir) {
  Client target = Connect();
  std::string target_id = IdOf(target);
  auto info = [&] { return c()({"CLIENT", "TRACKINGINFO"}); };
  auto expect = [](std::vector<Reply> flags, int64_t redirect, std::vector<Reply> prefixes) {
    return Array({Bulk("flags"), Array(std::move(flags)), Bulk("redirect"), Int(redirect),
                  Bulk("prefixes"), Array(std::move(prefixes))});
  };
  EXPECT_EQ(info(), expect({Bulk("off")}, -1, {}));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(info(), expect({Bulk("on")}, 0, {}));
  EXPECT_EQ(c()({"CLIENT", "GETREDIR"}), Int(0));
  // ON again replaces the redirect (none given: none).
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "REDIRECT", target_id, "NOLOOP"}), Status("OK"));
  EXPECT_EQ(info(), expect({Bulk("on"), Bulk("noloop")}, std::stoll(target_id), {}));
  EXPECT_EQ(c()({"CLIENT", "GETREDIR"}), Int(std::stoll(target_id)));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "OPTIN"}), Status("OK"));
  EXPECT_EQ(info(), expect({Bulk("on"), Bulk("optin")}, 0, {}));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "OFF"}), Status("OK"));
  EXPECT_EQ(c()({"CLIENT", "GETREDIR"}), Int(-1));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "foo", "PREFIX", "bar"}),
            Status("OK"));
  EXPECT_EQ(info(), expect({Bulk("on"), Bulk("bcast")}, 0, {Bulk("bar"), Bulk("foo")}));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "OFF"}), Status("OK"));
  EXPECT_EQ(info(), expect({Bulk("off")}, -1, {}));
}

TEST_F(TrackingBcastTest, ClientListShowsTrackingFlagsAndRedirect) {
  Client target = Connect();
  std::string target_id = IdOf(target);
  auto line = [&] { return c()({"CLIENT", "INFO"}).str; };
  EXPECT_NE(line().find(" flags=N "), std::string::npos) << line();
  EXPECT_NE(line().find(" redir=-1 "), std::string::npos) << line();
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "REDIRECT", target_id}), Status("OK"));
  EXPECT_NE(line().find(" flags=t "), std::string::npos) << line();
  EXPECT_NE(line().find(" redir=" + target_id + " "), std::string::npos) << line();
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "OFF"}), Status("OK"));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "BCAST"}), Status("OK"));
  EXPECT_NE(line().find(" flags=tB "), std::string::npos) << line();
  EXPECT_NE(line().find(" redir=0 "), std::string::npos) << line();
  EXPECT_EQ(c()({"MULTI"}), Status("OK"));
  EXPECT_EQ(c()({"CLIENT", "INFO"}), Status("QUEUED"));
  Reply exec = c()({"EXEC"});
  ASSERT_EQ(exec.elements.size(), 1u) << exec;
  EXPECT_NE(exec.elements[0].str.find(" flags=xtB "), std::string::npos) << exec;
}

TEST_F(TrackingBcastTest, InfoCountsClientsKeysItemsAndPrefixes) {
  // Connections of earlier tests may still be closing.
  ASSERT_TRUE(Eventually([&] { return InfoNumber("tracking_clients") == 0; }));
  EXPECT_EQ(InfoNumber("tracking_total_keys"), 0);
  EXPECT_EQ(InfoNumber("tracking_total_items"), 0);
  EXPECT_EQ(InfoNumber("tracking_total_prefixes"), 0);
  Client other = Connect();
  Client bcast = Connect();
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(other({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(c()({"MGET", "key1", "key2"}), Array({Nil(), Nil()}));
  EXPECT_EQ(other({"GET", "key1"}), Nil());
  EXPECT_EQ(bcast({"CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "a", "PREFIX", "b"}),
            Status("OK"));
  EXPECT_EQ(InfoNumber("tracking_clients"), 3);
  EXPECT_EQ(InfoNumber("tracking_total_keys"), 2);
  EXPECT_EQ(InfoNumber("tracking_total_items"), 3);
  EXPECT_EQ(InfoNumber("tracking_total_prefixes"), 2);
  // Turning tracking off leaves the client's entries until their keys change.
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "OFF"}), Status("OK"));
  EXPECT_EQ(InfoNumber("tracking_clients"), 2);
  EXPECT_EQ(InfoNumber("tracking_total_keys"), 2);
  EXPECT_EQ(c()({"SET", "key2", "x"}), Status("OK"));
  EXPECT_EQ(InfoNumber("tracking_total_keys"), 1);
  EXPECT_EQ(InfoNumber("tracking_total_items"), 2);
  // A BCAST client that goes away takes its prefixes along.
  EXPECT_EQ(bcast({"QUIT"}), Status("OK"));
  ASSERT_TRUE(bcast.WaitClosed());
  EXPECT_TRUE(Eventually([&] { return InfoNumber("tracking_total_prefixes") == 0; }));
  EXPECT_EQ(InfoNumber("tracking_clients"), 1);
  EXPECT_EQ(c()({"FLUSHALL", "ASYNC"}), Status("OK"));
  EXPECT_EQ(InfoNumber("tracking_total_keys"), 0);
  EXPECT_EQ(InfoNumber("tracking_total_items"), 0);
}

// Over tracking-table-max-keys, keys are dropped from the table at random, their readers told
// as if they had changed; the effort grows until the table is back under the limit.
TEST_F(TrackingBcastTest, TableOverItsLimitDropsKeys) {
  std::string redirect_id;
  Client redirect = Subscriber(&redirect_id);
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "REDIRECT", redirect_id}), Status("OK"));
  constexpr int kKeys = 250;
  std::vector<std::string> mget = {"MGET"};
  for (int i = 0; i < kKeys; ++i) mget.push_back("key" + std::to_string(i));
  ASSERT_EQ(c().Call(mget).elements.size(), static_cast<size_t>(kKeys));
  EXPECT_EQ(c()({"CONFIG", "SET", "tracking-table-max-keys", "1"}), Status("OK"));
  // The limit applies at the next command (or cron tick): 100 keys, then 200 more at most.
  std::set<std::string> dropped;
  for (int i = 0; i < kKeys - 1; ++i) {
    Reply message = redirect.Read();
    ASSERT_EQ(message.elements.size(), 3u) << message;
    ASSERT_EQ(message.elements[2].elements.size(), 1u) << message;
    dropped.insert(message.elements[2].elements[0].str);
  }
  EXPECT_EQ(dropped.size(), static_cast<size_t>(kKeys - 1));
  EXPECT_EQ(redirect.Raw({"PING"}), "*2\r\n$4\r\npong\r\n$0\r\n\r\n");
  EXPECT_EQ(InfoNumber("tracking_total_keys"), 1);
}

// A command queued in MULTI still passes the table limit first: the message comes before
// +QUEUED (Redis's regression test for #11715, with the cron paused).
TEST_F(TrackingBcastTest, TableLimitAppliesBeforeQueueing) {
  EXPECT_EQ(c()({"DEBUG", "PAUSE-CRON", "1"}), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "SET", "tracking-table-max-keys", "2"}), Status("OK"));
  Client c3 = Resp3();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"MGET", "1{tag}", "2{tag}"}), "*2\r\n_\r\n_\r\n");
  EXPECT_EQ(c3({"MULTI"}), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "SET", "tracking-table-max-keys", "1"}), Status("OK"));
  std::string push = c3.Raw({"PING"});
  EXPECT_TRUE(push == Invalidate({"1{tag}"}) || push == Invalidate({"2{tag}"})) << push;
  EXPECT_EQ(c3.ReadRaw(), "+QUEUED\r\n");
  EXPECT_EQ(c3.Raw({"EXEC"}), "*1\r\n+PONG\r\n");
}

}  // namespace
}  // namespace redlab::conformance
