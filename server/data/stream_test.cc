// StreamValue on its own: ID parsing as streamGenericParseIDOrReply reads IDs, nodes that end at
// stream-node-max-entries and -bytes, deletion that frees emptied nodes, and exact and
// approximate trimming.
#include "server/data/stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace redlab::server {
namespace {

std::vector<std::string> Fields(const std::string& value) { return {"f", value}; }

std::vector<std::string> Ids(const StreamValue& s) {
  std::vector<std::string> out;
  s.Range({}, StreamId::Max(), false, [&](const StreamValue::Entry& e) {
    out.push_back(e.id.ToString());
    return true;
  });
  return out;
}

TEST(StreamIdTest, ParsesAsRedis) {
  StreamId id;
  bool seq_given = true;
  ASSERT_TRUE(ParseStreamId("5", 7, false, &id));
  EXPECT_EQ(id, (StreamId{5, 7}));
  ASSERT_TRUE(ParseStreamId("5-*", 0, true, &id, &seq_given));
  EXPECT_FALSE(seq_given);
  EXPECT_FALSE(ParseStreamId("5-*", 0, true, &id));  // only where seq_given is asked for
  EXPECT_TRUE(ParseStreamId("+", 0, false, &id));
  EXPECT_EQ(id, StreamId::Max());
  EXPECT_FALSE(ParseStreamId("+", 0, true, &id));
  EXPECT_FALSE(ParseStreamId("1-2-3", 0, false, &id));
  EXPECT_FALSE(ParseStreamId("18446744073709551616", 0, false, &id));
  EXPECT_FALSE(ParseStreamId("", 0, false, &id));
  StreamId max = StreamId::Max();
  EXPECT_FALSE(max.Increment());
  EXPECT_EQ(max, (StreamId{0, 0}));
  StreamId one{1, 0};
  EXPECT_TRUE(one.Decrement());
  EXPECT_EQ(one, (StreamId{0, UINT64_MAX}));
}

TEST(StreamValueTest, NodesEndAtTheEntryLimit) {
  StreamValue s;
  const StreamNodeLimits limits{4096, 3};
  for (uint64_t i = 1; i <= 7; ++i) s.Append({i, 0}, Fields("v"), limits);
  EXPECT_EQ(s.node_count(), 3u);
  EXPECT_EQ(s.length(), 7u);
  EXPECT_EQ(s.first_id(), (StreamId{1, 0}));
  EXPECT_EQ(s.last_id(), (StreamId{7, 0}));
}

TEST(StreamValueTest, NodesEndAtTheByteLimit) {
  StreamValue s;
  const StreamNodeLimits limits{100, 100};
  for (uint64_t i = 1; i <= 4; ++i) s.Append({i, 0}, Fields(std::string(20, 'x')), limits);
  // 18 bytes of header, counts and master entry, then 30 bytes an entry: a node is full when
  // its bytes and the new entry's 21 bytes of field and value reach 100, after three.
  EXPECT_EQ(s.node_count(), 2u);
}

TEST(StreamValueTest, DeletingTheLastLiveEntryOfANodeFreesIt) {
  StreamValue s;
  const StreamNodeLimits limits{4096, 2};
  for (uint64_t i = 1; i <= 4; ++i) s.Append({i, 0}, Fields("v"), limits);
  EXPECT_TRUE(s.Delete({1, 0}));
  EXPECT_FALSE(s.Delete({1, 0}));
  EXPECT_EQ(s.node_count(), 2u);
  EXPECT_EQ(s.first_id(), (StreamId{2, 0}));
  EXPECT_TRUE(s.Delete({2, 0}));
  EXPECT_EQ(s.node_count(), 1u);
  EXPECT_EQ(s.max_deleted_id(), (StreamId{2, 0}));
  EXPECT_EQ(Ids(s), (std::vector<std::string>{"3-0", "4-0"}));
}

TEST(StreamValueTest, ExactAndApproximateTrims) {
  StreamValue s;
  const StreamNodeLimits limits{4096, 4};
  for (uint64_t i = 1; i <= 10; ++i) s.Append({i, 0}, Fields("v"), limits);
  StreamValue::TrimArgs approx{StreamValue::TrimStrategy::kMaxLen, true, 0, 5, {}};
  EXPECT_EQ(s.Trim(approx), 4);  // the first node only: the second would leave 2 < 5
  EXPECT_EQ(s.length(), 6u);
  StreamValue::TrimArgs exact{StreamValue::TrimStrategy::kMinId, false, 0, 0, {7, 0}};
  EXPECT_EQ(s.Trim(exact), 2);
  EXPECT_EQ(Ids(s), (std::vector<std::string>{"7-0", "8-0", "9-0", "10-0"}));
  EXPECT_EQ(s.first_id(), (StreamId{7, 0}));
  StreamValue::TrimArgs limited{StreamValue::TrimStrategy::kMaxLen, true, 1, 0, {}};
  EXPECT_EQ(s.Trim(limited), 0);  // a whole node is more than the limit
}

// Every range, forward and back, of a stream whose nodes mix entries with the master's fields
// and with their own, integer and string values, gaps in the IDs and deleted entries, equals
// the entries it was given: seeks from either end of a node find the same entries.
TEST(StreamValueTest, RangesOverPackedNodesMatchTheEntriesGiven) {
  StreamValue s;
  const StreamNodeLimits limits{4096, 7};
  struct Given {
    StreamId id;
    std::vector<std::string> fields;
    bool deleted = false;
  };
  std::vector<Given> given;
  for (uint64_t i = 1; i <= 40; ++i) {
    StreamId id{i * 3, i % 4};
    std::vector<std::string> fields = {"f", std::to_string(i * 1000), "g", "v" + std::to_string(i)};
    if (i % 5 == 0) fields = {"other", std::string(70, 'x'), "n", "-" + std::to_string(i)};
    if (i % 7 == 0) fields = {"f", "1"};
    s.Append(id, fields, limits);
    given.push_back({id, fields});
  }
  for (size_t i : {0u, 4u, 5u, 6u, 20u, 39u}) {
    EXPECT_TRUE(s.Delete(given[i].id));
    given[i].deleted = true;
  }
  EXPECT_EQ(s.length(), 34u);
  auto collect = [&](const StreamId& a, const StreamId& b, bool rev) {
    std::vector<std::string> out;
    s.Range(a, b, rev, [&](const StreamValue::Entry& e) {
      std::string text = e.id.ToString();
      for (std::string_view f : e.fields) text += " " + std::string(f);
      out.push_back(text);
      return true;
    });
    return out;
  };
  std::vector<StreamId> bounds = {{0, 0}, StreamId::Max()};
  for (const Given& g : given) {
    bounds.push_back(g.id);
    bounds.push_back({g.id.ms, g.id.seq + 1});
    bounds.push_back({g.id.ms - 1, 0});
  }
  for (const StreamId& a : bounds) {
    for (const StreamId& b : bounds) {
      std::vector<std::string> expected;
      for (const Given& g : given) {
        if (g.deleted || g.id < a || g.id > b) continue;
        std::string text = g.id.ToString();
        for (const std::string& f : g.fields) text += " " + f;
        expected.push_back(text);
      }
      ASSERT_EQ(collect(a, b, false), expected) << a.ToString() << " " << b.ToString();
      std::reverse(expected.begin(), expected.end());
      ASSERT_EQ(collect(a, b, true), expected) << a.ToString() << " " << b.ToString();
    }
  }
  StreamValue::Entry first, last;
  ASSERT_TRUE(s.First(&first));
  EXPECT_EQ(first.id, given[1].id);
  ASSERT_TRUE(s.Last(&last));
  EXPECT_EQ(last.id, given[38].id);
  EXPECT_EQ(s.FirstEdgeId(), given[0].id);  // deleted, but its node holds it still
}

}  // namespace
}  // namespace redlab::server
