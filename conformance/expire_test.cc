// Expiry: EXPIRE/PEXPIRE/EXPIREAT/PEXPIREAT and their options, TTL/PTTL/EXPIRETIME/PEXPIRETIME,
// PERSIST, lazy and active expiry as clients see them; and the DEBUG subcommands the tests use.
// DEBUG is protected in Redis 7.0, so this suite's server runs with enable-debug-command yes, as
// Redis's own test harness runs its servers.
#include <algorithm>
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"
#include "conformance/help_reply.h"

namespace redlab::conformance {
namespace {

class ExpireTest : public ConformanceTest {
 protected:
  static void SetUpTestSuite() {
    if (!server_) server_ = StartServer({.config = {{"enable-debug-command", "yes"}}});
  }
  void TearDown() override {
    // The suite shares one server: leave active expiry on for the next test.
    EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "1"}), Status("OK"));
  }

  void Set(std::string_view key) { ASSERT_EQ(c()({"SET", key, "v"}), Status("OK")); }
  int64_t Integer(std::initializer_list<std::string_view> args) {
    Reply r = c()(args);
    EXPECT_EQ(r.type, Reply::Type::kInteger) << r;
    return r.integer;
  }
  // The server's time in ms (TIME), to reason about absolute expiry times.
  int64_t ServerMs() {
    Reply t = c()({"TIME"});
    return std::stoll(t.elements.at(0).str) * 1000 + std::stoll(t.elements.at(1).str) / 1000;
  }
  // Gives `key` an expiry time shortly ahead (absolute, so that nothing has to read the key to
  // learn it) and returns it.
  int64_t ExpireSoon(std::string_view key) {
    int64_t when = ServerMs() + 100;
    EXPECT_EQ(c()({"PEXPIREAT", key, std::to_string(when)}), Int(1));
    return when;
  }
  // Waits, without touching any key, until the server's time has passed `when`: a key expiring
  // then is logically expired, but still stored if nothing deleted it.
  bool WaitPast(int64_t when) {
    return Eventually([&] { return ServerMs() > when; });
  }
  static std::vector<std::string> Sorted(const Reply& r) {
    std::vector<std::string> out;
    for (const Reply& e : r.elements) out.push_back(e.str);
    std::sort(out.begin(), out.end());
    return out;
  }
};

using Strings = std::vector<std::string>;

