// Server commands: DBSIZE, FLUSHDB, FLUSHALL, TIME, INFO, CONFIG, SHUTDOWN.
#include <chrono>
#include <map>

#include "conformance/harness/fixture.h"
#include "conformance/harness/script.h"

namespace redlab::conformance {
namespace {

class ServerTest : public ConformanceTest {};

// INFO's text as field -> value (section headers and blank lines skipped).
std::map<std::string, std::string> InfoFields(const std::string& text) {
  std::map<std::string, std::string> fields;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find("\r\n", pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 2;
    if (line.empty() || line[0] == '#') continue;
    size_t colon = line.find(':');
    if (colon != std::string::npos) fields[line.substr(0, colon)] = line.substr(colon + 1);
  }
  return fields;
}

std::vector<std::string> InfoSections(const std::string& text) {
  std::vector<std::string> sections;
  size_t pos = 0;
  while ((pos = text.find("# ", pos)) != std::string::npos) {
    if (pos == 0 || text.compare(pos - 2, 2, "\r\n") == 0) {
      size_t end = text.find("\r\n", pos);
      sections.push_back(text.substr(pos + 2, end - pos - 2));
    }
    pos += 2;
  }
  return sections;
}

TEST_F(ServerTest, DbSizeCountsTheSelectedDatabase) {
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  c()({"SET", "a", "1"});
  c()({"SET", "b", "2"});
  EXPECT_EQ(c()({"DBSIZE"}), Int(2));
  c()({"SELECT", "3"});
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  EXPECT_EQ(c()({"DBSIZE", "x"}), Error("ERR wrong number of arguments for 'dbsize' command"));
}

TEST_F(ServerTest, FlushDbEmptiesOnlyTheSelectedDatabase) {
  c()({"SET", "a", "1"});
  c()({"SELECT", "1"});
  c()({"SET", "b", "1"});
  EXPECT_EQ(c()({"FLUSHDB"}), Status("OK"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  c()({"SELECT", "0"});
  EXPECT_EQ(c()({"DBSIZE"}), Int(1));
  EXPECT_EQ(c()({"FLUSHDB", "ASYNC"}), Status("OK"));
  EXPECT_EQ(c()({"FLUSHDB", "sync"}), Status("OK"));
  EXPECT_EQ(c()({"FLUSHDB", "LATER"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"FLUSHDB", "SYNC", "x"}), Error("ERR syntax error"));
}

TEST_F(ServerTest, FlushAllEmptiesEveryDatabase) {
  c()({"SET", "a", "1"});
  c()({"SELECT", "5"});
  c()({"SET", "b", "1"});
  EXPECT_EQ(c()({"FLUSHALL", "ASYNC"}), Status("OK"));
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  c()({"SELECT", "0"});
  EXPECT_EQ(c()({"DBSIZE"}), Int(0));
  EXPECT_EQ(c()({"FLUSHALL", "foo"}), Error("ERR syntax error"));
}

TEST_F(ServerTest, TimeIsSecondsAndMicroseconds) {
  Reply t = c()({"TIME"});
  ASSERT_EQ(t.type, Reply::Type::kArray);
  ASSERT_EQ(t.elements.size(), 2u);
  ASSERT_EQ(t.elements[0].type, Reply::Type::kBulk);
  ASSERT_EQ(t.elements[1].type, Reply::Type::kBulk);
  int64_t seconds = std::stoll(t.elements[0].str);
  int64_t micros = std::stoll(t.elements[1].str);
  int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  EXPECT_LE(std::abs(seconds - now), 2);
  EXPECT_GE(micros, 0);
  EXPECT_LT(micros, 1000000);
}

TEST_F(ServerTest, InfoDefaultSections) {
  Reply info = c()({"INFO"});
  ASSERT_EQ(info.type, Reply::Type::kBulk);
  EXPECT_EQ(InfoSections(info.str),
            (std::vector<std::string>{"Server", "Clients", "Memory", "Persistence", "Stats",
                                      "Replication", "CPU", "Modules", "Errorstats", "Cluster",
                                      "Keyspace"}));
  auto fields = InfoFields(info.str);
  for (const char* name :
       {"redis_version", "redis_mode", "process_id", "run_id", "tcp_port", "uptime_in_seconds",
        "connected_clients", "maxclients", "used_memory", "used_memory_human", "maxmemory",
        "maxmemory_policy", "total_connections_received", "total_commands_processed",
        "expired_keys", "keyspace_hits", "keyspace_misses", "total_error_replies", "role",
        "connected_slaves", "master_replid", "master_repl_offset", "used_cpu_sys",
        "cluster_enabled"}) {
    EXPECT_TRUE(fields.count(name)) << "INFO lacks " << name;
  }
  EXPECT_EQ(fields["redis_mode"], "standalone");
  EXPECT_EQ(fields["role"], "master");
  EXPECT_EQ(fields["tcp_port"], std::to_string(port()));
  EXPECT_EQ(fields["maxmemory_policy"], "noeviction");
  EXPECT_EQ(fields["run_id"].size(), 40u);
  EXPECT_EQ(info.str.substr(info.str.size() - 2), "\r\n");
}

TEST_F(ServerTest, InfoSectionSelection) {
  Reply all = c()({"INFO", "all"});
  EXPECT_EQ(InfoSections(all.str),
            (std::vector<std::string>{"Server", "Clients", "Memory", "Persistence", "Stats",
                                      "Replication", "CPU", "Modules", "Commandstats",
                                      "Errorstats", "Latencystats", "Cluster", "Keyspace"}));
  Reply two = c()({"INFO", "server", "CLIENTS"});
  EXPECT_EQ(InfoSections(two.str), (std::vector<std::string>{"Server", "Clients"}));
  EXPECT_EQ(c()({"INFO", "nosuchsection"}), Bulk(""));
}

TEST_F(ServerTest, InfoKeyspaceLine) {
  EXPECT_EQ(c()({"INFO", "keyspace"}), Bulk("# Keyspace\r\n"));
  c()({"SET", "a", "1"});
  c()({"SET", "b", "1"});
  c()({"SELECT", "2"});
  c()({"SET", "c", "1"});
  EXPECT_EQ(c()({"INFO", "keyspace"}),
            Bulk("# Keyspace\r\ndb0:keys=2,expires=0,avg_ttl=0\r\ndb2:keys=1,expires=0,avg_ttl=0\r\n"));
}

// avg_ttl is the expire cycle's estimate of the TTLs in a database; once no key has a TTL it
// goes back to 0.
TEST_F(ServerTest, InfoKeyspaceAverageTtl) {
  c()({"SET", "t", "v", "EX", "1000"});
  const std::string persisted = "# Keyspace\r\ndb0:keys=1,expires=0,avg_ttl=0\r\n";
  ASSERT_TRUE(Eventually([&] {
    std::string info = c()({"INFO", "keyspace"}).str;
    return info.find("expires=1,avg_ttl=") != std::string::npos &&
           info.find("avg_ttl=0\r") == std::string::npos;
  }));
  EXPECT_EQ(c()({"PERSIST", "t"}), Int(1));
  EXPECT_TRUE(Eventually([&] { return c()({"INFO", "keyspace"}) == Bulk(persisted); }));
}

TEST_F(ServerTest, CommandAndErrorStatistics) {
  EXPECT_EQ(c()({"CONFIG", "RESETSTAT"}), Status("OK"));
  c()({"SET", "a", "1"});
  c()({"GET", "a"});
  c()({"GET", "missing"});
  c()({"GET"});                 // rejected: arity
  c()({"NOSUCHCOMMAND"});       // not a command: counted only as an error
  c()({"SELECT", "99"});        // failed: ran and replied an error
  auto stats = InfoFields(c()({"INFO", "commandstats"}).str);
  auto starts = [](const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; };
  EXPECT_TRUE(starts(stats["cmdstat_get"], "calls=2,")) << stats["cmdstat_get"];
  EXPECT_NE(stats["cmdstat_get"].find(",rejected_calls=1,failed_calls=0"), std::string::npos)
      << stats["cmdstat_get"];
  EXPECT_NE(stats["cmdstat_select"].find("calls=1,"), std::string::npos);
  EXPECT_NE(stats["cmdstat_select"].find(",rejected_calls=0,failed_calls=1"), std::string::npos)
      << stats["cmdstat_select"];
  EXPECT_TRUE(starts(stats["cmdstat_config|resetstat"], "calls=1,"));
  auto errors = InfoFields(c()({"INFO", "errorstats"}).str);
  EXPECT_EQ(errors["errorstat_ERR"], "count=3");
  auto s = InfoFields(c()({"INFO", "stats"}).str);
  EXPECT_EQ(s["keyspace_hits"], "1");
  EXPECT_EQ(s["keyspace_misses"], "1");
  EXPECT_EQ(s["total_error_replies"], "3");
}

TEST_F(ServerTest, ErrorStatsByCode) {
  c()({"CONFIG", "RESETSTAT"});
  c()({"SET", "s", "x"});
  c()({"HGET", "s", "f"});  // WRONGTYPE
  auto errors = InfoFields(c()({"INFO", "errorstats"}).str);
  EXPECT_EQ(errors["errorstat_WRONGTYPE"], "count=1");
}

TEST_F(ServerTest, ConfigGet) {
  EXPECT_EQ(c()({"CONFIG", "GET", "maxmemory"}), Array({Bulk("maxmemory"), Bulk("0")}));
  // A name without glob characters answers under the name as given.
  EXPECT_EQ(c()({"CONFIG", "GET", "MAXMEMORY-POLICY"}),
            Array({Bulk("MAXMEMORY-POLICY"), Bulk("noeviction")}));
  EXPECT_EQ(c()({"CONFIG", "GET", "nosuchparameter"}), Array({}));
  EXPECT_EQ(c()({"CONFIG", "GET", "databases"}), Array({Bulk("databases"), Bulk("16")}));
  EXPECT_EQ(c()({"CONFIG", "GET", "timeout"}), Array({Bulk("timeout"), Bulk("0")}));
  EXPECT_EQ(c()({"CONFIG", "GET", "hash-max-listpack-entries"}),
            Array({Bulk("hash-max-listpack-entries"), Bulk("512")}));
  // An alias answers under its own name.
  EXPECT_EQ(c()({"CONFIG", "GET", "lua-time-limit"}), Array({Bulk("lua-time-limit"), Bulk("5000")}));
  EXPECT_EQ(c()({"CONFIG", "GET"}), Error("ERR wrong number of arguments for 'config|get' command"));
  Reply glob = c()({"CONFIG", "GET", "maxmemory*"});
  ASSERT_EQ(glob.type, Reply::Type::kArray);
  std::map<std::string, std::string> found;
  for (size_t i = 0; i + 1 < glob.elements.size(); i += 2) {
    found[glob.elements[i].str] = glob.elements[i + 1].str;
  }
  EXPECT_EQ(found["maxmemory"], "0");
  EXPECT_EQ(found["maxmemory-policy"], "noeviction");
}

TEST_F(ServerTest, ConfigGetIsAMapInResp3) {
  c()({"HELLO", "3"});
  EXPECT_EQ(c().Raw({"CONFIG", "GET", "maxmemory"}), "%1\r\n$9\r\nmaxmemory\r\n$1\r\n0\r\n");
}

TEST_F(ServerTest, ConfigSet) {
  EXPECT_EQ(c()({"CONFIG", "SET", "maxmemory", "1gb"}), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "GET", "maxmemory"}), Array({Bulk("maxmemory"), Bulk("1073741824")}));
  EXPECT_EQ(c()({"CONFIG", "SET", "maxmemory", "0"}), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "SET", "timeout", "10", "hz", "20"}), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "GET", "hz"}), Array({Bulk("hz"), Bulk("20")}));
  EXPECT_EQ(c()({"CONFIG", "SET", "hz", "1000"}), Status("OK"));  // clamped to 500
  EXPECT_EQ(c()({"CONFIG", "GET", "hz"}), Array({Bulk("hz"), Bulk("500")}));
  EXPECT_EQ(c()({"CONFIG", "SET", "hz", "0"}), Status("OK"));  // raised to 1
  EXPECT_EQ(c()({"CONFIG", "GET", "hz"}), Array({Bulk("hz"), Bulk("1")}));
  EXPECT_EQ(c()({"CONFIG", "SET", "hz", "10", "timeout", "0"}), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "SET", "lua-time-limit", "6000"}), Status("OK"));
  EXPECT_EQ(c()({"CONFIG", "GET", "busy-reply-threshold"}),
            Array({Bulk("busy-reply-threshold"), Bulk("6000")}));
  EXPECT_EQ(c()({"CONFIG", "SET", "busy-reply-threshold", "5000"}), Status("OK"));
}

