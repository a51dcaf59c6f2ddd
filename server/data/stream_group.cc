// Redis 7.0's t_stream.c consumer-group internals: streamCreateConsumer, streamLookupConsumer,
// streamDelConsumer and the NACK bookkeeping of XACK / XCLAIM.
#include "server/data/stream_group.h"

namespace redlab::server {

StreamGroup& StreamGroup::operator=(const StreamGroup& other) {
  if (this == &other) return *this;
  last_id_ = other.last_id_;
  entries_read_ = other.entries_read_;
  pel_ = other.pel_;
  consumers_.clear();
  // The copies' NACKs point at the copies' consumers.
  for (const auto& [name, c] : other.consumers_) {
    StreamConsumer& copy = consumers_[name];
    copy.name = c.name;
    copy.seen_time = c.seen_time;
  }
  for (auto& [id, nack] : pel_) {
    if (nack.consumer == nullptr) continue;
    StreamConsumer& owner = consumers_.find(nack.consumer->name)->second;
    nack.consumer = &owner;
    owner.pel.emplace(id, &nack);
  }
  return *this;
}

StreamConsumer* StreamGroup::FindConsumer(std::string_view name) {
  auto it = consumers_.find(name);
  return it == consumers_.end() ? nullptr : &it->second;
}

StreamConsumer* StreamGroup::CreateConsumer(std::string_view name, int64_t now_ms) {
  auto [it, inserted] = consumers_.try_emplace(std::string(name));
  if (!inserted) return nullptr;
  it->second.name = it->first;
  it->second.seen_time = now_ms;
  return &it->second;
}

StreamConsumer* StreamGroup::LookupOrCreateConsumer(std::string_view name, int64_t now_ms,
                                                    bool* created) {
  StreamConsumer* c = FindConsumer(name);
  *created = c == nullptr;
  if (c != nullptr) {
    c->seen_time = now_ms;
    return c;
  }
  return CreateConsumer(name, now_ms);
}

size_t StreamGroup::DeleteConsumer(std::string_view name) {
  auto it = consumers_.find(name);
  if (it == consumers_.end()) return 0;
  size_t pending = it->second.pel.size();
  for (const auto& [id, nack] : it->second.pel) pel_.erase(id);
  consumers_.erase(it);
  return pending;
}

bool StreamGroup::Ack(const StreamId& id) {
  auto it = pel_.find(id);
  if (it == pel_.end()) return false;
  if (it->second.consumer != nullptr) it->second.consumer->pel.erase(id);
  pel_.erase(it);
  return true;
}

void StreamGroup::Assign(const StreamId& id, StreamNack* nack, StreamConsumer* consumer) {
  if (nack->consumer == consumer) return;
  if (nack->consumer != nullptr) nack->consumer->pel.erase(id);
  consumer->pel.emplace(id, nack);
  nack->consumer = consumer;
}

}  // namespace redlab::server