TEST_F(ExpireTest, TtlOfMissingAndPersistentKeys) {
  Set("plain");
  for (std::string name : {"ttl", "pttl", "expiretime", "pexpiretime"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(c().Call({name, "missing"}), Int(-2));
    EXPECT_EQ(c().Call({name, "plain"}), Int(-1));
    EXPECT_EQ(c().Call({name}), Error("ERR wrong number of arguments for '" + name + "' command"));
    EXPECT_EQ(c().Call({name, "a", "b"}),
              Error("ERR wrong number of arguments for '" + name + "' command"));
  }
}

TEST_F(ExpireTest, ExpireSetsTtl) {
  Set("k");
  EXPECT_EQ(c()({"EXPIRE", "k", "100"}), Int(1));
  EXPECT_EQ(c()({"TTL", "k"}), Int(100));
  int64_t pttl = Integer({"PTTL", "k"});
  EXPECT_TRUE(pttl > 99000 && pttl <= 100000) << pttl;
  EXPECT_EQ(c()({"PEXPIRE", "k", "5500"}), Int(1));
  pttl = Integer({"PTTL", "k"});
  EXPECT_TRUE(pttl > 4500 && pttl <= 5500) << pttl;
  // TTL rounds to the nearest second.
  EXPECT_EQ(c()({"PEXPIRE", "k", "100400"}), Int(1));
  EXPECT_EQ(c()({"TTL", "k"}), Int(100));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
}

TEST_F(ExpireTest, AbsoluteExpiryTimes) {
  Set("k");
  const int64_t at_ms = 4102444800123;  // 2100-01-01T00:00:00.123Z
  EXPECT_EQ(c()({"PEXPIREAT", "k", std::to_string(at_ms)}), Int(1));
  EXPECT_EQ(c()({"PEXPIRETIME", "k"}), Int(at_ms));
  EXPECT_EQ(c()({"EXPIRETIME", "k"}), Int(4102444800));
  EXPECT_EQ(c()({"EXPIREAT", "k", "4102444801"}), Int(1));
  EXPECT_EQ(c()({"PEXPIRETIME", "k"}), Int(4102444801000));
  EXPECT_EQ(c()({"EXPIRETIME", "k"}), Int(4102444801));
  // EXPIRETIME rounds to the nearest second too.
  EXPECT_EQ(c()({"PEXPIREAT", "k", "4102444800500"}), Int(1));
  EXPECT_EQ(c()({"EXPIRETIME", "k"}), Int(4102444801));
  // The relative forms store an absolute time.
  int64_t before = ServerMs();
  EXPECT_EQ(c()({"PEXPIRE", "k", "60000"}), Int(1));
  int64_t when = Integer({"PEXPIRETIME", "k"});
  EXPECT_GE(when, before + 60000);
  EXPECT_LE(when, ServerMs() + 60000);
}

TEST_F(ExpireTest, LargestExpiryTime) {
  Set("k");
  EXPECT_EQ(c()({"PEXPIREAT", "k", "9223372036854775807"}), Int(1));
  EXPECT_EQ(c()({"PEXPIRETIME", "k"}), Int(9223372036854775807));
  EXPECT_EQ(c()({"EXPIRETIME", "k"}), Int(9223372036854776));
  EXPECT_EQ(c()({"EXPIREAT", "k", "9223372036854775"}), Int(1));
  EXPECT_EQ(c()({"PEXPIRETIME", "k"}), Int(9223372036854775000));
}

TEST_F(ExpireTest, TtlCountsDown) {
  Set("k");
  EXPECT_EQ(c()({"PEXPIRE", "k", "100000"}), Int(1));
  int64_t first = Integer({"PTTL", "k"});
  EXPECT_TRUE(Eventually([&] { return Integer({"PTTL", "k"}) < first; }));
  EXPECT_GT(Integer({"PTTL", "k"}), 0);
}

TEST_F(ExpireTest, ExpireOnMissingKey) {
  EXPECT_EQ(c()({"EXPIRE", "missing", "100"}), Int(0));
  EXPECT_EQ(c()({"PEXPIRE", "missing", "100"}), Int(0));
  EXPECT_EQ(c()({"EXPIREAT", "missing", "4102444800"}), Int(0));
  EXPECT_EQ(c()({"PEXPIREAT", "missing", "4102444800000"}), Int(0));
  EXPECT_EQ(c()({"EXPIRE", "missing", "-1"}), Int(0));
  EXPECT_EQ(c()({"EXPIRE", "missing", "100", "XX"}), Int(0));
  EXPECT_EQ(c()({"EXISTS", "missing"}), Int(0));
  // The argument is still checked.
  EXPECT_EQ(c()({"EXPIRE", "missing", "abc"}),
            Error("ERR value is not an integer or out of range"));
}

TEST_F(ExpireTest, NxOption) {
  Set("k");
  EXPECT_EQ(c()({"EXPIRE", "k", "100", "NX"}), Int(1));
  EXPECT_EQ(c()({"TTL", "k"}), Int(100));
  EXPECT_EQ(c()({"EXPIRE", "k", "200", "nx"}), Int(0));
  EXPECT_EQ(c()({"TTL", "k"}), Int(100));
}

TEST_F(ExpireTest, XxOption) {
  Set("k");
  EXPECT_EQ(c()({"EXPIRE", "k", "100", "XX"}), Int(0));
  EXPECT_EQ(c()({"TTL", "k"}), Int(-1));
  EXPECT_EQ(c()({"EXPIRE", "k", "100"}), Int(1));
  EXPECT_EQ(c()({"EXPIRE", "k", "200", "xx"}), Int(1));
  EXPECT_EQ(c()({"TTL", "k"}), Int(200));
  // Repeating an option is allowed.
  EXPECT_EQ(c()({"EXPIRE", "k", "300", "XX", "XX"}), Int(1));
  EXPECT_EQ(c()({"TTL", "k"}), Int(300));
}

TEST_F(ExpireTest, GtOption) {
  Set("k");
  // No TTL counts as infinite: nothing is greater.
  EXPECT_EQ(c()({"EXPIRE", "k", "100", "GT"}), Int(0));
  EXPECT_EQ(c()({"TTL", "k"}), Int(-1));
  EXPECT_EQ(c()({"EXPIRE", "k", "100"}), Int(1));
  EXPECT_EQ(c()({"EXPIRE", "k", "50", "GT"}), Int(0));
  EXPECT_EQ(c()({"TTL", "k"}), Int(100));
  EXPECT_EQ(c()({"EXPIRE", "k", "200", "gt"}), Int(1));
  EXPECT_EQ(c()({"TTL", "k"}), Int(200));
  EXPECT_EQ(c()({"EXPIRE", "k", "300", "XX", "GT"}), Int(1));
  EXPECT_EQ(c()({"TTL", "k"}), Int(300));
  EXPECT_EQ(c()({"EXPIRE", "k", "-1", "GT"}), Int(0));
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(1));
}

