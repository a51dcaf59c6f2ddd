// FUNCTION DUMP and FUNCTION RESTORE on one server: the payload is Redis's (RDB opcode, library
// code, RDB version, CRC64), and RESTORE's FLUSH, APPEND and REPLACE policies, its collisions and
// its refusals of bad payloads leave the libraries as Redis does.
#include "conformance/function_util.h"

namespace redlab::conformance {
namespace {

// A payload's footer: RDB version 10 and the CRC64 (Jones, reflected) of everything before it.
std::string WithFooter(std::string body) {
  body += std::string("\x0a\x00", 2);
  uint64_t crc = 0;
  for (unsigned char ch : body) {
    crc ^= ch;
    for (int bit = 0; bit < 8; ++bit)
      crc = (crc & 1) ? (crc >> 1) ^ 0x95ac9329ac4bc9b5ULL : crc >> 1;
  }
  for (int i = 0; i < 8; ++i) body.push_back(static_cast<char>(crc >> (8 * i)));
  return body;
}

class FunctionDumpTest : public FunctionTest {
 protected:
  std::string Dump() {
    Reply r = c()({"FUNCTION", "DUMP"});
    EXPECT_EQ(r.type, Reply::Type::kBulk);
    return r.str;
  }
  Reply Restore(const std::string& payload, std::string_view policy = "") {
    std::vector<std::string> args = {"FUNCTION", "RESTORE", payload};
    if (!policy.empty()) args.emplace_back(policy);
    return c().Call(args);
  }
};

TEST_F(FunctionDumpTest, PayloadIsRedisFormat) {
  // An empty dump is only the version and the checksum.
  EXPECT_EQ(Dump(), FromHex("0a005d9b5c400f7fa2da"));
  ASSERT_EQ(Load(Library("library1",
                         "redis.register_function('f6', function(keys, args) "
                         "return 7 end)")),
            Bulk("library1"));
  EXPECT_EQ(Dump(), FromHex("f5405423216c7561206e616d653d6c696272617279310a72656469732e72656769"
                            "737465725f66756e6374696f6e28276636272c2066756e6374696f6e286b657973"
                            "2c2061726773292072657475726e203720656e64290a00ff1ada38569123cd"));
}

TEST_F(FunctionDumpTest, RestorePolicies) {
  ASSERT_EQ(Load(FunctionCode("test", "test", "return 'hello'")), Bulk("test"));
  std::string payload = Dump();
  ASSERT_EQ(c()({"FUNCTION", "DELETE", "test"}), Status("OK"));
  EXPECT_EQ(Restore(payload), Status("OK"));
  EXPECT_EQ(c()({"FUNCTION", "LIST"}), Array({ListEntry("test", {"test"})}));
  EXPECT_EQ(c()({"FCALL", "test", "0"}), Bulk("hello"));

  // FLUSH drops what was there.
  ASSERT_EQ(LoadReplace(FunctionCode("test", "test", "return 'hello1'")), Bulk("test"));
  ASSERT_EQ(Load(FunctionCode("other", "other", "return 1")), Bulk("other"));
  EXPECT_EQ(Restore(payload, "FLUSH"), Status("OK"));
  EXPECT_EQ(c()({"FUNCTION", "LIST"}), Array({ListEntry("test", {"test"})}));
  EXPECT_EQ(c()({"FCALL", "test", "0"}), Bulk("hello"));

  // APPEND (the default) fails on a library that exists; REPLACE replaces it.
  ASSERT_EQ(LoadReplace(FunctionCode("test", "test", "return 'hello1'")), Bulk("test"));
  EXPECT_EQ(Restore(payload, "APPEND"), Error("ERR Library test already exists"));
  EXPECT_EQ(c()({"FCALL", "test", "0"}), Bulk("hello1"));
  EXPECT_EQ(Restore(payload, "replace"), Status("OK"));
  EXPECT_EQ(c()({"FCALL", "test", "0"}), Bulk("hello"));

  ASSERT_EQ(c()({"FUNCTION", "FLUSH"}), Status("OK"));
  ASSERT_EQ(Load(FunctionCode("test1", "test1", "return 'hello1'")), Bulk("test1"));
  EXPECT_EQ(Restore(payload, "APPEND"), Status("OK"));
  EXPECT_EQ(c()({"FCALL", "test", "0"}), Bulk("hello"));
  EXPECT_EQ(c()({"FCALL", "test1", "0"}), Bulk("hello1"));
}

TEST_F(FunctionDumpTest, RestoreCollisionsLeaveLibrariesAsTheyWere) {
  ASSERT_EQ(Load(Library("lib1",
                         "local function add1(a) return a + 1 end\n"
                         "redis.register_function('f1', function() return add1(1) end)\n"
                         "redis.register_function('f2', function() return add1(2) end)\n"
                         "redis.register_function('f3', function() return add1(3) end)")),
            Bulk("lib1"));
  std::string payload = Dump();
  ASSERT_EQ(c()({"FUNCTION", "FLUSH"}), Status("OK"));
  ASSERT_EQ(Load(Library("lib1", "redis.register_function('f6', function() return 7 end)")),
            Bulk("lib1"));
  ASSERT_EQ(Load(Library("lib2",
                         "redis.register_function('f4', function() return 5 end)\n"
                         "redis.register_function('F3', function() return 4 end)")),
            Bulk("lib2"));
  EXPECT_EQ(Restore(payload), Error("ERR Library lib1 already exists"));
  // REPLACE takes lib1's place, but f3 belongs to lib2 (function names ignore case).
  EXPECT_EQ(Restore(payload, "REPLACE"), Error("ERR Function f3 already exists"));
  EXPECT_EQ(c()({"FCALL", "f3", "0"}), Int(4));
  EXPECT_EQ(c()({"FCALL", "f4", "0"}), Int(5));
  EXPECT_EQ(c()({"FCALL", "f6", "0"}), Int(7));
  EXPECT_EQ(c()({"FCALL", "f1", "0"}), Error("ERR Function not found"));
}

TEST_F(FunctionDumpTest, RestoreRefusals) {
  ASSERT_EQ(Load(FunctionCode("test", "test", "return 'hello'")), Bulk("test"));
  std::string payload = Dump();
  const Reply bad = Error("ERR DUMP payload version or checksum are wrong");
  EXPECT_EQ(Restore("bad_payload"), bad);
  EXPECT_EQ(Restore("short"), bad);
  std::string corrupt = payload;
  corrupt[3] ^= 0x20;
  EXPECT_EQ(Restore(corrupt), bad);
  EXPECT_EQ(Restore(payload, "bad"),
            Error("ERR Wrong restore policy given, value should be either FLUSH, APPEND or "
                  "REPLACE."));
  EXPECT_EQ(c()({"FUNCTION", "restore", "arg1", "args2", "arg3"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'restore'. Try "
                  "FUNCTION HELP."));
  // A key's payload (Redis's DUMP of the string "v") is not a library.
  EXPECT_EQ(Restore(FromHex("0001760a009108ceb219388ace")),
            Error("ERR given type is not a function"));
  // Two libraries of one name in a payload fail it whole.
  std::string body = payload.substr(0, payload.size() - 10);
  ASSERT_EQ(c()({"FUNCTION", "FLUSH"}), Status("OK"));
  EXPECT_EQ(Restore(WithFooter(body + body)), Error("ERR Library 'test' already exists"));
  EXPECT_EQ(c()({"FUNCTION", "LIST"}), Array({}));
}

}  // namespace
}  // namespace redlab::conformance
