// The pub/sub connection of one server: SUBSCRIBEs each channel someone listens to, routes
// messages to its listener, and after a reconnect subscribes again and tells the listeners
// (they may have missed messages). While connected it checks the connection every
// ping_interval (Config::ping_connection_interval) and drops it when a check goes unanswered.
// Loop thread only.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "client/connection.h"

namespace redlab::client {

/// What lock waiters need of pub/sub (an interface, so they can be tested without a server).
class ChannelSubscriber {
 public:
  class Listener {
   public:
    virtual ~Listener() = default;
    /// The channel is subscribed: first time, or again after the connection came back.
    virtual void OnSubscribed() = 0;
    virtual void OnMessage(std::string_view payload) = 0;
  };

  virtual ~ChannelSubscriber() = default;
  /// Starts listening on `channel` (one listener per channel).
  virtual void Subscribe(const std::string& channel, Listener* listener) = 0;
  /// Stops listening; the listener is not called again.
  virtual void Unsubscribe(const std::string& channel) = 0;
};

class Subscriber : public ChannelSubscriber {
 public:
  Subscriber(EventLoop& loop, ConnectionOptions options, std::chrono::milliseconds retry_interval,
             std::chrono::milliseconds ping_interval = std::chrono::milliseconds(0));

  void Subscribe(const std::string& channel, Listener* listener) override;
  void Unsubscribe(const std::string& channel) override;
  void Close();
  /// Moves to another server (sentinel mode: a new master): the connection is dropped and made
  /// again there, every channel subscribed again, every listener told (OnSubscribed).
  void Retarget(const ServerAddress& address);

  /// Channels subscribed on the server right now (tests, introspection).
  size_t subscribed_count() const;

 private:
  // A channel's state on the server. hiredis (0.14) forgets a channel's callback when an
  // UNSUBSCRIBE reply arrives, even if a SUBSCRIBE was sent after it: so at most one of the
  // two is in flight per channel, and `wanted` says where the channel should end up.
  enum class ServerState { kNone, kSubscribing, kSubscribed, kUnsubscribing };
  struct Channel {
    Listener* listener = nullptr;
    bool wanted = false;
    ServerState state = ServerState::kNone;
  };

  void Reconcile(const std::string& name);
  void OnPush(const Reply& reply);
  void OnReady();
  void OnDown();
  // Each ping_interval: the previous check unanswered means the connection is dead (reset it);
  // otherwise send the next one.
  void Ping();

  EventLoop& loop_;
  Connection connection_;
  std::chrono::milliseconds retry_interval_;
  std::chrono::milliseconds ping_interval_;
  const std::string ping_channel_;  // subscribed again by each check; no one publishes there
  bool ping_unanswered_ = false;
  Timer ping_timer_;
  Timer reconnect_timer_;
  std::map<std::string, Channel> channels_;
  bool closed_ = false;
};

}  // namespace redlab::client
