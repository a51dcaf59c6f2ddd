// The lab's scenario catalogue: each scenario builds a topology on a target, runs a workload of
// lock clients against it and plays its faults through the nemesis, recording everything in the
// history. It documents the verdict the failure is known to give; the verdict of a run is the
// checker's (runner.h), never the scenario's.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/config.h"
#include "tools/lab/cluster.h"
#include "tools/lab/history.h"
#include "tools/lab/nemesis.h"
#include "tools/lab/workload.h"

namespace redlab::lab {

// How scenarios run beyond target and seed.
struct RunOptions {
  // An external driver command (`--driver`): the scenarios that take a driver (the RedLock
  // ones) use it instead of the built-in lock.
  std::string driver;
};

// What a scenario is given to run: the target, the seed, and where to record.
class RunContext {
 public:
  RunContext(Target target, uint64_t seed, RunOptions options = {})
      : target_(target), seed_(seed), options_(std::move(options)), history_(&clock_) {}
  ~RunContext();

  Target target() const { return target_; }
  uint64_t seed() const { return seed_; }
  History& history() { return history_; }
  // Starts the nodes (once per run) and the nemesis that faults them.
  Cluster& StartCluster(const ClusterSpec& spec);
  Cluster& cluster() { return *cluster_; }
  bool has_cluster() const { return cluster_ != nullptr; }
  Nemesis& nemesis() { return *nemesis_; }
  // A lab client named `name` using the built-in reentrant lock with `config` (see LabConfig).
  std::unique_ptr<Actor> ReentrantActor(const std::string& name, const Config& config,
                                        const ReentrantOptions& options = {});
  // A lab client using the built-in fenced lock (tokens) with `config`.
  std::unique_ptr<Actor> FencedActor(const std::string& name, const Config& config);
  // A lab client taking RedLock over `nodes` (independent masters): the external driver when
  // one was given, else the built-in RedLock.
  std::unique_ptr<Actor> RedLockActor(const std::string& name, const std::vector<size_t>& nodes);
  // A lab client of the external driver over `nodes`; null when no driver was given.
  std::unique_ptr<Actor> DriverActor(const std::string& name, const std::vector<size_t>& nodes);
  const RunOptions& options() const { return options_; }
  // A figure the scenario reports ("refusal_rate", "lost_notice_ms").
  void Metric(const std::string& name, double value) { metrics_[name] = value; }
  void Note(const std::string& text) { notes_.push_back(text); }
  // The scenario cannot run on this target, for `reason`; it returns at once after this.
  void Skip(const std::string& reason) { skip_ = reason; }

  const std::map<std::string, double>& metrics() const { return metrics_; }
  const std::vector<std::string>& notes() const { return notes_; }
  const std::optional<std::string>& skipped() const { return skip_; }

 private:
  Target target_;
  uint64_t seed_;
  RunOptions options_;
  LabClock clock_;
  History history_;
  std::unique_ptr<Cluster> cluster_;
  std::unique_ptr<Nemesis> nemesis_;
  std::map<std::string, double> metrics_;
  std::vector<std::string> notes_;
  std::optional<std::string> skip_;
};

enum class Verdict { kSafe, kUnsafe };
inline const char* VerdictName(Verdict v) { return v == Verdict::kSafe ? "safe" : "unsafe"; }

struct Scenario {
  std::string name;
  std::string variant;  // empty for the scenario's base form
  std::string failure;  // one line: the real failure it stands for
  Verdict documented = Verdict::kUnsafe;
  bool redis_quick = false;  // in the quick share the tests run on real Redis
  std::function<void(RunContext&)> run;
  bool takes_driver = false;  // runs with an external driver (--driver) when given

  std::string id() const { return variant.empty() ? name : name + "/" + variant; }
};

// Every scenario, in catalogue order.
const std::vector<Scenario>& Catalogue();

// The parts of the catalogue, one file each.
void AddFailoverScenarios(std::vector<Scenario>& out);
void AddClientScenarios(std::vector<Scenario>& out);
void AddRedLockScenarios(std::vector<Scenario>& out);

// The lock name and guarded resource every scenario uses.
inline constexpr char kLockName[] = "lab:lock";
inline constexpr char kResourceName[] = "lab:resource";

}  // namespace redlab::lab
