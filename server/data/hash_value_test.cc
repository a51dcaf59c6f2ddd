// HashValue on its own: the packed (listpack-like) encoding, its one-way conversion to a hash
// table by Redis's limits, and what a one-field Redisson lock costs in memory.
#include "server/data/hash_value.h"

#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "server/data/keyspace.h"

namespace redlab::server {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

Pairs All(const HashValue& h) {
  Pairs out;
  h.ForEach([&](std::string_view f, std::string_view v) { out.emplace_back(f, v); });
  return out;
}

TEST(HashValueTest, EmptyHash) {
  HashValue h;
  EXPECT_EQ(h.size(), 0u);
  EXPECT_TRUE(h.empty());
  EXPECT_EQ(h.encoding(), HashValue::Encoding::kListpack);
  EXPECT_FALSE(h.Get("a").has_value());
  EXPECT_FALSE(h.Delete("a"));
  EXPECT_TRUE(All(h).empty());
  EXPECT_EQ(h.MemoryBytes(), 0u);
}

TEST(HashValueTest, SmallHashKeepsInsertionOrder) {
  HashValue h;
  ListpackLimits limits;
  EXPECT_TRUE(h.Set("b", "1", limits));
  EXPECT_TRUE(h.Set("a", "2", limits));
  EXPECT_TRUE(h.Set("c", "3", limits));
  EXPECT_FALSE(h.Set("a", "22", limits));  // an update keeps the field's place
  EXPECT_EQ(All(h), (Pairs{{"b", "1"}, {"a", "22"}, {"c", "3"}}));
  EXPECT_EQ(h.size(), 3u);
  EXPECT_EQ(h.Get("a"), "22");
  EXPECT_TRUE(h.Contains("c"));
  EXPECT_FALSE(h.Contains("d"));
  EXPECT_EQ(h.encoding(), HashValue::Encoding::kListpack);
}

TEST(HashValueTest, ValueUpdatesGrowAndShrinkInPlace) {
  HashValue h;
  ListpackLimits limits;
  h.Set("first", "x", limits);
  h.Set("middle", "y", limits);
  h.Set("last", "z", limits);
  h.Set("middle", std::string(60, 'm'), limits);
  EXPECT_EQ(All(h), (Pairs{{"first", "x"}, {"middle", std::string(60, 'm')}, {"last", "z"}}));
  h.Set("middle", "", limits);
  EXPECT_EQ(All(h), (Pairs{{"first", "x"}, {"middle", ""}, {"last", "z"}}));
  h.Set("first", "1234567890", limits);
  EXPECT_EQ(All(h), (Pairs{{"first", "1234567890"}, {"middle", ""}, {"last", "z"}}));
}

TEST(HashValueTest, BinaryAndLongLengths) {
  HashValue h;
  ListpackLimits limits{.max_entries = 512, .max_value = 100000};
  std::string binary("a\0b\r\n\xff", 6);
  std::string long_value(300, 'v');      // a two-byte length
  std::string longer_value(20000, 'w');  // a three-byte length
  h.Set(binary, long_value, limits);
  h.Set("", longer_value, limits);
  h.Set("k", "", limits);
  EXPECT_EQ(h.encoding(), HashValue::Encoding::kListpack);
  EXPECT_EQ(All(h), (Pairs{{binary, long_value}, {"", longer_value}, {"k", ""}}));
  EXPECT_EQ(h.Get(std::string("a\0b", 3)), std::nullopt);
  EXPECT_TRUE(h.Delete(binary));
  EXPECT_EQ(All(h), (Pairs{{"", longer_value}, {"k", ""}}));
}

TEST(HashValueTest, DeleteKeepsOrderAndEmpties) {
  HashValue h;
  ListpackLimits limits;
  for (int i = 0; i < 5; ++i) h.Set("f" + std::to_string(i), std::to_string(i), limits);
  EXPECT_TRUE(h.Delete("f2"));
  EXPECT_FALSE(h.Delete("f2"));
  EXPECT_TRUE(h.Delete("f0"));
  EXPECT_TRUE(h.Delete("f4"));
  EXPECT_EQ(All(h), (Pairs{{"f1", "1"}, {"f3", "3"}}));
  EXPECT_TRUE(h.Delete("f1"));
  EXPECT_TRUE(h.Delete("f3"));
  EXPECT_TRUE(h.empty());
  EXPECT_EQ(h.MemoryBytes(), 0u);
  h.Set("again", "1", limits);
  EXPECT_EQ(All(h), (Pairs{{"again", "1"}}));
}

TEST(HashValueTest, ConvertsPastMaxEntries) {
  HashValue h;
  ListpackLimits limits{.max_entries = 4, .max_value = 64};
  for (int i = 0; i < 4; ++i) h.Set("f" + std::to_string(i), "v", limits);
  EXPECT_EQ(h.encoding(), HashValue::Encoding::kListpack);
  h.Set("f0", "updated", limits);  // an update does not add an entry
  EXPECT_EQ(h.encoding(), HashValue::Encoding::kListpack);
  h.Set("f4", "v", limits);
  EXPECT_EQ(h.encoding(), HashValue::Encoding::kHashtable);
  EXPECT_EQ(h.size(), 5u);
  EXPECT_EQ(h.Get("f0"), "updated");
  // One way: shrinking does not go back.
  for (int i = 1; i < 5; ++i) h.Delete("f" + std::to_string(i));
  EXPECT_EQ(h.encoding(), HashValue::Encoding::kHashtable);
  EXPECT_EQ(All(h), (Pairs{{"f0", "updated"}}));
}

TEST(HashValueTest, ConvertsOnLongFieldOrValue) {
  ListpackLimits limits{.max_entries = 512, .max_value = 8};
  HashValue a;
  a.Set("f", std::string(8, 'x'), limits);  // at the limit: stays small
  EXPECT_EQ(a.encoding(), HashValue::Encoding::kListpack);
  a.Set("g", std::string(9, 'x'), limits);
  EXPECT_EQ(a.encoding(), HashValue::Encoding::kHashtable);
  EXPECT_EQ(a.Get("f"), std::string(8, 'x'));
  EXPECT_EQ(a.Get("g"), std::string(9, 'x'));

  HashValue b;
  b.Set(std::string(9, 'f'), "v", limits);
  EXPECT_EQ(b.encoding(), HashValue::Encoding::kHashtable);
}

TEST(HashValueTest, ConvertForWriteChecksEveryArgument) {
  ListpackLimits limits{.max_entries = 512, .max_value = 8};
  HashValue h;
  h.Set("a", "1", limits);
  std::vector<std::string> short_args = {"b", "2", "c", "12345678"};
  h.ConvertForWrite(short_args, limits);
  EXPECT_EQ(h.encoding(), HashValue::Encoding::kListpack);
  std::vector<std::string> long_args = {"b", "2", "c", "123456789"};
  h.ConvertForWrite(long_args, limits);
  EXPECT_EQ(h.encoding(), HashValue::Encoding::kHashtable);
  EXPECT_EQ(All(h), (Pairs{{"a", "1"}}));
}

TEST(HashValueTest, ConversionKeepsEveryPair) {
  ListpackLimits limits{.max_entries = 100, .max_value = 64};
  HashValue h;
  std::map<std::string, std::string> expected;
  for (int i = 0; i < 100; ++i) {
    std::string f = "field:" + std::to_string(i);
    std::string v = std::string(i % 7, 'x') + std::to_string(i * i);
    h.Set(f, v, limits);
    expected[f] = v;
  }
  ASSERT_EQ(h.encoding(), HashValue::Encoding::kListpack);
  h.Set("one more", "v", limits);
  expected["one more"] = "v";
  ASSERT_EQ(h.encoding(), HashValue::Encoding::kHashtable);
  Pairs all = All(h);
  std::map<std::string, std::string> got(all.begin(), all.end());
  EXPECT_EQ(got, expected);
  for (const auto& [f, v] : expected) EXPECT_EQ(h.Get(f), v);
}

TEST(HashValueTest, ScanOfSmallHashIsWholeWithCursorZero) {
  ListpackLimits limits;
  HashValue h;
  h.Set("a", "1", limits);
  h.Set("b", "2", limits);
  Pairs seen;
  uint64_t next =
      h.Scan(12345, [&](std::string_view f, std::string_view v) { seen.emplace_back(f, v); });
  EXPECT_EQ(next, 0u);
  EXPECT_EQ(seen, (Pairs{{"a", "1"}, {"b", "2"}}));
}

TEST(HashValueTest, ScanOfHashTableVisitsEveryField) {
  ListpackLimits limits{.max_entries = 4, .max_value = 64};
  HashValue h;
  for (int i = 0; i < 200; ++i) h.Set(std::to_string(i), "v", limits);
  std::set<std::string> seen;
  uint64_t cursor = 0;
  int calls = 0;
  do {
    cursor = h.Scan(cursor, [&](std::string_view f, std::string_view) { seen.emplace(f); });
    ++calls;
  } while (cursor != 0);
  EXPECT_EQ(seen.size(), 200u);
  EXPECT_GT(calls, 1);
}

TEST(HashValueTest, RandomReturnsMembers) {
  std::mt19937_64 rng(7);
  for (size_t max_entries : {size_t{512}, size_t{2}}) {
    ListpackLimits limits{.max_entries = max_entries, .max_value = 64};
    HashValue h;
    for (int i = 0; i < 5; ++i) h.Set("f" + std::to_string(i), "v" + std::to_string(i), limits);
    std::set<std::string> fields;
    for (int i = 0; i < 200; ++i) {
      auto [f, v] = h.Random(rng);
      EXPECT_EQ(h.Get(f), v);
      fields.emplace(f);
    }
    EXPECT_EQ(fields.size(), 5u);  // 200 draws of 5 miss none (p < 1e-18)
  }
}

TEST(HashValueTest, MoveTransfersOwnership) {
  ListpackLimits limits;
  HashValue a;
  a.Set("f", "v", limits);
  HashValue b(std::move(a));
  EXPECT_EQ(b.Get("f"), "v");
  HashValue c;
  c.Set("x", "y", limits);
  c = std::move(b);
  EXPECT_EQ(All(c), (Pairs{{"f", "v"}}));
}

// Heap bytes in use, as malloc counts them (chunk headers and rounding included).
size_t HeapInUse() { return mallinfo2().uordblks; }

std::string LockField(int i) {
  char field[64];
  std::snprintf(field, sizeof(field), "d3b07384-d9a0-4c9f-a1b2-%012d:1", i);
  return field;
}

// A held Redisson lock: a one-field hash, field "<uuid>:<thread>", value "1". Redis keeps it in
// a listpack; so do we, in one block sized to it.
TEST(HashValueTest, LockHashIsOneSmallBlock) {
  constexpr int kLocks = 10000;
  ListpackLimits limits;
  std::vector<std::string> fields;
  for (int i = 0; i < kLocks; ++i) fields.push_back(LockField(i));
  std::vector<HashValue> locks(kLocks);
  size_t before = HeapInUse();
  for (int i = 0; i < kLocks; ++i) locks[i].Set(fields[i], "1", limits);
  size_t per_lock = (HeapInUse() - before) / kLocks;
  std::printf("[ measured ] heap bytes per one-field lock hash: %zu (HashValue itself: %zu)\n",
              per_lock, sizeof(HashValue));
  EXPECT_LE(per_lock, 64u);
  // Re-entry (HINCRBY 1 -> 2) rewrites the value in place: no new memory.
  size_t after_set = HeapInUse();
  for (int i = 0; i < kLocks; ++i) locks[i].Set(fields[i], "2", limits);
  EXPECT_EQ(HeapInUse(), after_set);
  EXPECT_EQ(locks[0].Get(fields[0]), "2");
}

// The whole key of a held lock in the keyspace: entry, key, hash and TTL. redis-server 7.0
// uses about 181 bytes per such key (used_memory over 100k HSET + PEXPIRE).
TEST(HashValueTest, LockKeyInKeyspace) {
  constexpr int kLocks = 10000;
  ListpackLimits limits;
  Clock clock;
  Keyspace keyspace(&clock, 1);
  Db& db = keyspace.db(0);
  std::vector<std::string> keys, fields;
  for (int i = 0; i < kLocks; ++i) {
    keys.push_back("lock:" + std::to_string(i));
    fields.push_back(LockField(i));
  }
  size_t before = HeapInUse();
  for (int i = 0; i < kLocks; ++i) {
    Db::Node* node = db.Add(keys[i], Object::NewHash());
    node->value.value.hash().Set(fields[i], "1", limits);
    db.SetExpire(node, 4102444800000);
  }
  size_t per_lock = (HeapInUse() - before) / kLocks;
  std::printf("[ measured ] heap bytes per lock key (entry + key + hash + TTL): %zu\n", per_lock);
  EXPECT_LE(per_lock, 220u);
}

}  // namespace
}  // namespace redlab::server
