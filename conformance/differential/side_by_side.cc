// The differential suites' base (see side_by_side.h).
#include "conformance/differential/side_by_side.h"

namespace redlab::conformance {

Server* SideBySideTest::redlab_ = nullptr;
Server* SideBySideTest::redis_ = nullptr;

void SideBySideTest::SetUpTestSuite() {
  redlab_ = StartServerOf(Target::kEmbedded).release();
  redis_ = StartServerOf(Target::kRedis).release();
}

void SideBySideTest::TearDownTestSuite() {
  delete redlab_;
  delete redis_;
  redlab_ = redis_ = nullptr;
}

void SideBySideTest::SetUp() {
  mine_ = std::make_unique<Client>(redlab_->port());
  theirs_ = std::make_unique<Client>(redis_->port());
  for (Client* c : {mine_.get(), theirs_.get()}) ASSERT_EQ((*c)({"FLUSHALL"}).str, "OK");
}

std::string SideBySideTest::Both(const std::vector<std::string>& cmd) {
  std::string a = mine_->Raw(cmd);
  std::string b = theirs_->Raw(cmd);
  EXPECT_EQ(a, b) << [&] {
    std::string s;
    for (const auto& w : cmd) s += w + " ";
    return s;
  }();
  return a;
}

}  // namespace redlab::conformance
