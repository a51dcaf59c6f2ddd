// The append-only file, as Redis 7.0's aof.c (see aof.h).
#include "server/engine/core/aof.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "server/engine/core/engine.h"
#include "server/engine/core/persistence.h"
#include "server/engine/core/script_runner.h"

namespace redlab::server::engine {
namespace {

constexpr int kNotice = 2;
constexpr int kWarning = 3;

bool CreateDirIfMissing(const std::string& path) {
  return mkdir(path.c_str(), 0755) == 0 || errno == EEXIST;
}

// Writes all of `data` to `fd`, retrying short writes (aofWrite).
bool WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

void AppendCommand(std::span<const std::string> args, std::string* out) {
  *out += fmt::format("*{}\r\n", args.size());
  for (const std::string& a : args) {
    *out += fmt::format("${}\r\n", a.size());
    *out += a;
    *out += "\r\n";
  }
}

}  // namespace

Aof::Aof(Engine& engine) : engine_(engine) {}

Aof::~Aof() { CloseFile(); }

int64_t Aof::NowS() const { return engine_.clock().NowMs() / 1000; }

std::string Aof::DirPath() const {
  const ServerConfig& c = engine_.config();
  return c.dir.empty() ? c.appenddirname : c.dir + "/" + c.appenddirname;
}

std::string Aof::FilePath(std::string_view name) const {
  return DirPath() + "/" + std::string(name);
}

void Aof::Log(int level, const std::string& line) const {
  if (EngineHost* host = engine_.host()) host->Log(level, line);
}

bool Aof::PersistManifest(const AofManifest& am) {
  const std::string& filename = engine_.config().appendfilename;
  std::string temp_name = "temp-" + filename + ".manifest";
  std::string temp = FilePath(temp_name);
  int fd = open(temp.c_str(), O_WRONLY | O_TRUNC | O_CREAT, 0644);
  if (fd == -1) {
    Log(kWarning,
        fmt::format("Can't open the AOF manifest file {}: {}", temp_name, std::strerror(errno)));
    return false;
  }
  bool ok = WriteAll(fd, am.ToString());
  if (!ok) {
    Log(kWarning, fmt::format("Error trying to write the temporary AOF manifest file {}: {}",
                              temp_name, std::strerror(errno)));
  } else if (fsync(fd) == -1) {
    Log(kWarning,
        fmt::format("Fail to fsync the temp AOF file {}: {}.", temp_name, std::strerror(errno)));
    ok = false;
  }
  close(fd);
  if (ok && std::rename(temp.c_str(), FilePath(filename + ".manifest").c_str()) != 0) {
    Log(kWarning,
        fmt::format("Error trying to rename the temporary AOF manifest file {} into {}: {}",
                    temp_name, filename + ".manifest", std::strerror(errno)));
    ok = false;
  }
  if (!ok) return false;
  int dir_fd = open(DirPath().c_str(), O_RDONLY);
  if (dir_fd != -1) {
    fsync(dir_fd);
    close(dir_fd);
  }
  return true;
}

// ---- Files ----

bool Aof::OpenOnStart() {
  if (!CreateDirIfMissing(DirPath())) {
    Log(kWarning, fmt::format("Can't open or create append-only dir {}: {}",
                              engine_.config().appenddirname, std::strerror(errno)));
    return false;
  }
  const ServerConfig& c = engine_.config();
  if (manifest_.empty()) {
    std::string base = manifest_.NewBase(c.appendfilename, c.aof_use_rdb_preamble);
    if (!WriteBase(FilePath(base))) return false;
    Log(kNotice, fmt::format("Creating AOF base file {} on server start", base));
  }
  bool had_incr = !manifest_.incr.empty();
  std::string name = manifest_.LastIncr(c.appendfilename);
  fd_ = open(FilePath(name).c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd_ == -1) {
    Log(kWarning,
        fmt::format("Can't open the append-only file {}: {}", name, std::strerror(errno)));
    return false;
  }
  if (!PersistManifest(manifest_)) return false;
  last_fsync_s_ = NowS();
  Log(kNotice,
      fmt::format("{} AOF incr file {} on server start", had_incr ? "Opening" : "Creating", name));
  return true;
}

bool Aof::OpenNewIncr() {
  if (state_ == State::kOff) return true;
  const std::string& filename = engine_.config().appendfilename;
  AofManifest am = manifest_;
  // While waiting for its first rewrite, the AOF writes a temporary file that becomes the
  // first incremental file once the base exists.
  std::string name =
      state_ == State::kWaitRewrite ? "temp-" + filename + ".incr" : am.NewIncr(filename);
  int fd = open(FilePath(name).c_str(), O_WRONLY | O_TRUNC | O_CREAT, 0644);
  if (fd == -1) {
    Log(kWarning,
        fmt::format("Can't open the append-only file {}: {}", name, std::strerror(errno)));
    return false;
  }
  if (state_ == State::kOn && !PersistManifest(am)) {
    close(fd);
    return false;
  }
  Log(kNotice, fmt::format("Creating AOF incr file {} on background rewrite", name));
  CloseFile();
  fd_ = fd;
  last_fsync_s_ = NowS();
  if (state_ == State::kOn) manifest_ = std::move(am);
  return true;
}

bool Aof::WriteBase(const std::string& path) {
  const ServerConfig& c = engine_.config();
  std::string content;
  if (c.aof_use_rdb_preamble) {
    content = engine_.persistence().Serialize();
  } else {
    if (c.aof_timestamp_enabled) content = fmt::format("#TS:{}\r\n", NowS());
    content += RewriteAsCommands(engine_);
  }
  std::string temp_name = fmt::format("temp-rewriteaof-{}.aof", getpid());
  std::string temp = c.dir.empty() ? temp_name : c.dir + "/" + temp_name;
  int fd = open(temp.c_str(), O_WRONLY | O_TRUNC | O_CREAT, 0644);
  if (fd == -1) {
    Log(kWarning,
        fmt::format("Opening the temp file for AOF rewrite in rewriteAppendOnlyFile(): {}",
                    std::strerror(errno)));
    return false;
  }
  bool ok = WriteAll(fd, content) && fsync(fd) == 0;
  ok = close(fd) == 0 && ok;
  if (!ok) {
    Log(kWarning,
        fmt::format("Write error writing append only file on disk: {}", std::strerror(errno)));
    unlink(temp.c_str());
    return false;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    Log(kWarning, fmt::format("Error moving temp append only file on the final destination: {}",
                              std::strerror(errno)));
    unlink(temp.c_str());
    return false;
  }
  return true;
}

void Aof::DeleteHistoryFiles() {
  if (engine_.config().aof_disable_auto_gc || manifest_.history.empty()) return;
  for (const AofFileInfo& info : manifest_.history) {
    Log(kNotice, fmt::format("Removing the history file {} in the background", info.name));
    unlink(FilePath(info.name).c_str());
  }
  manifest_.history.clear();
  PersistManifest(manifest_);
}

void Aof::CloseFile() {
  if (fd_ == -1) return;
  fsync(fd_);
  close(fd_);
  fd_ = -1;
}

void Aof::Fsync() {
  if (fd_ != -1) fdatasync(fd_);
  fsync_pending_ = false;
  last_fsync_s_ = NowS();
}

void Aof::Write(const std::string& bytes) {
  if (fd_ == -1) return;
  if (!WriteAll(fd_, bytes)) {
    Log(kWarning, fmt::format("Error writing to the AOF file: {}", std::strerror(errno)));
    last_write_ok_ = false;
    return;
  }
  if (!last_write_ok_) {
    Log(kWarning, "AOF write error looks solved, Redis can write again.");
    last_write_ok_ = true;
  }
  current_size_ += static_cast<int64_t>(bytes.size());
  if (engine_.config().appendfsync == "always") {
    Fsync();
  } else {
    fsync_pending_ = true;
  }
}

void Aof::Feed(std::span<const Effect> effects, EffectGrouping grouping) {
  if (state_ != State::kOn || effects.empty()) return;
  buf_.clear();
  if (engine_.config().aof_timestamp_enabled) {
    int64_t now = NowS();
    if (now > timestamp_s_) {
      timestamp_s_ = now;
      buf_ += fmt::format("#TS:{}\r\n", now);
    }
  }
  auto select = [&](int db) {
    if (db == selected_db_) return;
    std::string id = std::to_string(db);
    buf_ += fmt::format("*2\r\n$6\r\nSELECT\r\n${}\r\n{}\r\n", id.size(), id);
    selected_db_ = db;
  };
  // As the replication stream: MULTI/EXEC around a command's several effects, MULTI in the
  // first effect's database.
  bool wrap = grouping == EffectGrouping::kTransaction && effects.size() > 1;
  if (wrap) {
    select(effects.front().db);
    buf_ += "*1\r\n$5\r\nMULTI\r\n";
  }
  for (const Effect& e : effects) {
    select(e.db);
    AppendCommand(e.args, &buf_);
  }
  if (wrap) buf_ += "*1\r\n$4\r\nEXEC\r\n";
  Write(buf_);
}

// ---- Rewrites ----

bool Aof::DoRewrite() {
  if (!CreateDirIfMissing(DirPath())) {
    Log(kWarning, fmt::format("Can't open or create append-only dir {}: {}",
                              engine_.config().appenddirname, std::strerror(errno)));
    last_rewrite_ok_ = false;
    return false;
  }
  // The next command fed is preceded by a SELECT (it goes to a new incremental file).
  selected_db_ = -1;
  if (!OpenNewIncr()) {
    last_rewrite_ok_ = false;
    return false;
  }
  ++rewrites_;
  rewrite_scheduled_ = false;
  int64_t start_s = NowS();
  Log(kNotice, fmt::format("Background append only file rewriting started by pid {}", getpid()));
  const ServerConfig& c = engine_.config();
  std::string temp_name = fmt::format("temp-rewriteaof-bg-{}.aof", getpid());
  std::string temp = c.dir.empty() ? temp_name : c.dir + "/" + temp_name;
  auto fail = [&] {
    last_rewrite_ok_ = false;
    ++consecutive_failures_;
    unlink(temp.c_str());
    if (state_ == State::kWaitRewrite) {
      // The temporary incremental file goes; the rewrite is tried again from the cron.
      CloseFile();
      std::string temp_incr = "temp-" + c.appendfilename + ".incr";
      Log(kNotice, fmt::format("Removing the temp incr aof file {} in the background", temp_incr));
      unlink(FilePath(temp_incr).c_str());
      rewrite_scheduled_ = true;
    }
    last_rewrite_seconds_ = NowS() - start_s;
    return true;  // started, as a fork would have been; it is its end that failed
  };
  if (!WriteBase(temp)) {
    Log(kWarning, "Background AOF rewrite terminated with error");
    return fail();
  }
  Log(kNotice, fmt::format("Successfully created the temporary AOF base file {}", temp_name));
  // backgroundRewriteDoneHandler.
  Log(kNotice, "Background AOF rewrite terminated with success");
  AofManifest am = manifest_;
  std::string base = am.NewBase(c.appendfilename, c.aof_use_rdb_preamble);
  if (std::rename(temp.c_str(), FilePath(base).c_str()) != 0) {
    Log(kWarning, fmt::format("Error trying to rename the temporary AOF base file {} into {}: {}",
                              temp_name, base, std::strerror(errno)));
    return fail();
  }
  Log(kNotice,
      fmt::format("Successfully renamed the temporary AOF base file {} into {}", temp_name, base));
  if (state_ == State::kWaitRewrite) {
    std::string temp_incr = "temp-" + c.appendfilename + ".incr";
    std::string incr = am.NewIncr(c.appendfilename);
    if (std::rename(FilePath(temp_incr).c_str(), FilePath(incr).c_str()) != 0) {
      Log(kWarning, fmt::format("Error trying to rename the temporary AOF incr file {} into {}: {}",
                                FilePath(temp_incr), FilePath(incr), std::strerror(errno)));
      unlink(FilePath(base).c_str());
      return fail();
    }
    Log(kNotice, fmt::format("Successfully renamed the temporary AOF incr file {} into {}",
                             temp_incr, incr));
  }
  am.MarkRewrittenIncrAsHistory(/*keep_last=*/fd_ != -1);
  if (!PersistManifest(am)) {
    unlink(FilePath(base).c_str());
    return fail();
  }
  manifest_ = std::move(am);
  if (state_ != State::kOff) {
    struct stat st;
    int64_t base_bytes = stat(FilePath(base).c_str(), &st) == 0 ? st.st_size : 0;
    current_size_ = base_bytes;
    base_size_ = base_bytes;
  }
  DeleteHistoryFiles();
  last_rewrite_ok_ = true;
  consecutive_failures_ = 0;
  Log(kNotice, "Background AOF rewrite finished successfully");
  if (state_ == State::kWaitRewrite) {
    state_ = State::kOn;
    engine_.set_aof_feeding(true);
  }
  last_rewrite_seconds_ = NowS() - start_s;
  return true;
}

Aof::RewriteReply Aof::Rewrite(bool in_transaction) {
  if (engine_.persistence().bgsave_in_progress() || in_transaction) {
    rewrite_scheduled_ = true;
    consecutive_failures_ = 0;
    return RewriteReply::kScheduled;
  }
  return DoRewrite() ? RewriteReply::kStarted : RewriteReply::kFailed;
}

bool Aof::Start(bool in_transaction) {
  state_ = State::kWaitRewrite;
  if (engine_.persistence().bgsave_in_progress()) {
    rewrite_scheduled_ = true;
    Log(kWarning,
        "AOF was enabled but there is already another background operation. An AOF background "
        "was scheduled to start when possible.");
  } else if (in_transaction) {
    rewrite_scheduled_ = true;
    Log(kWarning,
        "AOF was enabled during a transaction. An AOF background was scheduled to start when "
        "possible.");
  } else if (!DoRewrite()) {
    state_ = State::kOff;
    Log(kWarning,
        "Redis needs to enable the AOF but can't trigger a background AOF rewrite operation. "
        "Check the above logs for more info about the error.");
    return false;
  }
  last_fsync_s_ = NowS();
  if (!last_write_ok_) {
    Log(kWarning, "AOF reopen, just ignore the last error.");
    last_write_ok_ = true;
  }
  return true;
}

void Aof::Stop() {
  if (state_ == State::kOff) return;
  CloseFile();
  engine_.set_aof_feeding(false);
  selected_db_ = -1;
  state_ = State::kOff;
  rewrite_scheduled_ = false;
}

void Aof::Cron() {
  if (state_ == State::kOff && !rewrite_scheduled_) return;
  if (fsync_pending_ && engine_.config().appendfsync == "everysec" && NowS() != last_fsync_s_) {
    Fsync();
  }
  if (engine_.persistence().bgsave_in_progress()) return;
  if (rewrite_scheduled_) {
    DoRewrite();
    return;
  }
  // Automatic rewrites on growth (serverCron).
  const ServerConfig& c = engine_.config();
  if (state_ == State::kOn && c.auto_aof_rewrite_percentage > 0 &&
      current_size_ > c.auto_aof_rewrite_min_size) {
    int64_t base = base_size_ > 0 ? base_size_ : 1;
    int64_t growth = current_size_ * 100 / base - 100;
    if (growth >= c.auto_aof_rewrite_percentage) {
      Log(kNotice, fmt::format("Starting automatic rewriting of AOF on {}% growth", growth));
      DoRewrite();
    }
  }
}

void Aof::AppendInfo(std::string* out) const {
  *out += fmt::format("aof_enabled:{}\r\n", state_ != State::kOff ? 1 : 0);
  *out += "aof_rewrite_in_progress:0\r\n";
  *out += fmt::format("aof_rewrite_scheduled:{}\r\n", rewrite_scheduled_ ? 1 : 0);
  *out += fmt::format("aof_last_rewrite_time_sec:{}\r\n", last_rewrite_seconds_);
  *out += "aof_current_rewrite_time_sec:-1\r\n";
  *out += fmt::format("aof_last_bgrewrite_status:{}\r\n", last_rewrite_ok_ ? "ok" : "err");
  *out += fmt::format("aof_rewrites:{}\r\n", rewrites_);
  *out += fmt::format("aof_rewrites_consecutive_failures:{}\r\n", consecutive_failures_);
  *out += fmt::format("aof_last_write_status:{}\r\n", last_write_ok_ ? "ok" : "err");
  *out += "aof_last_cow_size:0\r\n";
}

void Aof::AppendEnabledInfo(std::string* out) const {
  if (!engine_.config().appendonly) return;
  *out += fmt::format("aof_current_size:{}\r\n", current_size_);
  *out += fmt::format("aof_base_size:{}\r\n", base_size_);
  *out += fmt::format("aof_pending_rewrite:{}\r\n", rewrite_scheduled_ ? 1 : 0);
  *out += "aof_buffer_length:0\r\naof_pending_bio_fsync:0\r\naof_delayed_fsync:0\r\n";
}

}  // namespace redlab::server::engine
