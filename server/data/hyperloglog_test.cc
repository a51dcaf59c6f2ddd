#include "server/data/hyperloglog.h"

#include <gtest/gtest.h>

#include <string>

namespace redlab::server::hll {
namespace {

// The registers redis-server 7.0.15 sets for these elements (PFADD then PFDEBUG DECODE there).
TEST(HyperLogLogTest, PatternLengthIsRedisMurmurHash) {
  long index = 0;
  EXPECT_EQ(PatternLength("a", &index), 2);
  EXPECT_EQ(index, 12711);
  EXPECT_EQ(PatternLength("hello", &index), 1);
  EXPECT_EQ(index, 9216);
}

TEST(HyperLogLogTest, SparseSetSplitsAndMergesOpcodes) {
  std::string h = Create();
  EXPECT_EQ(h.size(), kHeaderSize + 2);
  EXPECT_EQ(DecodeSparse(h), "Z:16384");
  EXPECT_EQ(SetRegister(&h, 100, 3, 3000), 1);
  EXPECT_EQ(DecodeSparse(h), "Z:100 v:3,1 Z:16283");
  EXPECT_EQ(SetRegister(&h, 100, 2, 3000), 0);  // a smaller count changes nothing
  EXPECT_EQ(SetRegister(&h, 101, 3, 3000), 1);  // merged with its neighbour of the same value
  EXPECT_EQ(DecodeSparse(h), "Z:100 v:3,2 Z:16282");
  EXPECT_EQ(SetRegister(&h, 99, 1, 3000), 1);
  EXPECT_EQ(DecodeSparse(h), "Z:99 v:1,1 v:3,2 Z:16282");
  bool invalid = false;
  EXPECT_EQ(Count(h, &invalid), 3u);
  EXPECT_FALSE(invalid);
}

TEST(HyperLogLogTest, PromotionAndDenseRegisters) {
  std::string h = Create();
  EXPECT_EQ(SetRegister(&h, 5, 40, 3000), 1);  // above 32: only dense can hold it
  EXPECT_EQ(Encoding(h), kDense);
  EXPECT_EQ(h.size(), kDenseSize);
  EXPECT_EQ(DenseRegister(h, 5), 40);
  EXPECT_EQ(DenseRegister(h, 4), 0);
  EXPECT_EQ(DenseRegister(h, 6), 0);
  std::string s = Create();
  SetRegister(&s, 16383, 7, 18);  // XZERO becomes XZERO VAL: 19 bytes, past 18, promoted
  EXPECT_EQ(Encoding(s), kDense);
  EXPECT_EQ(DenseRegister(s, 16383), 7);
  Registers max{};
  EXPECT_TRUE(MergeInto(&max, h));
  EXPECT_TRUE(MergeInto(&max, s));
  EXPECT_EQ(max[5], 40);
  EXPECT_EQ(max[16383], 7);
}

TEST(HyperLogLogTest, CacheAndCorruption) {
  std::string h = Create();
  uint64_t card = 0;
  EXPECT_FALSE(CachedCount(h, &card) && card != 0);
  StoreCount(&h, 258);
  ASSERT_TRUE(CachedCount(h, &card));
  EXPECT_EQ(card, 258u);
  EXPECT_EQ(h.substr(8, 8), std::string("\x02\x01\0\0\0\0\0\0", 8));
  InvalidateCache(&h);
  EXPECT_FALSE(CachedCount(h, &card));
  h.back() = static_cast<char>(0xfe);  // the run now covers 16383 registers
  bool invalid = false;
  Count(h, &invalid);
  EXPECT_TRUE(invalid);
  EXPECT_FALSE(SparseToDense(&h));
  EXPECT_FALSE(LooksValid("HYLL"));
  EXPECT_FALSE(LooksValid(std::string("HYLL\x02", 5) + std::string(11, '\0')));
  EXPECT_TRUE(LooksValid(Create()));
}

}  // namespace
}  // namespace redlab::server::hll
