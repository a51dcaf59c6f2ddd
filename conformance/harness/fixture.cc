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

// A reply of `type` carrying the text `s` (status, error, bulk).
static Reply Text(Reply::Type type, std::string s) {
  Reply r;
  r.type = type;
  r.str = std::move(s);
  return r;
}
Reply Status(std::string s) { return Text(Reply::Type::kStatus, std::move(s)); }
Reply Error(std::string s) { return Text(Reply::Type::kError, std::move(s)); }
Reply Int(int64_t v) {
  Reply r;
  r.type = Reply::Type::kInteger;
  r.integer = v;
  return r;
}
Reply Bulk(std::string s) { return Text(Reply::Type::kBulk, std::move(s)); }
Reply Nil() { return Reply{}; }
Reply Array(std::vector<Reply> elements) {
  Reply r;
  r.type = Reply::Type::kArray;
  r.elements = std::move(elements);
  return r;
}

SmallBulkLimit::SmallBulkLimit(int port) : client_(port) {
  EXPECT_EQ(client_({"CONFIG", "SET", "proto-max-bulk-len", "1mb"}), Status("OK"));
}

SmallBulkLimit::~SmallBulkLimit() { client_({"CONFIG", "SET", "proto-max-bulk-len", "512mb"}); }

std::optional<std::string> FindInfoField(Client& c, std::string_view section,
                                         std::string_view field) {
  std::string info = c({"INFO", std::string(section)}).str;
  std::string needle = "\n" + std::string(field) + ":";
  size_t pos = info.find(needle);
  if (pos == std::string::npos) return std::nullopt;
  size_t start = pos + needle.size();
  return info.substr(start, info.find('\r', start) - start);
}

std::string InfoField(Client& c, std::string_view section, std::string_view field) {
  return FindInfoField(c, section, field).value_or("");
}

int64_t InfoNumber(Client& c, std::string_view section, std::string_view field) {
  std::optional<std::string> value = FindInfoField(c, section, field);
  return value ? std::stoll(*value) : -1;
}

std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

std::optional<Reply> ReadWithin(Client& c, std::chrono::milliseconds timeout) {
  std::optional<Reply> r;
  Eventually(
      [&] {
        try {
          r = c.Read();
          return true;
        } catch (const std::runtime_error&) {
          return false;
        }
      },
      timeout);
  return r;
}

void FaultInjectionTest::SetUp() {
  REDLAB_ONLY("FAULT and TOPOLOGY are redlab's fault injection; Redis has neither");
  ConformanceTest::SetUp();
}

void FaultInjectionTest::TearDown() {
  if (!IsRealRedis()) Connect()({"FAULT", "RESET"});
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
