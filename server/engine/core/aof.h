// The append-only file, as Redis 7.0's multi-part AOF (aof.c): in <dir>/<appenddirname>, a
// manifest naming a base file (an RDB, or commands without aof-use-rdb-preamble) and incremental
// files that receive every write's effects in RESP, as the replication stream gets them
// (feedAppendOnlyFile: SELECT when the database changes, MULTI/EXEC as propagated). Loaded at
// start-up with appendonly yes, reloaded by DEBUG LOADAOF, rewritten by BGREWRITEAOF, by
// `CONFIG SET appendonly yes` and on growth (auto-aof-rewrite-*). redlab has no fork: a rewrite
// runs to its end in the loop thread, with Redis's replies, log lines and INFO figures.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "server/engine/core/aof_manifest.h"
#include "server/engine/core/effects.h"

namespace redlab::server::engine {

class Engine;

class Aof : public EffectLog {
 public:
  // Redis's AOF_OFF / AOF_ON / AOF_WAIT_REWRITE (turned on, waiting for its first rewrite).
  enum class State { kOff, kOn, kWaitRewrite };

  explicit Aof(Engine& engine);
  ~Aof();  // fsyncs and closes the incremental file
  Aof(const Aof&) = delete;
  Aof& operator=(const Aof&) = delete;

  State state() const { return state_; }

  // loadDataFromDisk's AOF part and aofOpenIfNeededOnServerStart: with appendonly yes, loads the
  // files the manifest names, then opens (or creates) the incremental file, creating a base
  // first for an empty directory. The error that must stop the node, if any.
  std::optional<std::string> LoadAtStartup();

  // feedAppendOnlyFile for the effects of one command, transaction or script (or, kEach, of
  // several unrelated ones).
  void Feed(std::span<const Effect> effects, EffectGrouping grouping);
  void Append(std::span<const Effect> effects, EffectGrouping grouping) override {
    Feed(effects, grouping);
  }

  // BGREWRITEAOF (bgrewriteaofCommand): its reply.
  enum class RewriteReply { kStarted, kScheduled, kFailed };
  RewriteReply Rewrite(bool in_transaction);

  // CONFIG SET appendonly (startAppendOnly / stopAppendOnly). Start returns false when the
  // AOF could not be turned on.
  bool Start(bool in_transaction);
  void Stop();

  // DEBUG LOADAOF: empties the data and loads the files the manifest on disk names. The error
  // text when that fails (Redis exits then).
  std::optional<std::string> Reload();

  // Every cron tick: the everysec fsync, a scheduled rewrite, automatic rewrites on growth.
  void Cron();

  // INFO persistence's aof_* fields (Redis's order, from aof_enabled to aof_last_cow_size), and
  // those it adds with appendonly yes.
  void AppendInfo(std::string* out) const;
  void AppendEnabledInfo(std::string* out) const;

  const AofManifest& manifest() const { return manifest_; }
  // <dir>/<appenddirname>.
  std::string DirPath() const;

 private:
  enum class LoadResult { kOk, kNotExist, kEmpty, kOpenError, kFailed, kTruncated };

  std::string FilePath(std::string_view name) const;
  void Log(int level, const std::string& line) const;
  // aofLoadManifestFromDisk: false (error logged in *error) on a bad manifest.
  bool LoadManifest(std::string* error);
  LoadResult LoadFiles();
  LoadResult LoadFile(const std::string& name);
  // Replays the commands of `data` from `pos` on; sets *valid_up_to after each whole command.
  LoadResult ReplayCommands(const std::string& name, std::string_view data, size_t pos,
                            int64_t* valid_up_to);
  // Runs `load` with propagation (replication, the AOF itself) off, as Redis loads.
  template <typename Fn>
  auto WithoutPropagation(Fn&& load);
  bool PersistManifest(const AofManifest& am);
  bool OpenOnStart();
  bool OpenNewIncr();
  // rewriteAppendOnlyFile(path): the base file's content (RDB or commands) written at `path`
  // through a temporary file in `dir`.
  bool WriteBase(const std::string& path);
  bool DoRewrite();
  void DeleteHistoryFiles();
  void CloseFile();
  void Write(const std::string& bytes);
  void Fsync();
  int64_t NowS() const;

  Engine& engine_;
  State state_ = State::kOff;
  AofManifest manifest_;
  int fd_ = -1;
  int selected_db_ = -1;  // aof_selected_db
  std::string buf_;
  bool rewrite_scheduled_ = false;
  bool last_rewrite_ok_ = true;
  bool last_write_ok_ = true;
  uint64_t rewrites_ = 0;
  uint64_t consecutive_failures_ = 0;
  int64_t last_rewrite_seconds_ = -1;
  int64_t current_size_ = 0;
  int64_t base_size_ = 0;
  int64_t last_fsync_s_ = 0;
  int64_t timestamp_s_ = 0;  // aof_cur_timestamp (aof-timestamp-enabled)
  bool fsync_pending_ = false;
};

// rewriteAppendOnlyFileRio: the dataset as commands (FUNCTION LOAD, SELECT, then per key SET,
// RPUSH, SADD, ZADD, HMSET by 64 items, XADD/XSETID/XGROUP/XCLAIM, PEXPIREAT), as the base file
// without aof-use-rdb-preamble (in aof_rewrite.cc).
std::string RewriteAsCommands(Engine& engine);

}  // namespace redlab::server::engine
