// The reentrant lock client, single holder: Redisson's key layout, reentrancy, leases,
// IllegalMonitorState, TryLock, ForceUnlock, explicit owners and async calls, the Lockable
// requirements, EVALSHA's fallback, the unlock latch under a lost reply, and the client's
// connection errors. Every test runs on embedded redlab and on real redis-server.
#include <mutex>
#include <thread>

#include "client/script.h"
#include "conformance/lock_support.h"

namespace redlab::conformance {
namespace {

using std::chrono::milliseconds;

class LockBasicsTest : public LockTest {};

TEST_F(LockBasicsTest, KeyLayoutIsRedissons) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("orders");
  lock.Lock();
  std::string owner = client->id() + ":" + std::to_string(ThreadId::Current().value);
  EXPECT_EQ(lock.OwnerId(), owner);
  EXPECT_EQ(c()({"TYPE", "orders"}), Status("hash"));
  EXPECT_EQ(c()({"HGETALL", "orders"}), Array({Bulk(owner), Bulk("1")}));
  // Without a lease, the watchdog timeout is the TTL.
  int64_t pttl = c()({"PTTL", "orders"}).integer;
  EXPECT_GT(pttl, 0);
  EXPECT_LE(pttl, client->config().lock_watchdog_timeout.count());
  lock.Unlock();
  EXPECT_EQ(c()({"EXISTS", "orders"}), Int(0));
  // Nothing else is left behind: the unlock latch is deleted once its answer is in.
  EXPECT_TRUE(Eventually([&] { return c()({"DBSIZE"}) == Int(0); }));
}

TEST_F(LockBasicsTest, ReentrantHoldsCountAndOnlyTheLastReleasePublishes) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("re");
  Client sub = Connect();
  sub.SendCommand({"SUBSCRIBE", ChannelOf("re")});
  sub.Read();
  lock.Lock();
  lock.Lock();
  EXPECT_TRUE(lock.TryLock());
  EXPECT_EQ(lock.GetHoldCount(), 3);
  EXPECT_EQ(c()({"HGET", "re", lock.OwnerId()}), Bulk("3"));
  lock.Unlock();
  lock.Unlock();
  EXPECT_TRUE(lock.IsLocked());
  EXPECT_TRUE(lock.IsHeldByCurrentThread());
  EXPECT_EQ(lock.GetHoldCount(), 1);
  lock.Unlock();
  EXPECT_FALSE(lock.IsLocked());
  EXPECT_EQ(lock.GetHoldCount(), 0);
  // One unlock message, "0", from the last release only.
  EXPECT_EQ(c()({"PUBLISH", ChannelOf("re"), "marker"}), Int(1));
  EXPECT_EQ(sub.Read(), Array({Bulk("message"), Bulk(ChannelOf("re")), Bulk("0")}));
  EXPECT_EQ(sub.Read(), Array({Bulk("message"), Bulk(ChannelOf("re")), Bulk("marker")}));
}

TEST_F(LockBasicsTest, ChannelKeepsBracesTheNameAlreadyHas) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("{tenant}:job");
  Client sub = Connect();
  sub.SendCommand({"SUBSCRIBE", "redisson_lock__channel:{tenant}:job"});
  sub.Read();
  lock.Lock();
  lock.Unlock();
  EXPECT_EQ(sub.Read(),
            Array({Bulk("message"), Bulk("redisson_lock__channel:{tenant}:job"), Bulk("0")}));
}

TEST_F(LockBasicsTest, UnlockByNonHolderThrowsIllegalMonitorState) {
  auto client = NewClient();
  auto other = NewClient();
  redlab::Lock lock = client->GetLock("imse");
  try {
    lock.Unlock();
    FAIL() << "Unlock of a free lock did not throw";
  } catch (const IllegalMonitorState& e) {
    std::string expected =
        "attempt to unlock lock 'imse', not locked by current thread by node id: " + client->id() +
        " thread-id: " + std::to_string(ThreadId::Current().value);
    EXPECT_EQ(std::string(e.what()), expected);
  }
  lock.Lock();
  // Another thread of the same client, and another client, hold nothing.
  std::exception_ptr from_thread;
  std::thread([&] {
    try {
      lock.Unlock();
    } catch (...) {
      from_thread = std::current_exception();
    }
  }).join();
  EXPECT_THROW(std::rethrow_exception(from_thread), IllegalMonitorState);
  EXPECT_THROW(other->GetLock("imse").Unlock(), IllegalMonitorState);
  EXPECT_TRUE(lock.IsHeldByCurrentThread());
  lock.Unlock();
}

