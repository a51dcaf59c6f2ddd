#include "server/engine/pubsub/pubsub.h"

#include <algorithm>

#include "server/base/glob.h"
#include "server/resp/writer.h"

namespace redlab::server::engine {
namespace {

bool RemoveName(std::vector<std::string>& names, std::string_view name) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return false;
  names.erase(it);
  return true;
}

bool RemoveClient(std::vector<Client*>& clients, Client* client) {
  auto it = std::find(clients.begin(), clients.end(), client);
  if (it == clients.end()) return false;
  clients.erase(it);
  return true;
}

template <typename Map>
void Detach(Map& map, std::string_view name, Client* client) {
  auto it = map.find(name);
  if (it == map.end()) return;
  RemoveClient(it->second, client);
  if (it->second.empty()) map.erase(it);
}

// Writes a message into a subscriber's reply buffer (a push in RESP3) and asks for it to be sent.
void Deliver(Client* client, std::string_view kind, const std::string_view* pattern,
             std::string_view channel, std::string_view message) {
  size_t start = client->reply_buffer().size();
  resp::ReplyWriter w(&client->reply_buffer(), client->protocol());
  w.PushHeader(pattern ? 4 : 3);
  w.Bulk(kind);
  if (pattern) w.Bulk(*pattern);
  w.Bulk(channel);
  w.Bulk(message);
  client->MarkPushed(start);  // messages go out even under CLIENT REPLY OFF
  if (client->io() != nullptr) client->io()->RequestFlush();
}

}  // namespace

bool PubSub::Subscribe(Client* client, std::string_view channel, PubSubKind kind) {
  auto& mine =
      kind == PubSubKind::kShard ? client->pubsub().shard_channels : client->pubsub().channels;
  if (std::find(mine.begin(), mine.end(), channel) != mine.end()) return false;
  mine.emplace_back(channel);
  auto& map = Map(kind);
  auto it = map.find(channel);
  if (it == map.end()) it = map.emplace(std::string(channel), std::vector<Client*>{}).first;
  it->second.push_back(client);
  return true;
}

bool PubSub::Unsubscribe(Client* client, std::string_view channel, PubSubKind kind) {
  auto& mine =
      kind == PubSubKind::kShard ? client->pubsub().shard_channels : client->pubsub().channels;
  if (!RemoveName(mine, channel)) return false;
  Detach(Map(kind), channel, client);
  return true;
}

bool PubSub::SubscribePattern(Client* client, std::string_view pattern) {
  auto& mine = client->pubsub().patterns;
  if (std::find(mine.begin(), mine.end(), pattern) != mine.end()) return false;
  mine.emplace_back(pattern);
  auto it = patterns_.find(pattern);
  if (it == patterns_.end())
    it = patterns_.emplace(std::string(pattern), std::vector<Client*>{}).first;
  it->second.push_back(client);
  return true;
}

bool PubSub::UnsubscribePattern(Client* client, std::string_view pattern) {
  if (!RemoveName(client->pubsub().patterns, pattern)) return false;
  Detach(patterns_, pattern, client);
  return true;
}

void PubSub::UnsubscribeAll(Client* client) {
  auto& state = client->pubsub();
  for (const auto& ch : state.channels) Detach(channels_, ch, client);
  for (const auto& ch : state.shard_channels) Detach(shard_channels_, ch, client);
  for (const auto& p : state.patterns) Detach(patterns_, p, client);
  state = Client::PubSubState{};
}

int64_t PubSub::Publish(std::string_view channel, std::string_view message, PubSubKind kind) {
  int64_t receivers = 0;
  const auto& map = Map(kind);
  std::string_view label = kind == PubSubKind::kShard ? "smessage" : "message";
  if (auto it = map.find(channel); it != map.end()) {
    for (Client* c : it->second) {
      Deliver(c, label, nullptr, channel, message);
      ++receivers;
    }
  }
  if (kind == PubSubKind::kShard) return receivers;
  for (const auto& [pattern, clients] : patterns_) {
    if (!GlobMatch(pattern, channel)) continue;
    std::string_view p = pattern;
    for (Client* c : clients) {
      Deliver(c, "pmessage", &p, channel, message);
      ++receivers;
    }
  }
  return receivers;
}

std::vector<std::string_view> PubSub::Channels(std::optional<std::string_view> pattern,
                                               PubSubKind kind) const {
  std::vector<std::string_view> out;
  for (const auto& [name, clients] : Map(kind)) {
    if (!pattern || GlobMatch(*pattern, name)) out.push_back(name);
  }
  return out;
}

int64_t PubSub::NumSubscribers(std::string_view channel, PubSubKind kind) const {
  const auto& map = Map(kind);
  auto it = map.find(channel);
  return it == map.end() ? 0 : static_cast<int64_t>(it->second.size());
}

}  // namespace redlab::server::engine