TEST_F(ExpireTest, LtOption) {
  Set("k");
  // No TTL counts as infinite: anything is less.
  EXPECT_EQ(c()({"EXPIRE", "k", "100", "LT"}), Int(1));
  EXPECT_EQ(c()({"TTL", "k"}), Int(100));
  EXPECT_EQ(c()({"EXPIRE", "k", "200", "lt"}), Int(0));
  EXPECT_EQ(c()({"TTL", "k"}), Int(100));
  EXPECT_EQ(c()({"EXPIRE", "k", "50", "LT"}), Int(1));
  EXPECT_EQ(c()({"TTL", "k"}), Int(50));
  EXPECT_EQ(c()({"EXPIRE", "k", "20", "XX", "LT"}), Int(1));
  EXPECT_EQ(c()({"TTL", "k"}), Int(20));
  // A time in the past is less: the key goes.
  EXPECT_EQ(c()({"EXPIRE", "k", "-5", "LT"}), Int(1));
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(0));
}

TEST_F(ExpireTest, OptionsOnOtherForms) {
  Set("k");
  EXPECT_EQ(c()({"PEXPIRE", "k", "100000", "NX"}), Int(1));
  EXPECT_EQ(c()({"PEXPIREAT", "k", "4102444800000", "LT"}), Int(0));
  EXPECT_EQ(c()({"PEXPIREAT", "k", "4102444800000", "GT"}), Int(1));
  EXPECT_EQ(c()({"EXPIREAT", "k", "4102444700", "GT"}), Int(0));
  EXPECT_EQ(c()({"EXPIREAT", "k", "4102444700", "LT"}), Int(1));
  EXPECT_EQ(c()({"EXPIRETIME", "k"}), Int(4102444700));
}