TEST_F(LockBasicsTest, LeaseExpiresWithoutWatchdog) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("leased");
  lock.Lock(milliseconds(80));
  int64_t pttl = c()({"PTTL", "leased"}).integer;
  EXPECT_GT(pttl, 0);
  EXPECT_LE(pttl, 80);
  EXPECT_EQ(client->WatchedLocks(), 0u);
  EXPECT_TRUE(Eventually([&] { return !lock.IsLocked(); }));
  // Expired: another client takes it; the first one's unlock is now a non-holder's.
  auto other = NewClient();
  EXPECT_TRUE(other->GetLock("leased").TryLock());
  EXPECT_THROW(lock.Unlock(), IllegalMonitorState);
}

TEST_F(LockBasicsTest, TryLockWithLeaseAndRemainTimeToLive) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("ttl");
  EXPECT_EQ(lock.RemainTimeToLive(), milliseconds(-2));
  EXPECT_TRUE(lock.TryLock(milliseconds(100), milliseconds(10000)));
  milliseconds left = lock.RemainTimeToLive();
  EXPECT_GT(left.count(), 0);
  EXPECT_LE(left.count(), 10000);
  // Re-entry with another lease restarts the TTL with it.
  EXPECT_TRUE(lock.TryLock(milliseconds(100), milliseconds(60000)));
  EXPECT_GT(lock.RemainTimeToLive().count(), 10000);
  c()({"PERSIST", "ttl"});
  EXPECT_EQ(lock.RemainTimeToLive(), milliseconds(-1));
  lock.Unlock();
  lock.Unlock();
}

TEST_F(LockBasicsTest, TryLockFailsAtOnceWhenHeldElsewhere) {
  auto holder = NewClient();
  auto client = NewClient();
  holder->GetLock("busy").Lock(milliseconds(60000));
  redlab::Lock lock = client->GetLock("busy");
  EXPECT_FALSE(lock.TryLock());
  EXPECT_FALSE(lock.IsHeldByCurrentThread());
  EXPECT_TRUE(lock.IsLocked());
  EXPECT_EQ(Subscribers(ChannelOf("busy")), 0);  // a single attempt never subscribes
}

TEST_F(LockBasicsTest, ForceUnlockDeletesWhoeverHoldsIt) {
  auto holder = NewClient();
  auto client = NewClient();
  holder->GetLock("forced").Lock();
  redlab::Lock lock = client->GetLock("forced");
  EXPECT_TRUE(lock.ForceUnlock());
  EXPECT_FALSE(lock.IsLocked());
  EXPECT_FALSE(lock.ForceUnlock());
  EXPECT_TRUE(lock.TryLock());
  lock.Unlock();
}

TEST_F(LockBasicsTest, ExplicitOwnersAndAsyncCallsCrossThreads) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("owned");
  ThreadId job{900001};
  lock.LockAsync(job).get();
  EXPECT_TRUE(lock.IsHeldByThread(job));
  EXPECT_FALSE(lock.IsHeldByCurrentThread());
  EXPECT_EQ(c()({"HGET", "owned", client->id() + ":900001"}), Bulk("1"));
  EXPECT_FALSE(lock.TryLockAsync(ThreadId{900002}).get());
  EXPECT_TRUE(lock.TryLockAsync(milliseconds(10), milliseconds(5000), job).get());
  EXPECT_EQ(lock.GetHoldCountAsync(job).get(), 2);
  // Another thread releases in the owner's name.
  std::thread([&] {
    lock.UnlockAsync(job).get();
    lock.Unlock(job);
  }).join();
  EXPECT_FALSE(lock.IsLockedAsync().get());
  auto failed = lock.UnlockAsync(job);
  EXPECT_THROW(failed.get(), IllegalMonitorState);
  EXPECT_EQ(lock.RemainTimeToLiveAsync().get(), milliseconds(-2));
  EXPECT_FALSE(lock.ForceUnlockAsync().get());
}

