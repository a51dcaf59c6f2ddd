// MigrateSockets: the bound of 64 cached links, the 10 s idle timeout, and a use that renews it.
#include "server/engine/core/migrate_sockets.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace redlab::server::engine {
namespace {

// A link that is never used for I/O here: the cache only holds it.
class IdleLink : public SyncLink {
 public:
  Status Write(std::string_view, int64_t) override { return Status::kError; }
  Status ReadLine(std::string*, size_t, int64_t) override { return Status::kError; }
};

TEST(MigrateSocketsTest, KeepsAtMost64AndANewEntrySelectsAgain) {
  MigrateSockets sockets;
  for (int i = 0; i < 70; ++i) {
    MigrateSockets::Cached* cs =
        sockets.Add("127.0.0.1:" + std::to_string(7000 + i), std::make_unique<IdleLink>(), 100);
    EXPECT_EQ(cs->last_dbid, -1);
  }
  EXPECT_EQ(sockets.size(), MigrateSockets::kMaxItems);
  EXPECT_NE(sockets.Find("127.0.0.1:7069", 100), nullptr);  // the newest is always kept
}

TEST(MigrateSocketsTest, ClosesLinksUnusedForMoreThanTenSeconds) {
  MigrateSockets sockets;
  sockets.Add("a:1", std::make_unique<IdleLink>(), 100);
  sockets.Add("b:2", std::make_unique<IdleLink>(), 100);
  ASSERT_NE(sockets.Find("b:2", 105), nullptr);  // used at 105: kept until 115
  sockets.CloseTimedOut(110);
  EXPECT_EQ(sockets.size(), 2u);
  sockets.CloseTimedOut(111);
  EXPECT_EQ(sockets.Find("a:1", 111), nullptr);
  EXPECT_NE(sockets.Find("b:2", 111), nullptr);
  sockets.Close("b:2");
  EXPECT_EQ(sockets.size(), 0u);
}

}  // namespace
}  // namespace redlab::server::engine
