// The order in which the families register their commands (COMMAND LIST and COMMAND's replies
// follow it).
#include "server/engine/commands/families.h"

namespace redlab::server::engine {

void RegisterCommands(CommandTable& table) {
  RegisterConnectionCommands(table);
  RegisterClientCommands(table);
  RegisterServerCommands(table);
  RegisterAclCommands(table);
  RegisterKeyCommands(table);
  RegisterCopyCommands(table);
  RegisterDumpCommands(table);
  RegisterMigrateCommands(table);
  RegisterSortCommands(table);
  RegisterPersistenceCommands(table);
  RegisterExpireCommands(table);
  RegisterStringCommands(table);
  RegisterStringOpsCommands(table);
  RegisterBitmapCommands(table);
  RegisterBitfieldCommands(table);
  RegisterHashCommands(table);
  RegisterStreamCommands(table);
  RegisterStreamReadCommands(table);
  RegisterStreamGroupCommands(table);
  RegisterStreamInfoCommands(table);
  RegisterListCommands(table);
  RegisterListBlockingCommands(table);
  RegisterSetCommands(table);
  RegisterZsetCommands(table);
  RegisterZsetPopCommands(table);
  RegisterZsetRangeCommands(table);
  RegisterZsetSetOpCommands(table);
  RegisterIntrospectionCommands(table);
  RegisterTransactionCommands(table);
  RegisterPubSubCommands(table);
  RegisterClusterCommands(table);
  RegisterHyperLogLogCommands(table);
  RegisterGeoCommands(table);
  RegisterObjectCommands(table);
  RegisterReplicationCommands(table);
  RegisterDebugCommands(table);
  RegisterMonitoringCommands(table);
  RegisterLolwutCommand(table);
  RegisterModuleCommands(table);
  RegisterScriptingCommands(table);
  RegisterFunctionCommands(table);
  RegisterNodeControlCommands(table);
}

}  // namespace redlab::server::engine
