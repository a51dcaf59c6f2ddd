// The client's connection settings, each made to matter: subscription_timeout (a subscription
// whose confirmation never comes), connect_timeout and timeout (a socket that accepts and never
// answers), retry_attempts and retry_interval (commands counted by the server while every reply
// is held), and ping_connection_interval (a half-open pub/sub connection found and replaced).
// On embedded redlab and real redis-server; the faults are a TcpProxy's.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <future>
#include <regex>

#include "conformance/harness/silent_listener.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

class LockSettingsTest : public LockTest {
 protected:
  // Calls of `command` the server counted since the last CONFIG RESETSTAT.
  int64_t Calls(const std::string& command) {
    std::string info = c()({"INFO", "commandstats"}).str;
    std::smatch m;
    if (!std::regex_search(info, m, std::regex("cmdstat_" + command + ":calls=(\\d+)"))) return 0;
    return std::stoll(m[1]);
  }
};

TEST_F(LockSettingsTest, LockFailsWhenTheSubscriptionIsNotConfirmedInTime) {
  auto holder = NewClient();
  holder->GetLock("unconfirmed").Lock(milliseconds(60000));
  TcpProxy proxy(port());
  Config config = TestConfig(proxy.port());
  config.connection_pool_size = 1;
  config.subscription_timeout = milliseconds(200);
  auto client = NewClient(config);
  ASSERT_EQ(proxy.accepted(), 1);
  // The command connection works; the pub/sub connection, made at the first wait, hears nothing.
  proxy.HoldNewConnections();
  redlab::Lock lock = client->GetLock("unconfirmed");
  std::future<void> waiting = lock.LockAsync();
  ASSERT_EQ(waiting.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  try {
    waiting.get();
    FAIL() << "Lock() acquired a held lock";
  } catch (const TimeoutError& e) {
    EXPECT_NE(std::string(e.what()).find("no subscription to redisson_lock__channel:{unconfirmed} "
                                         "within 200 ms"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(proxy.accepted(), 2);  // the pub/sub connection was made
  // TryLock(wait) is bounded by its wait instead, and says false.
  EXPECT_FALSE(lock.TryLock(milliseconds(300)));
}

// The TimeoutError a client made with `config` fails with, as text; "made" when it was made.
std::string TimeoutOfANewClient(const Config& config) {
  try {
    redlab::Client client(config);
  } catch (const TimeoutError& e) {
    return e.what();
  }
  return "made";
}

TEST_F(LockSettingsTest, ConnectTimeoutBoundsTheHandshake) {
  SilentListener silent;
  // SELECT is part of connecting: with no answer, connect_timeout ends it.
  Config config = Config::SingleServer("redis://127.0.0.1:" + std::to_string(silent.port()) + "/1");
  config.connect_timeout = milliseconds(200);
  config.timeout = milliseconds(600000);
  std::string error = TimeoutOfANewClient(config);
  EXPECT_NE(error.find("no connection within 200 ms"), std::string::npos) << error;
}

TEST_F(LockSettingsTest, ResponseTimeoutBoundsACommand) {
  SilentListener silent;
  // No handshake: connected at once; the first command (the constructor's PING) times out.
  Config config = Config::SingleServer("redis://127.0.0.1:" + std::to_string(silent.port()));
  config.connect_timeout = milliseconds(600000);
  config.timeout = milliseconds(200);
  std::string error = TimeoutOfANewClient(config);
  EXPECT_NE(error.find("no reply to PING within 200 ms"), std::string::npos) << error;
}

TEST_F(LockSettingsTest, RetryAttemptsCountedByTheServer) {
  TcpProxy proxy(port());
  Config config = TestConfig(proxy.port());
  config.connection_pool_size = 1;
  config.timeout = milliseconds(100);
  config.retry_attempts = 2;
  config.retry_interval = milliseconds(10);
  auto client = NewClient(config);
  redlab::Lock lock = client->GetLock("retried");
  // A read is safe to repeat: every attempt reaches the server, no reply comes back.
  c()({"CONFIG", "RESETSTAT"});
  proxy.Hold();
  EXPECT_THROW(lock.IsLocked(), TimeoutError);
  proxy.Release();
  EXPECT_EQ(Calls("exists"), 1 + config.retry_attempts);
  // An acquisition that may have run is not repeated (a second one would count a second hold).
  c()({"CONFIG", "RESETSTAT"});
  proxy.Hold();
  EXPECT_THROW(lock.TryLock(), TimeoutError);
  proxy.Release();
  EXPECT_EQ(Calls("evalsha") + Calls("eval"), 1);
}

TEST_F(LockSettingsTest, RetryWaitsItsInterval) {
  TcpProxy proxy(port());
  Config config = TestConfig(proxy.port());
  config.connection_pool_size = 1;
  config.timeout = milliseconds(100);
  config.retry_attempts = 1;
  config.retry_interval = std::chrono::hours(1);
  auto client = NewClient(config);
  redlab::Lock lock = client->GetLock("patient");
  int accepted = proxy.accepted();
  proxy.Hold();
  std::future<bool> pending = lock.IsLockedAsync();
  // The first attempt timed out: the client dropped its connection.
  ASSERT_TRUE(Eventually([&] { return proxy.open_connections() == 0; }));
  proxy.Release();
  // Replies would flow now, but the retry waits its hour: nothing was sent again.
  EXPECT_EQ(pending.wait_for(milliseconds(0)), std::future_status::timeout);
  EXPECT_EQ(proxy.accepted(), accepted);
  client->Shutdown();
  EXPECT_THROW(pending.get(), ClientClosed);
}

TEST_F(LockSettingsTest, HalfOpenPubSubConnectionIsFoundAndReplaced) {
  auto holder = NewClient();
  redlab::Lock held = holder->GetLock("half-open");
  held.Lock(milliseconds(60000));
  TcpProxy proxy(port());
  Config config = TestConfig(proxy.port());
  config.connection_pool_size = 1;
  config.ping_connection_interval = milliseconds(100);
  auto client = NewClient(config);
  ASSERT_EQ(proxy.accepted(), 1);
  redlab::Lock lock = client->GetLock("half-open");
  std::future<void> waiting = lock.LockAsync();
  ASSERT_TRUE(Eventually([&] { return client->ParkedWaiters("half-open") == 1; }));
  ASSERT_EQ(proxy.accepted(), 2);  // the pub/sub connection, made last
  proxy.SwallowRepliesOnLatestConnection();
  held.Unlock();  // its unlock message is lost with everything else on that connection
  // The waiter sleeps at most the holder's PTTL (a minute); the checks find the connection
  // dead, it is replaced, and the resubscribed waiter tries again.
  ASSERT_EQ(waiting.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  waiting.get();
  EXPECT_GT(proxy.accepted(), 2);
  EXPECT_TRUE(lock.IsHeldByCurrentThread());
  lock.Unlock();
}

}  // namespace
}  // namespace redlab::conformance
