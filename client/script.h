// A Lua script of lua/ as the client sends it: its text for EVAL and its SHA1 for EVALSHA.
#pragma once

#include <string>
#include <string_view>

namespace redlab::client {

struct Script {
  std::string name;
  std::string text;
  std::string sha;  // lowercase hex SHA1 of text, as SCRIPT LOAD answers

  /// The script `name` of lua/ (embedded at build time).
  static Script Load(std::string_view name);
};

/// Lowercase hex SHA1, as Redis names scripts.
std::string Sha1Hex(std::string_view text);

/// The reentrant lock's scripts (see lua/lock_*.lua for their keys, arguments and replies).
struct LockScripts {
  Script acquire = Script::Load("lock_acquire");
  Script release = Script::Load("lock_release");
  Script renew = Script::Load("lock_renew");
  Script force_release = Script::Load("lock_force_release");
  // The fenced lock: acquire returning the token, and the plain form behind Lock / TryLock.
  Script fenced_acquire = Script::Load("fenced_lock_acquire");
  Script fenced_acquire_plain = Script::Load("fenced_lock_acquire_plain");
};

}  // namespace redlab::client
