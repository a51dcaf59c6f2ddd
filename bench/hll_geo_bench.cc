// redlab-bench: HyperLogLog and GEO side by side with redis-server: PFADD of a new element each
// call, PFCOUNT over the union of 10 keys (no cached cardinality: a merge per call), and a
// GEOSEARCH by radius over 10,000 points.
#include <hiredis/hiredis.h>

#include <string>
#include <vector>

#include "bench/connection.h"
#include "bench/side_by_side.h"

namespace redlab::bench {
namespace {

redisReply* Command(Connection& c, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  return static_cast<redisReply*>(redisCommandArgv(c.get(), static_cast<int>(argv.size()),
                                                   argv.data(), lens.data()));
}

void PfAdd(benchmark::State& state, int port) {
  Connection c = Connect(port);
  Check(Command(c, {"DEL", "bench:hll"}));
  uint64_t n = 0;
  for (auto _ : state) Check(Command(c, {"PFADD", "bench:hll", "element:" + std::to_string(n++)}));
}

void PfCount10(benchmark::State& state, int port) {
  Connection c = Connect(port);
  std::vector<std::string> count = {"PFCOUNT"};
  for (int k = 0; k < 10; ++k) {
    std::string key = "bench:hll:" + std::to_string(k);
    Check(Command(c, {"DEL", key}));
    for (int batch = 0; batch < 10; ++batch) {
      std::vector<std::string> add = {"PFADD", key};
      for (int i = 0; i < 1000; ++i) add.push_back(std::to_string(k * 100000 + batch * 1000 + i));
      Check(Command(c, add));
    }
    count.push_back(key);
  }
  for (auto _ : state) Check(Command(c, count));
}

void GeoSearch(benchmark::State& state, int port) {
  Connection c = Connect(port);
  Check(Command(c, {"DEL", "bench:geo"}));
  // A 100 x 100 grid of points 0.01 degrees apart around (13.0, 52.0).
  for (int row = 0; row < 100; ++row) {
    std::vector<std::string> add = {"GEOADD", "bench:geo"};
    for (int col = 0; col < 100; ++col) {
      add.push_back(std::to_string(12.5 + col * 0.01));
      add.push_back(std::to_string(51.5 + row * 0.01));
      add.push_back("p" + std::to_string(row * 100 + col));
    }
    Check(Command(c, add));
  }
  for (auto _ : state) {
    Check(Command(c, {"GEOSEARCH", "bench:geo", "FROMLONLAT", "13.0", "52.0", "BYRADIUS", "5",
                      "km", "ASC", "COUNT", "20"}));
  }
}

}  // namespace

void RegisterHllGeoBenchmarks(const Servers& servers) {
  RegisterSideBySide("pfadd_roundtrip", servers, PfAdd);
  RegisterSideBySide("pfcount_10_keys", servers, PfCount10);
  RegisterSideBySide("geosearch_radius", servers, GeoSearch);
}

}  // namespace redlab::bench
