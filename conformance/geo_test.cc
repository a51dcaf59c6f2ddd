// GEO commands (Redis's geo.c): GEOADD and its options, GEODIST, GEOHASH, GEOPOS, GEORADIUS,
// GEORADIUSBYMEMBER, GEOSEARCH and GEOSEARCHSTORE with Redis's scores, distances, coordinates,
// orders and error texts.
#include <string>

#include "conformance/harness/fixture.h"
#include "conformance/harness/replication_stream.h"

namespace redlab::conformance {
namespace {

class GeoTest : public ConformanceTest {
 protected:
  void Sicily() {
    ASSERT_EQ(c()({"GEOADD", "Sicily", "13.361389", "38.115556", "Palermo", "15.087269",
                   "37.502669", "Catania"}),
              Int(2));
  }
  const Reply kPalermoPos = Array({Bulk("13.36138933897018433"), Bulk("38.11555639549629859")});
  const Reply kCataniaPos = Array({Bulk("15.08726745843887329"), Bulk("37.50266842333162032")});
};

TEST_F(GeoTest, AddStoresTheGeohashAsScore) {
  Sicily();
  EXPECT_EQ(c()({"ZSCORE", "Sicily", "Palermo"}), Bulk("3479099956230698"));
  EXPECT_EQ(c()({"TYPE", "Sicily"}), Status("zset"));
  EXPECT_EQ(c()({"GEOADD", "Sicily", "NX", "13", "38", "Palermo"}), Int(0));
  EXPECT_EQ(c()({"ZSCORE", "Sicily", "Palermo"}), Bulk("3479099956230698"));
  EXPECT_EQ(c()({"GEOADD", "Sicily", "XX", "CH", "13", "38", "Palermo", "1", "1", "New"}),
            Int(1));
  EXPECT_EQ(c()({"ZCARD", "Sicily"}), Int(2));
  EXPECT_EQ(c()({"GEOADD", "Sicily", "CH", "13.361389", "38.115556", "Palermo"}), Int(1));
  EXPECT_EQ(c()({"GEOADD", "Sicily", "NX", "XX", "1", "1", "x"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"GEOADD", "Sicily", "1", "1", "x", "2"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"GEOADD", "Sicily", "200", "100", "x"}),
            Error("ERR invalid longitude,latitude pair 200.000000,100.000000"));
  EXPECT_EQ(c()({"GEOADD", "Sicily", "a", "1", "x"}), Error("ERR value is not a valid float"));
  EXPECT_EQ(c()({"GEOADD", "Sicily", "1", "2"}),
            Error("ERR wrong number of arguments for 'geoadd' command"));
}

TEST_F(GeoTest, DistHashAndPos) {
  Sicily();
  EXPECT_EQ(c()({"GEODIST", "Sicily", "Palermo", "Catania"}), Bulk("166274.1516"));
  EXPECT_EQ(c()({"GEODIST", "Sicily", "Palermo", "Catania", "km"}), Bulk("166.2742"));
  EXPECT_EQ(c()({"GEODIST", "Sicily", "Palermo", "nope"}), Nil());
  EXPECT_EQ(c()({"GEODIST", "nokey", "a", "b"}), Nil());
  EXPECT_EQ(c()({"GEODIST", "Sicily", "Palermo", "Catania", "yd"}),
            Error("ERR unsupported unit provided. please use M, KM, FT, MI"));
  EXPECT_EQ(c()({"GEODIST", "Sicily", "a", "b", "c", "d"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"GEOHASH", "Sicily", "Palermo", "Catania", "nope"}),
            Array({Bulk("sqc8b49rny0"), Bulk("sqdtr74hyu0"), Nil()}));
  Reply pos = c()({"GEOPOS", "Sicily", "Palermo", "nope"});
  ASSERT_EQ(pos.elements.size(), 2u);
  EXPECT_EQ(pos.elements[0], kPalermoPos);
  EXPECT_EQ(pos.elements[1].type, Reply::Type::kNil);
  EXPECT_EQ(c()({"GEOHASH", "nokey", "a"}), Array({Nil()}));
  EXPECT_EQ(c()({"SET", "str", "x"}), Status("OK"));
  EXPECT_EQ(c()({"GEOPOS", "str", "a"}),
            Error("WRONGTYPE Operation against a key holding the wrong kind of value"));
}

TEST_F(GeoTest, RadiusWithEveryOption) {
  Sicily();
  EXPECT_EQ(c()({"GEORADIUS", "Sicily", "15", "37", "200", "km", "WITHDIST", "WITHCOORD",
                 "WITHHASH", "ASC"}),
            Array({Array({Bulk("Catania"), Bulk("56.4413"), Int(3479447370796909), kCataniaPos}),
                   Array({Bulk("Palermo"), Bulk("190.4424"), Int(3479099956230698),
                          kPalermoPos})}));
  EXPECT_EQ(c()({"GEORADIUS_RO", "Sicily", "15", "37", "200", "km", "DESC"}),
            Array({Bulk("Palermo"), Bulk("Catania")}));
  EXPECT_EQ(c()({"GEORADIUS", "Sicily", "15", "37", "200", "km", "COUNT", "1"}),
            Array({Bulk("Catania")}));
  EXPECT_EQ(c()({"GEORADIUSBYMEMBER", "Sicily", "Palermo", "200", "km", "WITHDIST"}),
            Array({Array({Bulk("Palermo"), Bulk("0.0000")}),
                   Array({Bulk("Catania"), Bulk("166.2742")})}));
  EXPECT_EQ(c()({"GEORADIUSBYMEMBER_RO", "Sicily", "Palermo", "1", "km"}),
            Array({Bulk("Palermo")}));
  EXPECT_EQ(c()({"GEORADIUS", "Sicily", "15", "37", "200", "km", "STORE", "dst"}), Int(2));
  EXPECT_EQ(c()({"ZRANGE", "dst", "0", "-1", "WITHSCORES"}),
            Array({Bulk("Palermo"), Bulk("3479099956230698"), Bulk("Catania"),
                   Bulk("3479447370796909")}));
  EXPECT_EQ(c()({"GEORADIUS", "Sicily", "15", "37", "1", "km", "STORE", "dst"}), Int(0));
  EXPECT_EQ(c()({"EXISTS", "dst"}), Int(0));
  EXPECT_EQ(c()({"GEORADIUS_RO", "Sicily", "15", "37", "200", "km", "STORE", "dst"}),
            Error("ERR syntax error"));
  EXPECT_EQ(c()({"GEORADIUS", "Sicily", "15", "37", "1", "km", "STORE", "x", "WITHDIST"}),
            Error("ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and "
                  "WITHCOORD options"));
  EXPECT_EQ(c()({"GEORADIUS", "Sicily", "15", "37", "abc", "km"}),
            Error("ERR need numeric radius"));
  EXPECT_EQ(c()({"GEORADIUS", "Sicily", "15", "37", "-1", "km"}),
            Error("ERR radius cannot be negative"));
  EXPECT_EQ(c()({"GEORADIUSBYMEMBER", "Sicily", "nope", "10", "km"}),
            Error("ERR could not decode requested zset member"));
  EXPECT_EQ(c()({"GEORADIUS", "nokey", "15", "37", "200", "km"}), Array({}));
}

TEST_F(GeoTest, SearchAndSearchStore) {
  Sicily();
  EXPECT_EQ(c()({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYBOX", "400", "400", "km",
                 "DESC", "WITHDIST"}),
            Array({Array({Bulk("Palermo"), Bulk("190.4424")}),
                   Array({Bulk("Catania"), Bulk("56.4413")})}));
  EXPECT_EQ(c()({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "10", "km"}),
            Array({}));
  EXPECT_EQ(c()({"GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "500", "km",
                 "COUNT", "1", "ANY"}),
            Array({Bulk("Palermo")}));
  EXPECT_EQ(c()({"GEOSEARCHSTORE", "dst", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "500",
                 "km", "STOREDIST"}),
            Int(2));
  EXPECT_EQ(c()({"ZRANGE", "dst", "0", "-1", "WITHSCORES"}),
            Array({Bulk("Palermo"), Bulk("0"), Bulk("Catania"), Bulk("166.27415156960032")}));
  EXPECT_EQ(c()({"GEOSEARCHSTORE", "dst", "nokey", "FROMLONLAT", "1", "1", "BYRADIUS", "1",
                 "km"}),
            Int(0));
  EXPECT_EQ(c()({"EXISTS", "dst"}), Int(0));
  EXPECT_EQ(c()({"GEOSEARCH", "Sicily", "BYRADIUS", "10", "km", "ASC", "WITHDIST"}),
            Error("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for GEOSEARCH"));
  EXPECT_EQ(c()({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "ASC", "WITHDIST"}),
            Error("ERR exactly one of BYRADIUS and BYBOX can be specified for GEOSEARCH"));
  EXPECT_EQ(c()({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "500", "km",
                 "ANY"}),
            Error("ERR the ANY argument requires COUNT argument"));
  EXPECT_EQ(c()({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYBOX", "a", "1", "km"}),
            Error("ERR need numeric width"));
  EXPECT_EQ(c()({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYBOX", "-1", "1", "km"}),
            Error("ERR height or width cannot be negative"));
  EXPECT_EQ(c()({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "500", "km",
                 "COUNT", "0"}),
            Error("ERR COUNT must be > 0"));
  EXPECT_EQ(c()({"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "5",
                 "km", "WITHDIST"}),
            Error("ERR GEOSEARCHSTORE is not compatible with WITHDIST, WITHHASH and WITHCOORD "
                  "options"));
}

TEST_F(GeoTest, AclCategoriesHoldTheNewCommands) {
  Reply geo = c()({"ACL", "CAT", "geo"});
  Reply hll = c()({"ACL", "CAT", "hyperloglog"});
  auto has = [](const Reply& list, const std::string& name) {
    for (const Reply& r : list.elements) {
      if (r.str == name) return true;
    }
    return false;
  };
  for (const char* name : {"geoadd", "geodist", "geohash", "geopos", "georadius",
                           "georadius_ro", "georadiusbymember", "georadiusbymember_ro",
                           "geosearch", "geosearchstore"}) {
    EXPECT_TRUE(has(geo, name)) << name;
  }
  for (const char* name : {"pfadd", "pfcount", "pfmerge", "pfdebug", "pfselftest"}) {
    EXPECT_TRUE(has(hll, name)) << name;
  }
  EXPECT_EQ(geo.elements.size(), 10u);
  EXPECT_EQ(hll.elements.size(), 5u);
}

// What a replica receives: GEOADD as the ZADD it becomes, PFCOUNT when it refreshed the cached
// cardinality (not when the cache was valid), the rest as called.
TEST(GeoHllReplicationTest, PropagatedAsRedisPropagatesThem) {
  std::unique_ptr<Server> server = StartServer({.config = {{"repl-diskless-sync-delay", "0"}}});
  ReplicationStream replica(server->port());
  ASSERT_NO_FATAL_FAILURE(replica.FullSync());
  Client m(server->port());
  using Command = std::vector<std::string>;
  EXPECT_EQ(m({"GEOADD", "repl:g", "CH", "13.361389", "38.115556", "Palermo"}), Int(1));
  EXPECT_EQ(replica.Next(), (Command{"SELECT", "0"}));
  EXPECT_EQ(replica.Next(), (Command{"zadd", "repl:g", "CH", "3479099956230698", "Palermo"}));
  EXPECT_EQ(m({"PFADD", "repl:h", "a"}), Int(1));
  EXPECT_EQ(replica.Next(), (Command{"PFADD", "repl:h", "a"}));
  EXPECT_EQ(m({"PFCOUNT", "repl:h"}), Int(1));
  EXPECT_EQ(m({"PFCOUNT", "repl:h"}), Int(1));
  EXPECT_EQ(replica.Next(), (Command{"PFCOUNT", "repl:h"}));
  EXPECT_EQ(m({"GEOSEARCHSTORE", "repl:d", "repl:g", "FROMLONLAT", "13", "38", "BYRADIUS", "100", "km"}),
            Int(1));
  EXPECT_EQ(replica.Next(),
            (Command{"GEOSEARCHSTORE", "repl:d", "repl:g", "FROMLONLAT", "13", "38", "BYRADIUS", "100",
                     "km"}));
  EXPECT_EQ(m({"SET", "repl:end", "1"}), Status("OK"));
  EXPECT_EQ(replica.Next(), (Command{"SET", "repl:end", "1"}));
}

}  // namespace
}  // namespace redlab::conformance
