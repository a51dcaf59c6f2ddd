// The command families' registration functions, each generated from its description in
// specs/<family>.json (server/command/generate_specs.py) and included by cmd_<family>.cc after
// its procs, and RegisterCommands, which calls them in the order COMMAND lists Redis's commands
// here.
#pragma once

#include "server/command/command_table.h"

namespace redlab::server::engine {

// Every family, in order: what an engine's command table holds.
void RegisterCommands(CommandTable& table);

// One registration function per family file: cmd_<family>.cc registers specs/<family>.json.
void RegisterConnectionCommands(CommandTable& table);
void RegisterClientCommands(CommandTable& table);
void RegisterServerCommands(CommandTable& table);
void RegisterAclCommands(CommandTable& table);
void RegisterKeyCommands(CommandTable& table);
void RegisterCopyCommands(CommandTable& table);
void RegisterDumpCommands(CommandTable& table);
void RegisterMigrateCommands(CommandTable& table);
void RegisterSortCommands(CommandTable& table);
void RegisterPersistenceCommands(CommandTable& table);
void RegisterExpireCommands(CommandTable& table);
void RegisterStringCommands(CommandTable& table);
void RegisterStringOpsCommands(CommandTable& table);
void RegisterBitmapCommands(CommandTable& table);
void RegisterBitfieldCommands(CommandTable& table);
void RegisterHashCommands(CommandTable& table);
void RegisterStreamCommands(CommandTable& table);
void RegisterStreamReadCommands(CommandTable& table);
void RegisterStreamGroupCommands(CommandTable& table);
void RegisterStreamInfoCommands(CommandTable& table);
void RegisterListCommands(CommandTable& table);
void RegisterListBlockingCommands(CommandTable& table);
void RegisterSetCommands(CommandTable& table);
void RegisterZsetCommands(CommandTable& table);
void RegisterZsetPopCommands(CommandTable& table);
void RegisterZsetRangeCommands(CommandTable& table);
void RegisterZsetSetOpCommands(CommandTable& table);
void RegisterIntrospectionCommands(CommandTable& table);
void RegisterTransactionCommands(CommandTable& table);
void RegisterPubSubCommands(CommandTable& table);
void RegisterClusterCommands(CommandTable& table);
void RegisterHyperLogLogCommands(CommandTable& table);
void RegisterGeoCommands(CommandTable& table);
void RegisterObjectCommands(CommandTable& table);
void RegisterReplicationCommands(CommandTable& table);
void RegisterDebugCommands(CommandTable& table);
void RegisterMonitoringCommands(CommandTable& table);
void RegisterLolwutCommand(CommandTable& table);
void RegisterModuleCommands(CommandTable& table);
void RegisterScriptingCommands(CommandTable& table);
void RegisterFunctionCommands(CommandTable& table);

// FAULT and TOPOLOGY (cmd_node_control.cc): hidden entries the node serves (see EngineHost);
// registered by hand, not from specs/, since nothing may list or describe them.
void RegisterNodeControlCommands(CommandTable& table);

}  // namespace redlab::server::engine
