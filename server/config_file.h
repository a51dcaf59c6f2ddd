// redis.conf files, as `redlab-server /path/to/redis.conf [--name value ...]` reads them (Redis's
// loadServerConfig): one directive per line, '#' comments, words split as sdssplitargs splits
// them (quotes and escapes), `include` pulling another file in at its place.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace redlab::server {

struct ConfigDirective {
  std::string name;                // lowercased, as Redis compares directive names
  std::vector<std::string> words;  // its arguments
};

// Redis's fatal config error: the line's number and text, and what is wrong with it; line 0 when a
// file could not be read.
struct ConfigFileError {
  int line = 0;
  std::string text;
  std::string reason;
  // The report Redis prints before exiting with status 1.
  std::string Report() const;
};

using ConfigFileResult = std::variant<std::vector<ConfigDirective>, ConfigFileError>;

// Parses the text of a configuration file. `read_include` reads the file an `include` names
// (it returns false when the file cannot be read).
ConfigFileResult ParseConfigText(std::string_view text,
                                 bool (*read_include)(const std::string& path, std::string* out));

// Parses a configuration's text whose `include` directives read files (`redis-server -`: the
// configuration read from standard input).
ConfigFileResult ParseConfigTextWithIncludes(std::string_view text);

// Reads and parses the file at `path`; an unreadable file is an error as in Redis.
ConfigFileResult ReadConfigFile(const std::string& path);

}  // namespace redlab::server