TEST_F(ExpireTest, OptionErrors) {
  Set("k");
  const Reply nx_err = Error("ERR NX and XX, GT or LT options at the same time are not compatible");
  const Reply gt_lt_err = Error("ERR GT and LT options at the same time are not compatible");
  EXPECT_EQ(c()({"EXPIRE", "k", "100", "NX", "XX"}), nx_err);
  EXPECT_EQ(c()({"EXPIRE", "k", "100", "NX", "GT"}), nx_err);
  EXPECT_EQ(c()({"PEXPIRE", "k", "100", "lt", "nx"}), nx_err);
  EXPECT_EQ(c()({"EXPIREAT", "k", "100", "GT", "LT"}), gt_lt_err);
  EXPECT_EQ(c()({"PEXPIREAT", "k", "100", "XX", "GT", "LT"}), gt_lt_err);
  // NX with GT and LT reports the NX conflict.
  EXPECT_EQ(c()({"EXPIRE", "k", "100", "NX", "GT", "LT"}), nx_err);
  EXPECT_EQ(c()({"EXPIRE", "k", "100", "FOO"}), Error("ERR Unsupported option FOO"));
  EXPECT_EQ(c()({"EXPIRE", "k", "100", "NX", "bar"}), Error("ERR Unsupported option bar"));
  // The options are checked before the time, even on a missing key.
  EXPECT_EQ(c()({"EXPIRE", "k", "abc", "foo"}), Error("ERR Unsupported option foo"));
  EXPECT_EQ(c()({"EXPIRE", "missing", "abc", "NX", "XX"}), nx_err);
  EXPECT_EQ(c()({"EXPIRE", "k"}), Error("ERR wrong number of arguments for 'expire' command"));
  EXPECT_EQ(c()({"TTL", "k"}), Int(-1));  // nothing was changed
}

TEST_F(ExpireTest, InvalidTimes) {
  Set("k");
  const Reply not_int = Error("ERR value is not an integer or out of range");
  for (const char* bad : {"abc", "1.5", "", " 1", "+5", "05", "9223372036854775808"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(c()({"EXPIRE", "k", bad}), not_int);
  }
  // Overflow of the unit conversion or of the addition to the current time.
  EXPECT_EQ(c()({"EXPIRE", "k", "9223372036854775807"}),
            Error("ERR invalid expire time in 'expire' command"));
  EXPECT_EQ(c()({"EXPIRE", "k", "-9223372036854776"}),
            Error("ERR invalid expire time in 'expire' command"));
  EXPECT_EQ(c()({"EXPIRE", "k", "9223372036854775"}),
            Error("ERR invalid expire time in 'expire' command"));
  EXPECT_EQ(c()({"PEXPIRE", "k", "9223372036854775807"}),
            Error("ERR invalid expire time in 'pexpire' command"));
  EXPECT_EQ(c()({"EXPIREAT", "k", "9223372036854776"}),
            Error("ERR invalid expire time in 'expireat' command"));
  EXPECT_EQ(c()({"TTL", "k"}), Int(-1));
  // A large negative relative time does not overflow-check: it is simply in the past.
  EXPECT_EQ(c()({"PEXPIRE", "k", "-9223372036854775808"}), Int(1));
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(0));
}

TEST_F(ExpireTest, PastTimesDeleteTheKey) {
  const std::vector<std::vector<std::string>> forms = {
      {"EXPIRE", "k", "0"},       {"EXPIRE", "k", "-10"},  {"PEXPIRE", "k", "0"},
      {"PEXPIRE", "k", "-1"},     {"EXPIREAT", "k", "1"},  {"EXPIREAT", "k", "-1"},
      {"PEXPIREAT", "k", "1000"}, {"PEXPIREAT", "k", "0"},
  };
  for (const auto& form : forms) {
    SCOPED_TRACE(form[0] + " " + form[2]);
    Set("k");
    EXPECT_EQ(c().Call(form), Int(1));
    EXPECT_EQ(c()({"EXISTS", "k"}), Int(0));
    EXPECT_EQ(c()({"TTL", "k"}), Int(-2));
  }
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
}

TEST_F(ExpireTest, Persist) {
  EXPECT_EQ(c()({"PERSIST", "missing"}), Int(0));
  Set("k");
  EXPECT_EQ(c()({"PERSIST", "k"}), Int(0));
  EXPECT_EQ(c()({"EXPIRE", "k", "100"}), Int(1));
  EXPECT_EQ(c()({"PERSIST", "k"}), Int(1));
  EXPECT_EQ(c()({"TTL", "k"}), Int(-1));
  EXPECT_EQ(c()({"PERSIST", "k"}), Int(0));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
  EXPECT_EQ(c()({"PERSIST"}), Error("ERR wrong number of arguments for 'persist' command"));
}