TEST_F(LockBasicsTest, LockableWithStandardGuards) {
  auto client = NewClient();
  redlab::Lock a = client->GetLock("guard-a");
  redlab::Lock b = client->GetLock("guard-b");
  {
    std::lock_guard<redlab::Lock> guard(a);
    EXPECT_TRUE(a.IsHeldByCurrentThread());
  }
  EXPECT_FALSE(a.IsLocked());
  {
    std::unique_lock<redlab::Lock> held(a, std::try_to_lock);
    EXPECT_TRUE(held.owns_lock());
    held.unlock();
    EXPECT_FALSE(a.IsLocked());
  }
  {
    std::scoped_lock both(a, b);
    EXPECT_TRUE(a.IsHeldByCurrentThread());
    EXPECT_TRUE(b.IsHeldByCurrentThread());
  }
  EXPECT_FALSE(a.IsLocked());
  EXPECT_FALSE(b.IsLocked());
}

TEST_F(LockBasicsTest, EvalShaFallsBackToEvalAfterScriptFlush) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("flushed");
  lock.Lock();
  lock.Unlock();
  client::LockScripts scripts;
  EXPECT_EQ(c()({"SCRIPT", "EXISTS", scripts.acquire.sha}), Array({Int(1)}));
  EXPECT_EQ(c()({"SCRIPT", "FLUSH"}), Status("OK"));
  EXPECT_EQ(c()({"SCRIPT", "EXISTS", scripts.acquire.sha}), Array({Int(0)}));
  lock.Lock();  // EVALSHA answers NOSCRIPT; EVAL runs it and caches it again
  EXPECT_TRUE(lock.IsHeldByCurrentThread());
  EXPECT_EQ(c()({"SCRIPT", "EXISTS", scripts.acquire.sha}), Array({Int(1)}));
  lock.Unlock();
}

TEST_F(LockBasicsTest, RetriedReleaseAfterALostReplyIsIdempotent) {
  // The release runs on the server but its reply never arrives; after the response timeout
  // the client retries on a new connection with the same request id, and the unlock latch
  // answers 1 again (without it the retry would find no hold and throw IllegalMonitorState).
  TcpProxy proxy(port());
  Config config = TestConfig(proxy.port());
  config.timeout = milliseconds(300);
  config.connection_pool_size = 1;
  auto client = NewClient(config);
  redlab::Lock lock = client->GetLock("latched");
  lock.Lock();
  int before = proxy.accepted();
  proxy.SwallowRepliesOnOpenConnections();
  EXPECT_NO_THROW(lock.Unlock());
  EXPECT_GT(proxy.accepted(), before);  // it did reconnect to retry
  EXPECT_EQ(c()({"EXISTS", "latched"}), Int(0));
  EXPECT_TRUE(Eventually([&] { return c()({"KEYS", "redisson_unlock_latch:*"}) == Array({}); }));
}

