// Client-side caching in the default mode: keys a client read are invalidated when they change,
// by a push on a RESP3 connection or a message to a redirect client subscribed to
// __redis__:invalidate; the order of those messages around replies (a client's own changes after
// its reply, a transaction's after EXEC's); flushes, expiry and eviction; NOLOOP, OPTIN/OPTOUT,
// scripts; a redirect client that goes away.
#include <string>

#include "conformance/harness/script.h"
#include "conformance/tracking_support.h"

namespace redlab::conformance {
namespace {

TEST_F(TrackingTest, Resp3ReaderIsToldWhenAKeyChanges) {
  Client reader = Resp3();
  Client writer = Connect();
  EXPECT_EQ(reader({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(reader.Raw({"GET", "k"}), "_\r\n");
  EXPECT_EQ(writer({"SET", "k", "1"}), Status("OK"));
  EXPECT_EQ(reader.ReadRaw(), Invalidate({"k"}));
  // Once invalidated, the key is forgotten until the client reads it again.
  EXPECT_EQ(writer({"SET", "k", "2"}), Status("OK"));
  EXPECT_EQ(reader.Raw({"PING"}), "+PONG\r\n");
  EXPECT_EQ(reader.Raw({"GET", "k"}), "$1\r\n2\r\n");
  EXPECT_EQ(writer({"DEL", "k"}), Int(1));
  EXPECT_EQ(reader.ReadRaw(), Invalidate({"k"}));
}

TEST_F(TrackingTest, KeysThatWereNotReadAreNotReported) {
  Client writer = Connect();
  std::string redirect_id;
  Client redirect = Subscriber(&redirect_id);
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "REDIRECT", redirect_id}), Status("OK"));
  EXPECT_EQ(c()({"SET", "a", "1"}), Status("OK"));
  EXPECT_EQ(c()({"SET", "b", "1"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "a"}), Bulk("1"));
  EXPECT_EQ(writer({"INCR", "b"}), Int(2));  // never read: nothing to say
  EXPECT_EQ(writer({"INCR", "a"}), Int(2));
  EXPECT_EQ(redirect.ReadRaw(), InvalidateMessage(KeyArray({"a"})));
}

// A client's own change reaches it after the reply of the command that made it.
TEST_F(TrackingTest, OwnChangeIsReportedAfterTheReply) {
  Client c3 = Resp3();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"HSET", "h", "f", "1"}), ":1\r\n");
  EXPECT_EQ(c3.Raw({"HGET", "h", "f"}), "$1\r\n1\r\n");
  EXPECT_EQ(c3.Raw({"HDEL", "h", "f"}), ":1\r\n");
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"h"}));
  EXPECT_EQ(c3.Raw({"PING"}), "+PONG\r\n");
}

// A blocked command that ends later is the same: BLMOVE's push into a key its client tracks is
// reported after BLMOVE's reply.
TEST_F(TrackingTest, UnblockedCommandsReplyComesBeforeItsInvalidation) {
  Client c3 = Resp3();
  EXPECT_EQ(c()({"RPUSH", "list2", "a"}), Int(1));
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"LRANGE", "list2", "0", "-1"}), "*1\r\n$1\r\na\r\n");
  c3.SendCommand({"BLMOVE", "list1", "list2", "LEFT", "LEFT", "0"});
  ASSERT_TRUE(Eventually([&] { return InfoNumber("blocked_clients") == 1; }));
  EXPECT_EQ(c()({"RPUSH", "list1", "foo"}), Int(1));
  EXPECT_EQ(c3.ReadRaw(), "$3\r\nfoo\r\n");
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"list2"}));
}