TEST_F(ExpireTest, PersistedKeyOutlivesItsOldTtl) {
  Set("k");
  EXPECT_EQ(c()({"PEXPIRE", "k", "30"}), Int(1));
  int64_t old_expiry = Integer({"PEXPIRETIME", "k"});
  EXPECT_EQ(c()({"PERSIST", "k"}), Int(1));
  EXPECT_TRUE(Eventually([&] { return ServerMs() > old_expiry + 50; }));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("v"));
}

TEST_F(ExpireTest, SetClearsTheTtl) {
  Set("k");
  EXPECT_EQ(c()({"EXPIRE", "k", "100"}), Int(1));
  EXPECT_EQ(c()({"SET", "k", "new"}), Status("OK"));
  EXPECT_EQ(c()({"TTL", "k"}), Int(-1));
  EXPECT_EQ(c()({"GET", "k"}), Bulk("new"));
}

TEST_F(ExpireTest, RenameKeepsTheTtl) {
  Set("k");
  EXPECT_EQ(c()({"PEXPIREAT", "k", "4102444800000"}), Int(1));
  EXPECT_EQ(c()({"RENAME", "k", "k2"}), Status("OK"));
  EXPECT_EQ(c()({"PEXPIRETIME", "k2"}), Int(4102444800000));
  EXPECT_EQ(c()({"RENAMENX", "k2", "k3"}), Int(1));
  EXPECT_EQ(c()({"PEXPIRETIME", "k3"}), Int(4102444800000));
  EXPECT_EQ(c()({"TTL", "k"}), Int(-2));
}

TEST_F(ExpireTest, ShortTtlExpires) {
  Set("k");
  EXPECT_EQ(c()({"PEXPIRE", "k", "20"}), Int(1));
  EXPECT_TRUE(Eventually([&] { return c()({"GET", "k"}) == Nil(); }));
  EXPECT_EQ(c()({"TTL", "k"}), Int(-2));
  EXPECT_EQ(c()({"EXISTS", "k"}), Int(0));
}

TEST_F(ExpireTest, ActiveExpiryRemovesUntouchedKeys) {
  for (int i = 0; i < 50; ++i) {
    std::string key = "short:" + std::to_string(i);
    Set(key);
    ASSERT_EQ(c()({"PEXPIRE", key, "20"}), Int(1));
  }
  Set("long");
  EXPECT_EQ(c()({"EXPIRE", "long", "1000"}), Int(1));
  Set("plain");
  EXPECT_EQ(c()({"DBSIZE"}), Int(52));
  // Nobody reads the short keys: the background cycle alone must remove them.
  EXPECT_TRUE(Eventually([&] { return Integer({"DBSIZE"}) == 2; }));
  EXPECT_EQ(Sorted(c()({"KEYS", "*"})), (Strings{"long", "plain"}));
}

TEST_F(ExpireTest, LazyExpiryWithActiveExpiryDisabled) {
  EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Status("OK"));
  Set("k");
  Set("other");
  ASSERT_TRUE(WaitPast(ExpireSoon("k")));
  // Logically expired but still stored: nothing has touched it.
  EXPECT_EQ(c()({"DBSIZE"}), Int(2));
  // KEYS skips it without deleting it.
  EXPECT_EQ(Sorted(c()({"KEYS", "*"})), (Strings{"other"}));
  EXPECT_EQ(c()({"DBSIZE"}), Int(2));
  // A read finds it missing and deletes it.
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));
}

