// The command families' registration blocks (cmd_*.cc), and RegisterCommands, which calls them
// in the order COMMAND lists Redis's commands here.
#pragma once

#include "server/command/command_table.h"

namespace redlab::server::engine {

// Every family, in order: what an engine's command table holds.
void RegisterCommands(CommandTable& table);

// One registration block per command family.
void RegisterConnectionCommands(CommandTable& table);  // also calls RegisterClientCommands
void RegisterClientCommands(CommandTable& table);      // cmd_client.cc
void RegisterServerCommands(CommandTable& table);
void RegisterAclCommands(CommandTable& table);  // cmd_acl.cc
void RegisterKeyCommands(CommandTable& table);
void RegisterCopyCommands(CommandTable& table);         // cmd_copy.cc: COPY MOVE SWAPDB
void RegisterDumpCommands(CommandTable& table);  // cmd_dump.cc: DUMP RESTORE RESTORE-ASKING
void RegisterMigrateCommands(CommandTable& table);  // cmd_migrate.cc: MIGRATE
// cmd_node_control.cc: FAULT and TOPOLOGY, hidden (served by the node, see EngineHost)
void RegisterNodeControlCommands(CommandTable& table);
void RegisterSortCommands(CommandTable& table);         // cmd_sort.cc: SORT SORT_RO
void RegisterPersistenceCommands(CommandTable& table);  // cmd_persistence.cc
void RegisterExpireCommands(CommandTable& table);
void RegisterStringCommands(CommandTable& table);
void RegisterBitmapCommands(CommandTable& table);  // cmd_bitmap.cc, cmd_bitfield.cc
void RegisterHashCommands(CommandTable& table);
void RegisterStreamCommands(CommandTable& table);
void RegisterListCommands(CommandTable& table);          // cmd_list.cc
void RegisterListBlockingCommands(CommandTable& table);  // cmd_list_blocking.cc
void RegisterSetCommands(CommandTable& table);
void RegisterZsetCommands(CommandTable& table);       // cmd_zset.cc
void RegisterZsetPopCommands(CommandTable& table);    // cmd_zset_pop.cc
void RegisterZsetRangeCommands(CommandTable& table);  // cmd_zset_range.cc
void RegisterZsetSetOpCommands(CommandTable& table);  // cmd_zset_setops.cc
void RegisterIntrospectionCommands(CommandTable& table);
void RegisterTransactionCommands(CommandTable& table);
void RegisterPubSubCommands(CommandTable& table);
void RegisterClusterCommands(CommandTable& table);  // cmd_cluster.cc: CLUSTER ASKING READONLY
void RegisterHyperLogLogCommands(CommandTable& table);  // cmd_hyperloglog.cc
void RegisterGeoCommands(CommandTable& table);         // cmd_geo.cc
void RegisterObjectCommands(CommandTable& table);
void RegisterReplicationCommands(CommandTable& table);
void RegisterDebugCommands(CommandTable& table);
void RegisterMonitoringCommands(CommandTable& table);  // cmd_monitoring.cc
void RegisterLolwutCommand(CommandTable& table);       // cmd_lolwut.cc
void RegisterScriptingCommands(CommandTable& table);
void RegisterFunctionCommands(CommandTable& table);  // cmd_function.cc

}  // namespace redlab::server::engine
