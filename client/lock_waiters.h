// Threads waiting for locks, per lock name: Redisson's LockPubSub and RedissonLockEntry. The
// first waiter of a name subscribes to its unlock channel and the last one out unsubscribes
// (reference counting across waiting threads); each unlock message wakes one waiter, or is kept
// as a permit when none is parked, so a waiter between two attempts does not miss it. Loop
// thread only.
#pragma once

#include <list>
#include <map>
#include <memory>
#include <string>

#include "client/subscriber.h"

namespace redlab::client {

class LockWaiters {
 public:
  /// One waiting acquisition.
  class Waiter {
   public:
    virtual ~Waiter() = default;
    /// The channel is subscribed (called once per Join; right away when it already was).
    virtual void OnSubscribed() = 0;
    /// Woken while parked: an unlock message arrived (or the subscription was restored after
    /// a reconnect, when messages may have been lost). The waiter is no longer parked.
    virtual void OnWake() = 0;
  };

  explicit LockWaiters(ChannelSubscriber& subscriber) : subscriber_(subscriber) {}
  ~LockWaiters();

  /// Adds `w` to the waiters of lock `name`, subscribing to `channel` if it is the first.
  /// `wake_all` (semaphores, latches: set by the first waiter): every message wakes every
  /// parked waiter, whatever it says.
  void Join(const std::string& name, const std::string& channel, Waiter* w, bool wake_all = false);
  /// Removes `w` (parked or not); the last one out unsubscribes.
  void Leave(const std::string& name, Waiter* w);
  /// Parks `w` until the next unlock message. Returns false without parking when a permit (a
  /// message that found no one parked) was waiting: the caller goes on at once.
  bool Park(const std::string& name, Waiter* w);
  /// Unparks `w` (its own timeout), without consuming a message.
  void Unpark(const std::string& name, Waiter* w);

  /// Waiters of `name` parked right now.
  size_t parked(const std::string& name) const;
  /// Lock names with at least one waiter.
  size_t entries() const { return entries_.size(); }

 private:
  class Entry : public ChannelSubscriber::Listener {
   public:
    void OnSubscribed() override;
    void OnMessage(std::string_view payload) override;

    LockWaiters* owner = nullptr;
    std::string name;
    std::string channel;
    int dispatching = 0;              // inside a callback loop: Leave must not free the entry yet
    bool dead = false;                // every member left during a callback: free it afterwards
    std::list<Waiter*> members;       // every joined waiter
    std::list<Waiter*> to_subscribe;  // joined before the subscription was confirmed
    std::list<Waiter*> parked;        // in wake order
    int permits = 0;
    bool subscribed = false;
    bool wake_all = false;
  };

  void EndDispatch(Entry& e);

  ChannelSubscriber& subscriber_;
  std::map<std::string, std::unique_ptr<Entry>> entries_;
};

}  // namespace redlab::client
