// The AOF manifest, as Redis 7.0's aof.c reads and writes it (see aof_manifest.h).
#include "server/engine/core/aof_manifest.h"

#include <fmt/format.h>
#include <strings.h>

#include <cctype>
#include <cstdlib>

namespace redlab::server::engine {
namespace {

constexpr size_t kMaxLine = 1024;  // MANIFEST_MAX_LINE

// sdsneedsrepr.
bool NeedsRepr(std::string_view s) {
  for (unsigned char c : s) {
    if (c == '\\' || c == '"' || c == '\n' || c == '\r' || c == '\t' || c == '\a' || c == '\b' ||
        !std::isprint(c) || std::isspace(c)) {
      return true;
    }
  }
  return false;
}

// sdscatrepr.
std::string Repr(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      default:
        if (std::isprint(c)) {
          out += static_cast<char>(c);
        } else {
          out += fmt::format("\\x{:02x}", c);
        }
    }
  }
  return out + "\"";
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// sdssplitargs: words separated by spaces, "double quoted" with C escapes or 'single quoted';
// false on unbalanced quotes or a closing quote not followed by a space.
bool SplitArgs(std::string_view line, std::vector<std::string>* out) {
  size_t i = 0, n = line.size();
  while (true) {
    while (i < n && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i >= n) return true;
    std::string word;
    bool in_dq = false, in_sq = false, done = false;
    while (!done) {
      if (in_dq) {
        if (i >= n) return false;
        if (line[i] == '\\' && i + 3 < n && line[i + 1] == 'x' && HexValue(line[i + 2]) >= 0 &&
            HexValue(line[i + 3]) >= 0) {
          word += static_cast<char>(HexValue(line[i + 2]) * 16 + HexValue(line[i + 3]));
          i += 3;
        } else if (line[i] == '\\' && i + 1 < n) {
          char c = line[++i];
          switch (c) {
            case 'n':
              word += '\n';
              break;
            case 'r':
              word += '\r';
              break;
            case 't':
              word += '\t';
              break;
            case 'b':
              word += '\b';
              break;
            case 'a':
              word += '\a';
              break;
            default:
              word += c;
          }
        } else if (line[i] == '"') {
          if (i + 1 < n && !std::isspace(static_cast<unsigned char>(line[i + 1]))) return false;
          done = true;
        } else {
          word += line[i];
        }
      } else if (in_sq) {
        if (i >= n) return false;
        if (line[i] == '\\' && i + 1 < n && line[i + 1] == '\'') {
          word += '\'';
          ++i;
        } else if (line[i] == '\'') {
          if (i + 1 < n && !std::isspace(static_cast<unsigned char>(line[i + 1]))) return false;
          done = true;
        } else {
          word += line[i];
        }
      } else {
        if (i >= n) {
          done = true;
          break;
        }
        char c = line[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\0') {
          done = true;
        } else if (c == '"') {
          in_dq = true;
        } else if (c == '\'') {
          in_sq = true;
        } else {
          word += c;
        }
      }
      if (i < n) ++i;
    }
    out->push_back(std::move(word));
  }
}

void AppendLine(const AofFileInfo& info, std::string* out) {
  *out += fmt::format("file {} seq {} type {}\n",
                      NeedsRepr(info.name) ? Repr(info.name) : info.name, info.seq, info.type);
}

}  // namespace

std::string AofManifest::ToString() const {
  std::string out;
  if (base) AppendLine(*base, &out);
  for (const AofFileInfo& info : history) AppendLine(info, &out);
  for (const AofFileInfo& info : incr) AppendLine(info, &out);
  return out;
}

