#include "server/data/geohash.h"

#include <gtest/gtest.h>

#include <cmath>

namespace redlab::server::geo {
namespace {

uint64_t Score(double lon, double lat) {
  HashBits hash;
  EXPECT_TRUE(EncodeWGS84(lon, lat, kStepMax, &hash));
  return Align52Bits(hash);
}

// Scores and positions as redis-server 7.0.15 gives them (GEOADD, ZSCORE, GEOPOS, GEODIST).
TEST(GeoHashTest, EncodeAndDecodeAsRedis) {
  EXPECT_EQ(Score(13.361389, 38.115556), 3479099956230698u);
  EXPECT_EQ(Score(15.087269, 37.502669), 3479447370796909u);
  EXPECT_EQ(Score(0, 0), 3377699720527872u);
  EXPECT_EQ(Score(180, 85.05112878), 13510798882111488u);
  EXPECT_EQ(Score(-180, -85.05112878), 0u);
  HashBits out;
  EXPECT_FALSE(EncodeWGS84(181, 0, kStepMax, &out));
  EXPECT_FALSE(EncodeWGS84(0, 86, kStepMax, &out));
  double xy[2];
  ASSERT_TRUE(DecodeScore(3479099956230698.0, xy));
  EXPECT_DOUBLE_EQ(xy[0], 13.36138933897018433);
  EXPECT_DOUBLE_EQ(xy[1], 38.11555639549629859);
  ASSERT_TRUE(DecodeScore(0, xy));  // the south-west corner's cell
  EXPECT_DOUBLE_EQ(xy[0], -179.99999731779098511);
  EXPECT_DOUBLE_EQ(xy[1], -85.05112751263942528);
}

TEST(GeoHashTest, HaversineAsRedis) {
  double a[2], b[2];
  ASSERT_TRUE(DecodeScore(3479099956230698.0, a));
  ASSERT_TRUE(DecodeScore(3479447370796909.0, b));
  EXPECT_NEAR(Distance(a[0], a[1], b[0], b[1]), 166274.1516, 0.00005);
  double d = 0;
  EXPECT_TRUE(DistanceIfInRadius(a[0], a[1], b[0], b[1], 200000, &d));
  EXPECT_FALSE(DistanceIfInRadius(a[0], a[1], b[0], b[1], 100000, &d));
  EXPECT_TRUE(DistanceIfInRectangle(400000, 400000, a[0], a[1], b[0], b[1], &d));
  EXPECT_FALSE(DistanceIfInRectangle(400000, 10000, a[0], a[1], b[0], b[1], &d));
}

TEST(GeoHashTest, SearchBoxesCoverTheShape) {
  Shape shape;
  shape.xy[0] = 15;
  shape.xy[1] = 37;
  shape.radius = 200;
  shape.conversion = 1000;
  SearchBoxes boxes = BoxesForShape(&shape);
  EXPECT_FALSE(boxes.boxes[0].IsZero());
  EXPECT_LT(shape.bounds[0], 15);
  EXPECT_GT(shape.bounds[2], 15);
  EXPECT_NEAR(shape.bounds[3] - shape.bounds[1], 2 * 200000 / 6372797.560856 * 180 / M_PI, 1e-9);
  // The box holding the centre contains its score.
  uint64_t centre = Score(15, 37);
  HashBits next = boxes.boxes[0];
  next.bits++;
  EXPECT_GE(centre, Align52Bits(boxes.boxes[0]));
  EXPECT_LT(centre, Align52Bits(next));
}

}  // namespace
}  // namespace redlab::server::geo
