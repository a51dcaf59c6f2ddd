// Turns a master's write effects into the bytes of the replication stream, as Redis 7.0 writes
// them: each effect as a RESP array of bulk strings, a SELECT whenever the database differs from
// the last one the stream selected, and MULTI ... EXEC around the effects of one command,
// transaction or script when there is more than one of them (propagatePendingCommands).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "server/engine/core/engine.h"

namespace redlab::server::replication {

class StreamEncoder {
 public:
  // Appends the encoding of one batch of effects to *out.
  void Encode(std::span<const engine::Effect> effects, std::string* out);
  // Appends one command in database `db` (-1: whatever is selected), e.g. PING, REPLCONF GETACK.
  void EncodeCommand(int db, std::span<const std::string> args, std::string* out);

  // Forgets the selected database, so the next command is preceded by SELECT (after a full
  // resync, or when a replica becomes a master: Redis's slaveseldb = -1).
  void ForgetSelectedDb() { selected_db_ = -1; }
  int selected_db() const { return selected_db_; }

  // RESP encoding of one command as a multibulk request.
  static void AppendCommand(std::span<const std::string> args, std::string* out);
  static void AppendCommand(std::initializer_list<std::string_view> args, std::string* out);

 private:
  void Select(int db, std::string* out);

  int selected_db_ = -1;
};

}  // namespace redlab::server::replication
