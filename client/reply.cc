#include "client/reply.h"

#include <hiredis/hiredis.h>

namespace redlab {

Reply Reply::FromHiredis(const redisReply& r) {
  Reply out;
  switch (r.type) {
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_ERROR:
    case REDIS_REPLY_STRING:  // the replies that carry text
      out.type = r.type == REDIS_REPLY_STATUS  ? Type::kStatus
                 : r.type == REDIS_REPLY_ERROR ? Type::kError
                                               : Type::kString;
      out.str.assign(r.str, r.len);
      break;
    case REDIS_REPLY_INTEGER:
      out.type = Type::kInteger;
      out.integer = r.integer;
      break;
    case REDIS_REPLY_ARRAY:
      out.type = Type::kArray;
      out.elements.reserve(r.elements);
      for (size_t i = 0; i < r.elements; ++i) out.elements.push_back(FromHiredis(*r.element[i]));
      break;
    default:  // REDIS_REPLY_NIL
      break;
  }
  return out;
}

Reply Reply::Integer(int64_t v) {
  Reply r;
  r.type = Type::kInteger;
  r.integer = v;
  return r;
}

Reply Reply::String(std::string s) {
  Reply r;
  r.type = Type::kString;
  r.str = std::move(s);
  return r;
}

Reply Reply::Error(std::string s) {
  Reply r;
  r.type = Type::kError;
  r.str = std::move(s);
  return r;
}

std::string Reply::ToString() const {
  switch (type) {
    case Type::kNil:
      return "(nil)";
    case Type::kStatus:
      return str;
    case Type::kError:
      return "(error) " + str;
    case Type::kInteger:
      return "(integer) " + std::to_string(integer);
    case Type::kString:
      return "\"" + str + "\"";
    case Type::kArray: {
      std::string s = "[";
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i) s += ", ";
        s += elements[i].ToString();
      }
      return s + "]";
    }
  }
  return "?";
}

std::optional<std::string> InfoField(std::string_view info, std::string_view field) {
  size_t pos = 0;
  while (pos < info.size()) {
    size_t end = info.find('\n', pos);
    if (end == std::string_view::npos) end = info.size();
    std::string_view line = info.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > field.size() && line.substr(0, field.size()) == field &&
        line[field.size()] == ':') {
      return std::string(line.substr(field.size() + 1));
    }
    pos = end + 1;
  }
  return std::nullopt;
}

}  // namespace redlab
