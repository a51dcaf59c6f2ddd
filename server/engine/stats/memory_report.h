// What the node's memory is made of, as Redis's getMemoryOverheadData (object.c) computes it for
// INFO memory and MEMORY STATS: the overhead (memory at startup, clients' buffers, the
// replication backlog, the script caches, the keyspace's tables) and the dataset, the rest.
#pragma once

#include <cstdint>
#include <vector>

namespace redlab::server::engine {

class Engine;

struct MemoryReport {
  uint64_t used = 0;  // what the node allocated and has not freed (used_memory)
  uint64_t peak = 0;
  uint64_t rss = 0;  // the process's resident set
  uint64_t startup = 0;
  uint64_t backlog = 0;
  uint64_t replication_buffers = 0;  // the backlog and what replicas have not been sent yet
  uint64_t clients_replicas = 0;
  uint64_t clients_normal = 0;
  uint64_t lua_caches = 0;        // cached EVAL scripts
  uint64_t functions_caches = 0;  // loaded function libraries
  struct DbOverhead {
    int db = 0;
    uint64_t main = 0;     // the key table
    uint64_t expires = 0;  // the expiring keys' index
  };
  std::vector<DbOverhead> dbs;  // the databases that hold keys
  uint64_t overhead = 0;        // the sum of the above from `startup` on
  uint64_t keys = 0;
  uint64_t dataset = 0;  // used - overhead
  uint64_t net = 0;      // used - startup (at least 1, as Redis divides by it)
  // libc's malloc gives no allocator figures: as Redis built without jemalloc, the allocated
  // bytes are `used` and the active and resident ones the RSS less the Lua VMs' memory.
  uint64_t allocated = 0;
  uint64_t active = 0;
  uint64_t resident = 0;
};

MemoryReport ReportMemory(Engine& engine);

// The process's resident set in bytes (/proc/self/statm).
uint64_t ProcessRss();

}  // namespace redlab::server::engine
