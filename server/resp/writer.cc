#include "server/resp/writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace redlab::server::resp {
std::string FormatDouble(double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  int n = std::snprintf(buf, sizeof(buf), "%.17g", value);
  return std::string(buf, static_cast<size_t>(n));
}

void ReplyWriter::Header(char prefix, int64_t n) {
  char buf[24];
  buf[0] = prefix;
  auto [end, ec] = std::to_chars(buf + 1, buf + sizeof(buf), n);
  out_->append(buf, static_cast<size_t>(end - buf));
  out_->append("\r\n", 2);
}

void ReplyWriter::InsertHeader(size_t position, char prefix, int64_t n) {
  char buf[26];
  buf[0] = prefix;
  auto [end, ec] = std::to_chars(buf + 1, buf + 22, n);
  *end++ = '\r';
  *end++ = '\n';
  out_->insert(position, buf, static_cast<size_t>(end - buf));
}

void ReplyWriter::Status(std::string_view s) {
  out_->push_back('+');
  out_->append(s);
  out_->append("\r\n", 2);
}

void ReplyWriter::Error(std::string_view message) {
  size_t line_start = out_->size();
  if (!message.empty() && message[0] == '-') {
    out_->append(message);
  } else {
    out_->append("-ERR ", 5);
    out_->append(message);
  }
  for (size_t i = line_start + 1; i < out_->size(); ++i) {
    if ((*out_)[i] == '\r' || (*out_)[i] == '\n') (*out_)[i] = ' ';
  }
  if (error_listener_ != nullptr) {
    error_listener_->OnErrorReply(std::string_view(*out_).substr(line_start + 1));
  }
  out_->append("\r\n", 2);
}

void ReplyWriter::Integer(int64_t value) { Header(':', value); }

void ReplyWriter::Bulk(std::string_view s) {
  Header('$', static_cast<int64_t>(s.size()));
  out_->append(s);
  out_->append("\r\n", 2);
}

void ReplyWriter::BulkInteger(int64_t value) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  Bulk(std::string_view(buf, static_cast<size_t>(end - buf)));
}

void ReplyWriter::Null() {
  if (protocol_ >= 3) {
    out_->append("_\r\n", 3);
  } else {
    out_->append("$-1\r\n", 5);
  }
}

void ReplyWriter::NullArray() {
  if (protocol_ >= 3) {
    out_->append("_\r\n", 3);
  } else {
    out_->append("*-1\r\n", 5);
  }
}

void ReplyWriter::Double(double value) {
  std::string text = FormatDouble(value);
  if (protocol_ >= 3) {
    out_->push_back(',');
    out_->append(text);
    out_->append("\r\n", 2);
  } else {
    Bulk(text);
  }
}

void ReplyWriter::Bool(bool value) {
  if (protocol_ >= 3) {
    out_->append(value ? "#t\r\n" : "#f\r\n", 4);
  } else {
    out_->append(value ? ":1\r\n" : ":0\r\n", 4);
  }
}

void ReplyWriter::Verbatim(std::string_view s, std::string_view format) {
  if (protocol_ < 3) {
    Bulk(s);
    return;
  }
  Header('=', static_cast<int64_t>(s.size() + 4));
  out_->append(format.substr(0, 3));
  out_->push_back(':');
  out_->append(s);
  out_->append("\r\n", 2);
}

void ReplyWriter::BigNumber(std::string_view digits) {
  if (protocol_ < 3) {
    Bulk(digits);
    return;
  }
  out_->push_back('(');
  out_->append(digits);
  out_->append("\r\n", 2);
}

void ReplyWriter::ArrayHeader(size_t n) { Header('*', static_cast<int64_t>(n)); }

void ReplyWriter::MapHeader(size_t pairs) {
  if (protocol_ >= 3) {
    Header('%', static_cast<int64_t>(pairs));
  } else {
    Header('*', static_cast<int64_t>(pairs * 2));
  }
}

void ReplyWriter::SetHeader(size_t n) { Header(protocol_ >= 3 ? '~' : '*', static_cast<int64_t>(n)); }

void ReplyWriter::PushHeader(size_t n) { Header(protocol_ >= 3 ? '>' : '*', static_cast<int64_t>(n)); }

void ReplyWriter::EndDeferredMap(size_t position, size_t pairs) {
  if (protocol_ >= 3) {
    InsertHeader(position, '%', static_cast<int64_t>(pairs));
  } else {
    InsertHeader(position, '*', static_cast<int64_t>(pairs * 2));
  }
}

void ReplyWriter::EndDeferredSet(size_t position, size_t n) {
  InsertHeader(position, protocol_ >= 3 ? '~' : '*', static_cast<int64_t>(n));
}

}  // namespace redlab::server::resp