TEST_F(TrackingTest, TransactionReplyComesBeforeItsInvalidations) {
  Client c3 = Resp3();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(c3({"MSET", "a", "1", "b", "2"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"GET", "a"}), "$1\r\n1\r\n");
  EXPECT_EQ(c3({"MULTI"}), Status("OK"));
  EXPECT_EQ(c3({"INCR", "a"}), Status("QUEUED"));
  EXPECT_EQ(c3({"GET", "b"}), Status("QUEUED"));
  EXPECT_EQ(c3.Raw({"EXEC"}), "*2\r\n:2\r\n$1\r\n2\r\n");
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"a"}));
  // b was read inside the transaction: it is tracked too.
  EXPECT_EQ(Connect()({"SET", "b", "3"}), Status("OK"));
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"b"}));
  // A flush inside a transaction: "everything" once EXEC has answered.
  EXPECT_EQ(c3({"MULTI"}), Status("OK"));
  EXPECT_EQ(c3({"FLUSHDB"}), Status("QUEUED"));
  EXPECT_EQ(c3.Raw({"EXEC"}), "*1\r\n+OK\r\n");
  EXPECT_EQ(c3.ReadRaw(), InvalidateAll(3));
}

TEST_F(TrackingTest, Resp2ClientWithoutRedirectHearsNothing) {
  Client writer = Connect();
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  EXPECT_EQ(writer({"SET", "k", "1"}), Status("OK"));
  EXPECT_EQ(c().Raw({"PING"}), "+PONG\r\n");
  // The key left the table all the same: in RESP3 now, its next change says nothing either.
  EXPECT_EQ(c()({"HELLO", "3"}).type, Reply::Type::kMap);
  EXPECT_EQ(writer({"SET", "k", "2"}), Status("OK"));
  EXPECT_EQ(c().Raw({"PING"}), "+PONG\r\n");
}

TEST_F(TrackingTest, RedirectTargetsByProtocol) {
  Client writer = Connect();
  Client resp3_target = Resp3();
  Client resp2_target = Connect();  // neither RESP3 nor subscribed: cannot be told anything
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "REDIRECT", IdOf(resp3_target)}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  EXPECT_EQ(writer({"SET", "k", "1"}), Status("OK"));
  EXPECT_EQ(resp3_target.ReadRaw(), Invalidate({"k"}));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "REDIRECT", IdOf(resp2_target)}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("1"));
  EXPECT_EQ(writer({"SET", "k", "2"}), Status("OK"));
  EXPECT_EQ(resp2_target.Raw({"PING"}), "+PONG\r\n");
  // A RESP3 target that subscribed still gets a push, not a message.
  EXPECT_EQ(resp3_target.Raw({"SUBSCRIBE", "__redis__:invalidate"}),
            ">3\r\n$9\r\nsubscribe\r\n$20\r\n__redis__:invalidate\r\n:1\r\n");
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "REDIRECT", IdOf(resp3_target)}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("2"));
  EXPECT_EQ(writer({"SET", "k", "3"}), Status("OK"));
  EXPECT_EQ(resp3_target.ReadRaw(), Invalidate({"k"}));
}

TEST_F(TrackingTest, ClientsReadingTheSameKeyAreEachTold) {
  Client writer = Connect();
  std::string redirect_id;
  Client redirect = Subscriber(&redirect_id);
  Client c3 = Resp3();
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "REDIRECT", redirect_id}), Status("OK"));
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(writer({"SET", "k", "1"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("1"));
  EXPECT_EQ(c3.Raw({"GET", "k"}), "$1\r\n1\r\n");
  EXPECT_EQ(writer({"INCR", "k"}), Int(2));
  EXPECT_EQ(redirect.ReadRaw(), InvalidateMessage(KeyArray({"k"})));
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"k"}));
}

