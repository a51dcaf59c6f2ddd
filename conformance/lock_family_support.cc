#include "conformance/lock_family_support.h"

#include <cstdlib>

#include "lua/scripts.h"

namespace redlab::conformance {
namespace {
constexpr char kMarker[] = "lock-family-test:marker";
}

std::string Prefixed(const std::string& prefix, const std::string& name) {
  return name.find('{') != std::string::npos ? prefix + ":" + name : prefix + ":{" + name + "}";
}

std::string Suffixed(const std::string& name, const std::string& suffix) {
  return name.find('{') != std::string::npos ? name + ":" + suffix : "{" + name + "}:" + suffix;
}

Listener::Listener(int port, std::vector<std::string> channels) : sub_(port) {
  channels.push_back(kMarker);
  std::vector<std::string> cmd{"SUBSCRIBE"};
  cmd.insert(cmd.end(), channels.begin(), channels.end());
  sub_.SendCommand(cmd);
  for (size_t i = 0; i < channels.size(); ++i) sub_.Read();  // the confirmations
}

std::vector<Listener::Message> Listener::Received(Client& c) {
  c({"PUBLISH", kMarker, "end"});
  std::vector<Message> out;
  while (true) {
    Reply r = sub_.Read();
    if (r.type != Reply::Type::kArray || r.elements.size() != 3 || r.elements[0].str != "message") {
      ADD_FAILURE() << "not a message: " << r;
      return out;
    }
    if (r.elements[1].str == kMarker) return out;
    out.emplace_back(r.elements[1].str, r.elements[2].str);
  }
}

Reply LockFamilyTest::Run(std::string_view script, const std::vector<std::string>& keys,
                          const std::vector<std::string>& args) {
  std::vector<std::string> cmd{"EVAL", std::string(lua::ScriptText(script)),
                               std::to_string(keys.size())};
  cmd.insert(cmd.end(), keys.begin(), keys.end());
  cmd.insert(cmd.end(), args.begin(), args.end());
  return c().Call(cmd);
}

int64_t LockFamilyTest::Score(const std::string& key, const std::string& member) {
  Reply r = c()({"ZSCORE", key, member});
  EXPECT_EQ(r.type, Reply::Type::kBulk) << key << " has no score for " << member;
  return std::strtoll(r.str.c_str(), nullptr, 10);
}

}  // namespace redlab::conformance
