// The RDB value codec: LZF both ways (random data round-trips; output that does not fit is
// refused as lzf_compress refuses it), listpack and intset bytes as Redis lays them out, the
// quicklist cut, and values through DUMP payloads, corrupt ones included.
#include "server/rdb/value.h"

#include <gtest/gtest.h>

#include <random>

#include "server/rdb/packed.h"

namespace redlab::server::rdb {
namespace {

TEST(LzfTest, RoundTripsRandomAndRepetitiveData) {
  std::mt19937 rng(42);
  for (int round = 0; round < 300; ++round) {
    size_t n = std::uniform_int_distribution<size_t>(1, 5000)(rng);
    int alphabet = round % 3 == 0 ? 2 : round % 3 == 1 ? 16 : 256;
    std::string in(n, '\0');
    for (char& c : in)
      c = static_cast<char>(std::uniform_int_distribution<int>(0, alphabet - 1)(rng));
    auto packed = LzfCompress(in, in.size() + in.size() / 32 + 16);  // lzf's worst case
    ASSERT_TRUE(packed.has_value());
    std::string out;
    ASSERT_TRUE(LzfDecompress(*packed, in.size(), &out));
    EXPECT_EQ(out, in);
  }
}

TEST(LzfTest, CompressesRunsAndRefusesWhatDoesNotFit) {
  std::string in(100, 'a');
  auto packed = LzfCompress(in, in.size() - 4);
  ASSERT_TRUE(packed.has_value());
  EXPECT_LT(packed->size(), 10u);
  // Incompressible bytes do not fit in fewer bytes than they take.
  std::string noise;
  std::mt19937 rng(1);
  for (int i = 0; i < 64; ++i) noise.push_back(static_cast<char>(rng()));
  EXPECT_FALSE(LzfCompress(noise, noise.size() - 4).has_value());
  EXPECT_FALSE(LzfCompress("", 10).has_value());
}

TEST(ListpackTest, EncodesAsRedis) {
  ListpackBuilder lp;
  for (std::string_view s : {"1", "-1", "5000", "-40000", "8388607", "17179869184", "abc", "01"}) {
    lp.Append(s);
  }
  // Header (total bytes, count), each entry with its back-length, terminator.
  std::string expected = std::string("\x2d\x00\x00\x00\x08\x00", 6) + std::string("\x01\x01", 2) +
                         std::string("\xdf\xff\x02", 3) + std::string("\xf1\x88\x13\x03", 4) +
                         std::string("\xf2\xc0\x63\xff\x04", 5) +
                         std::string("\xf2\xff\xff\x7f\x04", 5) +
                         std::string("\xf4\x00\x00\x00\x00\x04\x00\x00\x00\x09", 10) +
                         std::string(
                             "\x83"
                             "abc\x04",
                             5) +
                         std::string(
                             "\x82"
                             "01\x03",
                             4) +
                         "\xff";
  EXPECT_EQ(lp.Build(), expected);
  EXPECT_EQ(lp.bytes(), expected.size());
  EXPECT_EQ(ParseListpack(expected),
            (std::vector<std::string>{"1", "-1", "5000", "-40000", "8388607", "17179869184", "abc",
                                      "01"}));
  std::string bad = expected;
  bad[8] = 0x7f;  // a back-length that does not match its entry
  EXPECT_THROW(ParseListpack(bad), RdbCorrupt);
  EXPECT_THROW(ParseListpack(expected.substr(0, 10)), RdbCorrupt);
}

TEST(ListpackTest, LongStringsAndBacklengths) {
  for (size_t len : {63, 64, 127, 4095, 4096, 16380, 70000}) {
    ListpackBuilder lp;
    std::string s(len, 'x');
    lp.Append(s);
    EXPECT_EQ(lp.bytes(), 7 + ListpackBuilder::EntrySize(s)) << len;
    EXPECT_EQ(ParseListpack(lp.Build()), std::vector<std::string>{s}) << len;
  }
}

TEST(IntsetTest, NarrowestWidth) {
  EXPECT_EQ(BuildIntset({-7, 1}), std::string("\x02\0\0\0\x02\0\0\0\xf9\xff\x01\x00", 12));
  EXPECT_EQ(BuildIntset({1, 70000}).substr(0, 4), std::string("\x04\0\0\0", 4));
  EXPECT_EQ(BuildIntset({1, int64_t{5} << 32}).substr(0, 4), std::string("\x08\0\0\0", 4));
  EXPECT_EQ(ParseIntset(BuildIntset({-5, 3, int64_t{1} << 40})),
            (std::vector<int64_t>{-5, 3, int64_t{1} << 40}));
  EXPECT_THROW(ParseIntset(std::string("\x02\0\0\0\x02\0\0\0\x01\x00\x01\x00", 12)), RdbCorrupt);
}

TEST(QuicklistLayoutTest, CutsAsRpushWouldFill) {
  server::ListValue list;
  for (int i = 0; i < 2000; ++i)
    list.Push(server::ListValue::End::kTail, "item-" + std::to_string(i));
  std::vector<QuicklistNode> nodes = QuicklistLayout(list, -2, size_t{1} << 30);
  ASSERT_EQ(nodes.size(), 3u);  // as redis-server holds them (DEBUG OBJECT ql_nodes:3)
  size_t total = 0;
  for (const QuicklistNode& n : nodes) {
    EXPECT_LE(n.bytes, 8192u);
    total += n.count;
  }
  EXPECT_EQ(total, 2000u);
  // Built at the head, the nodes fill from the tail.
  server::ListValue left;
  for (int i = 0; i < 2000; ++i)
    left.Push(server::ListValue::End::kHead, "item-" + std::to_string(i));
  std::vector<QuicklistNode> from_tail = QuicklistLayout(left, -2, size_t{1} << 30);
  ASSERT_EQ(from_tail.size(), 3u);
  EXPECT_LT(from_tail.front().count, from_tail.back().count);
  EXPECT_EQ(from_tail.front().first, 0u);
  EXPECT_EQ(from_tail[1].first, from_tail.front().count);
  // A positive fill counts elements.
  EXPECT_EQ(QuicklistLayout(list, 100, size_t{1} << 30).size(), 20u);
  // Large elements sit alone in plain nodes.
  server::ListValue mixed;
  for (std::string_view e : {"a", "bbbbbbbbbb", "c"}) mixed.Push(server::ListValue::End::kTail, e);
  std::vector<QuicklistNode> cut = QuicklistLayout(mixed, -2, 5);
  ASSERT_EQ(cut.size(), 3u);
  EXPECT_TRUE(cut[1].plain);
  EXPECT_EQ(cut[1].bytes, 10u);
}

TEST(DumpPayloadTest, RoundTripsAndRefusesDamage) {
  ValueOptions options;
  server::Object value = server::Object::NewHash();
  value.hash().Set("f", "v", options.hash);
  std::string payload = CreateDumpPayload(value, options);
  EXPECT_EQ(static_cast<uint8_t>(payload[0]), kTypeHashListpack);
  ASSERT_TRUE(VerifyDumpPayload(payload, false));
  auto back = DecodeDumpPayload(payload, options);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->hash().Get("f"), std::optional<std::string_view>("v"));