TEST_F(LockBasicsTest, ReconnectsTransparentlyAfterItsConnectionsAreKilled) {
  auto client = NewClient();
  redlab::Lock lock = client->GetLock("reconnect");
  lock.Lock();
  c()({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"});
  lock.Unlock();  // the pool reconnects (the kill may make this the retried release)
  EXPECT_FALSE(lock.IsLocked());
  EXPECT_TRUE(lock.TryLock());
  lock.Unlock();
}

TEST_F(LockBasicsTest, IndependentMastersHoldTheirOwnLocks) {
  auto second = StartServer();
  Config config = TestConfig(port());
  Config other = TestConfig(second->port());
  config.mode = Config::Mode::kIndependentMasters;
  config.masters.push_back(other.masters[0]);
  auto client = NewClient(config);
  redlab::Lock on_first = client->GetLock("split");
  redlab::Lock on_second = client->GetLock("split", 1);
  on_first.Lock();
  on_second.Lock();  // the same name, another server: no contention
  Client second_conn(second->port());
  EXPECT_EQ(c()({"HGET", "split", on_first.OwnerId()}), Bulk("1"));
  EXPECT_EQ(second_conn({"HGET", "split", on_second.OwnerId()}), Bulk("1"));
  on_second.Unlock();
  EXPECT_EQ(second_conn({"EXISTS", "split"}), Int(0));
  EXPECT_TRUE(on_first.IsLocked());
  on_first.Unlock();
  EXPECT_THROW(client->GetLock("split", 2), ConfigError);
}

TEST_F(LockBasicsTest, EveryPrimitiveTakesAMasterIndex) {
  auto second = StartServer();
  Config config = TestConfig(port());
  config.mode = Config::Mode::kIndependentMasters;
  config.masters.push_back(TestConfig(second->port()).masters[0]);
  auto client = NewClient(config);
  Client second_conn(second->port());
  // Each on master 1: its keys appear there and not on master 0.
  redlab::FairLock fair = client->GetFairLock("m-fair", 1);
  fair.Lock();
  EXPECT_EQ(second_conn({"HGET", "m-fair", fair.OwnerId()}), Bulk("1"));
  fair.Unlock();
  redlab::ReadWriteLock rw = client->GetReadWriteLock("m-rw", 1);
  rw.WriteLock().Lock();
  EXPECT_EQ(second_conn({"HGET", "m-rw", "mode"}), Bulk("write"));
  rw.WriteLock().Unlock();
  redlab::SpinLock spin = client->GetSpinLock("m-spin", 1);
  spin.Lock();
  EXPECT_EQ(second_conn({"HGET", "m-spin", spin.OwnerId()}), Bulk("1"));
  spin.Unlock();
  redlab::Semaphore semaphore = client->GetSemaphore("m-sem", 1);
  EXPECT_TRUE(semaphore.TrySetPermits(3));
  EXPECT_EQ(second_conn({"GET", "m-sem"}), Bulk("3"));
  redlab::CountDownLatch latch = client->GetCountDownLatch("m-latch", 1);
  EXPECT_TRUE(latch.TrySetCount(2));
  EXPECT_EQ(second_conn({"GET", "m-latch"}), Bulk("2"));
  for (const char* key : {"m-fair", "m-rw", "m-spin", "m-sem", "m-latch"}) {
    EXPECT_EQ(c()({"EXISTS", key}), Int(0)) << key;
  }
  EXPECT_THROW(client->GetFairLock("x", 2), ConfigError);
  EXPECT_THROW(client->GetReadWriteLock("x", 2), ConfigError);
  EXPECT_THROW(client->GetSpinLock("x", 2), ConfigError);
  EXPECT_THROW(client->GetSemaphore("x", 2), ConfigError);
  EXPECT_THROW(client->GetCountDownLatch("x", 2), ConfigError);
}

TEST_F(LockBasicsTest, ConnectionErrorsAreTyped) {
  EXPECT_THROW(redlab::Client(TestConfig(FreePort())), IoError);
  EXPECT_THROW(redlab::Client(Config::SingleServer("http://127.0.0.1:1")), ConfigError);
  auto client = NewClient();
  EXPECT_THROW(client->Execute({"NOSUCHCOMMAND"}), ReplyError);
  redlab::Reply pong = client->Execute({"PING"});
  EXPECT_EQ(pong.type, redlab::Reply::Type::kStatus);
  EXPECT_EQ(pong.str, "PONG");
}

TEST_F(LockBasicsTest, PasswordFromTheUrl) {
  ServerOptions options;
  options.requirepass = "s3cret";
  auto secured = StartServer(options);
  Config good = TestConfig(secured->port());
  good.masters[0].password = "s3cret";
  redlab::Client client(good);
  EXPECT_TRUE(client.GetLock("pw").TryLock());
  client.GetLock("pw").Unlock();
  Config bad = Config::SingleServer("redis://:wrong@127.0.0.1:" + std::to_string(secured->port()));
  try {
    redlab::Client refused(bad);
    FAIL() << "a wrong password was accepted";
  } catch (const ReplyError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("WRONGPASS", 0), 0u) << e.what();
  }
}

TEST_F(LockBasicsTest, ShutdownFailsPendingCallsWithClientClosed) {
  auto holder = NewClient();
  holder->GetLock("closing").Lock(milliseconds(60000));
  auto client = NewClient();
  std::future<void> waiting = client->GetLock("closing").LockAsync();
  EXPECT_TRUE(Eventually([&] { return client->ParkedWaiters("closing") == 1; }));
  client->Shutdown();
  EXPECT_THROW(waiting.get(), ClientClosed);
  EXPECT_THROW(client->GetLock("closing").IsLocked(), ClientClosed);
}

}  // namespace
}  // namespace redlab::conformance
