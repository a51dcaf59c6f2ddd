#include "conformance/tracking_support.h"

namespace redlab::conformance {
namespace {

std::string BulkBytes(const std::string& s) {
  return "$" + std::to_string(s.size()) + "\r\n" + s + "\r\n";
}

}  // namespace

void TrackingTest::TearDown() {
  Client admin = Connect();
  EXPECT_EQ(admin({"DEBUG", "SET-ACTIVE-EXPIRE", "1"}), Status("OK"));
  EXPECT_EQ(admin({"DEBUG", "PAUSE-CRON", "0"}), Status("OK"));
  EXPECT_EQ(admin({"CONFIG", "SET", "tracking-table-max-keys", "1000000"}), Status("OK"));
  EXPECT_EQ(admin({"CONFIG", "SET", "maxmemory", "0"}), Status("OK"));
  EXPECT_EQ(admin({"CONFIG", "SET", "maxmemory-policy", "noeviction"}), Status("OK"));
}

Client TrackingTest::Resp3() {
  Client client = Connect();
  Reply hello = client({"HELLO", "3"});
  EXPECT_EQ(hello.type, Reply::Type::kMap) << hello;
  return client;
}

Client TrackingTest::Subscriber(std::string* id) {
  Client client = Connect();
  *id = IdOf(client);
  client.SendCommand({"SUBSCRIBE", "__redis__:invalidate"});
  EXPECT_EQ(client.ReadRaw(), "*3\r\n$9\r\nsubscribe\r\n$20\r\n__redis__:invalidate\r\n:1\r\n");
  return client;
}

std::string TrackingTest::IdOf(Client& client) {
  Reply id = client({"CLIENT", "ID"});
  EXPECT_EQ(id.type, Reply::Type::kInteger) << id;
  return std::to_string(id.integer);
}

int64_t TrackingTest::ServerMs(Client& client) {
  Reply t = client({"TIME"});
  return std::stoll(t.elements.at(0).str) * 1000 + std::stoll(t.elements.at(1).str) / 1000;
}

int64_t TrackingTest::InfoNumber(const std::string& field) {
  std::string text = Connect()({"INFO", "everything"}).str;
  size_t pos = text.find("\r\n" + field + ":");
  if (pos == std::string::npos) return -1;
  pos += field.size() + 3;
  return std::stoll(text.substr(pos, text.find("\r\n", pos) - pos));
}

std::string KeyArray(const std::vector<std::string>& keys) {
  std::string out = "*" + std::to_string(keys.size()) + "\r\n";
  for (const std::string& key : keys) out += BulkBytes(key);
  return out;
}

std::string Invalidate(const std::vector<std::string>& keys) {
  return ">2\r\n$10\r\ninvalidate\r\n" + KeyArray(keys);
}

std::string InvalidateAll(int tracking_protocol) {
  return std::string(">2\r\n$10\r\ninvalidate\r\n") + (tracking_protocol > 2 ? "_\r\n" : "$-1\r\n");
}

std::string InvalidateMessage(const std::string& payload) {
  return "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n" + payload;
}

}  // namespace redlab::conformance
