// Redis's shared error texts (server.c createSharedObjects and friends). Texts starting with
// '-' carry their own error code; the others get "-ERR " (see ReplyWriter::Error).
#pragma once

#include <string>
#include <string_view>

namespace redlab::server::engine::err {

inline constexpr std::string_view kWrongType =
    "-WRONGTYPE Operation against a key holding the wrong kind of value";
inline constexpr std::string_view kSyntax = "syntax error";
inline constexpr std::string_view kNotInteger = "value is not an integer or out of range";
inline constexpr std::string_view kNotFloat = "value is not a valid float";
inline constexpr std::string_view kOverflow = "increment or decrement would overflow";
inline constexpr std::string_view kNoSuchKey = "no such key";
inline constexpr std::string_view kOutOfRange = "index out of range";
inline constexpr std::string_view kNoAuth = "-NOAUTH Authentication required.";
inline constexpr std::string_view kWrongPass =
    "-WRONGPASS invalid username-password pair or user is disabled.";
inline constexpr std::string_view kOom = "-OOM command not allowed when used memory > 'maxmemory'.";
inline constexpr std::string_view kNotInMulti = "Command not allowed inside a transaction";
inline constexpr std::string_view kDbIndexOutOfRange = "DB index is out of range";
inline constexpr std::string_view kSameObject = "source and destination objects are the same";
inline constexpr std::string_view kBusyKey = "-BUSYKEY Target key name already exists.";
inline constexpr std::string_view kMaxClients = "max number of clients reached";
// addReplyErrorArity: `full_name` as COMMAND prints it ("get", "config|get").
inline std::string WrongArity(std::string_view full_name) {
  return "wrong number of arguments for '" + std::string(full_name) + "' command";
}

inline constexpr std::string_view kBusyScript =
    "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";

}  // namespace redlab::server::engine::err
