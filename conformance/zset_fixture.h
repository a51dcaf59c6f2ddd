// What the sorted-set suites (zset_test.cc, zset_range_test.cc) share: a fixture that restores
// the zset-max-listpack-* limits a test lowers, reads the dirty counter, and builds replies.
#pragma once

#include <string>
#include <vector>

#include "conformance/harness/fixture.h"

namespace redlab::conformance {

class ZsetTest : public ConformanceTest {
 protected:
  void TearDown() override {
    // The suite's server outlives the test: put the default limits back.
    Client admin = Connect();
    admin({"CONFIG", "SET", "zset-max-listpack-entries", "128"});
    admin({"CONFIG", "SET", "zset-max-listpack-value", "64"});
  }

  // Makes every new sorted set a skiplist from its first member on.
  void UseSkiplists() {
    ASSERT_EQ(c()({"CONFIG", "SET", "zset-max-listpack-entries", "0"}), Status("OK"));
  }

  // Redis's server.dirty, as INFO persistence reports it.
  int64_t Dirty() {
    Reply info = Connect()({"INFO", "persistence"});
    const std::string field = "rdb_changes_since_last_save:";
    size_t at = info.str.find(field);
    if (at == std::string::npos) {
      ADD_FAILURE() << "no " << field << " in INFO";
      return -1;
    }
    return std::stoll(info.str.substr(at + field.size()));
  }

  // ZADD key score member [score member ...] that must add every pair.
  void Zadd(const std::string& key, const std::vector<std::string>& pairs) {
    std::vector<std::string> args = {"ZADD", key};
    args.insert(args.end(), pairs.begin(), pairs.end());
    ASSERT_EQ(c().Call(args), Int(static_cast<int64_t>(pairs.size() / 2)));
  }

  static Reply Dbl(std::string s) {
    Reply r;
    r.type = Reply::Type::kDouble;
    r.str = std::move(s);
    return r;
  }
  static std::vector<Reply> Bulks(const std::vector<std::string>& items) {
    std::vector<Reply> out;
    for (const std::string& s : items) out.push_back(Bulk(s));
    return out;
  }
  static Reply BulkArray(const std::vector<std::string>& items) { return Array(Bulks(items)); }

  static constexpr const char* kWrongType =
      "WRONGTYPE Operation against a key holding the wrong kind of value";
};

}  // namespace redlab::conformance
