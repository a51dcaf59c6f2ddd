// Stream consumer groups: XGROUP (CREATE with MKSTREAM and ENTRIESREAD, SETID, DESTROY,
// CREATECONSUMER, DELCONSUMER, HELP), XREADGROUP (>, history, COUNT, NOACK), XACK, XPENDING
// (summary, extended, IDLE, consumer), XCLAIM (IDLE, TIME, RETRYCOUNT, FORCE, JUSTID, LASTID),
// XAUTOCLAIM (deleted IDs), XINFO STREAM / FULL / GROUPS / CONSUMERS / HELP with entries-read
// and lag, and DUMP/RESTORE of a stream with groups made by redis-server 7.0.15.
#include <string>
#include <vector>

#include "conformance/harness/fixture.h"
#include "conformance/help_reply.h"

namespace redlab::conformance {
namespace {

const char* const kBadId = "ERR Invalid stream ID specified as stream command argument";
// redis-server 7.0.15: XADD s 1-1 a 1, 2-1 b 2, 3-1 a 3; XGROUP CREATE s g1 0 and g2 $;
// XCLAIM s g1 alice 0 1-1 TIME 1700000000000 RETRYCOUNT 2 FORCE JUSTID LASTID 2-1; XCLAIM s g1
// bob 0 2-1 TIME 1700000001000 RETRYCOUNT 1 FORCE JUSTID; XGROUP SETID s g1 2-1 ENTRIESREAD 2.
const char* const kGroupsDumpHex =
    "13011000000000000000010000000000000001c32e3511350000001600030100010101816102000102200a400c"
    "000460054009058162020201062018401a0003201800ff03030101010000030202673102010202000000000000"
    "000100000000000000010068e5cf8b0100000200000000000000020000000000000001e86be5cf8b0100000102"
    "05616c696365f60a1c19a2010000010000000000000001000000000000000103626f62380b1c19a20100000100"
    "000000000000020000000000000001026732030181ffffffffffffffff00000a00add259a8135008bb";

std::string Unhex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

class StreamGroupTest : public ConformanceTest {
 protected:
  static Reply Entry(const std::string& id, const std::string& f, const std::string& v) {
    return Array({Bulk(id), Array({Bulk(f), Bulk(v)})});
  }
  static Reply KeyEntries(const std::string& key, std::vector<Reply> entries) {
    return Array({Bulk(key), Array(std::move(entries))});
  }
  // s: 1-1 a 1, 2-1 b 2, 3-1 c 3, and group g at 0.
  void Fill() {
    c()({"XADD", "s", "1-1", "a", "1"});
    c()({"XADD", "s", "2-1", "b", "2"});
    c()({"XADD", "s", "3-1", "c", "3"});
    ASSERT_EQ(c()({"XGROUP", "CREATE", "s", "g", "0"}), Status("OK"));
  }
  // The value of `field` in a flat map reply.
  static Reply Field(const Reply& map, const std::string& field) {
    for (size_t i = 0; i + 1 < map.elements.size(); i += 2) {
      if (map.elements[i].str == field) return map.elements[i + 1];
    }
    return Error("no field " + field);
  }
};

TEST_F(StreamGroupTest, XGroupCreateAndErrors) {
  EXPECT_EQ(c()({"XGROUP", "CREATE", "s", "g", "$"}),
            Error("ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you "
                  "may want to use the MKSTREAM option to create an empty stream "
                  "automatically."));
  EXPECT_EQ(c()({"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"}), Status("OK"));
  EXPECT_EQ(c()({"XLEN", "s"}), Int(0));
  EXPECT_EQ(c()({"XGROUP", "CREATE", "s", "g", "$"}),
            Error("BUSYGROUP Consumer Group name already exists"));
  EXPECT_EQ(c()({"XGROUP", "CREATE", "s", "h", "x"}), Error(kBadId));
  EXPECT_EQ(c()({"XGROUP", "CREATE", "s", "h", "0", "ENTRIESREAD", "-2"}),
            Error("ERR value for ENTRIESREAD must be positive or -1"));
  EXPECT_EQ(c()({"XGROUP", "CREATE", "s", "h", "0", "FOO"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'CREATE'. Try XGROUP "
                  "HELP."));
  EXPECT_EQ(c()({"XGROUP", "SETID", "s", "nope", "0"}),
            Error("NOGROUP No such consumer group 'nope' for key name 's'"));
  EXPECT_EQ(c()({"XGROUP", "CREATECONSUMER", "s", "nope", "c"}),
            Error("NOGROUP No such consumer group 'nope' for key name 's'"));
  EXPECT_EQ(c()({"XGROUP", "FOO", "s", "g"}),
            Error("ERR unknown subcommand 'FOO'. Try XGROUP HELP."));
  ASSERT_NO_FATAL_FAILURE(
      ExpectHelp(c()({"XGROUP", "HELP"}), 17,
                 {{0, HelpHeader("XGROUP")}, {1, "CREATE <key> <groupname> <id|$> [option]"}}));
  c()({"SET", "str", "x"});
  EXPECT_EQ(c()({"XGROUP", "CREATE", "str", "g", "$"}),
            Error("WRONGTYPE Operation against a key holding the wrong kind of value"));
}

TEST_F(StreamGroupTest, ConsumersAndDestroy) {
  Fill();
  EXPECT_EQ(c()({"XGROUP", "CREATECONSUMER", "s", "g", "alice"}), Int(1));
  EXPECT_EQ(c()({"XGROUP", "CREATECONSUMER", "s", "g", "alice"}), Int(0));
  EXPECT_EQ(c()({"XREADGROUP", "GROUP", "g", "bob", "COUNT", "2", "STREAMS", "s", ">"}),
            Array({KeyEntries("s", {Entry("1-1", "a", "1"), Entry("2-1", "b", "2")})}));
  EXPECT_EQ(c()({"XGROUP", "DELCONSUMER", "s", "g", "bob"}), Int(2));
  EXPECT_EQ(c()({"XGROUP", "DELCONSUMER", "s", "g", "bob"}), Int(0));
  EXPECT_EQ(c()({"XPENDING", "s", "g"}), Array({Int(0), Nil(), Nil(), Nil()}));
  EXPECT_EQ(c()({"XGROUP", "DESTROY", "s", "g"}), Int(1));
  EXPECT_EQ(c()({"XGROUP", "DESTROY", "s", "g"}), Int(0));
  EXPECT_EQ(c()({"XINFO", "GROUPS", "s"}), Array({}));
}

TEST_F(StreamGroupTest, XReadGroupNewEntriesAndHistory) {
  Fill();
  EXPECT_EQ(c()({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "1", "STREAMS", "s", ">"}),
            Array({KeyEntries("s", {Entry("1-1", "a", "1")})}));
  EXPECT_EQ(c()({"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">"}),
            Array({KeyEntries("s", {Entry("2-1", "b", "2"), Entry("3-1", "c", "3")})}));
  EXPECT_EQ(c().Raw({"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">"}), "*-1\r\n");
  // History: the consumer's own pending entries from the ID given.
  EXPECT_EQ(c()({"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", "0"}),
            Array({KeyEntries("s", {Entry("2-1", "b", "2"), Entry("3-1", "c", "3")})}));
  EXPECT_EQ(c()({"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", "2-1"}),
            Array({KeyEntries("s", {Entry("3-1", "c", "3")})}));
  // A pending entry deleted since is reported with a nil body.
  EXPECT_EQ(c()({"XDEL", "s", "1-1"}), Int(1));
  EXPECT_EQ(c().Raw({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", "0"}),
            "*1\r\n*2\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n1-1\r\n*-1\r\n");
  EXPECT_EQ(c()({"XPENDING", "s", "g", "-", "+", "10", "bob"}).elements.size(), 2u);
  EXPECT_EQ(c()({"XPENDING", "s", "g", "-", "+", "10", "bob"}).elements[0].elements[3], Int(2));
}

TEST_F(StreamGroupTest, XReadGroupErrors) {
  Fill();
  EXPECT_EQ(c()({"XREADGROUP", "GROUP", "nope", "c", "STREAMS", "s", ">"}),
            Error("NOGROUP No such key 's' or consumer group 'nope' in XREADGROUP with GROUP "
                  "option"));
  EXPECT_EQ(c()({"XREADGROUP", "GROUP", "g", "c", "STREAMS", "missing", ">"}),
            Error("NOGROUP No such key 'missing' or consumer group 'g' in XREADGROUP with GROUP "
                  "option"));
  EXPECT_EQ(c()({"XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", "$"}),
            Error("ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the "
                  "history of this consumer by specifying a proper ID, or use the > ID to get "
                  "new messages. The $ ID would just return an empty result set."));
  EXPECT_EQ(c()({"XREADGROUP", "COUNT", "1", "NOACK", "STREAMS", "s", ">"}),
            Error("ERR Missing GROUP option for XREADGROUP"));
  EXPECT_EQ(c()({"XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", "x"}), Error(kBadId));
}

TEST_F(StreamGroupTest, NoAckLeavesNothingPending) {
  Fill();
  EXPECT_EQ(c()({"XREADGROUP", "GROUP", "g", "c", "NOACK", "STREAMS", "s", ">"}).elements.size(),
            1u);
  EXPECT_EQ(c()({"XPENDING", "s", "g"}), Array({Int(0), Nil(), Nil(), Nil()}));
  Reply groups = c()({"XINFO", "GROUPS", "s"});
  ASSERT_EQ(groups.elements.size(), 1u);
  EXPECT_EQ(groups.elements[0],
            Array({Bulk("name"), Bulk("g"), Bulk("consumers"), Int(1), Bulk("pending"), Int(0),
                   Bulk("last-delivered-id"), Bulk("3-1"), Bulk("entries-read"), Int(3),
                   Bulk("lag"), Int(0)}));
}

TEST_F(StreamGroupTest, XAckAndXPending) {
  Fill();
  c()({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "2", "STREAMS", "s", ">"});
  c()({"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">"});
  EXPECT_EQ(c()({"XPENDING", "s", "g"}),
            Array({Int(3), Bulk("1-1"), Bulk("3-1"),
                   Array({Array({Bulk("alice"), Bulk("2")}), Array({Bulk("bob"), Bulk("1")})})}));
  Reply ext = c()({"XPENDING", "s", "g", "(1-1", "+", "10"});
  ASSERT_EQ(ext.elements.size(), 2u);
  EXPECT_EQ(ext.elements[0].elements[0], Bulk("2-1"));
  EXPECT_EQ(ext.elements[0].elements[1], Bulk("alice"));
  EXPECT_EQ(ext.elements[0].elements[3], Int(1));
  EXPECT_EQ(c()({"XPENDING", "s", "g", "-", "+", "10", "nobody"}), Array({}));
  EXPECT_EQ(c()({"XPENDING", "s", "g", "IDLE", "3600000", "-", "+", "10"}), Array({}));
  EXPECT_EQ(c()({"XPENDING", "s", "g", "-", "+"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"XPENDING", "s", "g", "IDLE", "10", "-", "+"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"XPENDING", "s", "nope"}),
            Error("NOGROUP No such key 's' or consumer group 'nope'"));
  EXPECT_EQ(c()({"XACK", "s", "g", "1-1", "x"}), Error(kBadId));
  EXPECT_EQ(c()({"XACK", "s", "g", "1-1", "2-1", "9-9"}), Int(2));
  EXPECT_EQ(c()({"XACK", "s", "g", "1-1"}), Int(0));
  EXPECT_EQ(c()({"XACK", "missing", "g", "1-1"}), Int(0));
  EXPECT_EQ(c()({"XPENDING", "s", "g"}),
            Array({Int(1), Bulk("3-1"), Bulk("3-1"), Array({Array({Bulk("bob"), Bulk("1")})})}));
}

TEST_F(StreamGroupTest, XClaimOptions) {
  Fill();
  c()({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">"});
  // A min-idle-time not reached claims nothing.
  EXPECT_EQ(c()({"XCLAIM", "s", "g", "bob", "3600000", "1-1"}), Array({}));
  EXPECT_EQ(c()({"XCLAIM", "s", "g", "bob", "0", "1-1"}),
            Array({Entry("1-1", "a", "1")}));
  EXPECT_EQ(c()({"XCLAIM", "s", "g", "bob", "0", "2-1", "TIME", "1700000000000", "RETRYCOUNT",
                 "7", "JUSTID"}),
            Array({Bulk("2-1")}));
  Reply p = c()({"XPENDING", "s", "g", "2-1", "2-1", "1"});
  ASSERT_EQ(p.elements.size(), 1u);
  EXPECT_EQ(p.elements[0].elements[1], Bulk("bob"));
  EXPECT_EQ(p.elements[0].elements[3], Int(7));
  // FORCE creates the NACK of an entry nobody has; LASTID moves the group forward.
  c()({"XADD", "s", "4-1", "d", "4"});
  EXPECT_EQ(c()({"XCLAIM", "s", "g", "carol", "0", "4-1", "FORCE", "JUSTID", "LASTID", "4-1"}),
            Array({Bulk("4-1")}));
  EXPECT_EQ(Field(c()({"XINFO", "GROUPS", "s"}).elements[0], "last-delivered-id"), Bulk("4-1"));
  EXPECT_EQ(c()({"XCLAIM", "s", "g", "bob", "0", "9-9"}), Array({}));
  EXPECT_EQ(c()({"XCLAIM", "s", "g", "bob", "x", "1-1"}),
            Error("ERR Invalid min-idle-time argument for XCLAIM"));
  EXPECT_EQ(c()({"XCLAIM", "s", "g", "bob", "0", "1-1", "FOO"}),
            Error("ERR Unrecognized XCLAIM option 'FOO'"));
  EXPECT_EQ(c()({"XCLAIM", "s", "g", "bob", "0", "1-1", "IDLE", "x"}),
            Error("ERR Invalid IDLE option argument for XCLAIM"));
  EXPECT_EQ(c()({"XCLAIM", "s", "nope", "bob", "0", "1-1"}),
            Error("NOGROUP No such key 's' or consumer group 'nope'"));
  // A pending entry deleted since leaves the PEL.
  c()({"XDEL", "s", "1-1"});
  EXPECT_EQ(c()({"XCLAIM", "s", "g", "bob", "0", "1-1"}), Array({}));
  EXPECT_EQ(c()({"XPENDING", "s", "g"}).elements[0], Int(3));
}

TEST_F(StreamGroupTest, XAutoClaimAndDeletedIds) {
  Fill();
  c()({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">"});
  EXPECT_EQ(c()({"XAUTOCLAIM", "s", "g", "bob", "0", "0", "COUNT", "1"}),
            Array({Bulk("2-1"), Array({Entry("1-1", "a", "1")}), Array({})}));
  c()({"XDEL", "s", "2-1"});
  EXPECT_EQ(c()({"XAUTOCLAIM", "s", "g", "bob", "0", "2-1", "JUSTID"}),
            Array({Bulk("0-0"), Array({Bulk("3-1")}), Array({Bulk("2-1")})}));
  EXPECT_EQ(c()({"XAUTOCLAIM", "s", "g", "bob", "0", "0", "COUNT", "0"}),
            Error("ERR COUNT must be > 0"));
  EXPECT_EQ(c()({"XAUTOCLAIM", "s", "g", "bob", "x", "0"}),
            Error("ERR Invalid min-idle-time argument for XAUTOCLAIM"));
  EXPECT_EQ(c()({"XAUTOCLAIM", "s", "nope", "bob", "0", "0"}),
            Error("NOGROUP No such key 's' or consumer group 'nope'"));
  Reply pending = c()({"XPENDING", "s", "g"});
  EXPECT_EQ(pending, Array({Int(2), Bulk("1-1"), Bulk("3-1"),
                            Array({Array({Bulk("bob"), Bulk("2")})})}));
}

TEST_F(StreamGroupTest, XInfoStreamGroupsConsumers) {
  Fill();
  c()({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "1", "STREAMS", "s", ">"});
  Reply info = c()({"XINFO", "STREAM", "s"});
  EXPECT_EQ(info, Array({Bulk("length"), Int(3), Bulk("radix-tree-keys"), Int(1),
                         Bulk("radix-tree-nodes"), Int(2), Bulk("last-generated-id"),
                         Bulk("3-1"), Bulk("max-deleted-entry-id"), Bulk("0-0"),
                         Bulk("entries-added"), Int(3), Bulk("recorded-first-entry-id"),
                         Bulk("1-1"), Bulk("groups"), Int(1), Bulk("first-entry"),
                         Entry("1-1", "a", "1"), Bulk("last-entry"), Entry("3-1", "c", "3")}));
  EXPECT_EQ(c()({"XINFO", "GROUPS", "s"}),
            Array({Array({Bulk("name"), Bulk("g"), Bulk("consumers"), Int(1), Bulk("pending"),
                          Int(1), Bulk("last-delivered-id"), Bulk("1-1"), Bulk("entries-read"),
                          Int(1), Bulk("lag"), Int(2)})}));
  Reply consumers = c()({"XINFO", "CONSUMERS", "s", "g"});
  ASSERT_EQ(consumers.elements.size(), 1u);
  EXPECT_EQ(Field(consumers.elements[0], "name"), Bulk("alice"));
  EXPECT_EQ(Field(consumers.elements[0], "pending"), Int(1));
  // An XDEL after the group's position makes the lag unknown (nil).
  c()({"XDEL", "s", "2-1"});
  EXPECT_EQ(Field(c()({"XINFO", "GROUPS", "s"}).elements[0], "lag"), Nil());
  EXPECT_EQ(c()({"XINFO", "STREAM", "missing"}), Error("ERR no such key"));
  EXPECT_EQ(c()({"XINFO", "CONSUMERS", "s", "nope"}),
            Error("NOGROUP No such consumer group 'nope' for key name 's'"));
  EXPECT_EQ(c()({"XINFO", "STREAM", "s", "FULL", "COUNT"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'STREAM'. Try XINFO "
                  "HELP."));
  EXPECT_EQ(c()({"XINFO", "HELP"}).elements.size(), 9u);
}

TEST_F(StreamGroupTest, RadixTreeNodesFollowRedisRax) {
  c()({"CONFIG", "SET", "stream-node-max-entries", "1"});
  for (int i = 1; i <= 20; ++i) {
    c()({"XADD", "s", std::to_string(i * 37) + "-" + std::to_string(i % 3), "f", "v"});
  }
  c()({"XTRIM", "s", "MAXLEN", "11"});
  c()({"XDEL", "s", "370-1"});
  Reply info = c()({"XINFO", "STREAM", "s"});
  c()({"CONFIG", "SET", "stream-node-max-entries", "100"});
  EXPECT_EQ(Field(info, "radix-tree-keys"), Int(10));
  EXPECT_EQ(Field(info, "radix-tree-nodes"), Int(24));
}

TEST_F(StreamGroupTest, RestoresRedisDumpWithGroups) {
  std::string dump = Unhex(kGroupsDumpHex);
  ASSERT_EQ(c()({"RESTORE", "s", "0", dump}), Status("OK"));
  EXPECT_EQ(c()({"DUMP", "s"}), Bulk(dump));
  Reply full = c()({"XINFO", "STREAM", "s", "FULL"});
  Reply groups = Field(full, "groups");
  ASSERT_EQ(groups.elements.size(), 2u);
  const Reply& g1 = groups.elements[0];
  EXPECT_EQ(Field(g1, "last-delivered-id"), Bulk("2-1"));
  EXPECT_EQ(Field(g1, "entries-read"), Int(2));
  EXPECT_EQ(Field(g1, "lag"), Int(1));
  EXPECT_EQ(Field(g1, "pending"),
            Array({Array({Bulk("1-1"), Bulk("alice"), Int(1700000000000), Int(2)}),
                   Array({Bulk("2-1"), Bulk("bob"), Int(1700000001000), Int(1)})}));
  Reply consumers = Field(g1, "consumers");
  ASSERT_EQ(consumers.elements.size(), 2u);
  EXPECT_EQ(Field(consumers.elements[0], "seen-time"), Int(1795717597942));
  EXPECT_EQ(Field(consumers.elements[1], "pending"),
            Array({Array({Bulk("2-1"), Int(1700000001000), Int(1)})}));
  EXPECT_EQ(Field(groups.elements[1], "entries-read"), Nil());
  EXPECT_EQ(Field(groups.elements[1], "lag"), Int(0));
  // The restored group goes on where it was.
  EXPECT_EQ(c()({"XREADGROUP", "GROUP", "g1", "bob", "STREAMS", "s", ">"}),
            Array({KeyEntries("s", {Entry("3-1", "a", "3")})}));
}

}  // namespace
}  // namespace redlab::conformance
