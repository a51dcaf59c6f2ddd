// Conversions between Redis replies and Lua values, as Redis 7.0's script_lua.c does them: the
// RESP reply of a command becomes a Lua value for redis.call (redisProtocolToLuaType), and the
// value a script returns becomes the reply to EVAL (luaReplyToRedisReply).
#pragma once

#include <cstdint>
#include <string_view>

#include "server/resp/writer.h"

struct lua_State;

namespace redlab::server::scripting {

// Pushes the Lua value of one complete RESP2/RESP3 reply: integers become numbers, bulk strings
// strings, a null bulk or null array false, RESP3 null nil, status {ok=...}, errors {err=...},
// arrays tables, and the RESP3 types {map=}, {set=}, {double=}, {big_number=},
// {verbatim_string={string=, format=}} or booleans. Attributes are skipped.
void PushReply(lua_State* lua, std::string_view reply);

// Pushes Redis's error table {err="CODE message"} for "-CODE message" or "message" (which gets the
// ERR code), as luaPushErrorBuff: the text is trimmed of CR/LF at both ends.
void PushErrorTable(lua_State* lua, std::string_view error);

// Writes the value on top of the Lua stack as a reply and pops it. `script_resp` is the protocol
// the script selected with redis.setresp: it decides whether booleans are sent as RESP3
// booleans or as 1 / null.
void WriteReply(lua_State* lua, int script_resp, resp::ReplyWriter& out);

// Writes an error reply as Redis's addReplyErrorFormat does: CR/LF trimmed at both ends and
// turned into spaces inside, "-ERR " prepended unless the text starts with '-'. When
// `count_in_stats` is false the error statistics are left alone (Redis's
// ERR_REPLY_FLAG_NO_STATS_UPDATE, for errors already counted when a command replied them).
void WriteFormattedError(resp::ReplyWriter& out, std::string_view text, bool count_in_stats);

// (long long)number as Redis converts script numbers to integer replies on x86-64: truncated
// toward zero, and INT64_MIN for NaN and values out of range.
int64_t LuaNumberToInt64(double number);

// (int)number the same way: INT_MIN for NaN and values out of range. Redis's scripting API
// stores Lua numbers in ints this way (redis.setresp, redis.set_repl, redis.log).
int LuaNumberToInt(double number);

// (unsigned long)number as gcc compiles it for x86-64 (struct's sizes and unsigned fields).
uint64_t LuaNumberToUint64(double number);

}  // namespace redlab::server::scripting
