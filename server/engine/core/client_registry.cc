// The node's clients (Redis's server.clients, createClient's id) and their peak buffers
// (server.c's clientsCronTrackExpansiveClients and getExpansiveClientsInfo).
#include "server/engine/core/client_registry.h"

#include <algorithm>
#include <iterator>

namespace redlab::server::engine {

Client* ClientRegistry::Add(ClientIo* io, int64_t now_ms) {
  uint64_t id = next_id_++;
  auto client = std::make_unique<Client>(id, io, now_ms);
  Client* raw = client.get();
  clients_.emplace(id, std::move(client));
  return raw;
}

void ClientRegistry::StartPeakSecond(int64_t now_s) {
  peak_slot_ = static_cast<int>(now_s % kPeakSlots);
  // The slot after the current one is the oldest: it starts again from zero.
  int zero = (peak_slot_ + 1) % kPeakSlots;
  peak_input_[zero] = 0;
  peak_output_[zero] = 0;
}

void ClientRegistry::NoteBuffers(size_t query_buffer, size_t pending_output) {
  peak_input_[peak_slot_] = std::max(peak_input_[peak_slot_], query_buffer);
  peak_output_[peak_slot_] = std::max(peak_output_[peak_slot_], pending_output);
}

size_t ClientRegistry::RecentMaxInputBuffer() const {
  return *std::max_element(std::begin(peak_input_), std::end(peak_input_));
}

size_t ClientRegistry::RecentMaxOutputBuffer() const {
  return *std::max_element(std::begin(peak_output_), std::end(peak_output_));
}

}  // namespace redlab::server::engine
