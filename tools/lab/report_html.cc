// The lab's HTML report: one self-contained page (inline SVG and CSS, no script, no network)
// with a timeline per run — a lane per client and per node, hold bars, fault bands and markers,
// and each violation marked where the holds overlap.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "tools/lab/report.h"

namespace redlab::lab {
namespace {

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

constexpr int kLeft = 90, kWidth = 900, kLane = 34, kTop = 28;
constexpr size_t kMaxDrawnOps = 4000;

class Timeline {
 public:
  explicit Timeline(const RunResult& r) : r_(r), end_us_(std::max<int64_t>(r.end_us, 1)) {
    // Lanes: clients in order of appearance, then nodes.
    for (const Op& op : r.history) AddLane(op.process, "client");
    for (const std::string& n : r.nodes) AddLane(n, "node");
    for (const Event& e : r.faults) {
      bool client = false;
      for (const Op& op : r.history) client = client || op.process == e.target;
      if (e.target != "lab") AddLane(e.target, client ? "client" : "node");
    }
  }

  std::string Svg() {
    int height = kTop + static_cast<int>(lanes_.size()) * kLane + 24;
    std::string s = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"{}\" height=\"{}\" "
        "viewBox=\"0 0 {} {}\">\n",
        kLeft + kWidth + 110, height, kLeft + kWidth + 110, height);
    // Lanes and their labels.
    for (size_t i = 0; i < lanes_.size(); ++i) {
      int y = LaneY(i);
      s += fmt::format(
          "<g class=\"lane lane-{}\" data-lane=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" "
          "height=\"{}\" class=\"lane-bg\"/><text x=\"6\" y=\"{}\" class=\"label\">{} "
          "{}</text></g>\n",
          kinds_[i], Escape(lanes_[i]), kLeft, y, kWidth, kLane - 4, y + kLane / 2 + 2,
          kinds_[i] == "client" ? "client" : "node", Escape(lanes_[i]));
    }
    // Time axis.
    int axis_y = kTop + static_cast<int>(lanes_.size()) * kLane + 4;
    for (int i = 0; i <= 10; ++i) {
      int x = kLeft + kWidth * i / 10;
      s += fmt::format(
          "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"tick\"/><text x=\"{}\" y=\"{}\" "
          "class=\"axis\">{:.0f} ms</text>\n",
          x, kTop - 4, x, axis_y, x - 12, axis_y + 14,
          static_cast<double>(end_us_) * i / 10 / 1000.0);
    }
    // Fault bands and markers.
    for (const Event& e : r_.faults) {
      if (e.target == "lab") continue;
      int y = LaneY(Lane(e.target));
      std::string title =
          Escape(fmt::format("{} {} at {:.1f} ms{}", e.kind, e.target, e.at_us / 1000.0,
                             e.detail.empty() ? "" : ": " + e.detail));
      if (e.end_us >= 0 || IsBand(e.kind)) {
        int64_t end = e.end_us >= 0 ? e.end_us : end_us_;
        s += fmt::format(
            "<rect class=\"fault-band\" data-kind=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" "
            "height=\"{}\"><title>{}</title></rect>\n",
            Escape(e.kind), X(e.at_us), y, std::max(2, X(end) - X(e.at_us)), kLane - 4, title);
        s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"fault-label\">{}</text>\n",
                         X(e.at_us) + 2, y + kLane - 7, Escape(e.kind));
      } else {
        s += fmt::format(
            "<g class=\"fault-mark\" data-kind=\"{}\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" "
            "y2=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text><title>{}</title></g>\n",
            Escape(e.kind), X(e.at_us), y, X(e.at_us), y + kLane - 4, X(e.at_us) + 2, y + 10,
            Escape(e.kind), title);
      }
    }
    // Holds.
    for (const Hold& h : r_.check.holds) {
      int y = LaneY(Lane(h.process)) + 6;
      s += fmt::format(
          "<rect class=\"hold{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{} holds "
          "{}{} from {:.1f} to {:.1f} ms</title></rect>\n",
          h.possible ? " possible" : "", X(h.from_us), y, std::max(2, X(h.to_us) - X(h.from_us)),
          kLane - 16, Escape(h.process), Escape(h.lock), h.possible ? " (possibly)" : "",
          h.from_us / 1000.0, h.to_us / 1000.0);
    }
    // Watchdog renewals: a tick across the hold bar where each was sent, coloured by outcome.
    for (const Op& op : r_.history) {
      if (r_.history.size() > kMaxDrawnOps) break;
      if (op.kind != OpKind::kRenew) continue;
      int y = LaneY(Lane(op.process)) + 4;
      s += fmt::format(
          "<line class=\"renew-tick {}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"><title>{} "
          "renews {} ({}, lease {} ms) at {:.1f} ms</title></line>\n",
          OutcomeName(op.outcome), X(op.invoke_us), y, X(op.invoke_us), y + kLane - 12,
          Escape(op.process), Escape(op.lock), OutcomeName(op.outcome), op.lease_ms,
          op.invoke_us / 1000.0);
    }
    // Operations: a tick at the invocation, a dot at the completion coloured by outcome (not for
    // a soak's tens of thousands: its holds and violations say it).
    for (const Op& op : r_.history) {
      if (r_.history.size() > kMaxDrawnOps) break;
      int y = LaneY(Lane(op.process)) + kLane - 8;
      int64_t done = op.complete_us >= 0 ? op.complete_us : op.invoke_us;
      s += fmt::format(
          "<g class=\"op {}\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><circle cx=\"{}\" "
          "cy=\"{}\" r=\"3\"/><title>{} {} {} ({}) {:.1f}..{:.1f} ms{}</title></g>\n",
          OutcomeName(op.outcome), X(op.invoke_us), y, X(done), y, X(done), y, Escape(op.process),
          OpKindName(op.kind), Escape(op.lock), OutcomeName(op.outcome), op.invoke_us / 1000.0,
          done / 1000.0, op.error.empty() ? "" : Escape(": " + op.error));
    }
    // Violations, across the lanes of the two holders (dashed: with a possible hold).
    auto overlap_rect = [&](const Overlap& o, const char* cls) {
      size_t a = Lane(o.processes[0]), b = Lane(o.processes[1]);
      int y0 = LaneY(std::min(a, b)), y1 = LaneY(std::max(a, b)) + kLane - 4;
      s += fmt::format(
          "<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{} and "
          "{} both hold {} for {:.1f} ms{}</title></rect>\n",
          cls, X(o.from_us), y0, std::max(3, X(o.to_us) - X(o.from_us)), y1 - y0,
          Escape(o.processes[0]), Escape(o.processes[1]), Escape(o.lock), o.overlap_ms(),
          o.possible ? " (possibly)" : "");
    };
    for (const Overlap& o : r_.check.violations) overlap_rect(o, "violation");
    for (const Overlap& o : r_.check.possible_violations) overlap_rect(o, "violation possible");
    for (const ResourceViolation& v : r_.check.resource_violations) {
      int y = LaneY(Lane(v.process));
      s += fmt::format(
          "<g class=\"violation-mark\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><text "
          "x=\"{}\" y=\"{}\">{}</text><title>{}</title></g>\n",
          X(v.at_us), y - 2, X(v.at_us), y + kLane - 2, X(v.at_us) + 3, y + 12, Escape(v.kind),
          Escape(v.detail));
    }
    s += "</svg>\n";
    return s;
  }