TEST_F(TrackingTest, FlushTellsEveryTrackingClientToDropEverything) {
  Client writer = Connect();
  std::string redirect_id;
  Client redirect = Subscriber(&redirect_id);
  Client c3 = Resp3();
  Client idle = Resp3();  // tracking, but read nothing: told all the same
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "REDIRECT", redirect_id}), Status("OK"));
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON", "REDIRECT", redirect_id}), Status("OK"));
  EXPECT_EQ(idle({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  EXPECT_EQ(writer({"FLUSHALL"}), Status("OK"));
  // The null is in the protocol of the client that tracks, not of the one that receives.
  EXPECT_EQ(redirect.ReadRaw(), InvalidateMessage("$-1\r\n"));
  EXPECT_EQ(redirect.ReadRaw(), InvalidateMessage("_\r\n"));
  EXPECT_EQ(idle.ReadRaw(), InvalidateAll(3));
  EXPECT_EQ(writer({"FLUSHDB", "ASYNC"}), Status("OK"));
  EXPECT_EQ(redirect.ReadRaw(), InvalidateMessage("$-1\r\n"));
  EXPECT_EQ(redirect.ReadRaw(), InvalidateMessage("_\r\n"));
  EXPECT_EQ(idle.ReadRaw(), InvalidateAll(3));
  // The table was emptied: k is not reported again.
  EXPECT_EQ(writer({"SET", "k", "1"}), Status("OK"));
  EXPECT_EQ(c3({"GET", "other"}).type, Reply::Type::kNil);
  EXPECT_EQ(writer({"SET", "other", "1"}), Status("OK"));
  EXPECT_EQ(redirect.ReadRaw(), InvalidateMessage(KeyArray({"other"})));
}

TEST_F(TrackingTest, BrokenRedirectIsReportedToResp3Clients) {
  Client writer = Connect();
  Client target = Connect();
  std::string target_id = IdOf(target);
  Client c3 = Resp3();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON", "REDIRECT", target_id}), Status("OK"));
  EXPECT_EQ(c()({"CLIENT", "TRACKING", "ON", "REDIRECT", target_id}), Status("OK"));
  EXPECT_EQ(c3.Raw({"GET", "k"}), "_\r\n");
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  EXPECT_EQ(target({"QUIT"}), Status("OK"));
  ASSERT_TRUE(target.WaitClosed());
  EXPECT_EQ(writer({"SET", "k", "1"}), Status("OK"));
  std::string broken = ">2\r\n$21\r\ntracking-redir-broken\r\n:" + target_id + "\r\n";
  EXPECT_EQ(c3.ReadRaw(), broken);
  EXPECT_EQ(c3.Raw({"CLIENT", "TRACKINGINFO"}),
            "%3\r\n$5\r\nflags\r\n~2\r\n$2\r\non\r\n$15\r\nbroken_redirect\r\n$8\r\nredirect\r\n:" +
                target_id + "\r\n$8\r\nprefixes\r\n*0\r\n");
  std::string info = c3({"CLIENT", "INFO"}).str;
  EXPECT_NE(info.find(" flags=tR "), std::string::npos) << info;
  EXPECT_NE(info.find(" redir=" + target_id + " "), std::string::npos) << info;
  // A RESP2 client cannot be told, but is marked as well.
  EXPECT_EQ(c()({"CLIENT", "TRACKINGINFO"}),
            Array({Bulk("flags"), Array({Bulk("on"), Bulk("broken_redirect")}), Bulk("redirect"),
                   Int(std::stoll(target_id)), Bulk("prefixes"), Array({})}));
  // Every message that cannot be delivered says it again, flushes included.
  EXPECT_EQ(writer({"FLUSHALL"}), Status("OK"));
  EXPECT_EQ(c3.ReadRaw(), broken);
  EXPECT_EQ(c3({"CLIENT", "GETREDIR"}), Int(std::stoll(target_id)));
}

TEST_F(TrackingTest, NoloopSparesAClientItsOwnChanges) {
  Client writer = Connect();
  Client c3 = Resp3();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON", "NOLOOP"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"MGET", "k1", "k2", "k3"}), "*3\r\n_\r\n_\r\n_\r\n");
  EXPECT_EQ(c3.Raw({"SET", "k1", "x"}), "+OK\r\n");
  // Its own change took k1 out of the table: only k2 is left to report.
  EXPECT_EQ(writer({"SET", "k1", "y"}), Status("OK"));
  EXPECT_EQ(writer({"SET", "k2", "y"}), Status("OK"));
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"k2"}));
  // A script's changes are its caller's.
  EXPECT_EQ(c3.Raw({"EVAL", "return redis.call('set', KEYS[1], 'z')", "1", "k3"}), "+OK\r\n");
  EXPECT_EQ(writer({"SET", "k3", "w"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"PING"}), "+PONG\r\n");
}

