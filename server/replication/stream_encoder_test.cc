// The replication stream's framing, as captured from redis-server 7.0.15 with a raw replica:
// SELECT only when the database changes, MULTI/EXEC only around more than one effect, SELECT
// before MULTI and none for EXEC.
#include "server/replication/stream_encoder.h"

#include <gtest/gtest.h>

namespace redlab::server::replication {
namespace {

using engine::Effect;

TEST(StreamEncoderTest, SelectsTheDatabaseOnlyWhenItChanges) {
  StreamEncoder enc;
  std::string out;
  std::vector<Effect> set_a = {{0, {"set", "a", "1"}}};
  std::vector<Effect> set_b = {{2, {"set", "b", "1"}}};
  enc.Encode(set_a, &out);
  enc.Encode(set_a, &out);
  enc.Encode(set_b, &out);
  EXPECT_EQ(out,
            "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nset\r\n$1\r\na\r\n$1\r\n1\r\n"
            "*3\r\n$3\r\nset\r\n$1\r\na\r\n$1\r\n1\r\n"
            "*2\r\n$6\r\nSELECT\r\n$1\r\n2\r\n*3\r\n$3\r\nset\r\n$1\r\nb\r\n$1\r\n1\r\n");
  EXPECT_EQ(enc.selected_db(), 2);
}

TEST(StreamEncoderTest, WrapsABatchOfSeveralEffectsInMultiExec) {
  StreamEncoder enc;
  std::string out;
  std::vector<Effect> script = {{0, {"hset", "h", "f", "v"}}, {0, {"PEXPIREAT", "h", "17"}}};
  enc.Encode(script, &out);
  EXPECT_EQ(out,
            "*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*1\r\n$5\r\nMULTI\r\n"
            "*4\r\n$4\r\nhset\r\n$1\r\nh\r\n$1\r\nf\r\n$1\r\nv\r\n"
            "*3\r\n$9\r\nPEXPIREAT\r\n$1\r\nh\r\n$2\r\n17\r\n*1\r\n$4\r\nEXEC\r\n");
}

TEST(StreamEncoderTest, ASingleEffectIsNotWrapped) {
  StreamEncoder enc;
  std::string out;
  std::vector<Effect> one = {{0, {"SET", "x", "1"}}};
  enc.Encode(one, &out);
  EXPECT_EQ(out.find("MULTI"), std::string::npos);
}

TEST(StreamEncoderTest, ABatchAcrossDatabasesSelectsInside) {
  StreamEncoder enc;
  std::string out;
  std::vector<Effect> batch = {{1, {"set", "a", "1"}}, {3, {"set", "b", "2"}}};
  enc.Encode(batch, &out);
  EXPECT_EQ(out,
            "*2\r\n$6\r\nSELECT\r\n$1\r\n1\r\n*1\r\n$5\r\nMULTI\r\n"
            "*3\r\n$3\r\nset\r\n$1\r\na\r\n$1\r\n1\r\n"
            "*2\r\n$6\r\nSELECT\r\n$1\r\n3\r\n*3\r\n$3\r\nset\r\n$1\r\nb\r\n$1\r\n2\r\n"
            "*1\r\n$4\r\nEXEC\r\n");
}

TEST(StreamEncoderTest, ForgettingTheDatabaseForcesASelect) {
  StreamEncoder enc;
  std::string out;
  std::vector<Effect> e = {{0, {"set", "a", "1"}}};
  enc.Encode(e, &out);
  enc.ForgetSelectedDb();
  out.clear();
  enc.Encode(e, &out);
  EXPECT_EQ(out.rfind("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n", 0), 0u);
  // A command in no particular database (PING, REPLCONF GETACK) selects nothing.
  out.clear();
  std::vector<std::string> ping = {"ping"};
  enc.EncodeCommand(-1, ping, &out);
  EXPECT_EQ(out, "*1\r\n$4\r\nping\r\n");
}

}  // namespace
}  // namespace redlab::server::replication
