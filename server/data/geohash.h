// Redis's geohash.c and geohash_helper.c: the 52-bit interleaved geohash a GEO member's score
// holds, its decoding, the 3x3 boxes a radius or box search visits, and the haversine distance,
// computed with the same operations in the same order so results match to the last digit.
#pragma once

#include <cstdint>

namespace redlab::server::geo {

inline constexpr int kStepMax = 26;  // 26*2 = 52 bits
inline constexpr double kLatMin = -85.05112878;
inline constexpr double kLatMax = 85.05112878;
inline constexpr double kLongMin = -180;
inline constexpr double kLongMax = 180;

struct HashBits {
  uint64_t bits = 0;
  uint8_t step = 0;
  bool IsZero() const { return bits == 0 && step == 0; }
};

struct Range {
  double min = 0;
  double max = 0;
};

struct Area {
  HashBits hash;
  Range longitude;
  Range latitude;
};

// A search shape: a circle (radius) or a box (width and height), in units of `conversion`
// meters, around xy (longitude, latitude).
struct Shape {
  bool circular = true;
  double xy[2] = {0, 0};
  double conversion = 1;
  double bounds[4] = {0, 0, 0, 0};  // min_lon, min_lat, max_lon, max_lat
  double radius = 0;
  double width = 0;
  double height = 0;
};

// The boxes to search: the centre's and its eight neighbours (zeroed when useless), in the
// order Redis visits them: centre, N, S, E, W, NE, NW, SE, SW.
struct SearchBoxes {
  HashBits boxes[9];
};

// geohashEncode over explicit ranges; false outside them.
bool Encode(const Range& long_range, const Range& lat_range, double longitude, double latitude,
            uint8_t step, HashBits* hash);
bool EncodeWGS84(double longitude, double latitude, uint8_t step, HashBits* hash);
bool Decode(const Range& long_range, const Range& lat_range, const HashBits& hash, Area* area);
// A member's score (52 bits at step 26) back to longitude and latitude (the box's centre).
bool DecodeScore(double score, double* xy);
uint64_t Align52Bits(const HashBits& hash);

SearchBoxes BoxesForShape(Shape* shape);

double Distance(double lon1d, double lat1d, double lon2d, double lat2d);
// geoWithinShape after decoding: whether (x2, y2) is inside the shape, and its distance.
bool DistanceIfInRadius(double x1, double y1, double x2, double y2, double radius,
                        double* distance);
bool DistanceIfInRectangle(double width_m, double height_m, double x1, double y1, double x2,
                           double y2, double* distance);

}  // namespace redlab::server::geo
