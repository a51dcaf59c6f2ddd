// toxiproxy's toxics (toxics/latency.go, bandwidth.go, slicer.go, timeout.go, reset_peer.go,
// limit_data.go, slow_close.go): their attributes, and the timing of latency, slicer, bandwidth.
#include "tools/proxy/toxics.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

#include "server/base/numbers.h"
#include "server/base/text.h"

namespace redlab::tools {
namespace {

// A value's attribute name and where it goes.
struct Attribute {
  std::string_view name;
  int64_t* value;
};

// Fills `attrs` from "<name> <value>" pairs; every attribute is optional (0 by default, as in
// toxiproxy), every value a non-negative integer.
std::string ParseAttributes(std::string_view type, const std::vector<std::string_view>& words,
                            std::vector<Attribute> attrs) {
  if ((words.size() - 1) % 2 != 0) {
    return fmt::format("toxic '{}' takes <attribute> <value> pairs", type);
  }
  for (size_t i = 1; i < words.size(); i += 2) {
    auto it = std::find_if(attrs.begin(), attrs.end(), [&](const Attribute& a) {
      return server::EqualsIgnoreCase(a.name, words[i]);
    });
    if (it == attrs.end()) {
      std::string known;
      for (const Attribute& a : attrs) known += (known.empty() ? "" : ", ") + std::string(a.name);
      return fmt::format("toxic '{}' has no attribute '{}' (it has: {})", type, words[i], known);
    }
    int64_t v = 0;
    if (!server::ParseInt64(words[i + 1], &v) || v < 0 || v > (int64_t{1} << 40)) {
      return fmt::format("attribute '{}' must be an integer from 0 to 2^40", it->name);
    }
    *it->value = v;
  }
  return {};
}

// The toxics of one integer attribute, and the field each sets.
struct SingleAttributeToxic {
  std::string_view type;
  std::string_view attribute;
  std::optional<int64_t> Toxics::*field;
};
constexpr SingleAttributeToxic kSingleAttributeToxics[] = {
    {"timeout", "timeout", &Toxics::timeout_ms},
    {"reset_peer", "timeout", &Toxics::reset_peer_ms},
    {"limit_data", "bytes", &Toxics::limit_data},
    {"slow_close", "delay", &Toxics::slow_close_ms},
};

const SingleAttributeToxic* FindSingleAttributeToxic(std::string_view type) {
  for (const SingleAttributeToxic& t : kSingleAttributeToxics) {
    if (server::EqualsIgnoreCase(t.type, type)) return &t;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> DescribeAttributes(const Toxics& t);

std::string_view DirectionName(Direction d) {
  return d == Direction::kUpstream ? "upstream" : "downstream";
}

bool Toxics::empty() const {
  return !latency && !bandwidth_kbps && !slicer && !timeout_ms && !reset_peer_ms && !limit_data &&
         !slow_close_ms;
}

Toxics Toxics::ForDraws(const std::array<double, kTypes>& draws) const {
  Toxics t = *this;
  auto keep = [&](auto& field, int type) {
    if (!(draws[type] < toxicity[type])) field.reset();
  };
  keep(t.latency, 0);
  keep(t.bandwidth_kbps, 1);
  keep(t.slicer, 2);
  keep(t.timeout_ms, 3);
  keep(t.reset_peer_ms, 4);
  keep(t.limit_data, 5);
  keep(t.slow_close_ms, 6);
  return t;
}

Toxics Toxics::Merge(const Toxics& base, const Toxics& over) {
  Toxics t = base;
  if (over.latency) t.latency = over.latency;
  if (over.bandwidth_kbps) t.bandwidth_kbps = over.bandwidth_kbps;
  if (over.slicer) t.slicer = over.slicer;
  if (over.timeout_ms) t.timeout_ms = over.timeout_ms;
  if (over.reset_peer_ms) t.reset_peer_ms = over.reset_peer_ms;
  if (over.limit_data) t.limit_data = over.limit_data;
  if (over.slow_close_ms) t.slow_close_ms = over.slow_close_ms;
  return t;
}

std::string AddToxic(Toxics* toxics, const std::vector<std::string_view>& words_in) {
  using server::EqualsIgnoreCase;
  if (words_in.empty()) return "a toxic type is needed";
  // toxicity is every toxic's: taken out before the type's own attributes are read.
  std::vector<std::string_view> words = {words_in[0]};
  double toxicity = 1;
  for (size_t i = 1; i < words_in.size(); ++i) {
    if (i % 2 == 1 && i + 1 < words_in.size() && EqualsIgnoreCase(words_in[i], "toxicity")) {
      std::string text(words_in[i + 1]);
      char* end = nullptr;
      toxicity = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !(toxicity >= 0 && toxicity <= 1)) {
        return "toxicity must be a number from 0 to 1";
      }
      ++i;
      continue;
    }
    words.push_back(words_in[i]);
  }
  std::string_view type = words[0];
  std::string error;
  if (EqualsIgnoreCase(type, "latency")) {
    Toxics::Latency l;
    error = ParseAttributes(type, words, {{"latency", &l.latency_ms}, {"jitter", &l.jitter_ms}});
    if (error.empty()) toxics->latency = l;
  } else if (EqualsIgnoreCase(type, "bandwidth")) {
    int64_t rate = 0;
    error = ParseAttributes(type, words, {{"rate", &rate}});
    if (error.empty() && rate == 0) error = "bandwidth needs a rate above 0 (KB/s)";
    if (error.empty()) toxics->bandwidth_kbps = rate;
  } else if (EqualsIgnoreCase(type, "slicer")) {
    Toxics::Slicer s;
    error = ParseAttributes(type, words,
                            {{"average_size", &s.average_size},
                             {"size_variation", &s.size_variation},
                             {"delay", &s.delay_us}});
    if (error.empty() && s.average_size == 0) error = "slicer needs an average_size above 0";
    if (error.empty() && s.size_variation >= s.average_size) {
      error = "slicer's size_variation must be smaller than its average_size";
    }
    if (error.empty()) toxics->slicer = s;
  } else if (const SingleAttributeToxic* single = FindSingleAttributeToxic(type)) {
    int64_t value = 0;
    error = ParseAttributes(type, words, {{single->attribute, &value}});
    if (error.empty()) toxics->*single->field = value;
  } else {
    error = fmt::format(
        "unknown toxic '{}' (latency, bandwidth, slicer, timeout, reset_peer, limit_data, "
        "slow_close)",
        type);
  }
  if (error.empty()) {
    static constexpr std::string_view kNames[] = {
        "latency", "bandwidth", "slicer", "timeout", "reset_peer", "limit_data", "slow_close"};
    for (int i = 0; i < Toxics::kTypes; ++i) {
      if (EqualsIgnoreCase(type, kNames[i])) toxics->toxicity[i] = toxicity;
    }
  }
  return error;
}

bool RemoveToxic(Toxics* toxics, std::string_view type) {
  using server::EqualsIgnoreCase;
  auto drop = [](auto& field) {
    bool had = field.has_value();
    field.reset();
    return had;
  };
  if (EqualsIgnoreCase(type, "latency")) return drop(toxics->latency);
  if (EqualsIgnoreCase(type, "bandwidth")) return drop(toxics->bandwidth_kbps);
  if (EqualsIgnoreCase(type, "slicer")) return drop(toxics->slicer);
  if (EqualsIgnoreCase(type, "timeout")) return drop(toxics->timeout_ms);
  if (EqualsIgnoreCase(type, "reset_peer")) return drop(toxics->reset_peer_ms);
  if (EqualsIgnoreCase(type, "limit_data")) return drop(toxics->limit_data);
  if (EqualsIgnoreCase(type, "slow_close")) return drop(toxics->slow_close_ms);
  return false;
}

std::vector<std::string> DescribeToxics(const Toxics& t) {
  std::vector<std::string> out = DescribeAttributes(t);
  size_t at = 0;  // DescribeAttributes lists the active types in type order
  for (int type = 0; type < Toxics::kTypes; ++type) {
    bool active = (type == 0 && t.latency) || (type == 1 && t.bandwidth_kbps) ||
                  (type == 2 && t.slicer) || (type == 3 && t.timeout_ms) ||
                  (type == 4 && t.reset_peer_ms) || (type == 5 && t.limit_data) ||
                  (type == 6 && t.slow_close_ms);
    if (!active) continue;
    if (t.toxicity[type] < 1) out[at] += fmt::format(" toxicity={}", t.toxicity[type]);
    ++at;
  }
  return out;
}

std::vector<std::string> DescribeAttributes(const Toxics& t) {
  std::vector<std::string> out;
  if (t.latency) {
    out.push_back(
        fmt::format("latency latency={} jitter={}", t.latency->latency_ms, t.latency->jitter_ms));
  }
  if (t.bandwidth_kbps) out.push_back(fmt::format("bandwidth rate={}", *t.bandwidth_kbps));
  if (t.slicer) {
    out.push_back(fmt::format("slicer average_size={} size_variation={} delay={}",
                              t.slicer->average_size, t.slicer->size_variation,
                              t.slicer->delay_us));
  }
  if (t.timeout_ms) out.push_back(fmt::format("timeout timeout={}", *t.timeout_ms));
  if (t.reset_peer_ms) out.push_back(fmt::format("reset_peer timeout={}", *t.reset_peer_ms));
  if (t.limit_data) out.push_back(fmt::format("limit_data bytes={}", *t.limit_data));
  if (t.slow_close_ms) out.push_back(fmt::format("slow_close delay={}", *t.slow_close_ms));
  return out;
}

void StreamQueue::Enqueue(double due_ms, std::string bytes) {
  queued_bytes_ += bytes.size();
  queue_.push_back(Piece{due_ms, std::move(bytes)});
}

void StreamQueue::Push(double now_ms, const Toxics& t, std::string_view bytes) {
  if (bytes.empty()) return;
  double due = now_ms;
  if (t.latency) {
    // toxiproxy's jitter: latency +/- a uniform amount, never below zero.
    int64_t jitter = 0;
    if (t.latency->jitter_ms > 0) {
      jitter =
          std::uniform_int_distribution<int64_t>(-t.latency->jitter_ms, t.latency->jitter_ms)(rng_);
    }
    due += static_cast<double>(std::max<int64_t>(0, t.latency->latency_ms + jitter));
  }
  due = std::max(due, last_due_ms_);
  // The slicer cuts the write in pieces of average_size +/- size_variation, each delay_us after
  // the one before.
  std::vector<std::string_view> pieces;
  if (t.slicer) {
    size_t at = 0;
    while (at < bytes.size()) {
      int64_t size = t.slicer->average_size;
      if (t.slicer->size_variation > 0) {
        size += std::uniform_int_distribution<int64_t>(-t.slicer->size_variation,
                                                       t.slicer->size_variation)(rng_);
      }
      size_t n = std::min(bytes.size() - at, static_cast<size_t>(std::max<int64_t>(1, size)));
      pieces.push_back(bytes.substr(at, n));
      at += n;
    }
  } else {
    pieces.push_back(bytes);
  }
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (i > 0 && t.slicer) due += static_cast<double>(t.slicer->delay_us) / 1000.0;
    if (!t.bandwidth_kbps) {
      Enqueue(due, std::string(pieces[i]));
      continue;
    }
    // A link of `rate` KB/s: a byte arrives once the bytes before it and itself are sent. Cut in
    // 10 ms' worth, so a large write trickles out as it would.
    double bytes_per_ms = static_cast<double>(*t.bandwidth_kbps) * 1024.0 / 1000.0;
    size_t step = std::max<size_t>(1, static_cast<size_t>(bytes_per_ms * 10));
    std::string_view piece = pieces[i];
    for (size_t at = 0; at < piece.size(); at += step) {
      std::string_view part = piece.substr(at, step);
      double start = std::max(due, link_free_ms_);
      link_free_ms_ = start + static_cast<double>(part.size()) / bytes_per_ms;
      due = link_free_ms_;
      Enqueue(due, std::string(part));
    }
  }
  last_due_ms_ = due;
}

void StreamQueue::TakeDue(double now_ms, std::vector<std::string>* out) {
  while (!queue_.empty() && queue_.front().due_ms <= now_ms) {
    queued_bytes_ -= queue_.front().bytes.size();
    out->push_back(std::move(queue_.front().bytes));
    queue_.pop_front();
  }
}

void StreamQueue::Clear() {
  queue_.clear();
  queued_bytes_ = 0;
}

}  // namespace redlab::tools