 private:
  static bool IsBand(const std::string& kind) {
    return kind == "repl-hold" || kind == "repl-delay" || kind == "pause" || kind == "partition" ||
           kind == "message-loss";
  }
  void AddLane(const std::string& name, const std::string& kind) {
    if (std::find(lanes_.begin(), lanes_.end(), name) != lanes_.end()) return;
    lanes_.push_back(name);
    kinds_.push_back(kind);
  }
  size_t Lane(const std::string& name) {
    auto it = std::find(lanes_.begin(), lanes_.end(), name);
    return static_cast<size_t>(it - lanes_.begin());
  }
  int LaneY(size_t lane) const { return kTop + static_cast<int>(lane) * kLane; }
  int X(int64_t us) const {
    return kLeft + static_cast<int>(static_cast<double>(std::clamp<int64_t>(us, 0, end_us_)) *
                                    kWidth / static_cast<double>(end_us_));
  }

  const RunResult& r_;
  int64_t end_us_;
  std::vector<std::string> lanes_, kinds_;
};

constexpr char kStyle[] = R"(
body { font: 14px system-ui, sans-serif; margin: 20px; color: #222; }
table.verdicts { border-collapse: collapse; margin-bottom: 24px; }
table.verdicts td, table.verdicts th { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
.safe { color: #176c2c; font-weight: bold; } .unsafe { color: #b3121b; font-weight: bold; }
.mismatch { background: #ffe3e3; }
section.run { margin-bottom: 28px; }
.lane-bg { fill: #f6f6f6; } .lane-node .lane-bg { fill: #eef2f8; }
.label { font-size: 12px; } .axis { font-size: 10px; fill: #666; } .tick { stroke: #ddd; }
.hold { fill: #4a8fdd; } .hold.possible { fill: #4a8fdd; fill-opacity: 0.35; stroke: #4a8fdd; stroke-dasharray: 3 2; }
.fault-band { fill: #f0a030; fill-opacity: 0.35; } .fault-label { font-size: 10px; fill: #8a5200; }
.fault-mark line { stroke: #d35400; stroke-width: 2; } .fault-mark text { font-size: 10px; fill: #d35400; }
.op line { stroke: #555; } .op.ok circle { fill: #2e8b57; } .op.fail circle { fill: #c0392b; }
.op.unknown circle { fill: #999; stroke: #333; }
.renew-tick { stroke: #0b3d75; stroke-width: 1.5; } .renew-tick.fail { stroke: #c0392b; stroke-width: 2; }
.renew-tick.unknown { stroke: #999; stroke-dasharray: 2 2; }
.violation { fill: #e01020; fill-opacity: 0.3; stroke: #e01020; stroke-width: 1.5; }
.violation.possible { fill-opacity: 0.1; stroke-dasharray: 4 3; }
.violation-mark line { stroke: #e01020; stroke-width: 3; } .violation-mark text { font-size: 10px; fill: #e01020; }
)";

}  // namespace

std::string RenderHtml(const std::vector<RunResult>& runs) {
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>redlab lab "
      "report</title><style>";
  s += kStyle;
  s += "</style></head><body>\n<h1>redlab lab</h1>\n<table class=\"verdicts\"><tr><th>scenario"
       "</th><th>target</th><th>seed</th><th>verdict</th><th>documented</th><th>violations</th>"
       "<th>duration</th></tr>\n";
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunResult& r = runs[i];
    std::string verdict = r.skipped ? "skipped" : r.verdict ? VerdictName(*r.verdict) : "error";
    s += fmt::format(
        "<tr class=\"{}\"><td><a href=\"#run{}\">{}</a></td><td>{}</td><td>{}</td><td "
        "class=\"{}\">{}</td><td>{}</td><td>{}</td><td>{:.0f} ms</td></tr>\n",
        r.as_documented() ? "" : "mismatch", i, Escape(r.id()), TargetName(r.target), r.seed,
        verdict, verdict, VerdictName(r.documented),
        r.check.violations.size() + r.check.resource_violations.size(), r.duration_ms);
  }
  s += "</table>\n";
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunResult& r = runs[i];
    s += fmt::format("<section class=\"run\" id=\"run{}\"><h2>{} on {} (seed {})</h2>\n<p>{}</p>\n",
                     i, Escape(r.id()), TargetName(r.target), r.seed, Escape(r.failure));
    if (r.skipped) {
      s += "<p>skipped: " + Escape(*r.skipped) + "</p></section>\n";
      continue;
    }
    if (!r.error.empty()) s += "<p class=\"unsafe\">the lab failed: " + Escape(r.error) + "</p>\n";
    if (r.verdict) {
      s += fmt::format("<p>verdict <span class=\"{0}\">{0}</span> (documented {1})</p>\n",
                       VerdictName(*r.verdict), VerdictName(r.documented));
    }
    s += "<ul>";
    for (const Overlap& o : r.check.violations) {
      s += fmt::format("<li>{} and {} both held {} for {:.1f} ms{}</li>", Escape(o.processes[0]),
                       Escape(o.processes[1]), Escape(o.lock), o.overlap_ms(),
                       o.possible ? " (possibly: an acquire's outcome is unknown)" : "");
    }
    if (!r.check.possible_violations.empty()) {
      s += fmt::format(
          "<li>{} overlaps with a hold that may never have been taken (an unanswered acquire): "
          "not counted</li>",
          r.check.possible_violations.size());
    }
    for (const ResourceViolation& v : r.check.resource_violations) {
      s +=
          fmt::format("<li>{} by {}: {}</li>", Escape(v.kind), Escape(v.process), Escape(v.detail));
    }
    for (const auto& [k, v] : r.metrics) s += fmt::format("<li>{} = {:g}</li>", Escape(k), v);
    for (const std::string& n : r.notes) s += "<li>" + Escape(n) + "</li>";
    if (r.history.size() > kMaxDrawnOps) {
      s += fmt::format("<li>{} operations: the timeline draws their holds, not each one</li>",
                       r.history.size());
    }
    s += "</ul>\n";
    s += Timeline(r).Svg();
    s += "</section>\n";
  }
  s += "</body></html>\n";
  return s;
}

}  // namespace redlab::lab
