#include "conformance/harness/fixture.h"

namespace redlab::conformance {

std::unique_ptr<Server> ConformanceTest::server_;

void ConformanceTest::SetUpTestSuite() {
  if (!server_) server_ = StartServer();
}

void ConformanceTest::TearDownTestSuite() {
  if (server_) server_->Stop();
  server_.reset();
}

void ConformanceTest::SetUp() {
  client_ = std::make_unique<Client>(port());
  Reply r = c()({"FLUSHALL"});
  ASSERT_EQ(r, Status("OK")) << "could not empty the server before the test";
}

Reply Status(std::string s) {
  Reply r;
  r.type = Reply::Type::kStatus;
  r.str = std::move(s);
  return r;
}
Reply Error(std::string s) {
  Reply r;
  r.type = Reply::Type::kError;
  r.str = std::move(s);
  return r;
}
Reply Int(int64_t v) {
  Reply r;
  r.type = Reply::Type::kInteger;
  r.integer = v;
  return r;
}
Reply Bulk(std::string s) {
  Reply r;
  r.type = Reply::Type::kBulk;
  r.str = std::move(s);
  return r;
}
Reply Nil() { return Reply{}; }
Reply Array(std::vector<Reply> elements) {
  Reply r;
  r.type = Reply::Type::kArray;
  r.elements = std::move(elements);
  return r;
}

}  // namespace redlab::conformance
