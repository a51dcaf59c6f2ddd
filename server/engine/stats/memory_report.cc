#include "server/engine/stats/memory_report.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "server/engine/core/engine.h"
#include "server/engine/core/script_runner.h"

namespace redlab::server::engine {

uint64_t ProcessRss() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

MemoryReport ReportMemory(Engine& e) {
  MemoryReport m;
  m.used = e.memory().Used();
  m.peak = std::max<uint64_t>(m.used, e.memory().Peak());
  m.rss = ProcessRss();
  m.startup = e.memory().Startup();
  m.backlog = e.replication().backlog_memory();
  m.replication_buffers = m.backlog;
  for (const auto& [id, c] : e.clients()) {
    if (c->repl_role() == Client::ReplRole::kReplica) {
      m.clients_replicas += c->TotalMemory();
      if (c->io() != nullptr) m.replication_buffers += c->io()->PendingOutputBytes();
    } else {
      m.clients_normal += c->TotalMemory();
    }
  }
  ScriptRunner& scripts = e.scripts();
  m.lua_caches = scripts.cache().memory();
  m.functions_caches = scripts.functions().memory();
  m.overhead = m.startup + m.backlog + m.clients_replicas + m.clients_normal + m.lua_caches +
               m.functions_caches;
  for (int i = 0; i < e.keyspace().num_dbs(); ++i) {
    const Db& db = e.keyspace().db(i);
    m.overhead += db.OverheadBytes();
    if (db.size() == 0) continue;
    m.keys += db.size();
    m.dbs.push_back({i, db.MainOverheadBytes(), db.ExpiresOverheadBytes()});
  }
  m.dataset = m.used > m.overhead ? m.used - m.overhead : 0;
  m.net = m.used > m.startup ? m.used - m.startup : 1;
  uint64_t lua = scripts.lua_memory() + scripts.functions_lua_memory();
  m.allocated = m.used;
  m.resident = m.rss > lua ? m.rss - lua : m.rss;
  m.active = m.resident;
  return m;
}

}  // namespace redlab::server::engine