std::optional<AofManifest> AofManifest::Parse(std::string_view text, std::string* error,
                                              int* line_number) {
  AofManifest am;
  int64_t max_seq = 0;
  int linenum = 0;
  size_t pos = 0;
  auto fail = [&](std::string_view message, bool at_line) -> std::optional<AofManifest> {
    *error = std::string(message);
    if (line_number != nullptr) *line_number = at_line ? linenum : 0;
    return std::nullopt;
  };
  while (true) {
    if (pos >= text.size()) {
      if (linenum == 0) return fail("Found an empty AOF manifest", false);
      break;
    }
    // fgets with a buffer of MANIFEST_MAX_LINE + 1: a line (with its newline) or 1024 bytes.
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    if (end - pos > kMaxLine) end = pos + kMaxLine;
    std::string_view buf = text.substr(pos, end - pos);
    pos = end;
    ++linenum;
    if (buf[0] == '#') continue;  // a comment
    if (buf.find('\n') == std::string_view::npos) {
      return fail("The AOF manifest file contains too long line", true);
    }
    size_t first = buf.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return fail("Invalid AOF manifest file format", true);
    std::string_view line = buf.substr(first, buf.find_last_not_of(" \t\r\n") - first + 1);
    std::vector<std::string> argv;
    if (!SplitArgs(line, &argv) || argv.size() < 6 || argv.size() % 2 != 0) {
      return fail("Invalid AOF manifest file format", true);
    }
    AofFileInfo info;
    info.type = 0;
    bool has_name = false;
    for (size_t i = 0; i < argv.size(); i += 2) {
      if (strcasecmp(argv[i].c_str(), "file") == 0) {
        info.name = argv[i + 1];
        has_name = true;
        if (info.name.find('/') != std::string::npos) {
          return fail("File can't be a path, just a filename", true);
        }
      } else if (strcasecmp(argv[i].c_str(), "seq") == 0) {
        info.seq = std::atoll(argv[i + 1].c_str());
      } else if (strcasecmp(argv[i].c_str(), "type") == 0) {
        info.type = argv[i + 1].empty() ? 0 : argv[i + 1][0];
      }
    }
    if (!has_name || info.seq == 0 || info.type == 0) {
      return fail("Invalid AOF manifest file format", true);
    }
    if (info.type == AofFileInfo::kBase) {
      if (am.base) return fail("Found duplicate base file information", true);
      am.curr_base_seq = info.seq;
      am.base = std::move(info);
    } else if (info.type == AofFileInfo::kHistory) {
      am.history.push_back(std::move(info));
    } else if (info.type == AofFileInfo::kIncr) {
      if (info.seq <= max_seq) return fail("Found a non-monotonic sequence number", true);
      max_seq = am.curr_incr_seq = info.seq;
      am.incr.push_back(std::move(info));
    } else {
      return fail("Unknown AOF file type", true);
    }
  }
  return am;
}

const std::string& AofManifest::NewBase(std::string_view filename, bool rdb_preamble) {
  if (base) {
    base->type = AofFileInfo::kHistory;
    history.insert(history.begin(), std::move(*base));
  }
  ++curr_base_seq;
  base = AofFileInfo{
      fmt::format("{}.{}.base{}", filename, curr_base_seq, rdb_preamble ? ".rdb" : ".aof"),
      curr_base_seq, AofFileInfo::kBase};
  return base->name;
}

const std::string& AofManifest::NewIncr(std::string_view filename) {
  ++curr_incr_seq;
  incr.push_back(AofFileInfo{fmt::format("{}.{}.incr.aof", filename, curr_incr_seq), curr_incr_seq,
                             AofFileInfo::kIncr});
  return incr.back().name;
}

const std::string& AofManifest::LastIncr(std::string_view filename) {
  if (incr.empty()) return NewIncr(filename);
  return incr.back().name;
}

void AofManifest::MarkRewrittenIncrAsHistory(bool keep_last) {
  if (incr.empty()) return;
  size_t moved = keep_last ? incr.size() - 1 : incr.size();
  // Walked from the tail, each added at the head of the history (as Redis does): the history
  // keeps the files' order.
  for (size_t i = moved; i-- > 0;) {
    AofFileInfo info = incr[i];
    info.type = AofFileInfo::kHistory;
    history.insert(history.begin(), std::move(info));
  }
  incr.erase(incr.begin(), incr.begin() + static_cast<std::ptrdiff_t>(moved));
}

}  // namespace redlab::server::engine
