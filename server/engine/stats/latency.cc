#include "server/engine/stats/latency.h"

#include <algorithm>
#include <cstdio>

#include "server/base/text.h"

namespace redlab::server::engine {

void LatencyMonitor::AddSample(std::string_view event, int64_t latency_ms, int64_t now_s) {
  Series* ts = const_cast<Series*>(Find(event));
  if (ts == nullptr) {
    events_.push_back(std::make_unique<Series>());
    ts = events_.back().get();
    ts->event = std::string(event);
  }
  auto latency = static_cast<uint32_t>(latency_ms);
  if (latency > ts->max) ts->max = latency;
  // One sample per second: a second sample in the same second only raises it.
  Sample& prev = ts->samples[(ts->next + kHistory - 1) % kHistory];
  if (prev.time_s == now_s) {
    if (latency > prev.latency_ms) prev.latency_ms = latency;
    return;
  }
  ts->samples[ts->next] = Sample{now_s, latency};
  ts->next = (ts->next + 1) % kHistory;
}

const LatencyMonitor::Series* LatencyMonitor::Find(std::string_view event) const {
  for (const auto& s : events_) {
    if (s->event == event) return s.get();
  }
  return nullptr;
}

size_t LatencyMonitor::Reset(std::string_view event) {
  size_t before = events_.size();
  std::erase_if(events_, [&](const std::unique_ptr<Series>& s) {
    return event.empty() || EqualsIgnoreCase(s->event, event);
  });
  return before - events_.size();
}

namespace {

// Redis's sparkline.c, as LATENCY GRAPH uses it: 4 rows of "_o#" (filled below with '|'), then
// the labels written vertically under their columns, in chunks of 80 columns.
struct SparkSample {
  double value;
  std::string label;
};

void RenderSparkRange(std::string& out, const std::vector<SparkSample>& seq, double min, double max,
                      int rows, size_t offset, size_t len) {
  static constexpr char kFill[] = "_o#";
  constexpr int kCharsetLen = 3;
  constexpr int kLabelMarginTop = 1;
  double relmax = max - min;
  if (relmax == 0) relmax = 1;
  int steps = kCharsetLen * rows;
  bool has_labels = false;
  for (const auto& s : seq) has_labels = has_labels || !s.label.empty();
  std::string chars(len, ' ');
  for (int row = 0;; ++row) {
    bool more = false;
    chars.assign(len, ' ');
    for (size_t j = 0; j < len; ++j) {
      const SparkSample& s = seq[j + offset];
      // As Redis: the product truncated to an int, then divided as a double, then truncated.
      int step = static_cast<int>(static_cast<int>((s.value - min) * steps) / relmax);
      if (step < 0) step = 0;
      if (step >= steps) step = steps - 1;
      if (row < rows) {
        int charidx = step - (rows - row - 1) * kCharsetLen;
        more = true;
        if (charidx >= 0 && charidx < kCharsetLen) {
          chars[j] = kFill[charidx];
        } else if (charidx >= kCharsetLen) {
          chars[j] = '|';
        }
      } else {
        if (has_labels && row - rows < kLabelMarginTop) {
          more = true;
          break;
        }
        int label_char = row - rows - kLabelMarginTop;
        if (static_cast<int>(s.label.size()) > label_char) {
          more = true;
          chars[j] = s.label[static_cast<size_t>(label_char)];
        }
      }
    }
    if (!more) break;
    out += chars;
    out += '\n';
  }
}

// The label of a sample: how long ago it was, in the largest whole unit.
std::string Ago(int64_t elapsed) {
  if (elapsed < 60) return std::to_string(elapsed) + "s";
  if (elapsed < 3600) return std::to_string(elapsed / 60) + "m";
  if (elapsed < 86400) return std::to_string(elapsed / 3600) + "h";
  return std::to_string(elapsed / 86400) + "d";
}

}  // namespace

std::string LatencyMonitor::Graph(const Series& ts, int64_t now_s) {
  std::vector<SparkSample> seq;
  uint32_t low = 0, high = 0;
  for (size_t j = 0; j < kHistory; ++j) {
    const Sample& s = ts.samples[(ts.next + j) % kHistory];
    if (s.time_s == 0) continue;
    if (seq.empty()) {
      low = high = s.latency_ms;
    } else {
      high = std::max(high, s.latency_ms);
      low = std::min(low, s.latency_ms);
    }
    seq.push_back({static_cast<double>(s.latency_ms), Ago(now_s - s.time_s)});
  }
  std::string out = ts.event + " - high " + std::to_string(high) + " ms, low " +
                    std::to_string(low) + " ms (all time high " + std::to_string(ts.max) +
                    " ms)\n" + std::string(80, '-') + "\n";
  constexpr size_t kColumns = 80;
  for (size_t j = 0; j < seq.size(); j += kColumns) {
    if (j != 0) out += '\n';
    RenderSparkRange(out, seq, low, high, 4, j, std::min(kColumns, seq.size() - j));
  }
  return out;
}

std::string LatencyMonitor::Doctor(const DoctorInputs& in) const {
  if (events_.empty() && in.latency_monitor_threshold == 0) {
    return "I'm sorry, Dave, I can't do that. Latency monitoring is disabled in this Redis "
           "instance. You may use \"CONFIG SET latency-monitor-threshold <milliseconds>.\" in "
           "order to enable it. If we weren't in a deep space mission I'd suggest to take a look "
           "at https://redis.io/topics/latency-monitor.\n";
  }
  std::string report;
  bool slowlog_enabled = false, slowlog_tuning = false, slowlog_inspect = false;
  bool scheduler = false, hz = false, large_objects = false, mass_eviction = false;
  int advices = 0;
  int eventnum = 0;
  for (const auto& ts : events_) {
    if (++eventnum == 1) {
      report +=
          "Dave, I have observed latency spikes in this Redis instance. You don't mind talking "
          "about it, do you Dave?\n\n";
    }
    // analyzeLatencyForEvent: average, mean deviation and period of the samples kept.
    uint64_t samples = 0, sum = 0;
    int64_t oldest = 0;
    for (const Sample& s : ts->samples) {
      if (s.time_s == 0) continue;
      ++samples;
      sum += s.latency_ms;
      if (oldest == 0 || s.time_s < oldest) oldest = s.time_s;
    }
    uint64_t avg = samples ? sum / samples : 0;
    int64_t period = samples ? in.now_s - oldest : 0;
    if (samples && period == 0) period = 1;
    uint64_t deviation = 0;
    for (const Sample& s : ts->samples) {
      if (s.time_s == 0) continue;
      int64_t delta = static_cast<int64_t>(avg) - static_cast<int64_t>(s.latency_ms);
      deviation += static_cast<uint64_t>(delta < 0 ? -delta : delta);
    }
    if (samples) deviation /= samples;
    char line[512];
    std::snprintf(line, sizeof(line),
                  "%d. %s: %d latency spikes (average %lums, mean deviation %lums, period %.2f "
                  "sec). Worst all time event %lums.",
                  eventnum, ts->event.c_str(), static_cast<int>(samples),
                  static_cast<unsigned long>(avg), static_cast<unsigned long>(deviation),
                  static_cast<double>(period) / static_cast<double>(samples),
                  static_cast<unsigned long>(ts->max));
    report += line;
    const std::string& e = ts->event;
    if (EqualsIgnoreCase(e, "command")) {
      if (in.slowlog_log_slower_than < 0) {
        slowlog_enabled = true;
        ++advices;
      } else if (in.slowlog_log_slower_than / 1000 > in.latency_monitor_threshold) {
        slowlog_tuning = true;
        ++advices;
      }
      slowlog_inspect = large_objects = true;
      advices += 2;
    }
    if (EqualsIgnoreCase(e, "fast-command")) {
      scheduler = true;
      ++advices;
    }
    if (EqualsIgnoreCase(e, "expire-cycle")) {
      hz = large_objects = true;
      advices += 2;
    }
    if (EqualsIgnoreCase(e, "eviction-del")) {
      large_objects = true;
      ++advices;
    }
    if (EqualsIgnoreCase(e, "eviction-cycle")) {
      mass_eviction = true;
      ++advices;
    }
    report += '\n';
  }
  // Redis also advises on transparent huge pages when the process has some; redlab does not
  // look (it would need to read /proc/self/smaps) and reports as a process without them.
  if (eventnum == 0 && advices == 0) {
    report +=
        "Dave, no latency spike was observed during the lifetime of this Redis instance, not in "
        "the slightest bit. I honestly think you ought to sit down calmly, take a stress pill, "
        "and think things over.\n";
    return report;
  }
  if (advices == 0) {
    report +=
        "\nWhile there are latency events logged, I'm not able to suggest any easy fix. Please "
        "use the Redis community to get some help, providing this report in your help request.\n";
    return report;
  }
  report += "\nI have a few advices for you:\n\n";
  std::string threshold_us =
      std::to_string(static_cast<unsigned long long>(in.latency_monitor_threshold) * 1000);
  if (slowlog_enabled) {
    report +=
        "- There are latency issues with potentially slow commands you are using. Try to enable "
        "the Slow Log Redis feature using the command 'CONFIG SET slowlog-log-slower-than " +
        threshold_us +
        "'. If the Slow log is disabled Redis is not able to log slow commands execution for "
        "you.\n";
  }
  if (slowlog_tuning) {
    report +=
        "- Your current Slow Log configuration only logs events that are slower than your "
        "configured latency monitor threshold. Please use 'CONFIG SET slowlog-log-slower-than " +
        threshold_us + "'.\n";
  }
  if (slowlog_inspect) {
    report +=
        "- Check your Slow Log to understand what are the commands you are running which are too "
        "slow to execute. Please check https://redis.io/commands/slowlog for more information.\n";
  }
  if (scheduler) {
    report +=
        "- The system is slow to execute Redis code paths not containing system calls. This "
        "usually means the system does not provide Redis CPU time to run for long periods. You "
        "should try to:\n"
        "  1) Lower the system load.\n"
        "  2) Use a computer / VM just for Redis if you are running other software in the same "
        "system.\n"
        "  3) Check if you have a \"noisy neighbour\" problem.\n"
        "  4) Check with 'redis-cli --intrinsic-latency 100' what is the intrinsic latency in "
        "your system.\n"
        "  5) Check if the problem is allocator-related by recompiling Redis with MALLOC=libc, if "
        "you are using Jemalloc. However this may create fragmentation problems.\n";
  }
  if (hz && in.hz < 100) {
    report +=
        "- In order to make the Redis keys expiring process more incremental, try to set the "
        "'hz' configuration parameter to 100 using 'CONFIG SET hz 100'.\n";
  }
  if (large_objects) {
    report +=
        "- Deleting, expiring or evicting (because of maxmemory policy) large objects is a "
        "blocking operation. If you have very large objects that are often deleted, expired, or "
        "evicted, try to fragment those objects into multiple smaller objects.\n";
  }
  if (mass_eviction) {
    report +=
        "- Sudden changes to the 'maxmemory' setting via 'CONFIG SET', or allocation of large "
        "objects via sets or sorted sets intersections, STORE option of SORT, Redis Cluster "
        "large keys migrations (RESTORE command), may create sudden memory pressure forcing the "
        "server to block trying to evict keys. \n";
  }
  return report;
}

std::vector<std::pair<int64_t, uint64_t>> LatencyHistogram::Cumulative() const {
  std::vector<std::pair<int64_t, uint64_t>> out;
  uint64_t cumulative = 0;
  for (size_t k = 0; k < kBuckets && cumulative < calls_; ++k) {
    if (buckets_[k] == 0) continue;
    cumulative += buckets_[k];
    // The last bucket holds everything past 1032 * 2^19 ns; Redis's iteration reports it at the
    // end of the HDR histogram's range, 2^30 - 1 ns.
    int64_t upper_ns = k + 1 < kBuckets ? (int64_t{1032} << k) - 1 : (int64_t{1} << 30) - 1;
    out.emplace_back(upper_ns / 1000, cumulative);
  }
  return out;
}

}  // namespace redlab::server::engine
