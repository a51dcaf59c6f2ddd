#include "server/data/bitmap.h"

#include <gtest/gtest.h>

#include <string>

namespace redlab::server::bitmap {
namespace {

TEST(BitmapTest, PopCountAcrossWordsAndTail) {
  EXPECT_EQ(PopCount(""), 0u);
  EXPECT_EQ(PopCount("\xff"), 8u);
  std::string s(19, '\x01');  // two whole words and a 3-byte tail
  EXPECT_EQ(PopCount(s), 19u);
  s[18] = '\x0f';
  EXPECT_EQ(PopCount(s), 22u);
}

TEST(BitmapTest, FirstBitFindsOnesAndZeros) {
  EXPECT_EQ(FirstBit("", 1), -1);
  EXPECT_EQ(FirstBit("", 0), 0);
  EXPECT_EQ(FirstBit(std::string(3, '\0'), 1), -1);
  EXPECT_EQ(FirstBit(std::string(3, '\xff'), 0), 24);  // the zeros after the string
  std::string s(20, '\0');
  s[17] = '\x10';
  EXPECT_EQ(FirstBit(s, 1), 17 * 8 + 3);
  EXPECT_EQ(FirstBit(s, 0), 0);
  std::string ones(20, '\xff');
  ones[9] = '\xfe';
  EXPECT_EQ(FirstBit(ones, 0), 9 * 8 + 7);
}

TEST(BitmapTest, FieldsReadAndWriteAtAnyOffset) {
  std::string s(2, '\0');
  auto* p = reinterpret_cast<unsigned char*>(s.data());
  // Redis's own example: a 5-bit 23 at offset 7 is 00000001 01110000.
  SetBits(p, 7, 5, 23);
  EXPECT_EQ(static_cast<unsigned char>(s[0]), 0x01);
  EXPECT_EQ(static_cast<unsigned char>(s[1]), 0x70);
  EXPECT_EQ(GetUnsigned(s, 7, 5), 23u);
  EXPECT_EQ(GetSigned(s, 7, 5), -9);
  EXPECT_EQ(GetUnsigned(s, 12, 8), 0u);  // past the end reads zeros
  EXPECT_EQ(GetSigned(std::string(8, '\xff'), 0, 64), -1);
}

TEST(BitmapTest, UnsignedOverflow) {
  uint64_t limit = 0;
  EXPECT_EQ(CheckUnsignedOverflow(250, 5, 8, Overflow::kWrap, &limit), 0);
  EXPECT_EQ(CheckUnsignedOverflow(250, 10, 8, Overflow::kWrap, &limit), 1);
  EXPECT_EQ(limit, 4u);
  EXPECT_EQ(CheckUnsignedOverflow(250, 10, 8, Overflow::kSat, &limit), 1);
  EXPECT_EQ(limit, 255u);
  EXPECT_EQ(CheckUnsignedOverflow(3, -5, 8, Overflow::kSat, &limit), -1);
  EXPECT_EQ(limit, 0u);
  EXPECT_EQ(CheckUnsignedOverflow(3, -5, 8, Overflow::kWrap, &limit), 1);
  EXPECT_EQ(limit, 254u);
  // SET of a negative value: seen as a huge unsigned one, so it overflows upwards.
  EXPECT_EQ(CheckUnsignedOverflow(static_cast<uint64_t>(-1), 0, 8, Overflow::kSat, &limit), 1);
  EXPECT_EQ(limit, 255u);
}

TEST(BitmapTest, SignedOverflow) {
  int64_t limit = 0;
  EXPECT_EQ(CheckSignedOverflow(120, 7, 8, Overflow::kWrap, &limit), 0);
  EXPECT_EQ(CheckSignedOverflow(120, 8, 8, Overflow::kWrap, &limit), 1);
  EXPECT_EQ(limit, -128);
  EXPECT_EQ(CheckSignedOverflow(-120, -9, 8, Overflow::kSat, &limit), -1);
  EXPECT_EQ(limit, -128);
  EXPECT_EQ(CheckSignedOverflow(INT64_MAX, 1, 64, Overflow::kSat, &limit), 1);
  EXPECT_EQ(limit, INT64_MAX);
  EXPECT_EQ(CheckSignedOverflow(INT64_MIN, -1, 64, Overflow::kWrap, &limit), 1);
  EXPECT_EQ(limit, INT64_MAX);
  // Redis's wrapping differences make a far-below-range value "overflow" upwards.
  EXPECT_EQ(CheckSignedOverflow(INT64_MIN, 0, 8, Overflow::kSat, &limit), 1);
  EXPECT_EQ(limit, 127);
}

}  // namespace
}  // namespace redlab::server::bitmap