TEST_F(TrackingTest, ScriptsTrackTheKeysTheyDeclareOnceTheyRead) {
  Client writer = Connect();
  Client c3 = Resp3();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  // No read in the script: nothing tracked.
  EXPECT_EQ(c3.Raw({"EVAL", "redis.call('set', 'k3', 'bar')", "2", "k1", "k2"}), "_\r\n");
  EXPECT_EQ(writer({"MSET", "k2", "2", "k1", "2"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"PING"}), "+PONG\r\n");
  // A read of any key tracks every declared key (and not the key it read).
  EXPECT_EQ(c3.Raw({"EVAL", "redis.call('get', 'k3')", "2", "k1", "k2"}), "_\r\n");
  EXPECT_EQ(writer({"MSET", "k2", "2", "k1", "2", "k3", "x"}), Status("OK"));
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"k2"}));
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"k1"}));
  EXPECT_EQ(c3.Raw({"PING"}), "+PONG\r\n");
  // EVAL_RO alike: it tracks through the reads its script makes, not by itself.
  EXPECT_EQ(c3.Raw({"EVAL_RO", "return 1", "1", "k4"}), ":1\r\n");
  EXPECT_EQ(c3.Raw({"EVAL_RO", "return redis.call('get', KEYS[1])", "1", "k5"}), "_\r\n");
  EXPECT_EQ(writer({"MSET", "k4", "1", "k5", "1"}), Status("OK"));
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"k5"}));
  EXPECT_EQ(c3.Raw({"PING"}), "+PONG\r\n");
}

TEST_F(TrackingTest, OptinTracksOnlyAfterCachingYes) {
  Client writer = Connect();
  Client c3 = Resp3();
  auto change_all = [&] {
    EXPECT_EQ(writer({"MSET", "k1", "1", "k2", "2", "k3", "3"}), Status("OK"));
  };
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON", "OPTIN"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"GET", "k1"}), "_\r\n");
  EXPECT_EQ(c3({"CLIENT", "CACHING", "YES"}), Status("OK"));
  // Other CLIENT subcommands do not use up the CACHING given.
  EXPECT_EQ(c3.Raw({"CLIENT", "TRACKINGINFO"}),
            "%3\r\n$5\r\nflags\r\n~3\r\n$2\r\non\r\n$5\r\noptin\r\n$11\r\ncaching-yes\r\n$8\r\n"
            "redirect\r\n:0\r\n$8\r\nprefixes\r\n*0\r\n");
  EXPECT_EQ(c3.Raw({"GET", "k2"}), "_\r\n");
  EXPECT_EQ(c3.Raw({"GET", "k3"}), "_\r\n");
  change_all();
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"k2"}));
  EXPECT_EQ(c3.Raw({"PING"}), "+PONG\r\n");
  // Before MULTI it covers the whole transaction; inside it, the rest of the transaction.
  EXPECT_EQ(c3({"CLIENT", "CACHING", "YES"}), Status("OK"));
  EXPECT_EQ(c3({"MULTI"}), Status("OK"));
  EXPECT_EQ(c3({"GET", "k1"}), Status("QUEUED"));
  EXPECT_EQ(c3({"GET", "k2"}), Status("QUEUED"));
  EXPECT_EQ(c3.Raw({"EXEC"}), "*2\r\n$1\r\n1\r\n$1\r\n2\r\n");
  EXPECT_EQ(c3.Raw({"GET", "k3"}), "$1\r\n3\r\n");
  change_all();
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"k1"}));
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"k2"}));
  EXPECT_EQ(c3({"MULTI"}), Status("OK"));
  EXPECT_EQ(c3({"GET", "k1"}), Status("QUEUED"));
  EXPECT_EQ(c3({"CLIENT", "CACHING", "YES"}), Status("QUEUED"));
  EXPECT_EQ(c3({"GET", "k2"}), Status("QUEUED"));
  EXPECT_EQ(c3.Raw({"EXEC"}), "*3\r\n$1\r\n1\r\n+OK\r\n$1\r\n2\r\n");
  change_all();
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"k2"}));
  // Any other command, even an unknown one, uses it up.
  EXPECT_EQ(c3({"CLIENT", "CACHING", "YES"}), Status("OK"));
  EXPECT_EQ(c3({"NOSUCHCOMMAND"}).type, Reply::Type::kError);
  EXPECT_EQ(c3.Raw({"GET", "k1"}), "$1\r\n1\r\n");
  change_all();
  EXPECT_EQ(c3.Raw({"PING"}), "+PONG\r\n");
}

