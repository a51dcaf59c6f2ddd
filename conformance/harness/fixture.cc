#include "conformance/harness/fixture.h"

#include <stdexcept>

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

std::optional<std::string> FindInfoField(Client& c, std::string_view section,
                                         std::string_view field) {
  std::string info = c({"INFO", std::string(section)}).str;
  std::string needle = "\n" + std::string(field) + ":";
  size_t pos = info.find(needle);
  if (pos == std::string::npos) return std::nullopt;
  size_t start = pos + needle.size();
  return info.substr(start, info.find('\r', start) - start);
}

std::string InfoField(Client& c, std::string_view field) {
  return FindInfoField(c, "replication", field).value_or("");
}

std::optional<Client> ConnectWhenUp(int port) {
  std::optional<Client> c;
  Eventually(
      [&] {
        try {
          c.emplace(port);
          return (*c)({"PING"}) == Status("PONG");
        } catch (const std::runtime_error&) {
          c.reset();
          return false;
        }
      },
      std::chrono::seconds(10));
  return c;
}

}  // namespace redlab::conformance
