// The fault proxy's toxics, as Shopify's toxiproxy has them (toxics/*.go): what one direction of
// a proxied connection does to its bytes, and the queue that holds them until they may leave.
// Pure logic with time passed in, so it is tested without sockets; the proxy applies it.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace redlab::tools {

// toxiproxy's streams: upstream is client -> server, downstream is server -> client.
enum class Direction { kUpstream = 0, kDownstream = 1 };
std::string_view DirectionName(Direction d);

// The toxics active on one direction. Each type is there at most once (toxiproxy's default
// toxic name, <type>_<stream>, is unique per proxy too).
struct Toxics {
  struct Latency {
    int64_t latency_ms = 0;
    int64_t jitter_ms = 0;  // each write is delayed latency +/- a random jitter (order kept)
  };
  struct Slicer {
    int64_t average_size = 0;    // bytes per slice
    int64_t size_variation = 0;  // +/- this many bytes, at random
    int64_t delay_us = 0;        // between slices, microseconds as in toxiproxy
  };
  std::optional<Latency> latency;
  std::optional<int64_t> bandwidth_kbps;  // KB/s (1024 bytes)
  std::optional<Slicer> slicer;
  std::optional<int64_t> timeout_ms;     // drop data; close after this long (0: never close)
  std::optional<int64_t> reset_peer_ms;  // on data: reset (RST) the connection after this long
  std::optional<int64_t> limit_data;     // bytes forwarded before the connection closes
  std::optional<int64_t> slow_close_ms;  // an EOF is passed on this much later

  // toxiproxy's toxicity, by type in the order above: the share of connections a proxy-wide
  // toxic acts on (each connection draws once per type and direction).
  static constexpr int kTypes = 7;
  std::array<double, kTypes> toxicity = {1, 1, 1, 1, 1, 1, 1};

  bool empty() const;
  // These toxics as one connection has them: a type whose toxicity is not above the
  // connection's draw for it (in [0, 1)) is left out.
  Toxics ForDraws(const std::array<double, kTypes>& draws) const;
  // The toxics of `over` win over those of `base` (a connection's own over the proxy's).
  static Toxics Merge(const Toxics& base, const Toxics& over);
};

// Adds (or replaces) one toxic from words "<type> [<attribute> <value>]...", attributes named as
// toxiproxy names them, plus "toxicity <0..1>". Returns an error text (without "ERR ") or an
// empty string.
std::string AddToxic(Toxics* toxics, const std::vector<std::string_view>& words);
// Removes a toxic by type; false when it was not there or the type is unknown.
bool RemoveToxic(Toxics* toxics, std::string_view type);
// One entry per active toxic, "<type> <attr>=<value>...", in a fixed order.
std::vector<std::string> DescribeToxics(const Toxics& toxics);

// The bytes of one direction waiting to leave: latency, slicer and bandwidth decide when each
// piece may go; order is always kept. Times are milliseconds (fractions for slicer and
// bandwidth) of the proxy's monotonic clock.
class StreamQueue {
 public:
  explicit StreamQueue(uint64_t seed = 0x5eed) : rng_(seed) {}

  void Push(double now_ms, const Toxics& toxics, std::string_view bytes);
  // Moves to *out the pieces due by `now_ms`, oldest first, one entry per write to make.
  void TakeDue(double now_ms, std::vector<std::string>* out);
  // When the next piece is due; a negative value when the queue is empty.
  double NextDueMs() const { return queue_.empty() ? -1 : queue_.front().due_ms; }
  size_t queued_bytes() const { return queued_bytes_; }
  bool empty() const { return queue_.empty(); }
  void Clear();

 private:
  struct Piece {
    double due_ms;
    std::string bytes;
  };
  void Enqueue(double due_ms, std::string bytes);

  std::deque<Piece> queue_;
  size_t queued_bytes_ = 0;
  double last_due_ms_ = 0;    // a later write never overtakes an earlier one
  double link_free_ms_ = -1;  // bandwidth: when the link has sent what it was given
  std::mt19937_64 rng_;
};

}  // namespace redlab::tools
