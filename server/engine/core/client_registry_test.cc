// The clients by id and their peak buffers (server.c's clientsCronTrackExpansiveClients).
#include "server/engine/core/client_registry.h"

#include <gtest/gtest.h>

namespace redlab::server::engine {
namespace {

TEST(ClientRegistryTest, IdsCountUpAndRemovedClientsAreGone) {
  ClientRegistry clients;
  Client* a = clients.Add(nullptr, 0);
  Client* b = clients.Add(nullptr, 0);
  EXPECT_EQ(a->id(), 1u);
  EXPECT_EQ(b->id(), 2u);
  EXPECT_EQ(clients.Find(2), b);
  clients.Remove(1);
  EXPECT_EQ(clients.Find(1), nullptr);
  EXPECT_EQ(clients.size(), 1u);
  EXPECT_EQ(clients.Add(nullptr, 0)->id(), 3u);  // ids are never reused
  std::vector<uint64_t> ids;
  for (const auto& [id, client] : clients) ids.push_back(id);
  EXPECT_EQ(ids, (std::vector<uint64_t>{2, 3}));
}

TEST(ClientRegistryTest, PeaksCoverTheLastEightSeconds) {
  ClientRegistry clients;
  clients.StartPeakSecond(100);
  clients.NoteBuffers(10, 500);
  clients.NoteBuffers(30, 20);
  EXPECT_EQ(clients.RecentMaxInputBuffer(), 30u);
  EXPECT_EQ(clients.RecentMaxOutputBuffer(), 500u);
  clients.StartPeakSecond(101);
  clients.NoteBuffers(5, 5);
  EXPECT_EQ(clients.RecentMaxInputBuffer(), 30u);  // second 100 is still in the window
  // Seven seconds later, second 100's slot is the oldest one and starts again.
  clients.StartPeakSecond(107);
  EXPECT_EQ(clients.RecentMaxInputBuffer(), 5u);
  EXPECT_EQ(clients.RecentMaxOutputBuffer(), 5u);
}

}  // namespace
}  // namespace redlab::server::engine