  std::string flipped = payload;
  flipped[3] = static_cast<char>(flipped[3] ^ 0x40);
  EXPECT_FALSE(VerifyDumpPayload(flipped, false));
  EXPECT_TRUE(VerifyDumpPayload(flipped, /*skip_checksum=*/true));
  EXPECT_FALSE(DecodeDumpPayload(flipped, options).has_value());  // its listpack is broken
  EXPECT_FALSE(VerifyDumpPayload("short", false));
  std::string future = payload;
  future[future.size() - 10] = 11;  // RDB version 11
  EXPECT_FALSE(VerifyDumpPayload(future, true));
}

TEST(DumpPayloadTest, EmptyCollectionsAreRefused) {
  RdbWriter w;
  w.Length(0);
  RdbReader r(w.out());
  EXPECT_FALSE(DecodeValue(kTypeSet, r, ValueOptions{}).has_value());
  RdbReader streams(std::string_view("\x00", 1));
  EXPECT_THROW(DecodeValue(kTypeStreamListpacks2, streams, ValueOptions{}), RdbCorrupt);
}

TEST(DumpPayloadTest, StreamGroupsRoundTrip) {
  server::Object o = server::Object::NewStream();
  server::StreamValue& s = o.stream();
  s.Append({1, 1}, {"a", "1"}, {});
  s.Append({2, 1}, {"b", "2"}, {});
  server::StreamGroup* g = s.CreateGroup("g", {2, 1}, 2);
  s.CreateGroup("empty", {0, 0}, server::kInvalidEntriesRead);
  server::StreamConsumer* alice = g->CreateConsumer("alice", 1700000000123);
  g->CreateConsumer("idle", 1700000000456);
  server::StreamNack& nack = g->pel()[{1, 1}];
  nack.delivery_time = 1700000000000;
  nack.delivery_count = 3;
  server::StreamGroup::Assign({1, 1}, &nack, alice);
  ValueOptions options;
  std::string payload = CreateDumpPayload(o, options);
  auto back = DecodeDumpPayload(payload, options);
  ASSERT_TRUE(back.has_value());
  const server::StreamValue& t = back->stream();
  ASSERT_EQ(t.groups().size(), 2u);
  const server::StreamGroup& bg = t.groups().at("g");
  EXPECT_EQ(bg.last_id(), (server::StreamId{2, 1}));
  EXPECT_EQ(bg.entries_read(), 2);
  EXPECT_EQ(t.groups().at("empty").entries_read(), server::kInvalidEntriesRead);
  ASSERT_EQ(bg.pel().size(), 1u);
  EXPECT_EQ(bg.pel().at({1, 1}).delivery_time, 1700000000000);
  EXPECT_EQ(bg.pel().at({1, 1}).delivery_count, 3u);
  EXPECT_EQ(bg.pel().at({1, 1}).consumer->name, "alice");
  EXPECT_EQ(bg.consumers().at("idle").seen_time, 1700000000456);
  EXPECT_EQ(CreateDumpPayload(*back, options), payload);
}

// A stream node's listpack is kept as it is, so its layout is checked on loading: a node with no
// entry past its master entry, or an entry whose lp-count does not add up, is refused.
TEST(DumpPayloadTest, StreamNodesAreCheckedBeforeTheyAreKept) {
  auto node = [](int64_t live, int64_t entries, int64_t lp_count) {
    ListpackBuilder lp;
    lp.AppendInteger(live);
    lp.AppendInteger(0);
    lp.AppendInteger(1);
    lp.Append("f");
    lp.AppendInteger(0);
    for (int64_t i = 0; i < entries; ++i) {
      lp.AppendInteger(2);  // SAMEFIELDS
      lp.AppendInteger(i);
      lp.AppendInteger(0);
      lp.Append("v");
      lp.AppendInteger(lp_count);
    }
    RdbWriter w;
    w.Length(1);
    w.String(std::string(16, '\0'));
    w.String(lp.Build());
    w.Length(static_cast<uint64_t>(live));
    for (int i = 0; i < 7; ++i) w.Length(0);  // last, first and max-deleted IDs, entries added
    w.Length(0);                              // no groups
    return w.out();
  };
  std::string good = node(2, 2, 4);
  RdbReader r(good);
  auto value = DecodeValue(kTypeStreamListpacks2, r, ValueOptions{});
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(value->stream().length(), 2u);
  EXPECT_EQ(value->stream().nodes().begin()->second.view().size(), 40u);
  for (const std::string& bad : {node(0, 0, 4), node(2, 2, 5), node(3, 2, 4)}) {
    RdbReader b(bad);
    EXPECT_THROW(DecodeValue(kTypeStreamListpacks2, b, ValueOptions{}), RdbCorrupt);
  }
}

}  // namespace
}  // namespace redlab::server::rdb
