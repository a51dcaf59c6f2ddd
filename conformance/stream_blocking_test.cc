// XREAD: served at once (COUNT, several streams, $), or blocked (BLOCK) until an XADD gives a
// stream an entry above the ID given, served in the order clients blocked; timeouts; no
// blocking inside MULTI.
#include <string>
#include <vector>

#include "conformance/blocking_fixture.h"

namespace redlab::conformance {
namespace {

class StreamBlockingTest : public BlockingFixture {
 protected:
  static Reply Entry(const std::string& id, std::vector<std::string> fields) {
    return Array({Bulk(id), Bulks(fields)});
  }
  static Reply KeyEntries(const std::string& key, std::vector<Reply> entries) {
    return Array({Bulk(key), Array(std::move(entries))});
  }
};

TEST_F(StreamBlockingTest, XReadServesEntriesAboveTheIds) {
  c()({"XADD", "a", "1-1", "f", "1"});
  c()({"XADD", "a", "2-1", "f", "2"});
  c()({"XADD", "b", "5-1", "g", "5"});
  EXPECT_EQ(c()({"XREAD", "STREAMS", "a", "b", "1-1", "0"}),
            Array({KeyEntries("a", {Entry("2-1", {"f", "2"})}),
                   KeyEntries("b", {Entry("5-1", {"g", "5"})})}));
  EXPECT_EQ(c()({"XREAD", "COUNT", "1", "STREAMS", "a", "0-0"}),
            Array({KeyEntries("a", {Entry("1-1", {"f", "1"})})}));
  // Streams with nothing new are left out; none at all answers a null array.
  EXPECT_EQ(c()({"XREAD", "STREAMS", "a", "b", "2-1", "0"}),
            Array({KeyEntries("b", {Entry("5-1", {"g", "5"})})}));
  EXPECT_EQ(c().Raw({"XREAD", "STREAMS", "a", "b", "$", "$"}), "*-1\r\n");
  EXPECT_EQ(c().Raw({"XREAD", "STREAMS", "missing", "0"}), "*-1\r\n");
}

TEST_F(StreamBlockingTest, XReadArgumentErrors) {
  EXPECT_EQ(c()({"XREAD", "STREAMS", "a", "b", "0"}),
            Error("ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be "
                  "specified."));
  EXPECT_EQ(c()({"XREAD", "COUNT", "1", "a", "0"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"XREAD", "GROUP", "g", "c", "STREAMS", "a", "0"}),
            Error("ERR The GROUP option is only supported by XREADGROUP. You called XREAD "
                  "instead."));
  EXPECT_EQ(c()({"XREAD", "NOACK", "STREAMS", "a", "0"}),
            Error("ERR The NOACK option is only supported by XREADGROUP. You called XREAD "
                  "instead."));
  EXPECT_EQ(c()({"XREAD", "STREAMS", "a", ">"}),
            Error("ERR The > ID can be specified only when calling XREADGROUP using the GROUP "
                  "<group> <consumer> option."));
  EXPECT_EQ(c()({"XREAD", "STREAMS", "a", "x"}),
            Error("ERR Invalid stream ID specified as stream command argument"));
  EXPECT_EQ(c()({"XREAD", "BLOCK", "-1", "STREAMS", "a", "0"}), Error("ERR timeout is negative"));
  c()({"SET", "str", "x"});
  EXPECT_EQ(c()({"XREAD", "STREAMS", "str", "0"}), Error(kWrongType));
}

TEST_F(StreamBlockingTest, BlockedXReadIsServedByXAdd) {
  c()({"XADD", "s", "1-1", "f", "1"});
  Client waiter = Blocked({"XREAD", "BLOCK", "0", "STREAMS", "s", "$"});
  EXPECT_EQ(c()({"XADD", "s", "2-1", "f", "2"}), Bulk("2-1"));
  EXPECT_EQ(waiter.Read(), Array({KeyEntries("s", {Entry("2-1", {"f", "2"})})}));
  EXPECT_EQ(ClientsInfo("blocked_clients"), 0);
}

TEST_F(StreamBlockingTest, BlockedOnAMissingKeyIsServedWhenItIsCreated) {
  Client waiter = Blocked({"XREAD", "BLOCK", "0", "STREAMS", "other", "s", "$", "$"});
  EXPECT_EQ(c()({"XADD", "s", "3-1", "f", "3"}), Bulk("3-1"));
  EXPECT_EQ(waiter.Read(), Array({KeyEntries("s", {Entry("3-1", {"f", "3"})})}));
}

TEST_F(StreamBlockingTest, WaitersAreServedInBlockingOrderAndOnlyAboveTheirIds) {
  c()({"XADD", "s", "5-1", "f", "5"});
  Client high = Blocked({"XREAD", "BLOCK", "0", "STREAMS", "s", "7-0"});
  Client low = Blocked({"XREAD", "BLOCK", "0", "COUNT", "1", "STREAMS", "s", "$"});
  EXPECT_EQ(c()({"XADD", "s", "6-1", "f", "6"}), Bulk("6-1"));
  // 6-1 is above $ (5-1) but not above 7-0: only `low` is served.
  EXPECT_EQ(low.Read(), Array({KeyEntries("s", {Entry("6-1", {"f", "6"})})}));
  WaitBlocked(1);
  EXPECT_EQ(c()({"XADD", "s", "8-1", "f", "8"}), Bulk("8-1"));
  EXPECT_EQ(high.Read(), Array({KeyEntries("s", {Entry("8-1", {"f", "8"})})}));
}

TEST_F(StreamBlockingTest, XAddInsideMultiServesAfterExec) {
  Client waiter = Blocked({"XREAD", "BLOCK", "0", "STREAMS", "s", "$"});
  c()({"MULTI"});
  c()({"XADD", "s", "1-1", "f", "1"});
  c()({"XADD", "s", "2-1", "f", "2"});
  EXPECT_EQ(c()({"EXEC"}), Array({Bulk("1-1"), Bulk("2-1")}));
  EXPECT_EQ(waiter.Read(), Array({KeyEntries("s", {Entry("1-1", {"f", "1"}),
                                                   Entry("2-1", {"f", "2"})})}));
}

TEST_F(StreamBlockingTest, TimeoutAnswersNullArray) {
  Client waiter = Connect();
  waiter.SendCommand({"XREAD", "BLOCK", "20", "STREAMS", "s", "$"});
  EXPECT_EQ(waiter.ReadRaw(), "*-1\r\n");
}

TEST_F(StreamBlockingTest, NoBlockingInsideMulti) {
  c()({"MULTI"});
  c()({"XREAD", "BLOCK", "0", "STREAMS", "s", "$"});
  EXPECT_EQ(c().Raw({"EXEC"}), "*1\r\n*-1\r\n");
}

TEST_F(StreamBlockingTest, ClientUnblockAnswersAsATimeout) {
  Client waiter = Connect();
  int64_t id = IdOf(waiter);
  waiter.SendCommand({"XREAD", "BLOCK", "0", "STREAMS", "s", "$"});
  WaitBlocked(1);
  EXPECT_EQ(c()({"CLIENT", "UNBLOCK", std::to_string(id), "TIMEOUT"}), Int(1));
  EXPECT_EQ(waiter.ReadRaw(), "*-1\r\n");
}

}  // namespace
}  // namespace redlab::conformance
