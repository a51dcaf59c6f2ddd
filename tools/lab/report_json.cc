// The lab's JSON report and verdict table.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tools/lab/report.h"

namespace redlab::lab {
namespace {

double Ms(int64_t us) { return std::round(static_cast<double>(us) / 10.0) / 100.0; }

nlohmann::json OverlapJson(const Overlap& o) {
  return {{"lock", o.lock},
          {"owners", {o.owners[0], o.owners[1]}},
          {"processes", {o.processes[0], o.processes[1]}},
          {"overlap_ms", Ms(o.to_us - o.from_us)},
          {"from_ms", Ms(o.from_us)},
          {"to_ms", Ms(o.to_us)},
          {"possible", o.possible}};
}

}  // namespace

nlohmann::json RunToJson(const RunResult& r) {
  nlohmann::json j;
  j["scenario"] = r.scenario;
  if (!r.variant.empty()) j["variant"] = r.variant;
  j["target"] = TargetName(r.target);
  j["seed"] = r.seed;
  if (r.verdict) {
    j["verdict"] = VerdictName(*r.verdict);
  } else {
    j["verdict"] = nullptr;
  }
  j["documented"] = VerdictName(r.documented);
  if (r.skipped) j["skipped"] = *r.skipped;
  if (!r.error.empty()) j["error"] = r.error;
  j["duration_ms"] = std::round(r.duration_ms);
  j["violations"] = nlohmann::json::array();
  for (const Overlap& o : r.check.violations) j["violations"].push_back(OverlapJson(o));
  j["possible_violations"] = nlohmann::json::array();
  for (const Overlap& o : r.check.possible_violations) {
    j["possible_violations"].push_back(OverlapJson(o));
  }
  j["fenced_overlaps"] = nlohmann::json::array();
  for (const Overlap& o : r.check.fenced_overlaps) j["fenced_overlaps"].push_back(OverlapJson(o));
  j["resource_violations"] = nlohmann::json::array();
  for (const ResourceViolation& v : r.check.resource_violations) {
    j["resource_violations"].push_back({{"kind", v.kind},
                                        {"resource", v.resource},
                                        {"process", v.process},
                                        {"write", v.write_id},
                                        {"at_ms", Ms(v.at_us)},
                                        {"detail", v.detail}});
  }
  j["nodes"] = r.nodes;
  j["metrics"] = r.metrics;
  j["notes"] = r.notes;
  j["end_ms"] = Ms(r.end_us);
  j["history"] = nlohmann::json::array();
  for (const Op& op : r.history) {
    nlohmann::json o = {{"id", op.id},
                        {"process", op.process},
                        {"owner", op.owner},
                        {"lock", op.lock},
                        {"op", OpKindName(op.kind)},
                        {"invoke_ms", Ms(op.invoke_us)},
                        {"outcome", OutcomeName(op.outcome)}};
    if (op.complete_us >= 0) {
      o["complete_ms"] = Ms(op.complete_us);
    } else {
      o["complete_ms"] = nullptr;
    }
    if (op.kind == OpKind::kAcquire || op.kind == OpKind::kRenew) o["lease_ms"] = op.lease_ms;
    if (op.token) o["token"] = *op.token;
    if (op.value) o["value"] = *op.value;
    if (op.read_value) o["read_value"] = *op.read_value;
    if (!op.error.empty()) o["error"] = op.error;
    j["history"].push_back(o);
  }
  j["faults"] = nlohmann::json::array();
  for (const Event& e : r.faults) {
    nlohmann::json f = {{"kind", e.kind}, {"target", e.target}, {"at_ms", Ms(e.at_us)}};
    if (e.end_us >= 0) f["end_ms"] = Ms(e.end_us);
    if (!e.detail.empty()) f["detail"] = e.detail;
    j["faults"].push_back(f);
  }
  return j;
}

nlohmann::json RunsToJson(const std::vector<RunResult>& runs) {
  nlohmann::json j;
  j["runs"] = nlohmann::json::array();
  for (const RunResult& r : runs) j["runs"].push_back(RunToJson(r));
  return j;
}

std::vector<Op> OpsFromJson(const nlohmann::json& run) {
  auto us = [](const nlohmann::json& v) {
    return static_cast<int64_t>(std::llround(v.get<double>() * 1000.0));
  };
  std::vector<Op> ops;
  for (const auto& o : run.at("history")) {
    Op op;
    op.id = o.at("id").get<int64_t>();
    op.process = o.at("process").get<std::string>();
    op.owner = o.at("owner").get<std::string>();
    op.lock = o.at("lock").get<std::string>();
    auto kind = ParseOpKind(o.at("op").get<std::string>());
    auto outcome = ParseOutcome(o.at("outcome").get<std::string>());
    if (!kind || !outcome) throw std::invalid_argument("bad op in history: " + o.dump());
    op.kind = *kind;
    op.outcome = *outcome;
    op.invoke_us = us(o.at("invoke_ms"));
    op.complete_us = o.at("complete_ms").is_null() ? -1 : us(o.at("complete_ms"));
    if (o.contains("lease_ms")) op.lease_ms = o["lease_ms"].get<int64_t>();
    if (o.contains("token")) op.token = o["token"].get<int64_t>();
    if (o.contains("value")) op.value = o["value"].get<int64_t>();
    if (o.contains("read_value")) op.read_value = o["read_value"].get<int64_t>();
    if (o.contains("error")) op.error = o["error"].get<std::string>();
    ops.push_back(std::move(op));
  }
  return ops;
}

std::string VerdictTable(const std::vector<RunResult>& runs) {
  size_t w = 8;
  for (const RunResult& r : runs) w = std::max(w, r.id().size());
  std::string out =
      fmt::format("{:<{}}  {:<8}  {:<7}  {:<10}  {:>10}  {:>9}  {}\n", "scenario", w, "target",
                  "verdict", "documented", "violations", "duration", "figures");
  for (const RunResult& r : runs) {
    std::string verdict = r.skipped ? "skipped" : r.verdict ? VerdictName(*r.verdict) : "error";
    size_t violations = r.check.violations.size() + r.check.resource_violations.size();
    std::string figures;
    if (!r.check.possible_violations.empty()) {
      figures += fmt::format("possible_overlaps={} ", r.check.possible_violations.size());
    }
    for (const auto& [k, v] : r.metrics) figures += fmt::format("{}={:g} ", k, v);
    if (r.skipped) figures += *r.skipped;
    if (!r.error.empty()) figures += "error: " + r.error;
    if (!r.as_documented() && r.error.empty()) figures += "NOT AS DOCUMENTED";
    out += fmt::format("{:<{}}  {:<8}  {:<7}  {:<10}  {:>10}  {:>7.0f}ms  {}\n", r.id(), w,
                       TargetName(r.target), verdict, VerdictName(r.documented),
                       r.skipped ? std::string("-") : std::to_string(violations), r.duration_ms,
                       figures);
  }
  return out;
}

}  // namespace redlab::lab
