// The replication stream's framing, as captured from redis-server 7.0.15 with a raw replica:
// SELECT only when the database changes, MULTI/EXEC only around more than one effect, SELECT
// before MULTI and none for EXEC.
#include "server/replication/stream_encoder.h"

#include <gtest/gtest.h>

namespace redlab::server::replication {
namespace {

using engine::Effect;

class StreamEncoderTest : public ::testing::Test {
 protected:
  // Encodes `effects` as one batch (one command's effects) onto out_.
  void Encode(const std::vector<Effect>& effects) { enc_.Encode(effects, &out_); }

  StreamEncoder enc_;
  std::string out_;
};

TEST_F(StreamEncoderTest, SelectsTheDatabaseOnlyWhenItChanges) {
  std::vector<Effect> set_a = {{0, {"set", "a", "1"}}};
  Encode(set_a);
  Encode(set_a);
  Encode({{2, {"set", "b", "1"}}});
  EXPECT_EQ(out_,
            "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nset\r\n$1\r\na\r\n$1\r\n1\r\n"
            "*3\r\n$3\r\nset\r\n$1\r\na\r\n$1\r\n1\r\n"
            "*2\r\n$6\r\nSELECT\r\n$1\r\n2\r\n*3\r\n$3\r\nset\r\n$1\r\nb\r\n$1\r\n1\r\n");
  EXPECT_EQ(enc_.selected_db(), 2);
}

TEST_F(StreamEncoderTest, WrapsABatchOfSeveralEffectsInMultiExec) {
  Encode({{0, {"hset", "h", "f", "v"}}, {0, {"PEXPIREAT", "h", "17"}}});
  EXPECT_EQ(out_,
            "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*1\r\n$5\r\nMULTI\r\n"
            "*4\r\n$4\r\nhset\r\n$1\r\nh\r\n$1\r\nf\r\n$1\r\nv\r\n"
            "*3\r\n$9\r\nPEXPIREAT\r\n$1\r\nh\r\n$2\r\n17\r\n*1\r\n$4\r\nEXEC\r\n");
}

TEST_F(StreamEncoderTest, ASingleEffectIsNotWrapped) {
  Encode({{0, {"SET", "x", "1"}}});
  EXPECT_EQ(out_.find("MULTI"), std::string::npos);
}

TEST_F(StreamEncoderTest, ABatchAcrossDatabasesSelectsInside) {
  Encode({{1, {"set", "a", "1"}}, {3, {"set", "b", "2"}}});
  EXPECT_EQ(out_,
            "*2\r\n$6\r\nSELECT\r\n$1\r\n1\r\n*1\r\n$5\r\nMULTI\r\n"
            "*3\r\n$3\r\nset\r\n$1\r\na\r\n$1\r\n1\r\n"
            "*2\r\n$6\r\nSELECT\r\n$1\r\n3\r\n*3\r\n$3\r\nset\r\n$1\r\nb\r\n$1\r\n2\r\n"
            "*1\r\n$4\r\nEXEC\r\n");
}

TEST_F(StreamEncoderTest, ForgettingTheDatabaseForcesASelect) {
  std::vector<Effect> e = {{0, {"set", "a", "1"}}};
  Encode(e);
  enc_.ForgetSelectedDb();
  out_.clear();
  Encode(e);
  EXPECT_EQ(out_.rfind("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n", 0), 0u);
  // A command in no particular database (PING, REPLCONF GETACK) selects nothing.
  out_.clear();
  std::vector<std::string> ping = {"ping"};
  enc_.EncodeCommand(-1, ping, &out_);
  EXPECT_EQ(out_, "*1\r\n$4\r\nping\r\n");
}

}  // namespace
}  // namespace redlab::server::replication
