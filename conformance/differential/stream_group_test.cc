// Differential check of streams with consumer groups: redlab and a real redis-server given the
// same random sequence of XADD, XDEL, XTRIM, XGROUP, XREADGROUP, XACK, XCLAIM and XAUTOCLAIM
// (small nodes, so the radix tree grows and shrinks) answer every command and every XINFO
// STREAM / GROUPS / CONSUMERS count and XPENDING summary with the same bytes.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "conformance/differential/side_by_side.h"

namespace redlab::conformance {
namespace {

// A name no other suite uses.
const std::string kKey = "differential:stream-groups";

class StreamGroupDifferentialTest : public SideBySideTest {};

TEST_F(StreamGroupDifferentialTest, RandomGroupWorkloadsGiveTheSameReplies) {
  std::mt19937_64 rng(20261126);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  Both({"CONFIG", "SET", "stream-node-max-entries", "4"});
  const std::vector<std::string> groups = {"g1", "g2", "g3"};
  const std::vector<std::string> consumers = {"alice", "bob", "carol"};
  uint64_t ms = 1;
  auto some_id = [&] {
    return std::to_string(1 + pick(static_cast<int>(ms))) + "-" + std::to_string(pick(3));
  };
  for (int step = 0; step < 1500; ++step) {
    const std::string& g = groups[static_cast<size_t>(pick(3))];
    const std::string& c = consumers[static_cast<size_t>(pick(3))];
    switch (pick(14)) {
      case 0:
      case 1:
      case 2:
        ms += 1 + pick(300);
        Both({"XADD", kKey, std::to_string(ms) + "-" + std::to_string(pick(3)), "f",
              std::to_string(step), pick(2) ? "f" : "g", "x"});
        break;
      case 3:
        Both({"XDEL", kKey, some_id(), some_id()});
        break;
      case 4:
        if (pick(4) == 0) {
          Both({"XTRIM", kKey, "MAXLEN", pick(2) ? "~" : "=", std::to_string(pick(40))});
        }
        break;
      case 5:
        Both({"XGROUP", "CREATE", kKey, g, pick(2) ? "$" : some_id(), "MKSTREAM"});
        break;
      case 6:
        Both({"XGROUP", "SETID", kKey, g, pick(2) ? "0" : some_id()});
        break;
      case 7:
      case 8:
      {
        std::vector<std::string> read = {"XREADGROUP", "GROUP", g, c, "COUNT",
                                         std::to_string(1 + pick(4))};
        if (pick(4) == 0) read.push_back("NOACK");
        read.insert(read.end(), {"STREAMS", kKey, pick(4) ? ">" : "0"});
        Both(read);
        break;
      }
      case 9:
        Both({"XACK", kKey, g, some_id(), some_id()});
        break;
      case 10:
        Both({"XCLAIM", kKey, g, c, "0", some_id(), some_id(), "TIME", "1700000000000", "JUSTID"});
        break;
      case 11:
        Both({"XAUTOCLAIM", kKey, g, c, "0", some_id(), "COUNT", std::to_string(1 + pick(5))});
        break;
      case 12:
        Both({"XGROUP", pick(2) ? "DELCONSUMER" : "CREATECONSUMER", kKey, g, c});
        break;
      default:
        if (pick(10) == 0) Both({"XGROUP", "DESTROY", kKey, g});
        break;
    }
    if (step % 25 == 0) {
      Both({"XINFO", "STREAM", kKey});
      Both({"XINFO", "GROUPS", kKey});
      Both({"XPENDING", kKey, g});
      Both({"XPENDING", kKey, g, "-", "+", "0"});
      Both({"XRANGE", kKey, "-", "+"});
    }
  }
  Both({"XINFO", "STREAM", kKey});
  std::string groups_info = Both({"XINFO", "GROUPS", kKey});
  // The workload did reach groups with consumers and pending entries.
  EXPECT_NE(groups_info.find("pending\r\n:"), std::string::npos);
}

}  // namespace
}  // namespace redlab::conformance
