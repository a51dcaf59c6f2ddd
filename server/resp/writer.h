// Writes replies in RESP2 or RESP3 into a connection's output buffer. RESP3-only types are
// downgraded the way Redis downgrades them for RESP2 clients (maps become flat arrays, doubles
// become bulk strings, nulls become $-1 or *-1...).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace redlab::server::resp {

// Told about every error reply written, so a node can keep Redis's error statistics.
class ErrorListener {
 public:
  virtual ~ErrorListener() = default;
  virtual void OnErrorReply(std::string_view text) = 0;  // text without the leading '-'
  // An error reply kept out of the error statistics (a script's error that a command it called
  // already counted): the command that replies it still failed.
  virtual void OnUncountedErrorReply() {}
};

class ReplyWriter {
 public:
  explicit ReplyWriter(std::string* out, int protocol = 2) : out_(out), protocol_(protocol) {}

  int protocol() const { return protocol_; }
  void set_protocol(int protocol) { protocol_ = protocol; }
  std::string* buffer() { return out_; }
  void set_error_listener(ErrorListener* listener) { error_listener_ = listener; }
  void set_buffer(std::string* out) { out_ = out; }

  void Status(std::string_view s);  // +OK
  // An error reply, with Redis's addReplyError rule: a message starting with '-' carries its own
  // code ("-WRONGTYPE Operation...") and is sent as is; any other gets "-ERR " in front.
  // Newlines in the text become spaces so the reply stays one line.
  void Error(std::string_view message);
  void Integer(int64_t value);
  void Bulk(std::string_view s);
  void BulkInteger(int64_t value);  // an integer as a bulk string
  void Null();                      // $-1 in RESP2, _ in RESP3
  void NullArray();                 // *-1 in RESP2, _ in RESP3
  void Double(double value);        // %.17g; a bulk string in RESP2
  void Bool(bool value);            // :1/:0 in RESP2
  void Verbatim(std::string_view s, std::string_view format = "txt");  // bulk in RESP2
  void BigNumber(std::string_view digits);                              // bulk in RESP2
  void ArrayHeader(size_t n);
  void MapHeader(size_t pairs);  // *2n in RESP2
  void SetHeader(size_t n);      // *n in RESP2
  void PushHeader(size_t n);     // *n in RESP2
  void EmptyArray() { ArrayHeader(0); }
  void Raw(std::string_view bytes) { out_->append(bytes); }
  // A whole error line ("-ERR ...\r\n") kept out of the error statistics (Redis's
  // ERR_REPLY_FLAG_NO_STATS_UPDATE).
  void UncountedError(std::string_view line) {
    out_->append(line);
    if (error_listener_ != nullptr) error_listener_->OnUncountedErrorReply();
  }

  // Deferred lengths, for replies whose element count is known only after they are written.
  // The header is inserted at the returned position when the count is known.
  size_t BeginDeferred() const { return out_->size(); }
  void EndDeferredArray(size_t position, size_t n) { InsertHeader(position, '*', n); }
  void EndDeferredMap(size_t position, size_t pairs);
  void EndDeferredSet(size_t position, size_t n);

 private:
  void Header(char prefix, int64_t n);
  void InsertHeader(size_t position, char prefix, int64_t n);

  std::string* out_;
  int protocol_;
  ErrorListener* error_listener_ = nullptr;
};

// Formats a double as Redis 7.0 does in replies ("%.17g", with "inf"/"-inf").
std::string FormatDouble(double value);

}  // namespace redlab::server::resp
