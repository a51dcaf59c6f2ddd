// Loading the append-only file, as Redis 7.0's aof.c loads it: the manifest, the base and
// incremental files it names, the commands replayed on a client of their own (see aof.h).
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "server/engine/core/aof.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/persistence.h"
#include "server/engine/core/script_runner.h"

namespace redlab::server::engine {
namespace {

constexpr int kNotice = 2;
constexpr int kWarning = 3;

bool FileExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool DirExists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::optional<std::string> ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

template <typename Fn>
auto Aof::WithoutPropagation(Fn&& load) {
  bool was_loading = engine_.loading();
  engine_.set_loading(true);
  auto result = load();
  engine_.set_loading(was_loading);
  return result;
}

// ---- Manifest ----

bool Aof::LoadManifest(std::string* error) {
  manifest_ = AofManifest{};
  if (!DirExists(DirPath())) return true;
  std::string name = engine_.config().appendfilename + ".manifest";
  std::string path = FilePath(name);
  if (!FileExists(path)) return true;
  std::optional<std::string> text = ReadWhole(path);
  if (!text) {
    *error = fmt::format("Fatal error: can't open the AOF manifest file {} for reading: {}", path,
                         std::strerror(errno));
    Log(kWarning, *error);
    return false;
  }
  int line = 0;
  std::optional<AofManifest> am = AofManifest::Parse(*text, error, &line);
  if (!am) {
    Log(kWarning, "*** FATAL AOF MANIFEST FILE ERROR ***");
    if (line > 0) Log(kWarning, fmt::format("Reading the manifest file, at line {}", line));
    Log(kWarning, *error);
    return false;
  }
  manifest_ = std::move(*am);
  return true;
}

// ---- Loading ----

std::optional<std::string> Aof::LoadAtStartup() {
  if (!engine_.config().appendonly) return std::nullopt;
  state_ = State::kOn;
  std::string error;
  if (!LoadManifest(&error)) return error;
  auto start = std::chrono::steady_clock::now();
  LoadResult result = LoadFiles();
  if (result == LoadResult::kFailed || result == LoadResult::kOpenError) {
    return "Fatal error loading the append only file";
  }
  if (result != LoadResult::kNotExist) {
    Log(kNotice,
        fmt::format("DB loaded from append only file: {:.3f} seconds", SecondsSince(start)));
  }
  if (!OpenOnStart()) return "Fatal error opening the append only file";
  engine_.set_aof_feeding(true);
  return std::nullopt;
}

Aof::LoadResult Aof::LoadFiles() {
  if (manifest_.empty()) return LoadResult::kNotExist;
  std::vector<const AofFileInfo*> files;
  if (manifest_.base) files.push_back(&*manifest_.base);
  for (const AofFileInfo& info : manifest_.incr) files.push_back(&info);
  int64_t total_size = 0, base_size = 0;
  for (const AofFileInfo* info : files) {
    struct stat st;
    if (stat(FilePath(info->name).c_str(), &st) != 0) {
      Log(kWarning, fmt::format("Unable to obtain the AOF file {} length. stat: {}", info->name,
                                std::strerror(errno)));
      return LoadResult::kFailed;
    }
    total_size += st.st_size;
    if (info == files.front() && manifest_.base) base_size = st.st_size;
  }
  if (total_size == 0) return LoadResult::kEmpty;
  LoadResult result = LoadResult::kOk;
  for (size_t i = 0; i < files.size(); ++i) {
    const AofFileInfo& info = *files[i];
    bool last_file = i + 1 == files.size();
    bool is_base = info.type == AofFileInfo::kBase;
    auto start = std::chrono::steady_clock::now();
    result = LoadFile(info.name);
    if (result == LoadResult::kOk || (result == LoadResult::kTruncated && last_file)) {
      Log(kNotice, fmt::format("DB loaded from {} file {}: {:.3f} seconds",
                               is_base ? "base" : "incr", info.name, SecondsSince(start)));
    }
    // An empty incremental file counts as loaded (some file had data).
    if (!is_base && result == LoadResult::kEmpty) result = LoadResult::kOk;
    if (result == LoadResult::kTruncated && !last_file) {
      result = LoadResult::kFailed;
      Log(kWarning, "Fatal error: the truncated file is not the last file");
    }
    if (result == LoadResult::kOpenError || result == LoadResult::kFailed) return result;
  }
  current_size_ = total_size;
  base_size_ = base_size;
  return result;
}

Aof::LoadResult Aof::LoadFile(const std::string& name) {
  std::string path = FilePath(name);
  std::optional<std::string> data = ReadWhole(path);
  if (!data) {
    int en = errno;
    struct stat st;
    if (stat(path.c_str(), &st) == 0 || errno != ENOENT) {
      Log(kWarning, fmt::format("Fatal error: can't open the append log file {} for reading: {}",
                                name, std::strerror(en)));
      return LoadResult::kOpenError;
    }
    Log(kWarning,
        fmt::format("The append log file {} doesn't exist: {}", name, std::strerror(errno)));
    return LoadResult::kNotExist;
  }
  if (data->empty()) return LoadResult::kEmpty;
  size_t pos = 0;
  if (data->compare(0, 5, "REDIS") == 0) {
    Log(kNotice, "Reading RDB base file on AOF loading...");
    auto error = WithoutPropagation(
        [&] { return engine_.persistence().LoadBytes(*data, /*merge=*/false, /*aof_base=*/true); });
    if (error) {
      Log(kWarning, *error);
      Log(kWarning, fmt::format("Error reading the RDB base file {}, AOF loading aborted", name));
      return LoadResult::kFailed;
    }
    pos = data->size();
  }
  int64_t valid_up_to = 0;
  LoadResult result =
      WithoutPropagation([&] { return ReplayCommands(name, *data, pos, &valid_up_to); });
  if (result != LoadResult::kTruncated) return result;
  // Unexpected end of file: a tail cut short (or a transaction never closed).
  if (engine_.config().aof_load_truncated) {
    Log(kWarning, fmt::format("!!! Warning: short read while loading the AOF file {}!!!", name));
    Log(kWarning, fmt::format("!!! Truncating the AOF {} at offset {} !!!", name, valid_up_to));
    if (truncate(path.c_str(), valid_up_to) == -1) {
      Log(kWarning,
          fmt::format("Error truncating the AOF file {}: {}", name, std::strerror(errno)));
    } else {
      Log(kWarning,
          fmt::format("AOF {} loaded anyway because aof-load-truncated is enabled", name));
      return LoadResult::kTruncated;
    }
  }
  Log(kWarning,
      fmt::format("Unexpected end of file reading the append only file {}. You can: 1) Make a "
                  "backup of your AOF file, then use ./redis-check-aof --fix "
                  "<filename.manifest>. 2) Alternatively you can set the 'aof-load-truncated' "
                  "configuration option to yes and restart the server.",
                  name));
  return LoadResult::kFailed;
}

// loadSingleAppendOnlyFile's command loop, on a client of its own that stands for Redis's fake
// AOF client: commands run as the master's would on a replica (keys already expired stay until
// a DEL says otherwise), with every permission and no reply kept. kTruncated stands for an
// unexpected end of file.
Aof::LoadResult Aof::ReplayCommands(const std::string& name, std::string_view data, size_t pos,
                                    int64_t* valid_up_to) {
  Client* client = engine_.CreateClient(nullptr);
  client->set_repl_role(Client::ReplRole::kMaster);
  client->set_authenticated(true);
  client->set_user(nullptr);
  int64_t valid_before_multi = 0;
  LoadResult result = LoadResult::kOk;
  std::vector<std::string> args;
  // fgets: a line of up to 128 bytes (AOF_ANNOTATION_LINE_MAX_LEN) with its newline.
  auto read_line = [&](std::string_view* line) {
    if (pos >= data.size()) return false;
    size_t nl = data.find('\n', pos);
    size_t end = nl == std::string_view::npos ? data.size() : nl + 1;
    end = std::min(end, pos + 1023);
    *line = data.substr(pos, end - pos);
    pos = end;
    return true;
  };
  auto format_error = [&] {
    Log(kWarning,
        fmt::format("Bad file format reading the append only file {}: make a backup of your AOF "
                    "file, then use ./redis-check-aof --fix <filename.manifest>",
                    name));
    return LoadResult::kFailed;
  };
  while (true) {
    std::string_view line;
    if (!read_line(&line)) break;
    if (line[0] == '#') continue;  // an annotation (#TS:...)
    if (line[0] != '*') {
      result = format_error();
      break;
    }
    if (line.size() == 1) {
      result = LoadResult::kTruncated;
      break;
    }
    int64_t argc = std::atoll(std::string(line.substr(1)).c_str());
    if (argc < 1) {
      result = format_error();
      break;
    }
    args.clear();
    for (int64_t j = 0; j < argc && result == LoadResult::kOk; ++j) {
      if (!read_line(&line)) {
        result = LoadResult::kTruncated;
      } else if (line[0] != '$') {
        result = format_error();
      } else {
        size_t len = std::strtoul(std::string(line.substr(1)).c_str(), nullptr, 10);
        if (pos + len + 2 > data.size()) {
          result = LoadResult::kTruncated;
        } else {
          args.emplace_back(data.substr(pos, len));
          pos += len + 2;
        }
      }
    }
    if (result != LoadResult::kOk) break;
    const Command* cmd = engine_.commands().Resolve(args);
    if (cmd == nullptr) {
      Log(kWarning,
          fmt::format("Unknown command '{}' reading the append only file {}", args[0], name));
      result = LoadResult::kFailed;
      break;
    }
    if (cmd->full_name == "multi") valid_before_multi = *valid_up_to;
    engine_.Execute(*client, args);
    client->reply_buffer().clear();
    *valid_up_to = static_cast<int64_t>(pos);
  }
  if (result == LoadResult::kOk && client->in_multi()) {
    Log(kWarning, fmt::format("Revert incomplete MULTI/EXEC transaction in AOF file {}", name));
    *valid_up_to = valid_before_multi;
    result = LoadResult::kTruncated;
  }
  engine_.DestroyClient(client);
  return result;
}

std::optional<std::string> Aof::Reload() {
  engine_.signals().Flushed(-1);
  engine_.keyspace().FlushAll();
  engine_.scripts().functions().Clear();
  std::string error;
  if (!LoadManifest(&error)) return error;
  DeleteHistoryFiles();
  LoadResult result = LoadFiles();
  if (result != LoadResult::kOk && result != LoadResult::kEmpty) {
    return "Error loading the append only file";
  }
  engine_.stats().SetDirty(0);
  Log(kWarning, "Append Only File loaded by DEBUG LOADAOF");
  return std::nullopt;
}

}  // namespace redlab::server::engine
