#include "client/subscriber.h"

#include <algorithm>

#include "client/errors.h"
#include "client/ids.h"

namespace redlab::client {

Subscriber::Subscriber(EventLoop& loop, ConnectionOptions options,
                       std::chrono::milliseconds retry_interval,
                       std::chrono::milliseconds ping_interval)
    : loop_(loop),
      connection_(loop, std::move(options)),
      retry_interval_(retry_interval),
      ping_interval_(ping_interval),
      ping_channel_("redlab:ping:" + RandomHex(8)),
      ping_timer_(loop),
      reconnect_timer_(loop) {
  connection_.SetPushHandler([this](const Reply& r) { OnPush(r); });
  connection_.SetOnReady([this] { OnReady(); });
  connection_.SetOnDown([this](std::exception_ptr) { OnDown(); });
}

void Subscriber::Subscribe(const std::string& channel, Listener* listener) {
  Channel& c = channels_[channel];
  c.listener = listener;
  c.wanted = true;
  Reconcile(channel);
}

void Subscriber::Unsubscribe(const std::string& channel) {
  auto it = channels_.find(channel);
  if (it == channels_.end()) return;
  it->second.listener = nullptr;
  it->second.wanted = false;
  Reconcile(channel);
}

void Subscriber::Reconcile(const std::string& name) {
  auto it = channels_.find(name);
  if (it == channels_.end() || closed_) return;
  Channel& c = it->second;
  if (connection_.state() != Connection::State::kReady) {
    if (!c.wanted && c.state == ServerState::kNone) {
      channels_.erase(it);
    } else if (c.wanted && connection_.state() == Connection::State::kIdle &&
               !reconnect_timer_.active()) {
      connection_.Connect();  // OnReady reconciles every channel
    }
    return;
  }
  if (c.wanted && c.state == ServerState::kNone) {
    c.state = ServerState::kSubscribing;
    connection_.SendPubSub({"SUBSCRIBE", name});
  } else if (!c.wanted && c.state == ServerState::kSubscribed) {
    c.state = ServerState::kUnsubscribing;
    connection_.SendPubSub({"UNSUBSCRIBE", name});
  } else if (!c.wanted && c.state == ServerState::kNone) {
    channels_.erase(it);
  }
  // kSubscribing / kUnsubscribing: the confirmation reconciles again.
}

void Subscriber::OnPush(const Reply& reply) {
  if (reply.type != Reply::Type::kArray || reply.elements.size() < 3) return;
  const std::string& kind = reply.elements[0].str;
  const std::string& name = reply.elements[1].str;
  if (name == ping_channel_) {
    if (kind == "subscribe") ping_unanswered_ = false;
    return;
  }
  auto it = channels_.find(name);
  if (it == channels_.end()) return;
  Channel& c = it->second;
  if (kind == "message") {
    if (c.wanted && c.listener != nullptr) c.listener->OnMessage(reply.elements[2].str);
  } else if (kind == "subscribe") {
    c.state = ServerState::kSubscribed;
    if (c.wanted && c.listener != nullptr) c.listener->OnSubscribed();
    Reconcile(name);
  } else if (kind == "unsubscribe") {
    c.state = ServerState::kNone;
    Reconcile(name);
  }
}

void Subscriber::OnReady() {
  ping_unanswered_ = false;
  if (ping_interval_.count() > 0) ping_timer_.Start(ping_interval_, [this] { Ping(); });
  std::vector<std::string> names;
  for (auto& [name, c] : channels_) names.push_back(name);
  for (const std::string& name : names) Reconcile(name);
}

void Subscriber::Ping() {
  if (closed_ || connection_.state() != Connection::State::kReady) return;
  if (ping_unanswered_) {
    // Half-open, or the server stalls: drop it. OnDown reconnects and OnReady resubscribes,
    // which wakes every parked waiter (messages may have been lost meanwhile).
    connection_.Reset(
        std::make_exception_ptr(IoError("the pub/sub connection did not answer its check within " +
                                        std::to_string(ping_interval_.count()) + " ms (" +
                                        connection_.address().ToString() + ")")));
    return;
  }
  ping_unanswered_ = connection_.SendPubSub({"SUBSCRIBE", ping_channel_});
  ping_timer_.Start(ping_interval_, [this] { Ping(); });
}

void Subscriber::OnDown() {
  ping_timer_.Stop();
  if (closed_) return;
  bool any_wanted = false;
  for (auto it = channels_.begin(); it != channels_.end();) {
    it->second.state = ServerState::kNone;
    if (it->second.wanted) {
      any_wanted = true;
      ++it;
    } else {
      it = channels_.erase(it);
    }
  }
  // Listeners keep waiting (their PTTL timers still run); the subscriptions come back with the
  // connection, tried again every retry interval.
  if (any_wanted && !reconnect_timer_.active()) {
    reconnect_timer_.Start(std::max(retry_interval_, std::chrono::milliseconds(10)), [this] {
      if (!closed_ && connection_.state() == Connection::State::kIdle) connection_.Connect();
    });
  }
}

void Subscriber::Close() {
  closed_ = true;
  ping_timer_.Stop();
  reconnect_timer_.Stop();
  channels_.clear();
  connection_.Close(std::make_exception_ptr(ClientClosed("the client was shut down")));
}

void Subscriber::Retarget(const ServerAddress& address) {
  if (closed_) return;
  connection_.SetAddress(address);
  if (connection_.state() == Connection::State::kIdle) {
    // Not connected (the old server is down): connect now if anyone listens.
    OnDown();
    return;
  }
  connection_.Reset(std::make_exception_ptr(IoError("the master moved to " + address.ToString())));
}

size_t Subscriber::subscribed_count() const {
  size_t n = 0;
  for (const auto& [name, c] : channels_) n += c.state == ServerState::kSubscribed;
  return n;
}

}  // namespace redlab::client
