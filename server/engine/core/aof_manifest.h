// The manifest of Redis 7.0's multi-part append-only file (aof.c's aofManifest): which base,
// incremental and history files of the AOF directory make up the dataset, in the text format
// Redis reads and writes (`file <name> seq <n> type <b|h|i>`, one file a line).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace redlab::server::engine {

struct AofFileInfo {
  // Redis's AOF_FILE_TYPE_*.
  static constexpr char kBase = 'b';
  static constexpr char kHistory = 'h';
  static constexpr char kIncr = 'i';

  std::string name;
  int64_t seq = 0;
  char type = kIncr;

  bool operator==(const AofFileInfo&) const = default;
};

struct AofManifest {
  std::optional<AofFileInfo> base;
  std::vector<AofFileInfo> history;
  std::vector<AofFileInfo> incr;
  int64_t curr_base_seq = 0;
  int64_t curr_incr_seq = 0;

  bool empty() const { return !base && incr.empty(); }

  // getAofManifestAsString: the base first, then history, then incremental files; a name that
  // needs quoting is written as sdscatrepr writes it.
  std::string ToString() const;

  // aofLoadManifestFromFile: the manifest in `text`, or Redis's error text for it (in *error,
  // with the 1-based number of the offending line in *line, 0 when the error is not a line's).
  static std::optional<AofManifest> Parse(std::string_view text, std::string* error,
                                          int* line = nullptr);

  // getNewBaseFileNameAndMarkPreAsHistory: `<filename>.<seq>.base.rdb` (or `.aof` without the
  // RDB preamble) becomes the base; the previous base, if any, goes first in the history.
  const std::string& NewBase(std::string_view filename, bool rdb_preamble);
  // getNewIncrAofName: `<filename>.<seq>.incr.aof`, appended to the incremental files.
  const std::string& NewIncr(std::string_view filename);
  // getLastIncrAofName: the incremental file written now, a new one when there is none.
  const std::string& LastIncr(std::string_view filename);
  // markRewrittenIncrAofAsHistory: every incremental file but the last one (when `keep_last`,
  // the file being written) becomes history.
  void MarkRewrittenIncrAsHistory(bool keep_last);
};

}  // namespace redlab::server::engine