TEST_F(ServerTest, ConfigSetErrors) {
  ExpectReplies(
      c(),
      {
          {{"CONFIG", "SET", "foo", "bar"},
           Error("ERR Unknown option or number of arguments for CONFIG SET - 'foo'")},
          {{"CONFIG", "SET", "maxclients", "abc"},
           Error("ERR CONFIG SET failed (possibly related to argument 'maxclients') - argument "
                 "couldn't be parsed into an integer")},
          {{"CONFIG", "SET", "maxclients", "-5"},
           Error("ERR CONFIG SET failed (possibly related to argument 'maxclients') - argument "
                 "must be between 1 and 4294967295 inclusive")},
          {{"CONFIG", "SET", "appendonly", "maybe"},
           Error("ERR CONFIG SET failed (possibly related to argument 'appendonly') - argument "
                 "must be 'yes' or 'no'")},
          {{"CONFIG", "SET", "maxmemory", "1xb"},
           Error("ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument "
                 "must be a memory value")},
          {{"CONFIG", "SET", "maxmemory-policy", "bad"},
           Error("ERR CONFIG SET failed (possibly related to argument 'maxmemory-policy') - "
                 "argument(s) must be one of the following: volatile-lru, volatile-lfu, "
                 "volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, "
                 "noeviction")},
          {{"CONFIG", "SET", "loglevel", "nothing"},
           Error("ERR CONFIG SET failed (possibly related to argument 'loglevel') - argument(s) "
                 "must be one of the following: debug, verbose, notice, warning")},
          {{"CONFIG", "SET", "databases", "3"},
           Error("ERR CONFIG SET failed (possibly related to argument 'databases') - can't set "
                 "immutable config")},
          {{"CONFIG", "SET", "maxclients", "10", "maxclients", "20"},
           Error("ERR CONFIG SET failed (possibly related to argument 'maxclients') - duplicate "
                 "parameter")},
          {{"CONFIG", "SET", "MAXCLIENTS", "10", "maxclients", "20"},
           Error("ERR CONFIG SET failed (possibly related to argument 'maxclients') - duplicate "
                 "parameter")},
          // A parameter and its alias are two configs to Redis: both set, the last one wins.
          {{"CONFIG", "SET", "busy-reply-threshold", "5000", "lua-time-limit", "6000"},
           Status("OK")},
          {{"CONFIG", "GET", "busy-reply-threshold"},
           Array({Bulk("busy-reply-threshold"), Bulk("6000")})},
          {{"CONFIG", "SET", "lua-time-limit", "5000"}, Status("OK")},
          {{"CONFIG", "SET", "timeout", "1", "hz"}, Error("ERR syntax error")},
          {{"CONFIG", "SET", "timeout"},
           Error("ERR wrong number of arguments for 'config|set' command")},
      });
  // A failed CONFIG SET changes nothing, even parameters that were valid.
  EXPECT_EQ(c()({"CONFIG", "SET", "timeout", "7", "maxclients", "x"}).type, Reply::Type::kError);
  EXPECT_EQ(c()({"CONFIG", "GET", "timeout"}), Array({Bulk("timeout"), Bulk("0")}));
}

