#include "server/base/dict.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

namespace redlab::server {
namespace {

TEST(DictTest, InsertFindErase) {
  Dict<int> d;
  for (int i = 0; i < 1000; ++i) d.Insert("k" + std::to_string(i), i);
  EXPECT_EQ(d.size(), 1000u);
  for (int i = 0; i < 1000; ++i) {
    auto* n = d.Find("k" + std::to_string(i));
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->value, i);
  }
  EXPECT_EQ(d.Find("missing"), nullptr);
  for (int i = 0; i < 990; ++i) EXPECT_TRUE(d.Erase("k" + std::to_string(i)));
  EXPECT_FALSE(d.Erase("k0"));
  EXPECT_EQ(d.size(), 10u);
  EXPECT_LE(d.bucket_count(), 32u);  // shrank
}

TEST(DictTest, ScanVisitsEveryKeyEvenAcrossResizes) {
  Dict<int> d;
  for (int i = 0; i < 500; ++i) d.Insert(std::to_string(i), i);
  std::set<std::string> seen;
  uint64_t cursor = 0;
  int steps = 0;
  do {
    cursor = d.Scan(cursor, [&](const Dict<int>::Node* n) { seen.insert(std::string(n->key())); });
    // Grow the table in the middle of the scan, then shrink it: nothing present throughout may
    // be missed.
    if (++steps == 50) {
      for (int i = 500; i < 3000; ++i) d.Insert(std::to_string(i), i);
    }
    if (steps == 200) {
      for (int i = 500; i < 3000; ++i) d.Erase(std::to_string(i));
    }
  } while (cursor != 0);
  for (int i = 0; i < 500; ++i) EXPECT_TRUE(seen.count(std::to_string(i))) << i;
}

TEST(DictTest, RandomReturnsMembers) {
  Dict<int> d;
  std::mt19937_64 rng(1);
  EXPECT_EQ(d.Random(rng), nullptr);
  for (int i = 0; i < 20; ++i) d.Insert(std::to_string(i), i);
  std::set<int> seen;
  for (int i = 0; i < 2000; ++i) seen.insert(d.Random(rng)->value);
  EXPECT_EQ(seen.size(), 20u);
}

// Redis's own suite checks HRANDFIELD's uniformity with a chi-square bound; chains of unequal
// length must not make some nodes likelier than others.
TEST(DictTest, RandomIsUniformOverASmallTable) {
  for (int size : {7, 10, 13, 30}) {
    Dict<int> d;
    for (int i = 0; i < size; ++i) d.Insert("member:" + std::to_string(i), i);
    std::mt19937_64 rng(7);
    std::vector<int> hits(size);
    const int draws = 1000 * size;
    for (int i = 0; i < draws; ++i) ++hits[d.Random(rng)->value];
    double chi_square = 0;
    for (int h : hits) chi_square += (h - 1000.0) * (h - 1000.0) / 1000.0;
    // df = size - 1; these bounds are far in the tail (p < 1e-5) of the chi-square distribution.
    EXPECT_LT(chi_square, 3.0 * size + 20) << "size " << size;
  }
}

}  // namespace
}  // namespace redlab::server
