// Snapshot files (see persistence.h).
#include "server/engine/core/persistence.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "server/base/numbers.h"
#include "server/engine/core/aof.h"
#include "server/engine/core/engine.h"
#include "server/engine/core/script_runner.h"
#include "server/rdb/snapshot.h"
#include "server/resp/parser.h"

namespace redlab::server::engine {
namespace {

// Redis's CONFIG_BGSAVE_RETRY_DELAY: after a failed background save, save points wait this long.
constexpr int64_t kBgsaveRetryDelayS = 5;

}  // namespace

Persistence::Persistence(Engine& engine) : engine_(engine), lastsave_s_(NowSeconds()) {}

// Save times are read from the node's clock, as everything else (a clock fault moves them too).
int64_t Persistence::NowSeconds() const { return engine_.clock().NowMs() / 1000; }

Persistence::~Persistence() {
  if (bgsave_ && bgsave_->thread.joinable()) bgsave_->thread.join();
}

std::string Persistence::Path() const {
  const ServerConfig& c = engine_.config();
  if (c.dbfilename.empty() || c.dbfilename[0] == '/' || c.dir.empty()) return c.dbfilename;
  return c.dir + "/" + c.dbfilename;
}

std::string Persistence::TempPath() const {
  // Unique per node: several nodes of one process may share a directory.
  const ServerConfig& c = engine_.config();
  std::string name = fmt::format("temp-{}-{}.rdb", getpid(), engine_.run_id().substr(0, 8));
  return c.dir.empty() ? name : c.dir + "/" + name;
}

std::string Persistence::Serialize() {
  rdb::RdbAux aux;
  aux.replid = engine_.replication().replid();
  aux.repl_offset = engine_.replication().master_repl_offset();
  aux.ctime_s = NowSeconds();
  aux.used_mem = static_cast<int64_t>(engine_.memory().Used());
  return rdb::WriteRdb(engine_.keyspace(), aux, engine_.rdb_write_options());
}

std::optional<std::string> Persistence::WriteFile(const std::string& path, const std::string& temp,
                                                  const std::string& rdb) {
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (f == nullptr)
    return fmt::format("Failed opening the temp RDB file {}: {}", temp, std::strerror(errno));
  bool ok = std::fwrite(rdb.data(), 1, rdb.size(), f) == rdb.size();
  ok = std::fflush(f) == 0 && ok;
  ok = fsync(fileno(f)) == 0 && ok;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) {
    std::string error = fmt::format("Write error saving DB on disk: {}", std::strerror(errno));
    std::remove(temp.c_str());
    return error;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::string error = fmt::format("Error moving temp DB file {} on the final destination {}: {}",
                                    temp, path, std::strerror(errno));
    std::remove(temp.c_str());
    return error;
  }
  return std::nullopt;
}

bool Persistence::Save(bool count) {
  if (count) ++saves_;
  if (auto error = WriteFile(Path(), TempPath(), Serialize())) {
    if (EngineHost* host = engine_.host()) host->LogWarning(*error);
    return false;
  }
  if (EngineHost* host = engine_.host()) host->Log(2, "DB saved on disk");
  engine_.stats().SetDirty(0);
  lastsave_s_ = NowSeconds();
  last_bgsave_ok_ = true;
  return true;
}

bool Persistence::StartBackgroundSave() {
  if (bgsave_ != nullptr) return false;
  ++saves_;
  last_bgsave_try_s_ = NowSeconds();
  auto save = std::make_unique<BackgroundSave>();
  save->dirty_at_start = engine_.stats().dirty();
  save->start_s = NowSeconds();
  // The snapshot is taken now, as a fork would take it; only the file is written meanwhile.
  BackgroundSave* raw = save.get();
  save->thread = std::thread([raw, path = Path(), temp = TempPath(), rdb = Serialize()] {
    raw->ok = !WriteFile(path, temp, rdb).has_value();
    raw->done.store(true, std::memory_order_release);
  });
  bgsave_ = std::move(save);
  if (EngineHost* host = engine_.host()) host->Log(2, "Background saving started");
  return true;
}

void Persistence::FinishBackgroundSave() {
  bgsave_->thread.join();
  int64_t now = NowSeconds();
  last_bgsave_seconds_ = now - bgsave_->start_s;
  if (bgsave_->ok) {
    uint64_t dirty = engine_.stats().dirty();
    engine_.stats().SetDirty(dirty >= bgsave_->dirty_at_start ? dirty - bgsave_->dirty_at_start
                                                              : 0);
    lastsave_s_ = now;
    last_bgsave_ok_ = true;
    if (EngineHost* host = engine_.host())
      host->Log(2, "Background saving terminated with success");
  } else {
    last_bgsave_ok_ = false;
    if (EngineHost* host = engine_.host()) host->LogWarning("Background saving error");
  }
  bgsave_.reset();
}

