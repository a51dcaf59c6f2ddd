#include "client/lock_waiters.h"

#include <algorithm>

namespace redlab::client {
namespace {

// Redisson's unlock messages: 0 releases one waiter (a lock freed), 1 every waiter (a read
// lock freed, several readers may enter).
constexpr std::string_view kUnlockMessage = "0";
constexpr std::string_view kReadUnlockMessage = "1";

}  // namespace

LockWaiters::~LockWaiters() {
  for (auto& [name, entry] : entries_) subscriber_.Unsubscribe(entry->channel);
}

void LockWaiters::Join(const std::string& name, const std::string& channel, Waiter* w,
                       bool wake_all) {
  std::unique_ptr<Entry>& entry = entries_[name];
  bool first = entry == nullptr;
  if (first) {
    entry = std::make_unique<Entry>();
    entry->owner = this;
    entry->name = name;
    entry->channel = channel;
    entry->wake_all = wake_all;
  } else if (entry->dead) {
    // Everyone left during a callback and this one arrived before the entry was freed.
    entry->dead = false;
    entry->subscribed = false;
    first = true;
  }
  entry->members.push_back(w);
  if (entry->subscribed) {
    w->OnSubscribed();
    return;
  }
  entry->to_subscribe.push_back(w);
  if (first) subscriber_.Subscribe(channel, entry.get());
}

void LockWaiters::Leave(const std::string& name, Waiter* w) {
  auto it = entries_.find(name);
  if (it == entries_.end()) return;
  Entry& e = *it->second;
  e.members.remove(w);
  e.to_subscribe.remove(w);
  e.parked.remove(w);
  if (e.members.empty() && !e.dead) {
    subscriber_.Unsubscribe(e.channel);
    if (e.dispatching > 0) {
      e.dead = true;
    } else {
      entries_.erase(it);
    }
  }
}

void LockWaiters::EndDispatch(Entry& e) {
  if (--e.dispatching == 0 && e.dead) entries_.erase(e.name);
}

bool LockWaiters::Park(const std::string& name, Waiter* w) {
  auto it = entries_.find(name);
  if (it == entries_.end()) return false;
  Entry& e = *it->second;
  if (e.permits > 0) {
    --e.permits;
    return false;
  }
  e.parked.push_back(w);
  return true;
}

void LockWaiters::Unpark(const std::string& name, Waiter* w) {
  auto it = entries_.find(name);
  if (it != entries_.end()) it->second->parked.remove(w);
}

size_t LockWaiters::parked(const std::string& name) const {
  auto it = entries_.find(name);
  return it == entries_.end() ? 0 : it->second->parked.size();
}

void LockWaiters::Entry::OnSubscribed() {
  if (dead) return;
  ++dispatching;
  bool again = subscribed;
  subscribed = true;
  std::list<Waiter*> ready;
  ready.swap(to_subscribe);
  // Callbacks may Leave (which edits the lists): work on copies, and check membership.
  for (Waiter* w : ready) {
    if (std::find(members.begin(), members.end(), w) != members.end()) w->OnSubscribed();
  }
  if (again) {
    // Resubscribed after a reconnect: unlock messages may have been lost meanwhile, so every
    // parked waiter tries again.
    std::list<Waiter*> woken;
    woken.swap(parked);
    for (Waiter* w : woken) w->OnWake();
  }
  owner->EndDispatch(*this);  // may free this entry
}

void LockWaiters::Entry::OnMessage(std::string_view payload) {
  if (dead) return;
  if (wake_all || payload == kReadUnlockMessage) {
    if (wake_all && parked.empty()) {
      ++permits;  // a waiter between two attempts tries again at once
      return;
    }
    ++dispatching;
    std::list<Waiter*> woken;
    woken.swap(parked);
    for (Waiter* w : woken) w->OnWake();
    owner->EndDispatch(*this);  // may free this entry
    return;
  }
  if (payload != kUnlockMessage) return;
  if (parked.empty()) {
    ++permits;
    return;
  }
  ++dispatching;
  Waiter* w = parked.front();
  parked.pop_front();
  w->OnWake();
  owner->EndDispatch(*this);  // may free this entry
}

}  // namespace redlab::client
