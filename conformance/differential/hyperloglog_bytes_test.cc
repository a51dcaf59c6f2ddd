// Differential checks of HyperLogLog values: redlab and a real redis-server fed the same PFADD and
// PFMERGE calls hold the same bytes (sparse opcodes, promotion to dense at
// hll-sparse-max-bytes, cached cardinality) and count the same; values made by one server are
// copied into the other (GET then SET, DUMP then RESTORE) and keep working there.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance/differential/side_by_side.h"

namespace redlab::conformance {
namespace {

class HyperLogLogBytesTest : public SideBySideTest {
 protected:
  void SetUp() override {
    SideBySideTest::SetUp();
    for (Client* c : {mine_.get(), theirs_.get()}) {
      ASSERT_EQ((*c)({"CONFIG", "SET", "hll-sparse-max-bytes", "3000"}).str, "OK");
    }
  }
};

// Elements in batches of growing size: the value goes through many sparse splits and merges and
// then becomes dense; after every batch both servers hold the same bytes.
TEST_F(HyperLogLogBytesTest, SameAddsGiveTheSameBytes) {
  int next = 0;
  for (int batch = 1; batch <= 60; ++batch) {
    std::vector<std::string> cmd = {"PFADD", "h"};
    for (int i = 0; i < batch * 3; ++i) cmd.push_back("el:" + std::to_string(next++));
    Both(cmd);
    Both({"GET", "h"});
    if (batch % 7 == 0) Both({"PFCOUNT", "h"});
  }
  EXPECT_EQ((*mine_)({"PFDEBUG", "ENCODING", "h"}).str, "dense");
  Both({"PFCOUNT", "h"});
  Both({"GET", "h"});
  // Another key stays sparse; merging it with the dense one, and sparse ones together.
  Both({"PFADD", "s1", "a", "b", "c", "d"});
  Both({"PFADD", "s2", "c", "d", "e", "f", "g", "h"});
  Both({"PFMERGE", "ms", "s1", "s2"});
  Both({"GET", "ms"});
  Both({"PFMERGE", "md", "s1", "h"});
  Both({"GET", "md"});
  Both({"PFCOUNT", "s1", "s2", "h"});
  Both({"PFDEBUG", "TODENSE", "s1"});
  Both({"GET", "s1"});
}

TEST_F(HyperLogLogBytesTest, ValuesCrossBetweenTheServers) {
  // Made by redis-server, copied into redlab with SET and with RESTORE.
  std::vector<std::string> add = {"PFADD", "h"};
  for (int i = 0; i < 500; ++i) add.push_back("x" + std::to_string(i));
  theirs_->Call(add);
  std::string from_redis = (*theirs_)({"GET", "h"}).str;
  std::string dump = (*theirs_)({"DUMP", "h"}).str;
  EXPECT_EQ((*mine_)({"SET", "h", from_redis}).str, "OK");
  EXPECT_EQ((*mine_)({"RESTORE", "r", "0", dump}).str, "OK");
  EXPECT_EQ((*mine_)({"GET", "r"}).str, from_redis);
  Both({"PFCOUNT", "h"});
  Both({"PFADD", "h", "more", "and", "more"});
  Both({"GET", "h"});
  // And the other way: made by redlab (dense), loaded into redis-server.
  std::vector<std::string> big = {"PFADD", "d"};
  for (int i = 0; i < 3000; ++i) big.push_back("y" + std::to_string(i));
  mine_->Call(big);
  std::string from_redlab = (*mine_)({"GET", "d"}).str;
  EXPECT_EQ((*theirs_)({"SET", "d", from_redlab}).str, "OK");
  Both({"PFCOUNT", "d"});
  Both({"PFCOUNT", "d", "h"});
  Both({"GET", "d"});
}

}  // namespace
}  // namespace redlab::conformance
