#include "server/config_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "server/base/text.h"
#include "server/resp/arg_list.h"
#include "server/resp/parser.h"

namespace redlab::server {
namespace {

bool ReadWholeFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *out = buffer.str();
  return true;
}

// Redis's multi-argument parameters whose setters accept no argument at all: a line naming one
// alone empties it (`save` alone, as Redis's test harness writes `save ""`, means no snapshot
// points). Any other parameter's line wants a value; Redis's setters of replicaof and
// oom-score-adj-values refuse none with the same "wrong number of arguments", and an empty
// bind makes redis-server exit, not listen.
bool TakesNoValue(std::string_view name) {
  static constexpr std::string_view kMultiArg[] = {"save", "client-output-buffer-limit",
                                                   "latency-tracking-info-percentiles"};
  for (std::string_view n : kMultiArg) {
    if (name == n) return true;
  }
  return false;
}

// Nested includes stop here, as a cycle would otherwise never end.
constexpr int kMaxIncludeDepth = 16;

std::variant<std::monostate, ConfigFileError> ParseInto(
    std::string_view text, bool (*read_include)(const std::string&, std::string*), int depth,
    std::vector<ConfigDirective>* out) {
  int line_no = 0;
  resp::ArgList args;
  for (size_t pos = 0; pos <= text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    std::string_view line = TrimSpace(raw);
    if (line.empty() || line[0] == '#') {
      if (end == text.size()) break;
      continue;
    }
    args.Clear();
    if (!resp::SplitInlineArgs(line, &args)) {
      return ConfigFileError{line_no, std::string(line), "Unbalanced quotes in configuration line"};
    }
    if (args.empty()) continue;
    ConfigDirective d;
    d.name = ToLower(args[0]);
    for (size_t i = 1; i < args.size(); ++i) d.words.push_back(args[i]);
    if (d.name == "include" && d.words.size() == 1) {
      std::string included;
      errno = 0;
      int failure = depth >= kMaxIncludeDepth ? ELOOP : 0;
      if (failure == 0 && !read_include(d.words[0], &included)) {
        failure = errno != 0 ? errno : ENOENT;
      }
      if (failure != 0) {
        return ConfigFileError{
            0,
            {},
            "Fatal error, can't open config file '" + d.words[0] + "': " + std::strerror(failure)};
      }
      auto nested = ParseInto(included, read_include, depth + 1, out);
      if (auto* error = std::get_if<ConfigFileError>(&nested)) return *error;
      continue;
    }
    if (d.words.empty() && !TakesNoValue(d.name)) {
      return ConfigFileError{line_no, std::string(line), "wrong number of arguments"};
    }
    out->push_back(std::move(d));
    if (end == text.size()) break;
  }
  return std::monostate{};
}

}  // namespace

std::string ConfigFileError::Report() const {
  if (line == 0) return reason + "\n";  // the file itself could not be read
  return "\n*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***\nReading the configuration file, at "
         "line " +
         std::to_string(line) + "\n>>> '" + text + "'\n" + reason + "\n";
}

ConfigFileResult ParseConfigText(std::string_view text,
                                 bool (*read_include)(const std::string&, std::string*)) {
  std::vector<ConfigDirective> directives;
  auto result = ParseInto(text, read_include, 0, &directives);
  if (auto* error = std::get_if<ConfigFileError>(&result)) return *error;
  return directives;
}

ConfigFileResult ParseConfigTextWithIncludes(std::string_view text) {
  return ParseConfigText(text, ReadWholeFile);
}

ConfigFileResult ReadConfigFile(const std::string& path) {
  std::string text;
  errno = 0;
  if (!ReadWholeFile(path, &text)) {
    return ConfigFileError{0,
                           {},
                           "Fatal error, can't open config file '" + path +
                               "': " + std::strerror(errno != 0 ? errno : ENOENT)};
  }
  return ParseConfigText(text, ReadWholeFile);
}

}  // namespace redlab::server
