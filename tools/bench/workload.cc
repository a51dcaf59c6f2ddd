// Building each call's arguments (see workload.h).
#include "tools/bench/workload.h"

#include <stdexcept>

namespace redlab::tools::bench {

Workload::Workload(const WorkloadSpec& spec) : spec_(spec), rng_(spec.seed) {
  for (const auto& s : spec.command) command_.emplace_back(s);
  for (const auto& s : spec.keys) keys_.emplace_back(s);
  for (const auto& s : spec.args) args_.emplace_back(s);
  if (spec.kind == CallKind::kCommand && command_.empty()) {
    throw std::invalid_argument("no command given");
  }
}

void Workload::Build(int client, std::vector<std::string>* argv) {
  argv->clear();
  if (spec_.kind == CallKind::kCommand) {
    for (Pattern& p : command_) argv->push_back(p.Expand(client, rng_));
    return;
  }
  if (spec_.kind == CallKind::kScript) {
    argv->push_back("EVALSHA");
    argv->push_back(sha_);
  } else {
    argv->push_back("FCALL");
    argv->push_back(spec_.function);
  }
  argv->push_back(std::to_string(keys_.size()));
  for (Pattern& p : keys_) argv->push_back(p.Expand(client, rng_));
  for (Pattern& p : args_) argv->push_back(p.Expand(client, rng_));
}

void Workload::ToEval(std::vector<std::string>* argv) const {
  (*argv)[0] = "EVAL";
  (*argv)[1] = spec_.script_source;
}

std::string Workload::Describe() const {
  std::string s;
  auto add = [&](const std::string& w) {
    if (!s.empty()) s += ' ';
    s += w;
  };
  if (spec_.kind == CallKind::kCommand) {
    for (const auto& w : spec_.command) add(w);
    return s;
  }
  add(spec_.kind == CallKind::kScript ? "EVALSHA" : "FCALL");
  add(spec_.kind == CallKind::kScript ? (sha_.empty() ? "<sha>" : sha_) : spec_.function);
  add(std::to_string(keys_.size()));
  for (const auto& w : spec_.keys) add(w);
  for (const auto& w : spec_.args) add(w);
  return s;
}

}  // namespace redlab::tools::bench
