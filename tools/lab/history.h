// The lab's history: every client operation (invocation and completion) and every fault or node
// event of one run, on one monotonic clock — what Jepsen calls a history. The checker reads it
// alone; the reports draw it.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace redlab::lab {

// The operations a lab client performs.
enum class OpKind {
  kAcquire,  // take the lock (lease_ms > 0: the lease it asked for; 0: a watchdog keeps it)
  kRelease,  // give it back
  kRenew,    // extend the lease (a watchdog's renewal the client reports)
  kLost,     // the client was told it no longer holds the lock (OnLost); instantaneous
  kRead,     // read the guarded resource (value: what it read)
  kWrite,    // write the guarded resource (value: written, read_value: what it was based on)
};

// How an operation ended: done, definitely not done, or never answered (it may have happened).
enum class Outcome { kOk, kFail, kUnknown };

const char* OpKindName(OpKind k);
const char* OutcomeName(Outcome o);
std::optional<OpKind> ParseOpKind(const std::string& s);
std::optional<Outcome> ParseOutcome(const std::string& s);

struct Op {
  int64_t id = 0;
  std::string process;  // the lab client that performed it ("A", "B", "c3")
  std::string owner;    // the lock owner id it used ("<uuid>:<thread>")
  std::string lock;     // lock name (the resource's name for reads and writes)
  OpKind kind = OpKind::kAcquire;
  int64_t invoke_us = 0;
  int64_t complete_us = -1;  // -1 until completed; an unknown outcome completes when given up
  Outcome outcome = Outcome::kUnknown;
  int64_t lease_ms = 0;               // acquire: the lease asked for (0: watchdog)
  std::optional<int64_t> token;       // fencing token (acquire result; write argument)
  std::optional<int64_t> value;       // read: value read; write: value written
  std::optional<int64_t> read_value;  // write: the value the write was computed from
  std::string error;                  // why it failed or is unknown
};

// A fault or node event; `end_us` > at_us for a fault that lasts (a held link, a pause).
struct Event {
  int64_t at_us = 0;
  int64_t end_us = -1;  // -1: instantaneous, or still going when the run ended
  std::string kind;     // crash, restart, promote, clock-jump, repl-hold, repl-delay, pause, ...
  std::string target;   // the node ("m0", "r1", "n3") or client ("A") it hit
  std::string detail;
};

// The lab's one monotonic clock: microseconds since the run started.
class LabClock {
 public:
  LabClock() : start_(std::chrono::steady_clock::now()) {}
  int64_t NowUs() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                                 start_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

// Thread-safe: workload threads and OnLost callbacks record into it concurrently.
class History {
 public:
  explicit History(const LabClock* clock = nullptr) : clock_(clock) {}

  int64_t NowUs() const { return clock_ ? clock_->NowUs() : 0; }

  // Records the invocation (invoke_us taken now unless already set) and returns the op's id.
  int64_t Invoke(Op op);
  // Completes op `id` now.
  void Complete(int64_t id, Outcome outcome, std::optional<int64_t> token = std::nullopt,
                std::optional<int64_t> value = std::nullopt, std::string error = {});
  // An instantaneous op (kLost), invoked and completed now.
  void Instant(Op op);
  // Records an event starting now; returns its index (for End).
  size_t Begin(std::string kind, std::string target, std::string detail = {});
  void End(size_t event);
  // An instantaneous event, now.
  void Mark(std::string kind, std::string target, std::string detail = {});

  // For tests and loading: append as given.
  void AddOp(Op op);
  void AddEvent(Event e);

  std::vector<Op> ops() const;
  std::vector<Event> events() const;
  // The time of the last thing recorded (the run's end as the history knows it).
  int64_t EndUs() const;

 private:
  const LabClock* clock_;
  mutable std::mutex mu_;
  std::vector<Op> ops_;
  std::vector<Event> events_;
  int64_t next_id_ = 1;
};

}  // namespace redlab::lab