bool Persistence::SavePointReached() const {
  std::istringstream params(engine_.config().save);
  int64_t now = NowSeconds();
  std::string seconds_text, changes_text;
  while (params >> seconds_text >> changes_text) {
    int64_t seconds = 0, changes = 0;
    if (!server::ParseInt64(seconds_text, &seconds) ||
        !server::ParseInt64(changes_text, &changes)) {
      return false;
    }
    if (engine_.stats().dirty() >= static_cast<uint64_t>(changes) && now - lastsave_s_ > seconds &&
        (now - last_bgsave_try_s_ > kBgsaveRetryDelayS || last_bgsave_ok_)) {
      return true;
    }
  }
  return false;
}

void Persistence::Cron() {
  if (bgsave_ != nullptr && bgsave_->done.load(std::memory_order_acquire)) FinishBackgroundSave();
  if (bgsave_ != nullptr) return;
  if (bgsave_scheduled_) {
    bgsave_scheduled_ = false;
    StartBackgroundSave();
    return;
  }
  if (SavePointReached()) StartBackgroundSave();
}

std::optional<std::string> Persistence::Load(bool merge) {
  std::ifstream in(Path(), std::ios::binary);
  if (!in) return fmt::format("Fatal error loading the DB: {}", std::strerror(errno));
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return LoadBytes(data, merge);
}

std::optional<std::string> Persistence::LoadBytes(std::string_view data, bool merge,
                                                  bool aof_base) {
  Keyspace& ks = engine_.keyspace();
  rdb::RdbReadOptions options{engine_.value_options(),
                              !engine_.debug_settings().skip_checksum_validation()};
  std::optional<std::string> failure;
  uint64_t loaded = 0, expired = 0;
  // Libraries load as rdbFunctionLoad does: an existing one is an error, unless merging.
  scripting::FunctionLibraries& functions = engine_.scripts().functions();
  auto on_library = [&](std::string&& code) -> std::optional<std::string> {
    std::string error;
    if (!functions.Create(code, /*replace=*/merge, /*timeout_ms=*/0, &error)) return error;
    return std::nullopt;
  };
  auto on_key = [&](rdb::RdbKey&& k) {
    if (failure) return;
    if (k.db < 0 || k.db >= ks.num_dbs()) {
      failure = fmt::format(
          "Data file was created with a Redis server configured to handle more "
          "than {} databases.",
          ks.num_dbs());
      return;
    }
    // A master drops keys that expired while on disk; a replica waits for its master's DEL.
    if (!aof_base && !ks.replica() && k.expire_ms != kNoExpire &&
        k.expire_ms < ks.clock().NowMs()) {
      ++expired;
      return;
    }
    Db& db = ks.db(k.db);
    if (db.LookupQuiet(k.key) != nullptr && !merge) {
      failure = fmt::format("RDB has duplicated key '{}' in DB {}", k.key, k.db);
      return;
    }
    Db::Node* node = db.SetLoaded(k.key, std::move(k.value));
    if (k.expire_ms != kNoExpire) db.SetExpire(node, k.expire_ms);
    if (k.idle_seconds >= 0) ks.SetIdle(node->value, k.idle_seconds);
    if (k.freq >= 0) ks.SetFreq(node->value, static_cast<uint8_t>(k.freq));
    ++loaded;
  };
  auto error = rdb::ReadRdb(data, options, nullptr, on_key, on_library);
  last_load_keys_loaded_ = loaded;
  last_load_keys_expired_ = expired;
  if (error) return error;
  return failure;
}

void Persistence::AppendInfo(std::string* out) const {
  int64_t now = NowSeconds();
  *out += "# Persistence\r\n";
  *out += "loading:0\r\nasync_loading:0\r\n";
  *out += "current_cow_peak:0\r\ncurrent_cow_size:0\r\ncurrent_cow_size_age:0\r\n";
  *out +=
      "current_fork_perc:0.00\r\ncurrent_save_keys_processed:0\r\ncurrent_save_keys_total:0\r\n";
  *out += fmt::format("rdb_changes_since_last_save:{}\r\n", engine_.stats().dirty());
  *out += fmt::format("rdb_bgsave_in_progress:{}\r\n", bgsave_ != nullptr ? 1 : 0);
  *out += fmt::format("rdb_last_save_time:{}\r\n", lastsave_s_);
  *out += fmt::format("rdb_last_bgsave_status:{}\r\n", last_bgsave_ok_ ? "ok" : "err");
  *out += fmt::format("rdb_last_bgsave_time_sec:{}\r\n", last_bgsave_seconds_);
  *out += fmt::format("rdb_current_bgsave_time_sec:{}\r\n",
                      bgsave_ != nullptr ? now - bgsave_->start_s : -1);
  *out += fmt::format("rdb_saves:{}\r\n", saves_);
  *out += "rdb_last_cow_size:0\r\n";
  *out += fmt::format("rdb_last_load_keys_expired:{}\r\n", last_load_keys_expired_);
  *out += fmt::format("rdb_last_load_keys_loaded:{}\r\n", last_load_keys_loaded_);
  engine_.aof().AppendInfo(out);
  *out += "module_fork_in_progress:0\r\nmodule_fork_last_cow_size:0\r\n";
  engine_.aof().AppendEnabledInfo(out);
}

}  // namespace redlab::server::engine