TEST_F(ExpireTest, EveryLookupSeesExpiredKeysAsMissing) {
  EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Status("OK"));
  const std::vector<std::vector<std::string>> probes = {
      {"EXISTS", "k"},     {"TYPE", "k"},        {"TTL", "k"},           {"PTTL", "k"},
      {"EXPIRETIME", "k"}, {"TOUCH", "k"},       {"PERSIST", "k"},       {"EXPIRE", "k", "100"},
      {"DEL", "k"},        {"RENAME", "k", "x"}, {"RENAMENX", "k", "x"}, {"GET", "k"},
  };
  const std::vector<Reply> missing = {
      Int(0),
      Status("none"),
      Int(-2),
      Int(-2),
      Int(-2),
      Int(0),
      Int(0),
      Int(0),
      Int(0),
      Error("ERR no such key"),
      Error("ERR no such key"),
      Nil(),
  };
  for (size_t i = 0; i < probes.size(); ++i) {
    SCOPED_TRACE(probes[i][0]);
    Set("k");
    ASSERT_TRUE(WaitPast(ExpireSoon("k")));
    EXPECT_EQ(c()({"DBSIZE"}), Int(1));
    EXPECT_EQ(c().Call(probes[i]), missing[i]);
    EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  }
}

TEST_F(ExpireTest, RenameOverAnExpiredDestination) {
  EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Status("OK"));
  Set("src");
  Set("dst");
  ASSERT_TRUE(WaitPast(ExpireSoon("dst")));
  // An expired destination does not exist for RENAMENX.
  EXPECT_EQ(c()({"RENAMENX", "src", "dst"}), Int(1));
  EXPECT_EQ(c()({"TTL", "dst"}), Int(-1));
  EXPECT_EQ(c()({"GET", "dst"}), Bulk("v"));
}

TEST_F(ExpireTest, ScanDropsExpiredKeys) {
  EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Status("OK"));
  Set("live");
  Set("dead");
  ASSERT_TRUE(WaitPast(ExpireSoon("dead")));
  EXPECT_EQ(c()({"DBSIZE"}), Int(2));
  EXPECT_EQ(c()({"SCAN", "0", "COUNT", "100"}), Array({Bulk("0"), Array({Bulk("live")})}));
  // SCAN deleted what it met expired.
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));
}

TEST_F(ExpireTest, ScanTypeNoneReturnsExpiredKeys) {
  // Redis's quirk: SCAN's TYPE filter looks the key up (expiring it, so its type is "none")
  // before the expiry filter, which then finds nothing to filter.
  EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Status("OK"));
  Set("live");
  Set("dead");
  ASSERT_TRUE(WaitPast(ExpireSoon("dead")));
  EXPECT_EQ(c()({"SCAN", "0", "COUNT", "100", "TYPE", "none"}),
            Array({Bulk("0"), Array({Bulk("dead")})}));
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));
}

TEST_F(ExpireTest, RandomKeySkipsExpiredKeys) {
  EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Status("OK"));
  auto add_expiring = [&](int64_t when) {
    for (int i = 0; i < 20; ++i) {
      std::string key = "dead:" + std::to_string(i);
      Set(key);
      ASSERT_EQ(c()({"PEXPIREAT", key, std::to_string(when)}), Int(1));
    }
  };
  int64_t when = ServerMs() + 100;
  add_expiring(when);
  ASSERT_TRUE(WaitPast(when));
  EXPECT_EQ(c()({"DBSIZE"}), Int(20));
  EXPECT_EQ(c()({"RANDOMKEY"}), Nil());  // it deletes every expired key it meets
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  when = ServerMs() + 100;
  add_expiring(when);
  Set("live");
  ASSERT_TRUE(WaitPast(when));
  EXPECT_EQ(c()({"RANDOMKEY"}), Bulk("live"));
}

