#include "server/replication/stream_encoder.h"

#include <charconv>

namespace redlab::server::replication {
namespace {

void AppendNumber(char prefix, size_t n, std::string* out) {
  char buf[24];
  buf[0] = prefix;
  auto [end, ec] = std::to_chars(buf + 1, buf + sizeof(buf) - 2, n);
  *end++ = '\r';
  *end++ = '\n';
  out->append(buf, static_cast<size_t>(end - buf));
}

void AppendBulk(std::string_view s, std::string* out) {
  AppendNumber('$', s.size(), out);
  out->append(s);
  out->append("\r\n", 2);
}

}  // namespace

void StreamEncoder::AppendCommand(std::span<const std::string> args, std::string* out) {
  AppendNumber('*', args.size(), out);
  for (const std::string& a : args) AppendBulk(a, out);
}

void StreamEncoder::AppendCommand(std::initializer_list<std::string_view> args, std::string* out) {
  AppendNumber('*', args.size(), out);
  for (std::string_view a : args) AppendBulk(a, out);
}

void StreamEncoder::Select(int db, std::string* out) {
  if (db < 0 || db == selected_db_) return;
  std::string id = std::to_string(db);
  AppendCommand({"SELECT", id}, out);
  selected_db_ = db;
}

void StreamEncoder::EncodeCommand(int db, std::span<const std::string> args, std::string* out) {
  Select(db, out);
  AppendCommand(args, out);
}

void StreamEncoder::Encode(std::span<const engine::Effect> effects, std::string* out) {
  if (effects.empty()) return;
  const bool wrap = effects.size() > 1;
  if (wrap) {
    // MULTI goes in the first effect's database, so its SELECT comes first; EXEC selects
    // nothing.
    Select(effects.front().db, out);
    AppendCommand({"MULTI"}, out);
  }
  for (const engine::Effect& e : effects) {
    Select(e.db, out);
    AppendCommand(e.args, out);
  }
  if (wrap) AppendCommand({"EXEC"}, out);
}

}  // namespace redlab::server::replication
