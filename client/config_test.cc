#include "client/config.h"

#include <gtest/gtest.h>

#include "client/errors.h"

namespace redlab {
namespace {

TEST(ServerAddressTest, ParsesEveryPart) {
  ServerAddress a = ServerAddress::Parse("redis://:secret@db.example:6380/3");
  EXPECT_EQ(a.host, "db.example");
  EXPECT_EQ(a.port, 6380);
  EXPECT_EQ(a.user, "");
  EXPECT_EQ(a.password, "secret");
  EXPECT_EQ(a.db, 3);
  EXPECT_EQ(a.ToString(), "redis://db.example:6380/3");  // no password in messages
}

TEST(ServerAddressTest, UserPasswordAndDefaults) {
  ServerAddress a = ServerAddress::Parse("redis://alice:pw@10.0.0.1");
  EXPECT_EQ(a.user, "alice");
  EXPECT_EQ(a.password, "pw");
  EXPECT_EQ(a.port, 6379);
  EXPECT_EQ(a.db, 0);
  ServerAddress b = ServerAddress::Parse("localhost:7000");
  EXPECT_EQ(b.host, "localhost");
  EXPECT_EQ(b.port, 7000);
  ServerAddress c = ServerAddress::Parse("redis://[::1]:7001/1");
  EXPECT_EQ(c.host, "::1");
  EXPECT_EQ(c.port, 7001);
  EXPECT_EQ(c.db, 1);
  EXPECT_EQ(c.ToString(), "redis://[::1]:7001/1");
  ServerAddress d = ServerAddress::Parse("redis://pw-only@h:1");
  EXPECT_EQ(d.password, "pw-only");
  EXPECT_EQ(d.user, "");
}

TEST(ServerAddressTest, RejectsMalformedUrls) {
  for (const char* url : {"http://h:1", "redis://h:port", "redis://h:0", "redis://h:70000",
                          "redis://h:1/x", "redis://[::1"}) {
    EXPECT_THROW(ServerAddress::Parse(url), ConfigError) << url;
  }
}

TEST(ServerAddressTest, EmptyHostIsAnError) {
  // As Lettuce and redis-cli: an empty host is not read as localhost.
  for (const char* url : {"redis://:6379", "redis://", "redis://:pw@:6379", "redis:///2", ":6379",
                          "redis://[]:6379"}) {
    EXPECT_THROW(ServerAddress::Parse(url), ConfigError) << url;
  }
  try {
    ServerAddress::Parse("redis://:6379");
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "no host in server URL 'redis://:6379'");
  }
}

TEST(ServerAddressTest, UserinfoIsPercentDecoded) {
  ServerAddress a = ServerAddress::Parse("redis://:p%40ss%3Aw%2Fo%25rd@h:1");
  EXPECT_EQ(a.password, "p@ss:w/o%rd");
  EXPECT_EQ(a.host, "h");
  ServerAddress b = ServerAddress::Parse("redis://al%69ce:a+b%20c@h");
  EXPECT_EQ(b.user, "alice");
  EXPECT_EQ(b.password, "a+b c");  // RFC 3986: '+' is a plus, not a space
  ServerAddress c = ServerAddress::Parse("redis://%E2%82%AC@h");  // UTF-8 bytes
  EXPECT_EQ(c.password, "\xE2\x82\xAC");
  ServerAddress d = ServerAddress::Parse("redis://%2a%2A@h");  // either case of hex digit
  EXPECT_EQ(d.password, "**");
  for (const char* url : {"redis://:bad%2@h", "redis://:bad%zz@h", "redis://:bad%@h",
                          "redis://u%+1:pw@h", "redis://u%-1:pw@h"}) {
    EXPECT_THROW(ServerAddress::Parse(url), ConfigError) << url;
  }
}

TEST(ConfigTest, DefaultsAreRedissons) {
  Config c = Config::SingleServer("redis://127.0.0.1:6379");
  EXPECT_EQ(c.mode, Config::Mode::kSingle);
  EXPECT_EQ(c.connect_timeout, std::chrono::milliseconds(10000));
  EXPECT_EQ(c.timeout, std::chrono::milliseconds(3000));
  EXPECT_EQ(c.retry_attempts, 4);
  EXPECT_EQ(c.retry_interval, std::chrono::milliseconds(0));
  EXPECT_EQ(c.retry_delay_base, std::chrono::milliseconds(1000));
  EXPECT_EQ(c.retry_delay_max, std::chrono::milliseconds(2000));
  EXPECT_EQ(c.lock_watchdog_timeout, std::chrono::milliseconds(30000));
  EXPECT_EQ(c.lock_watchdog_batch_size, 100);
  EXPECT_EQ(c.fair_lock_wait_timeout, std::chrono::milliseconds(300000));
  EXPECT_TRUE(c.check_lock_synced_slaves);
  EXPECT_EQ(c.slaves_sync_timeout, std::chrono::milliseconds(1000));
  EXPECT_EQ(c.subscription_timeout, std::chrono::milliseconds(7500));
  EXPECT_EQ(c.ping_connection_interval, std::chrono::milliseconds(30000));
  EXPECT_NO_THROW(c.Validate());
}

TEST(ConfigTest, TopologiesAndValidation) {
  Config mr = Config::MasterReplica("redis://m:1", {"redis://r1:2", "redis://r2:3"});
  EXPECT_EQ(mr.mode, Config::Mode::kMasterReplica);
  EXPECT_EQ(mr.masters.size(), 1u);
  EXPECT_EQ(mr.replicas.size(), 2u);
  EXPECT_NO_THROW(mr.Validate());
  Config im = Config::IndependentMasters({"a:1", "b:2", "c:3"});
  EXPECT_EQ(im.masters.size(), 3u);
  EXPECT_NO_THROW(im.Validate());

  Config bad = Config::SingleServer("h:1");
  bad.lock_watchdog_timeout = std::chrono::milliseconds(0);
  EXPECT_THROW(bad.Validate(), ConfigError);
  bad = Config::SingleServer("h:1");
  bad.fair_lock_wait_timeout = std::chrono::milliseconds(0);
  EXPECT_THROW(bad.Validate(), ConfigError);
  bad = Config::SingleServer("h:1");
  bad.connection_pool_size = 0;
  EXPECT_THROW(bad.Validate(), ConfigError);
  bad = Config::SingleServer("h:1");
  bad.ping_connection_interval = std::chrono::milliseconds(-1);
  EXPECT_THROW(bad.Validate(), ConfigError);
  bad = Config::SingleServer("h:1");
  bad.masters.clear();
  EXPECT_THROW(bad.Validate(), ConfigError);
  bad = Config::SingleServer("h:1");
  bad.replicas.push_back(ServerAddress{});
  EXPECT_THROW(bad.Validate(), ConfigError);
}

TEST(ConfigTest, SentinelMode) {
  Config s = Config::Sentinel("mymaster", {"redis://127.0.0.1:26379", "127.0.0.1:26380"});
  EXPECT_EQ(s.mode, Config::Mode::kSentinel);
  EXPECT_EQ(s.sentinel_master_name, "mymaster");
  ASSERT_EQ(s.sentinels.size(), 2u);
  EXPECT_EQ(s.sentinels[1].port, 26380);
  EXPECT_EQ(s.masters.size(), 1u);  // the credentials' slot; the sentinels give the address
  EXPECT_EQ(s.sentinel_scan_interval, std::chrono::milliseconds(1000));  // Redisson's scanInterval
  EXPECT_NO_THROW(s.Validate());
  Config bad = Config::Sentinel("", {"h:1"});
  EXPECT_THROW(bad.Validate(), ConfigError);
  bad = Config::Sentinel("mymaster", {});
  EXPECT_THROW(bad.Validate(), ConfigError);
  bad = Config::SingleServer("h:1");
  bad.sentinels.push_back(ServerAddress{});
  EXPECT_THROW(bad.Validate(), ConfigError);
}

}  // namespace
TEST(ConfigTest, RetryDelayIsRedissonsEqualJitterOrAConstant) {
  Config c = Config::SingleServer("redis://h:1");
  // EqualJitterDelay(1 s, 2 s): attempt 0 -> [500, 1000], 1 -> [1000, 2000], later capped.
  for (int i = 0; i < 50; ++i) {
    auto d0 = c.RetryDelay(0).count(), d1 = c.RetryDelay(1).count(), d9 = c.RetryDelay(9).count();
    EXPECT_GE(d0, 500);
    EXPECT_LE(d0, 1000);
    EXPECT_GE(d1, 1000);
    EXPECT_LE(d1, 2000);
    EXPECT_GE(d9, 1000);
    EXPECT_LE(d9, 2000);
  }
  c.retry_interval = std::chrono::milliseconds(50);
  EXPECT_EQ(c.RetryDelay(0), std::chrono::milliseconds(50));
  EXPECT_EQ(c.RetryDelay(7), std::chrono::milliseconds(50));
}

}  // namespace redlab