TEST_F(TrackingTest, OptoutTracksAllButAfterCachingNo) {
  Client writer = Connect();
  Client c3 = Resp3();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON", "OPTOUT"}), Status("OK"));
  EXPECT_EQ(c3({"CLIENT", "CACHING", "NO"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"CLIENT", "TRACKINGINFO"}),
            "%3\r\n$5\r\nflags\r\n~3\r\n$2\r\non\r\n$6\r\noptout\r\n$10\r\ncaching-no\r\n$8\r\n"
            "redirect\r\n:0\r\n$8\r\nprefixes\r\n*0\r\n");
  EXPECT_EQ(c3.Raw({"GET", "k1"}), "_\r\n");
  EXPECT_EQ(c3.Raw({"GET", "k2"}), "_\r\n");
  EXPECT_EQ(writer({"MSET", "k1", "1", "k2", "2"}), Status("OK"));
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"k2"}));
  EXPECT_EQ(c3.Raw({"PING"}), "+PONG\r\n");
}

TEST_F(TrackingTest, CachingAndModeSwitchErrors) {
  ExpectReplies(
      c(),
      {
          {{"CLIENT", "CACHING", "NO"},
           Error("ERR CLIENT CACHING can be called only when the client is in tracking mode with "
                 "OPTIN or OPTOUT mode enabled")},
          {{"CLIENT", "TRACKING", "ON"}, Status("OK")},
          {{"CLIENT", "CACHING", "YES"},
           Error("ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.")},
          {{"CLIENT", "CACHING", "NO"},
           Error("ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.")},
          {{"CLIENT", "CACHING", "MAYBE"}, Error("ERR syntax error")},
          {{"CLIENT", "TRACKING", "ON", "BCAST"},
           Error("ERR You can't switch BCAST mode on/off before disabling tracking for this "
                 "client, and then re-enabling it with a different mode.")},
          {{"CLIENT", "TRACKING", "ON", "OPTIN"}, Status("OK")},
          {{"CLIENT", "TRACKING", "ON", "OPTOUT"},
           Error("ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this "
                 "client, and then re-enabling it with a different mode.")},
          // ON again without OPTIN leaves plain tracking.
          {{"CLIENT", "TRACKING", "ON"}, Status("OK")},
          {{"CLIENT", "TRACKING", "ON", "OPTOUT"}, Status("OK")},
          {{"CLIENT", "TRACKING", "OFF"}, Status("OK")},
          {{"CLIENT", "TRACKING", "ON", "BCAST"}, Status("OK")},
          {{"CLIENT", "TRACKING", "ON"},
           Error("ERR You can't switch BCAST mode on/off before disabling tracking for this "
                 "client, and then re-enabling it with a different mode.")},
      });
}

