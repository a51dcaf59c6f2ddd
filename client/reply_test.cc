#include "client/reply.h"

#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include "client/errors.h"
#include "client/ids.h"

namespace redlab {
namespace {

TEST(ReplyTest, ConvertsHiredisReplies) {
  redisReader* reader = redisReaderCreate();
  const char kBytes[] = "*4\r\n$3\r\nabc\r\n:-7\r\n$-1\r\n*1\r\n+OK\r\n-ERR boom\r\n";
  redisReaderFeed(reader, kBytes, sizeof(kBytes) - 1);
  void* raw = nullptr;
  ASSERT_EQ(redisReaderGetReply(reader, &raw), REDIS_OK);
  Reply r = Reply::FromHiredis(*static_cast<redisReply*>(raw));
  freeReplyObject(raw);
  ASSERT_EQ(r.type, Reply::Type::kArray);
  ASSERT_EQ(r.elements.size(), 4u);
  EXPECT_EQ(r.elements[0], Reply::String("abc"));
  EXPECT_EQ(r.elements[1], Reply::Integer(-7));
  EXPECT_TRUE(r.elements[2].is_nil());
  EXPECT_EQ(r.elements[3].elements[0].type, Reply::Type::kStatus);
  EXPECT_EQ(r.ToString(), "[\"abc\", (integer) -7, (nil), [OK]]");
  ASSERT_EQ(redisReaderGetReply(reader, &raw), REDIS_OK);
  Reply e = Reply::FromHiredis(*static_cast<redisReply*>(raw));
  freeReplyObject(raw);
  EXPECT_EQ(e, Reply::Error("ERR boom"));
  redisReaderFree(reader);
}

TEST(ReplyTest, InfoFieldFindsWholeNames) {
  std::string info =
      "# Replication\r\nrole:master\r\nconnected_slaves:2\r\n"
      "slave0:ip=127.0.0.1,port=7001,state=online,offset=1,lag=0\r\nmaster_repl_offset:1\r\n";
  EXPECT_EQ(InfoField(info, "connected_slaves"), "2");
  EXPECT_EQ(InfoField(info, "role"), "master");
  EXPECT_EQ(InfoField(info, "master_repl_offset"), "1");
  EXPECT_EQ(InfoField(info, "slave"), std::nullopt);  // a prefix is not a field
  EXPECT_EQ(InfoField(info, "missing"), std::nullopt);
}

TEST(ErrorsTest, IllegalMonitorStateNamesLockNodeAndThread) {
  IllegalMonitorState e("orders", "9f0c-uuid", 42);
  EXPECT_STREQ(e.what(),
               "attempt to unlock lock 'orders', not locked by current thread by node id: "
               "9f0c-uuid thread-id: 42");
  EXPECT_NE(dynamic_cast<const Error*>(&e), nullptr);
}

TEST(IdsTest, UuidsAndRequestIds) {
  std::string a = client::RandomUuid();
  std::string b = client::RandomUuid();
  ASSERT_EQ(a.size(), 36u);
  EXPECT_NE(a, b);
  EXPECT_EQ(a[8], '-');
  EXPECT_EQ(a[14], '4');                                          // version 4
  EXPECT_NE(std::string("89ab").find(a[19]), std::string::npos);  // RFC 4122 variant
  std::string id = client::RandomHex(16);
  EXPECT_EQ(id.size(), 32u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(IdsTest, ThreadIdsDifferPerThreadAndStay) {
  ThreadId mine = ThreadId::Current();
  EXPECT_EQ(ThreadId::Current(), mine);
  ThreadId other{};
  std::thread([&] { other = ThreadId::Current(); }).join();
  EXPECT_NE(other, mine);
  EXPECT_NE(other.value, 0u);
}

}  // namespace
}  // namespace redlab