TEST_F(ServerTest, ConfigOtherSubcommands) {
  EXPECT_EQ(c()({"CONFIG", "REWRITE"}), Error("ERR The server is running without a config file"));
  Reply help = c()({"CONFIG", "HELP"});
  ASSERT_EQ(help.type, Reply::Type::kArray);
  EXPECT_EQ(help.elements.front(),
            Status("CONFIG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:"));
  EXPECT_EQ(help.elements.back(), Status("    Prints this help."));
  EXPECT_EQ(help.elements.size(), 11u);
  EXPECT_EQ(c()({"CONFIG", "FOO"}), Error("ERR unknown subcommand 'FOO'. Try CONFIG HELP."));
}

TEST_F(ServerTest, ShutdownAbortWithoutShutdown) {
  EXPECT_EQ(c()({"SHUTDOWN", "ABORT"}), Error("ERR No shutdown in progress."));
  EXPECT_EQ(c()({"SHUTDOWN", "BOGUS"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SHUTDOWN", "ABORT", "ABORT"}), Error("ERR No shutdown in progress."));
  // Contradictory or mixed options are refused (the server keeps running).
  EXPECT_EQ(c()({"SHUTDOWN", "SAVE", "NOSAVE"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SHUTDOWN", "NOSAVE", "SAVE"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SHUTDOWN", "ABORT", "NOW"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"SHUTDOWN", "FORCE", "ABORT"}), Error("ERR syntax error"));
  EXPECT_EQ(c()({"PING"}), Status("PONG"));
}

TEST(ShutdownTest, ShutdownStopsTheServer) {
  auto server = StartServer();
  Client c(server->port());
  c.SendCommand({"SHUTDOWN", "NOSAVE"});
  EXPECT_EQ(c.ReadUntilClosed(), "");  // no reply: the server goes away
  EXPECT_TRUE(server->WaitExited(std::chrono::seconds(10)));
}

TEST(MaxClientsTest, RefusesClientsPastTheLimit) {
  auto server = StartServer({.config = {{"maxclients", "2"}}});
  // The harness's own readiness probe may still be counted for a moment after it disconnects,
  // so the second client retries until it gets in.
  Client a(server->port());
  EXPECT_EQ(a({"PING"}), Status("PONG"));
  std::unique_ptr<Client> b;
  ASSERT_TRUE(Eventually([&] {
    try {
      b = std::make_unique<Client>(server->port());
      return (*b)({"PING"}) == Status("PONG");
    } catch (const std::exception&) {
      return false;
    }
  }));
  Client third(server->port());
  EXPECT_EQ(third.ReadUntilClosed(), "-ERR max number of clients reached\r\n");
}

TEST(TimeoutTest, IdleClientsAreClosed) {
  auto server = StartServer({.config = {{"timeout", "1"}}});
  Client idle(server->port());
  EXPECT_EQ(idle({"PING"}), Status("PONG"));
  EXPECT_TRUE(idle.WaitClosed(std::chrono::seconds(15)));
}

}  // namespace
}  // namespace redlab::conformance
