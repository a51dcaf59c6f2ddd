// The node's clients by id (Redis's server.clients and its next_client_id), and the largest
// query and output buffers of the last seconds (clientsCronTrackExpansiveClients's
// CLIENTS_PEAK_MEM_USAGE_SLOTS, for INFO client_recent_max_*_buffer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>

#include "server/engine/core/client.h"

namespace redlab::server::engine {

class ClientRegistry {
 public:
  using Map = std::map<uint64_t, std::unique_ptr<Client>>;

  // A new client on the connection `io`, with the next id.
  Client* Add(ClientIo* io, int64_t now_ms);
  // Frees a client (the engine has released what it held first).
  void Remove(uint64_t id) { clients_.erase(id); }
  Client* Find(uint64_t id) const {
    auto it = clients_.find(id);
    return it == clients_.end() ? nullptr : it->second.get();
  }
  size_t size() const { return clients_.size(); }
  // In id order, which is the order they connected in.
  Map::const_iterator begin() const { return clients_.begin(); }
  Map::const_iterator end() const { return clients_.end(); }

  // The peak buffers, one slot per second: StartPeakSecond begins the slot of `now_s` (the
  // oldest slot starts again from zero), NoteBuffers raises it with one client's buffers.
  void StartPeakSecond(int64_t now_s);
  void NoteBuffers(size_t query_buffer, size_t pending_output);
  size_t RecentMaxInputBuffer() const;
  size_t RecentMaxOutputBuffer() const;

 private:
  static constexpr int kPeakSlots = 8;  // CLIENTS_PEAK_MEM_USAGE_SLOTS: one per second
  Map clients_;
  uint64_t next_id_ = 1;
  int peak_slot_ = 0;
  size_t peak_input_[kPeakSlots] = {};
  size_t peak_output_[kPeakSlots] = {};
};

}  // namespace redlab::server::engine
