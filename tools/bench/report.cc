// Formatting `redlab bench` results (see report.h).
#include "tools/bench/report.h"

#include <fmt/format.h>

#include "tools/bench/hdr_log.h"

namespace redlab::tools::bench {
namespace {

std::string PercentileName(double p) {
  return "p" + fmt::format("{}", p);  // p50, p99.9, p99.99
}

double Us(int64_t ns) { return static_cast<double>(ns) / 1000.0; }

struct Figure {
  std::string name;
  bool latency;  // shown in microseconds
  double (*get)(const RunStats&, double);
  double arg;
};

const std::vector<Figure>& Figures() {
  static const std::vector<Figure> figures = [] {
    std::vector<Figure> f;
    f.push_back({"calls/s", false, [](const RunStats& s, double) { return s.throughput(); }, 0});
    for (double p : kPercentiles) {
      f.push_back({PercentileName(p), true,
                   [](const RunStats& s, double q) { return Us(s.latency.ValueAtPercentile(q)); },
                   p});
    }
    f.push_back({"max", true, [](const RunStats& s, double) { return Us(s.latency.max()); }, 0});
    f.push_back(
        {"mean", true, [](const RunStats& s, double) { return s.latency.mean() / 1e3; }, 0});
    return f;
  }();
  return figures;
}

bool BothRan(const Report& r) {
  return r.targets.size() == 2 && r.targets[0].name == "redlab" && r.targets[1].name == "redis";
}

}  // namespace

std::string FormatTable(const Report& report) {
  std::string out = "call: " + report.call + "\n";
  out += fmt::format("{:<14}", "");
  for (const auto& t : report.targets) out += fmt::format("{:>14}", t.name);
  bool both = BothRan(report);
  if (both) out += fmt::format("{:>14}", "redlab/redis");
  out += "\n";
  for (const Figure& f : Figures()) {
    out += fmt::format("{:<14}", f.latency ? f.name + " (us)" : f.name);
    for (const auto& t : report.targets) {
      double v = f.get(t.stats, f.arg);
      out += f.latency ? fmt::format("{:>14.1f}", v) : fmt::format("{:>14.0f}", v);
    }
    if (both) {
      double a = f.get(report.targets[0].stats, f.arg), b = f.get(report.targets[1].stats, f.arg);
      out += b > 0 ? fmt::format("{:>13.2f}x", a / b) : fmt::format("{:>14}", "-");
    }
    out += "\n";
  }
  auto count_row = [&](const std::string& name, auto get) {
    out += fmt::format("{:<14}", name);
    for (const auto& t : report.targets) out += fmt::format("{:>14}", get(t.stats));
    out += "\n";
  };
  count_row("calls", [](const RunStats& s) { return s.calls; });
  count_row("errors", [](const RunStats& s) { return s.errors_total(); });
  std::vector<std::string> words;
  for (const auto& t : report.targets) {
    for (const auto& [w, n] : t.stats.errors) {
      if (std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
    }
  }
  for (const auto& w : words) {
    count_row("  " + w, [&](const RunStats& s) {
      auto it = s.errors.find(w);
      return it == s.errors.end() ? int64_t{0} : it->second;
    });
  }
  if (report.wait) count_row("WAIT short", [](const RunStats& s) { return s.wait_short; });
  count_row("rounds", [](const RunStats& s) { return s.rounds; });
  if (both) out += "(redlab/redis: calls/s above 1 and latencies below 1 favour redlab)\n";
  return out;
}

nlohmann::json ToJson(const Report& report) {
  nlohmann::json j;
  j["call"] = report.call;
  j["config"] = report.config;
  j["targets"] = nlohmann::json::object();
  for (const auto& t : report.targets) {
    const RunStats& s = t.stats;
    nlohmann::json latency;
    latency["min"] = Us(s.latency.min());
    latency["mean"] = s.latency.mean() / 1e3;
    for (double p : kPercentiles) latency[PercentileName(p)] = Us(s.latency.ValueAtPercentile(p));
    latency["max"] = Us(s.latency.max());
    nlohmann::json intervals = nlohmann::json::array();
    for (const Interval& i : s.intervals) {
      intervals.push_back({{"start_s", i.start_s},
                           {"length_s", i.length_s},
                           {"calls", i.latency.total_count()},
                           {"p50_us", Us(i.latency.ValueAtPercentile(50))},
                           {"p99_us", Us(i.latency.ValueAtPercentile(99))},
                           {"max_us", Us(i.latency.max())}});
    }
    j["targets"][t.name] = {{"calls", s.calls},
                            {"throughput", s.throughput()},
                            {"elapsed_s", s.elapsed_s},
                            {"rounds", s.rounds},
                            {"errors_total", s.errors_total()},
                            {"errors", s.errors},
                            {"wait_short", s.wait_short},
                            {"noscript", s.noscript},
                            {"latency_us", latency},
                            {"intervals", intervals}};
  }
  if (BothRan(report)) {
    nlohmann::json ratio = nlohmann::json::object();
    for (const Figure& f : Figures()) {
      double b = f.get(report.targets[1].stats, f.arg);
      if (b > 0) ratio[f.name] = f.get(report.targets[0].stats, f.arg) / b;
    }
    j["ratio"] = ratio;
  }
  return j;
}

void WriteHdrLog(const Report& report, double start_epoch_s, std::ostream& out) {
  HdrLogWriter w(out);
  w.WriteHeader(start_epoch_s);
  bool tag = report.targets.size() > 1;
  for (const auto& t : report.targets) {
    for (const Interval& i : t.stats.intervals) {
      w.WriteInterval(tag ? t.name : "", i.start_s, i.length_s, i.latency);
    }
  }
}

}  // namespace redlab::tools::bench
