// One connection to a server over hiredis async, driven by the client's loop thread through
// hiredis's libuv adapter: it connects lazily (AUTH, SELECT), queues commands until ready,
// enforces the response timeout and reconnects on the next command after a failure. Loop
// thread only.
#pragma once

#include <chrono>
#include <deque>
#include <exception>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "client/config.h"
#include "client/event_loop.h"
#include "client/reply.h"

struct redisAsyncContext;

namespace redlab::client {

/// The outcome of one command: a reply (possibly an error reply), or a transport error.
struct CommandResult {
  Reply reply;                  // meaningful when error is null
  std::exception_ptr error;     // IoError, TimeoutError or ClientClosed
  bool maybe_executed = false;  // with an error: the command may have run on the server
};
using ResultCallback = std::function<void(CommandResult)>;

struct ConnectionOptions {
  ServerAddress address;
  std::chrono::milliseconds connect_timeout{10000};
  std::chrono::milliseconds response_timeout{3000};
};

class Connection {
 public:
  enum class State { kIdle, kConnecting, kReady, kClosed };

  Connection(EventLoop& loop, ConnectionOptions options);
  ~Connection();  // fails whatever is pending with ClientClosed
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Sends a command, connecting first when needed. `extra_timeout` is added to the response
  /// timeout, for commands that block on purpose (WAIT).
  void Send(std::vector<std::string> args, ResultCallback cb,
            std::chrono::milliseconds extra_timeout = std::chrono::milliseconds(0));
  /// Connects now (it would on the next Send otherwise).
  void Connect();
  /// Fails everything pending with `why` and stays closed.
  void Close(std::exception_ptr why);
  /// Drops the connection as if it had failed (in-flight commands fail with `why`, OnDown is
  /// called); the next command reconnects. For a connection found dead by a check.
  void Reset(std::exception_ptr why);

  /// The server the next connect goes to (sentinel mode: the master moved). The connection up
  /// now, if any, stays until Reset.
  void SetAddress(const ServerAddress& address) { options_.address = address; }

  /// Subscriber connections: every pub/sub reply (subscribe confirmations, messages) goes to
  /// `handler` instead of a per-command callback, as hiredis routes them by channel.
  void SetPushHandler(std::function<void(const Reply&)> handler);
  /// Sends SUBSCRIBE / UNSUBSCRIBE (ready connections only; returns false otherwise).
  bool SendPubSub(const std::vector<std::string>& args);

  /// Called when the connection becomes ready (after AUTH/SELECT), and when it goes down.
  void SetOnReady(std::function<void()> fn) { on_ready_ = std::move(fn); }
  void SetOnDown(std::function<void(std::exception_ptr)> fn) { on_down_ = std::move(fn); }

  State state() const { return state_; }
  /// Commands queued or awaiting a reply: how busy the connection is.
  size_t load() const { return queued_.size() + inflight_.size(); }
  const ServerAddress& address() const { return options_.address; }

 private:
  struct Pending {
    redisAsyncContext* ac = nullptr;  // the context it was sent on (addresses get reused)
    std::vector<std::string> args;
    ResultCallback cb;
    std::chrono::milliseconds extra_timeout{0};
    std::chrono::steady_clock::time_point deadline;
    bool done = false;
  };

  static void OnConnect(const redisAsyncContext* ac, int status);
  static void OnDisconnect(const redisAsyncContext* ac, int status);
  static void OnReply(redisAsyncContext* ac, void* reply, void* privdata);
  static void OnPush(redisAsyncContext* ac, void* reply, void* privdata);

  void Dispatch(std::unique_ptr<Pending> p);
  void Handshake();
  void BecomeReady();
  void ArmResponseTimer();
  void OnResponseTimer();
  // Frees the hiredis context: everything in flight fails with `why`.
  void Abort(std::exception_ptr why);
  // The context is gone (closed by the server, freed by Abort, or failed to connect).
  void AfterDown(std::exception_ptr why, bool while_connecting);
  void FailQueued(std::exception_ptr why);
  std::exception_ptr MakeIoError(const std::string& what) const;

  EventLoop& loop_;
  ConnectionOptions options_;
  redisAsyncContext* ac_ = nullptr;
  State state_ = State::kIdle;
  bool handshaking_ = false;
  bool down_ = false;  // the context is being torn down: new commands wait for the next one
  std::deque<std::unique_ptr<Pending>> queued_;   // waiting for the connection to be ready
  std::list<std::unique_ptr<Pending>> inflight_;  // handed to hiredis, in order
  std::exception_ptr closing_error_;              // what in-flight commands fail with
  Timer connect_timer_;
  Timer response_timer_;
  std::function<void(const Reply&)> push_handler_;
  std::function<void()> on_ready_;
  std::function<void(std::exception_ptr)> on_down_;
};

}  // namespace redlab::client
