// Snapshots of a node's dataset in Redis's RDB format at <dir>/<dbfilename>: SAVE, BGSAVE (the
// dataset is serialised at once, as a fork would freeze it, and the file written by a thread),
// DEBUG RELOAD's save and load, save points from the `save` parameter, and the INFO persistence
// figures. redlab stays an in-memory server: nothing is loaded at startup.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace redlab::server::engine {

class Engine;

class Persistence {
 public:
  explicit Persistence(Engine& engine);
  ~Persistence();  // waits for a background save still writing
  Persistence(const Persistence&) = delete;
  Persistence& operator=(const Persistence&) = delete;

  // rdbSave: writes the snapshot now (through a temporary file renamed into place). On success
  // the dataset counts as saved (no changes since, LASTSAVE now).
  bool Save(bool count = false);  // `count`: the SAVE command (INFO rdb_saves)
  // rdbSaveBackground: serialises now and writes on a thread; false when a save is running.
  bool StartBackgroundSave();
  bool bgsave_in_progress() const { return bgsave_ != nullptr; }
  // BGSAVE SCHEDULE (or BGSAVE in a transaction) while another save runs: once it is done.
  void ScheduleBackgroundSave() { bgsave_scheduled_ = true; }

  // Loads the snapshot file into the keyspace (DEBUG RELOAD). Without `merge` a key already
  // there is an error (Redis stops the server for it); with it, the file's value wins. Keys
  // already expired are skipped on a master, as Redis's rdbLoad does.
  std::optional<std::string> Load(bool merge);
  // Loads an RDB held in memory the same way; `aof_base` keeps keys already expired, as Redis
  // loads an AOF's RDB base (RDBFLAGS_AOF_PREAMBLE).
  std::optional<std::string> LoadBytes(std::string_view data, bool merge, bool aof_base = false);
  // The dataset as an RDB now (what SAVE writes; the AOF's base file too).
  std::string Serialize();

  // Every cron tick: finishes a background save that is written, starts a scheduled one, and
  // starts one when a save point of the `save` parameter is reached.
  void Cron();

  int64_t lastsave_s() const { return lastsave_s_; }
  void AppendInfo(std::string* out) const;  // INFO persistence

  // The snapshot's path: <dir>/<dbfilename>.
  std::string Path() const;

 private:
  struct BackgroundSave {
    std::thread thread;
    std::atomic<bool> done{false};
    bool ok = false;
    uint64_t dirty_at_start = 0;
    int64_t start_s = 0;
  };

  // Writes `rdb` to the snapshot path via a temporary file; an error text on failure.
  static std::optional<std::string> WriteFile(const std::string& path, const std::string& temp,
                                              const std::string& rdb);
  void FinishBackgroundSave();
  bool SavePointReached() const;
  std::string TempPath() const;
  int64_t NowSeconds() const;

  Engine& engine_;
  std::unique_ptr<BackgroundSave> bgsave_;
  bool bgsave_scheduled_ = false;
  int64_t lastsave_s_;
  int64_t last_bgsave_try_s_ = 0;
  bool last_bgsave_ok_ = true;
  int64_t last_bgsave_seconds_ = -1;
  uint64_t saves_ = 0;
  uint64_t last_load_keys_loaded_ = 0;
  uint64_t last_load_keys_expired_ = 0;
};

}  // namespace redlab::server::engine
