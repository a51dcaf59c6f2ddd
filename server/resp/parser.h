// The request parser: bytes in, argument vectors or Redis's protocol errors out. It does no I/O,
// so the net layer, tests and fuzzers drive it the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "server/resp/arg_list.h"

namespace redlab::server::resp {

enum class ParseStatus {
  kCommand,   // `args` holds one complete request (possibly empty: skip it and parse on)
  kNeedMore,  // the input ends inside a request; call again with more bytes
  kError,     // protocol error: error() has Redis's text; the connection must reply and close
};

struct ParseLimits {
  int64_t proto_max_bulk_len = 512LL * 1024 * 1024;  // config proto-max-bulk-len
  bool auth_required = false;  // an unauthenticated client gets tighter limits, as in Redis
};

// Redis's inline-request and count-line limit (PROTO_INLINE_MAX_SIZE).
inline constexpr size_t kInlineMaxSize = 64 * 1024;

// Parses requests in RESP multibulk form (`*N\r\n$len\r\n...`) or inline form (a text line),
// as Redis's processMultibulkBuffer / processInlineBuffer do. A multibulk request may arrive in
// pieces: the parser keeps its position inside it between calls.
class RequestParser {
 public:
  // Parses at most one request from `input`. `*consumed` is set to the number of bytes of `input`
  // used; they must not be passed again. On kCommand the request's arguments are in `args`,
  // which the parser clears when a new request starts and fills across calls while a multibulk
  // request arrives in pieces (so the caller must pass the same `args` until kCommand).
  ParseStatus Parse(std::string_view input, const ParseLimits& limits, size_t* consumed,
                    ArgList* args);

  // Redis's error text for the last kError, without the leading "-ERR ".
  const std::string& error() const { return error_; }

  // True while a multibulk request is partly read.
  bool InRequest() const { return multibulk_left_ > 0; }

  // Bytes still expected for the bulk argument being read (0 when none): lets the net layer
  // size its read buffer for one big argument.
  int64_t PendingBulkBytes() const { return bulk_len_ > 0 ? bulk_len_ : 0; }

  void Reset();

 private:
  ParseStatus ParseInline(std::string_view input, size_t* consumed, ArgList* args);
  ParseStatus ParseMultibulk(std::string_view input, const ParseLimits& limits, size_t* consumed,
                             ArgList* args);
  ParseStatus Fail(std::string message);

  int64_t multibulk_left_ = 0;  // arguments still to read in the current request
  int64_t bulk_len_ = -1;       // length of the bulk argument being read, -1 before its header
  std::string error_;
};

// Splits an inline request line into arguments like Redis's sdssplitargs: whitespace separates,
// "double quotes" take \n \r \t \b \a \\ \" and \xHH escapes, 'single quotes' take \'.
// Returns false on unbalanced quotes.
bool SplitInlineArgs(std::string_view line, ArgList* args);

}  // namespace redlab::server::resp
