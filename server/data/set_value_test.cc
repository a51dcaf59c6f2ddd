// SetValue on its own: the intset encoding (sorted, integers only, bounded) and its one-way
// conversion to a hash table.
#include "server/data/set_value.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "server/data/object.h"

namespace redlab::server {
namespace {

using Encoding = SetValue::Encoding;

std::vector<std::string> Members(const SetValue& s) {
  std::vector<std::string> out;
  s.ForEach([&](std::string_view m) { out.emplace_back(m); });
  return out;
}

TEST(SetValueTest, CreateForPicksTheEncodingOfTheFirstMember) {
  EXPECT_EQ(SetValue::CreateFor("12")->encoding(), Encoding::kIntset);
  EXPECT_EQ(SetValue::CreateFor("-9223372036854775808")->encoding(), Encoding::kIntset);
  EXPECT_EQ(SetValue::CreateFor("9223372036854775808")->encoding(), Encoding::kHashtable);
  EXPECT_EQ(SetValue::CreateFor("a")->encoding(), Encoding::kHashtable);
  // Only Redis's canonical integers: no sign, no leading zero, no "-0".
  EXPECT_EQ(SetValue::CreateFor("+1")->encoding(), Encoding::kHashtable);
  EXPECT_EQ(SetValue::CreateFor("01")->encoding(), Encoding::kHashtable);
  EXPECT_EQ(SetValue::CreateFor("-0")->encoding(), Encoding::kHashtable);
}

TEST(SetValueTest, IntsetIteratesAscending) {
  SetValue s;
  for (const char* m : {"5", "-3", "100", "0", "5"}) s.Add(m, 512);
  EXPECT_EQ(s.size(), 4u);
  EXPECT_EQ(s.encoding(), Encoding::kIntset);
  EXPECT_EQ(Members(s), (std::vector<std::string>{"-3", "0", "5", "100"}));
  EXPECT_TRUE(s.Contains("100"));
  EXPECT_FALSE(s.Contains("0100"));
  EXPECT_FALSE(s.Contains("x"));
  EXPECT_FALSE(s.Remove("x"));
  EXPECT_TRUE(s.Remove("0"));
  EXPECT_FALSE(s.Remove("0"));
  EXPECT_EQ(Members(s), (std::vector<std::string>{"-3", "5", "100"}));
}

TEST(SetValueTest, NonIntegerMemberConvertsForGood) {
  SetValue s;
  s.Add("1", 512);
  s.Add("2", 512);
  EXPECT_TRUE(s.Add("x", 512));
  EXPECT_EQ(s.encoding(), Encoding::kHashtable);
  EXPECT_TRUE(s.Contains("1"));
  EXPECT_TRUE(s.Contains("x"));
  EXPECT_TRUE(s.Remove("x"));
  EXPECT_EQ(s.encoding(), Encoding::kHashtable);  // one way
  auto m = Members(s);
  std::sort(m.begin(), m.end());
  EXPECT_EQ(m, (std::vector<std::string>{"1", "2"}));
}

TEST(SetValueTest, GrowingPastTheLimitConverts) {
  SetValue s;
  for (int i = 0; i < 4; ++i) s.Add(std::to_string(i), 4);
  EXPECT_EQ(s.encoding(), Encoding::kIntset);
  EXPECT_FALSE(s.Add("3", 4));
  EXPECT_EQ(s.encoding(), Encoding::kIntset);
  EXPECT_TRUE(s.Add("4", 4));
  EXPECT_EQ(s.encoding(), Encoding::kHashtable);
  EXPECT_EQ(s.size(), 5u);
  SetValue zero;
  zero.Add("1", 0);
  EXPECT_EQ(zero.encoding(), Encoding::kHashtable);
}

TEST(SetValueTest, RandomAndScanCoverEveryMember) {
  std::mt19937_64 rng(7);
  for (bool ints : {true, false}) {
    SetValue s;
    for (int i = 0; i < 50; ++i) s.Add(ints ? std::to_string(i) : "m" + std::to_string(i), 512);
    std::set<std::string> seen;
    for (int i = 0; i < 5000; ++i) seen.insert(s.Random(rng));
    EXPECT_EQ(seen.size(), 50u);
    std::set<std::string> scanned;
    uint64_t cursor = 0;
    do {
      cursor = s.Scan(cursor, [&](std::string_view m) { scanned.emplace(m); });
    } while (cursor != 0);
    EXPECT_EQ(scanned.size(), 50u);
  }
}

TEST(SetValueTest, ObjectTypeAndEncoding) {
  Object o = Object::FromSet(SetValue::CreateFor("1"));
  EXPECT_EQ(o.type(), ObjectType::kSet);
  EXPECT_EQ(TypeName(o.type()), "set");
  o.set().Add("1", 512);
  EXPECT_EQ(o.EncodingName(), "intset");
  o.set().Add("x", 512);
  EXPECT_EQ(o.EncodingName(), "hashtable");
  EXPECT_EQ(Object::FromSet(SetValue::CreateFor("x")).EncodingName(), "hashtable");
}

}  // namespace
}  // namespace redlab::server
