// Support for the lock client's conformance suites (lock_*_test.cc): the fixture, a TCP proxy
// that can swallow replies or hold a stream (lost replies, held replication), a master+replica
// pair, and the seeds' Redisson scripts for a peer that speaks the protocol directly.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "client/client.h"
#include "conformance/harness/fixture.h"

namespace redlab::conformance {

// Redisson's own scripts as RedissonLock sends them today (redisson/redisson master:
// tryLockInnerAsync, unlockInnerAsync with its unlock latch and the publish command as an
// argument, and renewal/LockTask's batched renewal): a peer running these is Redisson as far as
// the server can tell.
inline constexpr char kRedissonAcquire[] =
    "if ((redis.call('exists', KEYS[1]) == 0) "
    "or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then "
    "redis.call('hincrby', KEYS[1], ARGV[2], 1); "
    "redis.call('pexpire', KEYS[1], ARGV[1]); "
    "return nil; "
    "end; "
    "return redis.call('pttl', KEYS[1]);";
inline constexpr char kRedissonUnlockScript[] =
    "local val = redis.call('get', KEYS[3]); "
    "if val ~= false then "
    "return tonumber(val);"
    "end; "
    "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then "
    "return nil;"
    "end; "
    "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); "
    "if (counter > 0) then "
    "redis.call('pexpire', KEYS[1], ARGV[2]); "
    "redis.call('set', KEYS[3], 0, 'px', ARGV[5]); "
    "return 0; "
    "else "
    "redis.call('del', KEYS[1]); "
    "redis.call(ARGV[4], KEYS[2], ARGV[1]); "
    "redis.call('set', KEYS[3], 1, 'px', ARGV[5]); "
    "return 1; "
    "end; ";
inline constexpr char kRedissonRenew[] =
    "local result = {} "
    "for i = 1, #KEYS, 1 do "
    "if (redis.call('hexists', KEYS[i], ARGV[i + 1]) == 1) then "
    "redis.call('pexpire', KEYS[i], ARGV[1]); "
    "table.insert(result, 1); "
    "else "
    "table.insert(result, 0); "
    "end; "
    "end; "
    "return result;";

// The EVAL a Redisson peer sends to release lock `name` held by `owner` (lease 30 s, a fresh
// unlock latch, PUBLISH, the latch living 5 s).
std::vector<std::string> RedissonUnlock(const std::string& name, const std::string& owner);

// Redisson's channel for lock `name`.
std::string ChannelOf(const std::string& name);

// The arguments of every EVAL/EVALSHA of lock `name` the server logged (SLOWLOG, with
// slowlog-log-slower-than 0), oldest first; an EVAL repeating the EVALSHA before it (after
// NOSCRIPT) counts once.
std::vector<std::vector<std::string>> LoggedEvals(Client& c, const std::string& name);

// Settings that keep tests quick: short timeouts and retry intervals.
Config TestConfig(int port);

// The fixture of the lock suites: the suite's server, plus lock clients on it.
class LockTest : public ConformanceTest {
 protected:
  std::unique_ptr<redlab::Client> NewClient(Config config) {
    return std::make_unique<redlab::Client>(std::move(config));
  }
  std::unique_ptr<redlab::Client> NewClient() { return NewClient(TestConfig(port())); }
  // Subscribers of `channel` on the server (PUBSUB NUMSUB).
  int64_t Subscribers(const std::string& channel);
};

// A TCP forwarder between a listening port and a target port, one thread polling every
// connection. It can swallow what the target sends on the connections open now (replies
// executed but lost), or hold what the target sends (a held replication stream) and release it.
class TcpProxy {
 public:
  explicit TcpProxy(int target_port);
  ~TcpProxy();
  int port() const { return port_; }

  // From now on, bytes from the target on the connections open now are dropped; connections
  // made later are forwarded normally.
  void SwallowRepliesOnOpenConnections();
  // From now on, bytes from the target on the connection accepted last are dropped (a
  // half-open connection: the client's bytes arrive, nothing comes back, nothing closes).
  void SwallowRepliesOnLatestConnection();
  // Stops / resumes forwarding what the target sends (on every connection, new ones too). Held
  // bytes wait in the kernel and arrive, in order, after Release.
  void Hold();
  void Release();
  // Holds what the target sends on connections accepted from now on (those open now go on).
  void HoldNewConnections();
  // Connections accepted so far.
  int accepted() const { return accepted_.load(); }
  // Connections open now (a client closing its end closes the pair).
  int open_connections();

 private:
  struct Pair {
    int downstream;  // accepted from the client
    int upstream;    // to the target
    bool swallow = false;
    bool held = false;
  };
  void Run();
  void Wake();

  int target_port_;
  int listen_fd_ = -1;
  int port_ = 0;
  int wake_[2] = {-1, -1};
  std::mutex mu_;
  std::vector<Pair> pairs_;  // guarded by mu_
  bool hold_new_ = false;    // guarded by mu_: pairs accepted from now on start held
  std::atomic<bool> hold_{false};
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::thread thread_;
};

// A master and one replica of the current target, replication flowing, which a test can hold
// (the master keeps counting the replica as connected, so WAIT finds no acknowledgement):
// - redis: redis-server processes, the replica's link through a TcpProxy that holds the stream
//   (SIGSTOP would do for WAIT, but not for the failover stories the suites share);
// - embedded / spawn: redlab nodes, REPLICAOF and FAULT REPL PAUSE / RESUME on the master.
class ReplicaPair {
 public:
  // Thrown by Start when the target cannot replicate (a redlab without replication yet).
  struct Unsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  static std::unique_ptr<ReplicaPair> Start();
  virtual ~ReplicaPair() = default;

  virtual int master_port() const = 0;
  virtual int replica_port() const = 0;
  // Stops / resumes the replication stream.
  virtual void HoldReplication() = 0;
  virtual void ResumeReplication() = 0;
  // The replica leaves (REPLICAOF NO ONE): the master sees no replica.
  void DetachReplica();

 protected:
  // Makes `replica` replicate `master_port` (through `via_port` when not 0) and waits until
  // writes are acknowledged; throws Unsupported when REPLICAOF is refused.
  static void Attach(int master_port, int replica_port, int via_port);
};

}  // namespace redlab::conformance
