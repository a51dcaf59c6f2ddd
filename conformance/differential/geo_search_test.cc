// Differential checks of GEO: redlab and a real redis-server given the same points answer every
// search (radius and box, around a point and a member, every unit, sorted, counted, with
// distances, hashes and coordinates, stored) with the same bytes.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "conformance/differential/side_by_side.h"

namespace redlab::conformance {
namespace {

class GeoSearchTest : public SideBySideTest {};

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6f", v);
  return buf;
}

TEST_F(GeoSearchTest, RandomPointsAndSearchesGiveTheSameReplies) {
  std::mt19937_64 rng(20261126);
  std::uniform_real_distribution<double> lon(-180, 180), lat(-85, 85), near(-2, 2);
  // Points around a few centres (one near a pole, one across the antimeridian) and everywhere.
  const double centres[][2] = {{13.36, 38.11}, {-73.99, 40.73}, {179.5, 0.5}, {10, 79}};
  std::vector<std::string> add = {"GEOADD", "pts"};
  for (int i = 0; i < 400; ++i) {
    double x, y;
    if (i % 5 == 4) {
      x = lon(rng);
      y = lat(rng);
    } else {
      const double* c = centres[i % 4];
      x = std::max(-180.0, std::min(180.0, c[0] + near(rng)));
      y = std::max(-85.0, std::min(85.0, c[1] + near(rng)));
    }
    add.insert(add.end(), {Num(x), Num(y), "m" + std::to_string(i)});
  }
  Both(add);
  Both({"ZRANGE", "pts", "0", "-1", "WITHSCORES"});
  Both({"GEOPOS", "pts", "m0", "m1", "m2", "m3", "m4", "m399", "nope"});
  Both({"GEOHASH", "pts", "m0", "m1", "m2", "m3", "m4", "m399", "nope"});
  Both({"GEODIST", "pts", "m0", "m4", "mi"});
  Both({"GEODIST", "pts", "m1", "m5", "ft"});
  const char* units[] = {"m", "km", "mi", "ft"};
  const char* radii[] = {"50000", "150", "90", "400000"};
  for (int c = 0; c < 4; ++c) {
    std::string x = Num(centres[c][0]), y = Num(centres[c][1]);
    for (int u = 0; u < 4; ++u) {
      Both({"GEOSEARCH", "pts", "FROMLONLAT", x, y, "BYRADIUS", radii[u], units[u], "ASC",
            "WITHDIST", "WITHCOORD", "WITHHASH"});
      Both({"GEOSEARCH", "pts", "FROMLONLAT", x, y, "BYBOX", radii[u], radii[(u + 1) % 4],
            units[u], "DESC", "WITHDIST"});
      Both({"GEORADIUS", "pts", x, y, radii[u], units[u], "COUNT", "7", "WITHDIST"});
      Both({"GEORADIUS_RO", "pts", x, y, radii[u], units[u], "ASC"});
    }
    std::string member = "m" + std::to_string(c);
    Both({"GEORADIUSBYMEMBER", "pts", member, "200", "km", "WITHCOORD", "ASC"});
    Both({"GEORADIUSBYMEMBER_RO", "pts", member, "120", "mi", "COUNT", "3", "DESC"});
    Both({"GEOSEARCH", "pts", "FROMMEMBER", member, "BYBOX", "300", "200", "km", "ASC"});
    Both({"GEOSEARCHSTORE", "dst", "pts", "FROMMEMBER", member, "BYRADIUS", "250", "km",
          "STOREDIST"});
    Both({"ZRANGE", "dst", "0", "-1", "WITHSCORES"});
    Both({"GEORADIUS", "pts", x, y, "300", "km", "STORE", "dst2", "COUNT", "5"});
    Both({"ZRANGE", "dst2", "0", "-1", "WITHSCORES"});
  }
  // A search covering the whole world.
  Both({"GEOSEARCH", "pts", "FROMLONLAT", "0", "0", "BYRADIUS", "20000", "km", "ASC"});
}

}  // namespace
}  // namespace redlab::conformance