TEST_F(TrackingTest, ExpiredKeysAreInvalidated) {
  Client writer = Connect();
  Client c3 = Resp3();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  // Active expiry: the message comes when the key is reclaimed.
  EXPECT_EQ(writer({"SET", "k", "v", "PX", "300"}), Status("OK"));
  ASSERT_EQ(c3.Raw({"GET", "k"}), "$1\r\nv\r\n");
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"k"}));
  // Lazy expiry by the client's own read: after that read's reply.
  EXPECT_EQ(c3({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Status("OK"));
  int64_t when = ServerMs(writer) + 300;
  EXPECT_EQ(writer({"MSET", "x", "1", "y", "2"}), Status("OK"));
  EXPECT_EQ(writer({"PEXPIREAT", "y", std::to_string(when)}), Int(1));
  ASSERT_EQ(c3.Raw({"GET", "y"}), "$1\r\n2\r\n");
  ASSERT_TRUE(Eventually([&] { return ServerMs(writer) > when; }));
  EXPECT_EQ(c3.Raw({"MGET", "x", "y"}), "*2\r\n$1\r\n1\r\n_\r\n");
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"y"}));
}

// An evicted key is reported before the reply of the command whose admission evicted it.
TEST_F(TrackingTest, EvictedKeysAreInvalidatedBeforeTheReply) {
  Client c3 = Resp3();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(c3({"SET", "persistent", "v"}), Status("OK"));
  EXPECT_EQ(c3({"SETEX", "volatile", "10000", "x"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"GET", "volatile"}), "$1\r\nx\r\n");
  EXPECT_EQ(c3({"CONFIG", "SET", "maxmemory-policy", "volatile-random"}), Status("OK"));
  EXPECT_EQ(c3({"CONFIG", "SET", "maxmemory", "1"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"GET", "persistent"}), Invalidate({"volatile"}));
  EXPECT_EQ(c3.ReadRaw(), "$1\r\nv\r\n");
}

TEST_F(TrackingTest, InvalidationsArePushedUnderClientReplyOff) {
  Client writer = Connect();
  Client c3 = Resp3();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"GET", "foo"}), "_\r\n");
  c3.SendCommand({"CLIENT", "REPLY", "OFF"});
  EXPECT_EQ(writer({"SET", "foo", "bar"}), Status("OK"));
  EXPECT_EQ(c3.ReadRaw(), Invalidate({"foo"}));
  EXPECT_EQ(c3({"CLIENT", "REPLY", "ON"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"PING"}), "+PONG\r\n");
  // The same for a redirect target whose replies are off.
  Client target = Resp3();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON", "REDIRECT", IdOf(target)}), Status("OK"));
  EXPECT_EQ(c3.Raw({"GET", "foo"}), "$3\r\nbar\r\n");
  target.SendCommand({"CLIENT", "REPLY", "OFF"});
  EXPECT_EQ(writer({"SET", "foo", "baz"}), Status("OK"));
  EXPECT_EQ(target.ReadRaw(), Invalidate({"foo"}));
  EXPECT_EQ(target({"CLIENT", "REPLY", "ON"}), Status("OK"));
}

TEST_F(TrackingTest, ResetEndsTracking) {
  Client writer = Connect();
  Client c3 = Resp3();
  EXPECT_EQ(c3({"CLIENT", "TRACKING", "ON"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"GET", "k"}), "_\r\n");
  EXPECT_EQ(c3({"RESET"}), Status("RESET"));
  EXPECT_EQ(c3({"CLIENT", "GETREDIR"}), Int(-1));
  EXPECT_EQ(c3({"HELLO", "3"}).type, Reply::Type::kMap);
  EXPECT_EQ(writer({"SET", "k", "1"}), Status("OK"));
  EXPECT_EQ(c3.Raw({"PING"}), "+PONG\r\n");
}

}  // namespace
}  // namespace redlab::conformance
