// Redis's geohash.c and geohash_helper.c (see geohash.h).
#include "server/data/geohash.h"

#include <cmath>

namespace redlab::server::geo {
namespace {

constexpr double kDegToRad = M_PI / 180.0;
constexpr double kEarthRadiusInMeters = 6372797.560856;
constexpr double kMercatorMax = 20037726.37;

double DegRad(double ang) { return ang * kDegToRad; }
double RadDeg(double ang) { return ang / kDegToRad; }

uint64_t Interleave64(uint32_t xlo, uint32_t ylo) {
  static const uint64_t B[] = {0x5555555555555555ULL, 0x3333333333333333ULL,
                               0x0F0F0F0F0F0F0F0FULL, 0x00FF00FF00FF00FFULL,
                               0x0000FFFF0000FFFFULL};
  static const unsigned int S[] = {1, 2, 4, 8, 16};
  uint64_t x = xlo;
  uint64_t y = ylo;
  for (int i = 4; i >= 0; --i) {
    x = (x | (x << S[i])) & B[i];
    y = (y | (y << S[i])) & B[i];
  }
  return x | (y << 1);
}

uint64_t Deinterleave64(uint64_t interleaved) {
  static const uint64_t B[] = {0x5555555555555555ULL, 0x3333333333333333ULL,
                               0x0F0F0F0F0F0F0F0FULL, 0x00FF00FF00FF00FFULL,
                               0x0000FFFF0000FFFFULL, 0x00000000FFFFFFFFULL};
  static const unsigned int S[] = {0, 1, 2, 4, 8, 16};
  uint64_t x = interleaved;
  uint64_t y = interleaved >> 1;
  for (int i = 0; i < 6; ++i) {
    x = (x | (x >> S[i])) & B[i];
    y = (y | (y >> S[i])) & B[i];
  }
  return x | (y << 32);
}

void CoordRange(Range* long_range, Range* lat_range) {
  *long_range = {kLongMin, kLongMax};
  *lat_range = {kLatMin, kLatMax};
}

// geohash_move_x / geohash_move_y: moves the coordinate whose interleaved bits `mask` selects
// (0xaa.. longitude, 0x55.. latitude) by one cell in the direction of d, leaving the other alone.
void MoveBits(HashBits* hash, int d, uint64_t mask) {
  if (d == 0) return;
  uint64_t moved = hash->bits & mask;
  uint64_t kept = hash->bits & ~mask;
  uint64_t zz = ~mask >> (64 - hash->step * 2);
  if (d > 0) {
    moved = moved + (zz + 1);
  } else {
    moved = moved | zz;
    moved = moved - (zz + 1);
  }
  moved &= (mask >> (64 - hash->step * 2));
  hash->bits = (moved | kept);
}

void MoveX(HashBits* hash, int d) { MoveBits(hash, d, 0xaaaaaaaaaaaaaaaaULL); }

void MoveY(HashBits* hash, int d) { MoveBits(hash, d, 0x5555555555555555ULL); }

struct Neighbors {
  HashBits north, east, west, south, north_east, south_east, north_west, south_west;
};

Neighbors NeighborsOf(const HashBits& hash) {
  Neighbors n;
  n.east = n.west = n.north = n.south = hash;
  n.south_east = n.south_west = n.north_east = n.north_west = hash;
  MoveX(&n.east, 1);
  MoveX(&n.west, -1);
  MoveY(&n.south, -1);
  MoveY(&n.north, 1);
  MoveX(&n.north_west, -1);
  MoveY(&n.north_west, 1);
  MoveX(&n.north_east, 1);
  MoveY(&n.north_east, 1);
  MoveX(&n.south_east, 1);
  MoveY(&n.south_east, -1);
  MoveX(&n.south_west, -1);
  MoveY(&n.south_west, -1);
  return n;
}

uint8_t EstimateStepsByRadius(double range_meters, double lat) {
  if (range_meters == 0) return 26;
  int step = 1;
  while (range_meters < kMercatorMax) {
    range_meters *= 2;
    step++;
  }
  step -= 2;
  if (lat > 66 || lat < -66) {
    step--;
    if (lat > 80 || lat < -80) step--;
  }
  if (step < 1) step = 1;
  if (step > 26) step = 26;
  return static_cast<uint8_t>(step);
}

void BoundingBox(Shape* shape) {
  double longitude = shape->xy[0];
  double latitude = shape->xy[1];
  double height = shape->conversion * (shape->circular ? shape->radius : shape->height / 2);
  double width = shape->conversion * (shape->circular ? shape->radius : shape->width / 2);
  const double lat_delta = RadDeg(height / kEarthRadiusInMeters);
  const double long_delta_top =
      RadDeg(width / kEarthRadiusInMeters / std::cos(DegRad(latitude + lat_delta)));
  const double long_delta_bottom =
      RadDeg(width / kEarthRadiusInMeters / std::cos(DegRad(latitude - lat_delta)));
  bool southern = latitude < 0;
  shape->bounds[0] = southern ? longitude - long_delta_bottom : longitude - long_delta_top;
  shape->bounds[2] = southern ? longitude + long_delta_bottom : longitude + long_delta_top;
  shape->bounds[1] = latitude - lat_delta;
  shape->bounds[3] = latitude + lat_delta;
}

double LatDistance(double lat1d, double lat2d) {
  return kEarthRadiusInMeters * std::fabs(DegRad(lat2d) - DegRad(lat1d));
}

}  // namespace

bool Encode(const Range& long_range, const Range& lat_range, double longitude, double latitude,
            uint8_t step, HashBits* hash) {
  if (step > 32 || step == 0 || (lat_range.max == 0 && lat_range.min == 0) ||
      (long_range.max == 0 && long_range.min == 0)) {
    return false;
  }
  if (longitude > kLongMax || longitude < kLongMin || latitude > kLatMax || latitude < kLatMin) {
    return false;
  }
  hash->bits = 0;
  hash->step = step;
  if (latitude < lat_range.min || latitude > lat_range.max || longitude < long_range.min ||
      longitude > long_range.max) {
    return false;
  }
  double lat_offset = (latitude - lat_range.min) / (lat_range.max - lat_range.min);
  double long_offset = (longitude - long_range.min) / (long_range.max - long_range.min);
  lat_offset *= static_cast<double>(1ULL << step);
  long_offset *= static_cast<double>(1ULL << step);
  hash->bits = Interleave64(static_cast<uint32_t>(lat_offset), static_cast<uint32_t>(long_offset));
  return true;
}

bool EncodeWGS84(double longitude, double latitude, uint8_t step, HashBits* hash) {
  Range r[2];
  CoordRange(&r[0], &r[1]);
  return Encode(r[0], r[1], longitude, latitude, step, hash);
}

bool Decode(const Range& long_range, const Range& lat_range, const HashBits& hash, Area* area) {
  if (hash.IsZero() || (lat_range.max == 0 && lat_range.min == 0) ||
      (long_range.max == 0 && long_range.min == 0)) {
    return false;
  }
  area->hash = hash;
  uint8_t step = hash.step;
  uint64_t hash_sep = Deinterleave64(hash.bits);
  double lat_scale = lat_range.max - lat_range.min;
  double long_scale = long_range.max - long_range.min;
  uint32_t ilato = static_cast<uint32_t>(hash_sep);
  uint32_t ilono = static_cast<uint32_t>(hash_sep >> 32);
  area->latitude.min = lat_range.min + (ilato * 1.0 / (1ull << step)) * lat_scale;
  area->latitude.max = lat_range.min + ((ilato + 1) * 1.0 / (1ull << step)) * lat_scale;
  area->longitude.min = long_range.min + (ilono * 1.0 / (1ull << step)) * long_scale;
  area->longitude.max = long_range.min + ((ilono + 1) * 1.0 / (1ull << step)) * long_scale;
  return true;
}

bool DecodeScore(double score, double* xy) {
  HashBits hash{static_cast<uint64_t>(score), kStepMax};
  Range r[2];
  CoordRange(&r[0], &r[1]);
  Area area;
  if (!Decode(r[0], r[1], hash, &area)) return false;
  xy[0] = (area.longitude.min + area.longitude.max) / 2;
  if (xy[0] > kLongMax) xy[0] = kLongMax;
  if (xy[0] < kLongMin) xy[0] = kLongMin;
  xy[1] = (area.latitude.min + area.latitude.max) / 2;
  if (xy[1] > kLatMax) xy[1] = kLatMax;
  if (xy[1] < kLatMin) xy[1] = kLatMin;
  return true;
}

uint64_t Align52Bits(const HashBits& hash) { return hash.bits << (52 - hash.step * 2); }

SearchBoxes BoxesForShape(Shape* shape) {
  BoundingBox(shape);
  double min_lon = shape->bounds[0];
  double min_lat = shape->bounds[1];
  double max_lon = shape->bounds[2];
  double max_lat = shape->bounds[3];
  double longitude = shape->xy[0];
  double latitude = shape->xy[1];
  double radius_meters =
      shape->circular ? shape->radius
                      : std::sqrt((shape->width / 2) * (shape->width / 2) +
                                  (shape->height / 2) * (shape->height / 2));
  radius_meters *= shape->conversion;
  uint8_t steps = EstimateStepsByRadius(radius_meters, latitude);
  Range long_range, lat_range;
  CoordRange(&long_range, &lat_range);
  HashBits hash;
  Encode(long_range, lat_range, longitude, latitude, steps, &hash);
  Neighbors n = NeighborsOf(hash);
  Area area;
  Decode(long_range, lat_range, hash, &area);
  bool decrease_step = false;
  {
    Area north, south, east, west;
    Decode(long_range, lat_range, n.north, &north);
    Decode(long_range, lat_range, n.south, &south);
    Decode(long_range, lat_range, n.east, &east);
    Decode(long_range, lat_range, n.west, &west);
    if (north.latitude.max < max_lat) decrease_step = true;
    if (south.latitude.min > min_lat) decrease_step = true;
    if (east.longitude.max < max_lon) decrease_step = true;
    if (west.longitude.min > min_lon) decrease_step = true;
  }
  if (steps > 1 && decrease_step) {
    steps--;
    Encode(long_range, lat_range, longitude, latitude, steps, &hash);
    n = NeighborsOf(hash);
    Decode(long_range, lat_range, hash, &area);
  }
  if (steps >= 2) {
    if (area.latitude.min < min_lat) n.south = n.south_west = n.south_east = HashBits{};
    if (area.latitude.max > max_lat) n.north = n.north_east = n.north_west = HashBits{};
    if (area.longitude.min < min_lon) n.west = n.south_west = n.north_west = HashBits{};
    if (area.longitude.max > max_lon) n.east = n.south_east = n.north_east = HashBits{};
  }
  return SearchBoxes{{hash, n.north, n.south, n.east, n.west, n.north_east, n.north_west,
                      n.south_east, n.south_west}};
}

double Distance(double lon1d, double lat1d, double lon2d, double lat2d) {
  double lon1r = DegRad(lon1d);
  double lon2r = DegRad(lon2d);
  double v = std::sin((lon2r - lon1r) / 2);
  if (v == 0.0) return LatDistance(lat1d, lat2d);
  double lat1r = DegRad(lat1d);
  double lat2r = DegRad(lat2d);
  double u = std::sin((lat2r - lat1r) / 2);
  double a = u * u + std::cos(lat1r) * std::cos(lat2r) * v * v;
  return 2.0 * kEarthRadiusInMeters * std::asin(std::sqrt(a));
}

bool DistanceIfInRadius(double x1, double y1, double x2, double y2, double radius,
                        double* distance) {
  *distance = Distance(x1, y1, x2, y2);
  return *distance <= radius;
}

bool DistanceIfInRectangle(double width_m, double height_m, double x1, double y1, double x2,
                           double y2, double* distance) {
  double lat_distance = LatDistance(y2, y1);
  if (lat_distance > height_m / 2) return false;
  double lon_distance = Distance(x2, y2, x1, y2);
  if (lon_distance > width_m / 2) return false;
  *distance = Distance(x1, y1, x2, y2);
  return true;
}

}  // namespace redlab::server::geo
