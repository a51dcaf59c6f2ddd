// ListValue on its own: Redis's index and range arithmetic, LREM, LTRIM and LPOS semantics.
#include "server/data/list_value.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/data/object.h"

namespace redlab::server {
namespace {

using End = ListValue::End;

ListValue Make(std::vector<std::string> items) {
  ListValue l;
  for (const auto& s : items) l.Push(End::kTail, s);
  return l;
}

std::vector<std::string> Items(const ListValue& l) {
  std::vector<std::string> out;
  if (!l.empty())
    l.ForEach(0, l.size() - 1, false, [&](std::string_view v) { out.emplace_back(v); });
  return out;
}

TEST(ListValueTest, PushPopBothEnds) {
  ListValue l;
  l.Push(End::kHead, "b");
  l.Push(End::kHead, "a");
  l.Push(End::kTail, "c");
  EXPECT_EQ(Items(l), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(l.Pop(End::kTail), "c");
  EXPECT_EQ(l.Pop(End::kHead), "a");
  EXPECT_EQ(Items(l), (std::vector<std::string>{"b"}));
}

TEST(ListValueTest, ResolveIndex) {
  size_t pos = 99;
  EXPECT_TRUE(ListValue::ResolveIndex(0, 3, &pos));
  EXPECT_EQ(pos, 0u);
  EXPECT_TRUE(ListValue::ResolveIndex(-1, 3, &pos));
  EXPECT_EQ(pos, 2u);
  EXPECT_TRUE(ListValue::ResolveIndex(-3, 3, &pos));
  EXPECT_EQ(pos, 0u);
  EXPECT_FALSE(ListValue::ResolveIndex(3, 3, &pos));
  EXPECT_FALSE(ListValue::ResolveIndex(-4, 3, &pos));
  EXPECT_FALSE(ListValue::ResolveIndex(INT64_MIN, 3, &pos));
  EXPECT_FALSE(ListValue::ResolveIndex(INT64_MAX, 3, &pos));
  EXPECT_FALSE(ListValue::ResolveIndex(0, 0, &pos));
}

TEST(ListValueTest, ResolveRangeClampsAsLrange) {
  size_t first = 0, last = 0;
  ASSERT_TRUE(ListValue::ResolveRange(0, -1, 5, &first, &last));
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(last, 4u);
  ASSERT_TRUE(ListValue::ResolveRange(-100, 100, 5, &first, &last));
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(last, 4u);
  ASSERT_TRUE(ListValue::ResolveRange(-2, -1, 5, &first, &last));
  EXPECT_EQ(first, 3u);
  EXPECT_EQ(last, 4u);
  EXPECT_FALSE(ListValue::ResolveRange(3, 2, 5, &first, &last));
  EXPECT_FALSE(ListValue::ResolveRange(5, 10, 5, &first, &last));
  EXPECT_FALSE(ListValue::ResolveRange(0, -6, 5, &first, &last));
  EXPECT_FALSE(ListValue::ResolveRange(INT64_MIN, INT64_MIN, 5, &first, &last));
  ASSERT_TRUE(ListValue::ResolveRange(INT64_MIN, INT64_MAX, 5, &first, &last));
  EXPECT_EQ(last, 4u);
}

TEST(ListValueTest, RemoveFromHeadTailOrAll) {
  ListValue l = Make({"a", "b", "a", "c", "a"});
  EXPECT_EQ(l.Remove("a", 1), 1u);
  EXPECT_EQ(Items(l), (std::vector<std::string>{"b", "a", "c", "a"}));
  EXPECT_EQ(l.Remove("a", -1), 1u);
  EXPECT_EQ(Items(l), (std::vector<std::string>{"b", "a", "c"}));
  l = Make({"a", "b", "a", "a"});
  EXPECT_EQ(l.Remove("a", 0), 3u);
  EXPECT_EQ(Items(l), (std::vector<std::string>{"b"}));
  l = Make({"a", "a"});
  EXPECT_EQ(l.Remove("a", INT64_MIN), 2u);
  EXPECT_EQ(l.Remove("z", 0), 0u);
}

TEST(ListValueTest, TrimKeepsTheRange) {
  ListValue l = Make({"0", "1", "2", "3", "4"});
  EXPECT_EQ(l.Trim(1, -2), 2u);
  EXPECT_EQ(Items(l), (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(l.Trim(0, -1), 0u);
  EXPECT_EQ(l.Trim(5, 10), 3u);
  EXPECT_TRUE(l.empty());
}

TEST(ListValueTest, PositionsFollowLposRules) {
  ListValue l = Make({"a", "b", "c", "a", "b", "c", "a"});
  using V = std::vector<int64_t>;
  EXPECT_EQ(l.Positions("a", 1, 1, 0), V{0});
  EXPECT_EQ(l.Positions("a", 2, 1, 0), V{3});
  EXPECT_EQ(l.Positions("a", -1, 1, 0), V{6});
  EXPECT_EQ(l.Positions("a", 1, 0, 0), (V{0, 3, 6}));
  EXPECT_EQ(l.Positions("a", -2, 2, 0), (V{3, 0}));
  EXPECT_EQ(l.Positions("a", 1, 0, 3), V{0});
  EXPECT_EQ(l.Positions("a", 4, 0, 0), V{});
  EXPECT_EQ(l.Positions("z", 1, 0, 0), V{});
  // Rank LONG_MIN: every match counts and COUNT never stops the scan, as in Redis.
  EXPECT_EQ(l.Positions("a", INT64_MIN, 1, 0), (V{6, 3, 0}));
  EXPECT_EQ(l.Positions("a", INT64_MIN, 1, 5), (V{6, 3}));
}

TEST(ListValueTest, InsertAndErase) {
  ListValue l = Make({"a", "c"});
  l.Insert(1, "b");
  l.Insert(3, "d");
  EXPECT_EQ(Items(l), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(l.Find("c"), 2u);
  EXPECT_EQ(l.Find("z"), std::string::npos);
  l.Erase(End::kHead, 1);
  l.Erase(End::kTail, 2);
  EXPECT_EQ(Items(l), (std::vector<std::string>{"b"}));
  l.Erase(End::kTail, 10);
  EXPECT_TRUE(l.empty());
}

TEST(ListValueTest, ObjectTypeAndEncoding) {
  Object o = Object::NewList();
  EXPECT_EQ(o.type(), ObjectType::kList);
  EXPECT_EQ(TypeName(o.type()), "list");
  // Redis 7.0 names every list "quicklist", however short (7.2 added "listpack" for lists).
  EXPECT_EQ(o.EncodingName(), "quicklist");
  for (int i = 0; i < 1000; ++i) o.list().Push(End::kTail, std::string(100, 'x'));
  EXPECT_EQ(o.EncodingName(), "quicklist");
  EXPECT_GT(o.MemoryBytes(), 100000u);
}

}  // namespace
}  // namespace redlab::server