TEST_F(ExpireTest, ExpiredKeysCountInInfo) {
  EXPECT_EQ(c()({"CONFIG", "RESETSTAT"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Status("OK"));
  Set("k");
  ASSERT_TRUE(WaitPast(ExpireSoon("k")));
  EXPECT_EQ(c()({"GET", "k"}), Nil());
  Reply info = c()({"INFO", "stats"});
  EXPECT_NE(info.str.find("\r\nexpired_keys:1\r\n"), std::string::npos) << info.str;
  // A past EXPIRE deletes the key without counting it as expired.
  Set("k");
  EXPECT_EQ(c()({"EXPIRE", "k", "-1"}), Int(1));
  info = c()({"INFO", "stats"});
  EXPECT_NE(info.str.find("\r\nexpired_keys:1\r\n"), std::string::npos) << info.str;
}

TEST_F(ExpireTest, DebugSetActiveExpire) {
  EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Status("OK"));
  Set("k");
  ASSERT_TRUE(WaitPast(ExpireSoon("k")));
  // Re-enabled, the cycle removes the key nobody touches.
  EXPECT_EQ(c()({"debug", "set-active-expire", "1"}), Status("OK"));
  EXPECT_TRUE(Eventually([&] { return Integer({"DBSIZE"}) == 0; }));
  // The value is read as atoi reads it.
  EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "abc"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "2"}), Status("OK"));
  const Reply usage = Error(
      "ERR unknown subcommand or wrong number of arguments for 'SET-ACTIVE-EXPIRE'. Try DEBUG "
      "HELP.");
  EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE"}), usage);
  EXPECT_EQ(c()({"DEBUG", "SET-ACTIVE-EXPIRE", "1", "2"}), usage);
}

TEST_F(ExpireTest, DebugSleep) {
  int64_t before = ServerMs();
  EXPECT_EQ(c()({"DEBUG", "SLEEP", "0.1"}), Status("OK"));
  EXPECT_GE(ServerMs() - before, 100);
  EXPECT_EQ(c()({"DEBUG", "SLEEP", "0"}), Status("OK"));
  // strtod: garbage reads as 0 and a negative time does not sleep.
  EXPECT_EQ(c()({"DEBUG", "SLEEP", "abc"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "SLEEP", "-1"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "sleep"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'sleep'. Try DEBUG "
                  "HELP."));
}

TEST_F(ExpireTest, DebugLog) {
  EXPECT_EQ(c()({"DEBUG", "LOG", "hello from the conformance suite"}), Status("OK"));
  EXPECT_EQ(c()({"DEBUG", "LOG"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'LOG'. Try DEBUG "
                  "HELP."));
  EXPECT_EQ(c()({"DEBUG", "LOG", "a", "b"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'LOG'. Try DEBUG "
                  "HELP."));
}

TEST_F(ExpireTest, DebugHelpAndUnknownSubcommands) {
  Reply help = c()({"DEBUG", "HELP"});
  ASSERT_NO_FATAL_FAILURE(ExpectHelp(help, 106,
                                     {{0, HelpHeader("DEBUG")},
                                      {1, "AOF-FLUSH-SLEEP <microsec>"},
                                      {104, "HELP"},
                                      {105, "    Prints this help."}}));
  bool found_sleep = false;
  for (size_t i = 0; i + 1 < help.elements.size(); ++i) {
    if (help.elements[i] == Status("SLEEP <seconds>")) {
      found_sleep = true;
      EXPECT_EQ(help.elements[i + 1],
                Status("    Stop the server for <seconds>. Decimals allowed."));
    }
  }
  EXPECT_TRUE(found_sleep);
  EXPECT_EQ(c()({"debug", "help"}).elements.size(), 106u);
  EXPECT_EQ(c()({"DEBUG", "HELP", "x"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'HELP'. Try DEBUG "
                  "HELP."));
  EXPECT_EQ(c()({"DEBUG", "nosuch"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'nosuch'. Try DEBUG "
                  "HELP."));
  EXPECT_EQ(c()({"debug", "NoSuch", "a", "b"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'NoSuch'. Try DEBUG "
                  "HELP."));
  EXPECT_EQ(c()({"DEBUG"}), Error("ERR wrong number of arguments for 'debug' command"));
}

}  // namespace
}  // namespace redlab::conformance
