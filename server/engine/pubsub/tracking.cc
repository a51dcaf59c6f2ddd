#include "server/engine/pubsub/tracking.h"

#include <algorithm>

#include "server/command/key_specs.h"
#include "server/engine/core/engine.h"
#include "server/resp/writer.h"

namespace redlab::server::engine {
namespace {

constexpr std::string_view kInvalidateChannel = "__redis__:invalidate";

// Redis keeps client ids in a radix tree of their 8 bytes in memory order (little endian), so
// that is the order messages about one key leave in: compare the byte-swapped values.
bool RaxIdLess(uint64_t a, uint64_t b) { return __builtin_bswap64(a) < __builtin_bswap64(b); }

// The RESP array of keys an invalidation message carries.
void AppendKeyArray(std::string& out, size_t count) {
  out += '*';
  out += std::to_string(count);
  out += "\r\n";
}
void AppendKey(std::string& out, std::string_view key) {
  out += '$';
  out += std::to_string(key.size());
  out += "\r\n";
  out += key;
  out += "\r\n";
}

std::string KeyPayload(std::string_view key) {
  std::string out;
  AppendKeyArray(out, 1);
  AppendKey(out, key);
  return out;
}

// "Every key": a null in the protocol of the tracking client (not of its redirect target).
std::string_view NullPayload(const Client& client) {
  return client.protocol() > 2 ? "_\r\n" : "$-1\r\n";
}

// trackingBuildBroadcastReply: the keys of a prefix, less those `excluded` modified last (a
// NOLOOP client's own); empty when no key is left.
std::string BroadcastPayload(const std::map<std::string, uint64_t>& keys, uint64_t excluded) {
  size_t count = keys.size();
  if (excluded != 0) {
    count = static_cast<size_t>(std::count_if(
        keys.begin(), keys.end(), [&](const auto& entry) { return entry.second != excluded; }));
    if (count == 0) return {};
  }
  std::string out;
  AppendKeyArray(out, count);
  for (const auto& [key, by] : keys) {
    if (excluded != 0 && by == excluded) continue;
    AppendKey(out, key);
  }
  return out;
}

}  // namespace

Tracking::Tracking(Engine& engine) : engine_(engine) {}

void Tracking::Enable(Client& client, const Options& options,
                      std::span<const std::string> prefixes) {
  Client::TrackingState& t = client.tracking();
  if (!t.on) ++clients_;
  t.on = true;
  // CACHING survives a second ON, as in Redis.
  t.broken_redirect = t.bcast = t.optin = t.optout = t.noloop = false;
  t.redirect = options.redirect;
  if (options.bcast) {
    t.bcast = true;
    if (prefixes.empty()) AddPrefix(client, "");
    for (const std::string& prefix : prefixes) AddPrefix(client, prefix);
  }
  t.optin = options.optin;
  t.optout = options.optout;
  t.noloop = options.noloop;
}

void Tracking::AddPrefix(Client& client, std::string_view prefix) {
  auto it = prefixes_.find(prefix);
  if (it == prefixes_.end()) it = prefixes_.emplace(std::string(prefix), BcastState{}).first;
  std::vector<Client*>& clients = it->second.clients;
  auto pos = std::lower_bound(clients.begin(), clients.end(), &client,
                              [](const Client* a, const Client* b) { return a->id() < b->id(); });
  if (pos != clients.end() && *pos == &client) return;
  clients.insert(pos, &client);
  std::vector<std::string>& mine = client.tracking().prefixes;
  mine.insert(std::lower_bound(mine.begin(), mine.end(), prefix), std::string(prefix));
}

void Tracking::Disable(Client& client) {
  Client::TrackingState& t = client.tracking();
  if (t.bcast) {
    for (const std::string& prefix : t.prefixes) {
      auto it = prefixes_.find(prefix);
      if (it == prefixes_.end()) continue;
      std::erase(it->second.clients, &client);
      // The last client of a prefix takes it, and its pending keys, away.
      if (it->second.clients.empty()) prefixes_.erase(it);
    }
    t.prefixes.clear();
  }
  if (t.on) --clients_;
  t = Client::TrackingState{};
}

void Tracking::RememberKeys(Client& client, const Command& cmd, std::span<const std::string> args) {
  const Client::TrackingState& t = client.tracking();
  // OPTIN tracks only after CACHING YES, OPTOUT all but after CACHING NO.
  if ((t.optin && !t.caching) || (t.optout && t.caching)) return;
  // Shard channels are keys for COMMAND's sake only: never tracked.
  if (cmd.has(kCmdPubsub)) return;
  for (const FoundKey& found : FindKeys(cmd, args)) {
    bool inserted = false;
    auto* node = table_.FindOrInsert(args[found.index], &inserted);
    std::vector<uint64_t>& ids = node->value;
    auto pos = std::lower_bound(ids.begin(), ids.end(), client.id(), RaxIdLess);
    if (pos != ids.end() && *pos == client.id()) continue;
    ids.insert(pos, client.id());
    ++total_items_;
  }
}

void Tracking::InvalidateKey(const Client* by, std::string_view key, bool bcast) {
  if (bcast && !prefixes_.empty()) {
    bool queued = false;
    for (auto& [prefix, state] : prefixes_) {
      if (key.substr(0, prefix.size()) != prefix) continue;
      // The last modifier wins: NOLOOP spares a client only changes that are its own.
      state.keys.insert_or_assign(std::string(key), by != nullptr ? by->id() : 0);
      queued = true;
    }
    if (queued && engine_.host() != nullptr) engine_.host()->ScheduleBeforeSleep();
  }
  auto* node = table_.Find(key);
  if (node == nullptr) return;
  // The entry goes whatever is sent: it is made again when a client reads the key again.
  std::vector<uint64_t> ids = std::move(node->value);
  total_items_ -= ids.size();
  std::string name(key);  // `key` may live in the node erased here
  table_.Erase(node);
  Client* current = engine_.current_client();
  for (uint64_t id : ids) {
    Client* target = engine_.clients().Find(id);
    // Keys read before a switch to BCAST mean nothing to a BCAST client.
    if (target == nullptr || !target->tracking().on || target->tracking().bcast) continue;
    if (target->tracking().noloop && target == current) continue;
    if (target == current && engine_.in_call()) {
      // Its own change: the message must not cut into the reply it is writing.
      pending_.push_back(Pending{id, name});
      continue;
    }
    Send(*target, KeyPayload(name));
  }
}

void Tracking::SendPending() {
  std::vector<Pending> pending = std::move(pending_);
  pending_.clear();
  for (const Pending& p : pending) {
    Client* client = engine_.clients().Find(p.client_id);
    if (client == nullptr) continue;
    if (p.key) {
      Send(*client, KeyPayload(*p.key));
    } else {
      Send(*client, NullPayload(*client));
    }
  }
}

void Tracking::InvalidateAll() {
  if (clients_ > 0) {
    Client* current = engine_.current_client();
    for (const auto& [id, client] : engine_.clients()) {
      if (!client->tracking().on) continue;
      if (client.get() == current && engine_.in_call()) {
        pending_.push_back(Pending{id, std::nullopt});
      } else {
        Send(*client, NullPayload(*client));
      }
    }
  }
  table_.Clear();
  total_items_ = 0;
}

void Tracking::LimitUsedSlots() {
  int64_t max_keys = engine_.config().tracking_table_max_keys;
  if (max_keys <= 0) return;  // no limit
  auto under_limit = [&] { return table_.size() <= static_cast<size_t>(max_keys); };
  if (under_limit()) {
    limit_rounds_ = 0;
    return;
  }
  // Effort proportional to the rounds that could not get under the limit.
  int effort = 100 * static_cast<int>(limit_rounds_ + 1);
  while (effort-- > 0) {
    auto* node = table_.Random(rng_);
    if (node == nullptr) break;
    // As if the key had changed, for its readers only: it did not, so no broadcast.
    InvalidateKey(nullptr, std::string(node->key()), /*bcast=*/false);
    if (under_limit()) {
      limit_rounds_ = 0;
      return;
    }
  }
  ++limit_rounds_;
}

void Tracking::BroadcastInvalidations() {
  if (clients_ == 0) return;
  for (auto& [prefix, state] : prefixes_) {
    if (state.keys.empty()) continue;
    std::string payload = BroadcastPayload(state.keys, 0);
    for (Client* client : state.clients) {
      if (client->tracking().noloop) {
        std::string own = BroadcastPayload(state.keys, client->id());
        if (!own.empty()) Send(*client, own);
      } else {
        Send(*client, payload);
      }
    }
    state.keys.clear();
  }
}

void Tracking::Send(Client& client, std::string_view payload) {
  Client* to = &client;
  bool redirected = false;
  Client::TrackingState& t = client.tracking();
  if (t.redirect != 0) {
    to = engine_.clients().Find(t.redirect);
    if (to == nullptr) {
      // The messages have nowhere to go: a RESP3 client is told so on its own connection.
      t.broken_redirect = true;
      if (client.protocol() > 2) {
        size_t start = client.reply_buffer().size();
        resp::ReplyWriter w(&client.reply_buffer(), client.protocol());
        w.PushHeader(2);
        w.Bulk("tracking-redir-broken");
        w.Integer(static_cast<int64_t>(t.redirect));
        Delivered(client, start);
      }
      return;
    }
    redirected = true;
  }
  size_t start = to->reply_buffer().size();
  resp::ReplyWriter w(&to->reply_buffer(), to->protocol());
  if (to->protocol() > 2) {
    w.PushHeader(2);
    w.Bulk("invalidate");
  } else if (redirected && to->subscribed()) {
    // RESP2 has no pushes: a redirect target that subscribed gets a pub/sub message.
    w.ArrayHeader(3);
    w.Bulk("message");
    w.Bulk(kInvalidateChannel);
  } else {
    return;  // a RESP2 connection cannot be told anything
  }
  w.Raw(payload);
  Delivered(*to, start);
}

void Tracking::Delivered(Client& client, size_t start) {
  client.MarkPushed(start);  // sent even under CLIENT REPLY OFF, as pushes are
  // The running command's client is written to once its command is done.
  if (&client != engine_.current_client() && client.io() != nullptr) {
    client.io()->RequestFlush();
  }
}

}  // namespace redlab::server::engine
