// The closed- and open-loop load generator (see runner.h): one libuv loop, hiredis async
// connections, a timer for pacing, phases and the per-second progress.
#include "tools/bench/runner.h"

#include <fmt/format.h>
#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <unistd.h>
#include <uv.h>

#include <cstdio>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>

#include "client/hiredis_libuv.h"
#include "tools/bench/pacing.h"

namespace redlab::tools::bench {

int64_t RunStats::errors_total() const {
  int64_t n = 0;
  for (const auto& [word, count] : errors) n += count;
  return n;
}

void RunStats::Merge(const RunStats& other) {
  latency.Add(other.latency);
  double offset = elapsed_s;
  for (const Interval& i : other.intervals) {
    intervals.push_back(i);
    intervals.back().start_s += offset;
  }
  calls += other.calls;
  for (const auto& [word, count] : other.errors) errors[word] += count;
  wait_short += other.wait_short;
  noscript += other.noscript;
  elapsed_s += other.elapsed_s;
  rounds += other.rounds;
}

namespace {

std::string FirstWord(const redisReply* r) {
  std::string s(r->str, r->len);
  return s.substr(0, s.find(' '));
}

class Runner {
 public:
  Runner(const RunnerOptions& o, Workload& w) : o_(o), w_(w) {}

  RunStats Go();

 private:
  struct Conn {
    Runner* runner;
    int id;
    redisAsyncContext* ac = nullptr;
    int in_flight = 0;
    bool dead = false;
    bool ready = false;
    std::deque<std::pair<Clock::time_point, bool>> queue;  // open loop: (intended, measured)
  };
  struct Call {
    Conn* conn;
    Clock::time_point start;
    bool measured;
    bool evaled = false;  // already sent again as EVAL
    bool retry = false;   // NOSCRIPT: send as EVAL once WAIT's reply is in
    bool io_error = false;
    int pending = 0;  // replies still to come for this attempt (the call, WAIT)
    std::string error;
    std::vector<std::string> argv;

    // `reply` to one of this call's commands; nullptr, the call marked as an IO error, when none
    // came (hiredis is freeing the context).
    redisReply* ReplyOrIoError(void* reply) {
      if (reply == nullptr) {
        io_error = true;
        conn->ac = nullptr;
      }
      return static_cast<redisReply*>(reply);
    }
  };

  static void OnReady(redisAsyncContext* ac, void* reply, void* priv);
  static void OnMain(redisAsyncContext* ac, void* reply, void* priv);
  static void OnWait(redisAsyncContext* ac, void* reply, void* priv);
  static void OnDisconnect(const redisAsyncContext* ac, int status);
  static void OnTimer(uv_timer_t* t);

  bool waiting() const { return o_.wait_replicas >= 0; }
  void Start();
  void Issue(Conn* c, Clock::time_point start, bool measured);
  bool Send(Call* call);
  void Finish(Call* call);
  void Complete(Call* call);
  void Refill(Conn* c, Clock::time_point now);
  bool MayIssueClosed(Clock::time_point now) const;
  void Tick();
  void RollInterval(Clock::time_point now, bool last);
  void MaybeFinish();
  void Abandon();
  void DropQueue(Conn* c);
  bool FinishedIssuing(Clock::time_point now) const;

  const RunnerOptions& o_;
  Workload& w_;
  uv_loop_t loop_;
  uv_timer_t timer_;
  std::vector<std::unique_ptr<Conn>> conns_;
  int not_ready_ = 0;
  bool started_ = false, finishing_ = false;
  Clock::time_point t0_, measure_start_, end_, last_reply_, interval_start_;
  int64_t measured_issued_ = 0;
  std::optional<OpenLoopPacer> pacer_;
  bool pacer_measures_ = false;
  size_t next_conn_ = 0;
  std::string wait_n_, wait_t_;
  std::vector<const char*> argv_ptrs_;
  std::vector<size_t> argv_lens_;
  RunStats stats_;
  Histogram interval_ = NewLatencyHistogram();
  int64_t interval_errors_ = 0;
  bool tty_ = false;
  std::string connect_error_;
};

RunStats Runner::Go() {
  if (o_.clients < 1 || o_.pipeline < 1) throw std::invalid_argument("clients and pipeline >= 1");
  uv_loop_init(&loop_);
  uv_timer_init(&loop_, &timer_);
  timer_.data = this;
  wait_n_ = std::to_string(o_.wait_replicas);
  wait_t_ = std::to_string(o_.wait_timeout_ms);
  tty_ = o_.progress && isatty(STDERR_FILENO);
  not_ready_ = o_.clients;
  for (int i = 0; i < o_.clients; ++i) {
    auto c = std::make_unique<Conn>();
    c->runner = this;
    c->id = i;
    c->ac = redisAsyncConnect(o_.host.c_str(), o_.port);
    if (c->ac == nullptr || c->ac->err) {
      connect_error_ = c->ac ? c->ac->errstr : "out of memory";
      if (c->ac) redisAsyncFree(c->ac);
      c->ac = nullptr;
      c->dead = true;
      --not_ready_;
    } else {
      c->ac->data = c.get();
      // The client's adapter: hiredis 0.14's own drops poll errors (a reset connection hangs).
      client::HiredisLibuvAttach(c->ac, &loop_);
      redisAsyncSetDisconnectCallback(c->ac, OnDisconnect);
      // The replies of AUTH and SELECT are checked by the setup's own connection, which made
      // the same calls before the run.
      if (!o_.password.empty() && !o_.user.empty()) {
        redisAsyncCommand(c->ac, nullptr, nullptr, "AUTH %s %s", o_.user.c_str(),
                          o_.password.c_str());
      } else if (!o_.password.empty()) {
        redisAsyncCommand(c->ac, nullptr, nullptr, "AUTH %s", o_.password.c_str());
      }
      if (o_.db != 0) redisAsyncCommand(c->ac, nullptr, nullptr, "SELECT %d", o_.db);
      redisAsyncCommand(c->ac, OnReady, c.get(), "PING");
    }
    conns_.push_back(std::move(c));
  }
  if (not_ready_ == 0) Start();  // none could connect: finishes at once
  uv_run(&loop_, UV_RUN_DEFAULT);
  if (!finishing_) Abandon();
  uv_loop_close(&loop_);
  if (tty_) fprintf(stderr, "\r\033[K");
  if (!connect_error_.empty() && stats_.calls == 0) {
    throw std::runtime_error(
        fmt::format("cannot connect to {}:{}: {}", o_.host, o_.port, connect_error_));
  }
  stats_.rounds = 1;
  return std::move(stats_);
}

void Runner::OnReady(redisAsyncContext* ac, void* reply, void* priv) {
  auto* c = static_cast<Conn*>(priv);
  Runner* r = c->runner;
  auto* rep = static_cast<redisReply*>(reply);
  if (rep == nullptr || rep->type == REDIS_REPLY_ERROR) {
    r->connect_error_ = rep                     ? std::string(rep->str, rep->len)
                        : ac->errstr[0] != '\0' ? std::string(ac->errstr)
                                                : "the connection was refused or lost";
    c->dead = true;
    if (rep == nullptr) c->ac = nullptr;  // hiredis is freeing the context
  } else {
    c->ready = true;
  }
  if (--r->not_ready_ == 0) r->Start();
}

void Runner::Start() {
  if (finishing_) return;
  started_ = true;
  t0_ = Clock::now();
  measure_start_ =
      t0_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.warmup_s));
  end_ = measure_start_ +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.duration_s));
  interval_start_ = measure_start_;
  last_reply_ = measure_start_;
  if (o_.rate > 0) {
    pacer_measures_ = o_.warmup_s <= 0;
    pacer_.emplace(o_.rate, pacer_measures_ ? measure_start_ : t0_,
                   pacer_measures_ ? o_.requests : 0);
    uv_timer_start(&timer_, OnTimer, 0, 1);
    Tick();
  } else {
    uv_timer_start(&timer_, OnTimer, 50, 50);
    for (auto& c : conns_) Refill(c.get(), t0_);
  }
  MaybeFinish();
}

bool Runner::MayIssueClosed(Clock::time_point now) const {
  if (now < measure_start_) return true;  // warming up
  if (o_.requests > 0) return measured_issued_ < o_.requests;
  return now < end_;
}

void Runner::Issue(Conn* c, Clock::time_point start, bool measured) {
  auto* call = new Call{.conn = c, .start = start, .measured = measured};
  w_.Build(c->id, &call->argv);
  ++c->in_flight;
  if (measured) ++measured_issued_;
  if (!Send(call)) {
    --c->in_flight;
    c->dead = true;
    delete call;
  }
}

bool Runner::Send(Call* call) {
  argv_ptrs_.clear();
  argv_lens_.clear();
  for (const auto& a : call->argv) {
    argv_ptrs_.push_back(a.data());
    argv_lens_.push_back(a.size());
  }
  redisAsyncContext* ac = call->conn->ac;
  if (ac == nullptr || redisAsyncCommandArgv(ac, OnMain, call, static_cast<int>(argv_ptrs_.size()),
                                             argv_ptrs_.data(), argv_lens_.data()) != REDIS_OK) {
    return false;
  }
  call->pending = 1;
  if (waiting()) {
    const char* wait_argv[] = {"WAIT", wait_n_.c_str(), wait_t_.c_str()};
    size_t wait_lens[] = {4, wait_n_.size(), wait_t_.size()};
    if (redisAsyncCommandArgv(ac, OnWait, call, 3, wait_argv, wait_lens) == REDIS_OK) {
      call->pending = 2;
    } else {
      call->io_error = true;  // the call's own reply finishes it
    }
  }
  return true;
}

void Runner::OnMain(redisAsyncContext*, void* reply, void* priv) {
  auto* call = static_cast<Call*>(priv);
  Runner* r = call->conn->runner;
  redisReply* rep = call->ReplyOrIoError(reply);
  if (rep != nullptr && rep->type == REDIS_REPLY_ERROR) {
    std::string word = FirstWord(rep);
    if (word == "NOSCRIPT" && r->w_.kind() == CallKind::kScript && !call->evaled) {
      call->retry = true;
    } else {
      call->error = word;
    }
  }
  if (--call->pending == 0) r->Finish(call);
}

void Runner::OnWait(redisAsyncContext*, void* reply, void* priv) {
  auto* call = static_cast<Call*>(priv);
  Runner* r = call->conn->runner;
  redisReply* rep = call->ReplyOrIoError(reply);
  if (rep != nullptr && rep->type == REDIS_REPLY_ERROR) {
    if (call->error.empty()) call->error = FirstWord(rep);
  } else if (rep != nullptr && !call->retry && call->measured && rep->type == REDIS_REPLY_INTEGER &&
             rep->integer < r->o_.wait_replicas) {
    ++r->stats_.wait_short;
  }
  if (--call->pending == 0) r->Finish(call);
}

void Runner::Finish(Call* call) {
  if (call->retry && !call->io_error) {
    call->retry = false;
    call->evaled = true;
    if (call->measured) ++stats_.noscript;
    w_.ToEval(&call->argv);
    if (Send(call)) return;
    call->io_error = true;
  }
  Complete(call);
}

void Runner::Complete(Call* call) {
  Conn* c = call->conn;
  Clock::time_point now = Clock::now();
  --c->in_flight;
  if (call->measured) {
    int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now - call->start).count();
    stats_.latency.Record(ns);
    interval_.Record(ns);
    ++stats_.calls;
    if (call->io_error) {
      ++stats_.errors["IO"];
      ++interval_errors_;
    } else if (!call->error.empty()) {
      ++stats_.errors[call->error];
      ++interval_errors_;
    }
    if (now > last_reply_) last_reply_ = now;
  }
  if (call->io_error) {
    c->dead = true;
    DropQueue(c);
  }
  delete call;
  if (!c->dead && !finishing_) Refill(c, now);
  MaybeFinish();
}

void Runner::Refill(Conn* c, Clock::time_point now) {
  if (o_.rate > 0) {
    while (!c->dead && c->in_flight < o_.pipeline && !c->queue.empty()) {
      auto [intended, measured] = c->queue.front();
      c->queue.pop_front();
      Issue(c, intended, measured);
    }
    return;
  }
  while (!c->dead && c->in_flight < o_.pipeline && MayIssueClosed(now)) {
    Issue(c, now, now >= measure_start_);
  }
}

void Runner::OnTimer(uv_timer_t* t) { static_cast<Runner*>(t->data)->Tick(); }

void Runner::Tick() {
  Clock::time_point now = Clock::now();
  if (pacer_) {
    if (!pacer_measures_ && now >= measure_start_) {
      // Warm-up over: a new schedule from the measurement's start, counting the requests.
      pacer_measures_ = true;
      pacer_.emplace(o_.rate, measure_start_, o_.requests);
    }
    if (o_.requests == 0 && now >= end_) pacer_->Stop();
    bool measured = pacer_measures_;
    pacer_->Tick(now, [&](int64_t, Clock::time_point intended) {
      for (size_t tries = 0; tries < conns_.size(); ++tries) {
        Conn* c = conns_[next_conn_++ % conns_.size()].get();
        if (c->dead) continue;
        if (c->in_flight < o_.pipeline && c->queue.empty()) {
          Issue(c, intended, measured);
        } else {
          c->queue.emplace_back(intended, measured);
        }
        return;
      }
      if (measured) {  // no connection left to send it on
        ++stats_.calls;
        ++stats_.errors["IO"];
      }
    });
  }
  if (now >= interval_start_ + std::chrono::seconds(1)) RollInterval(now, false);
  MaybeFinish();
}

void Runner::RollInterval(Clock::time_point now, bool last) {
  double start = std::chrono::duration<double>(interval_start_ - measure_start_).count();
  double length = std::chrono::duration<double>(now - interval_start_).count();
  if (length <= 0) return;
  if (tty_ && !last) {
    fprintf(stderr, "\r\033[K  %s %4.0fs  %10.0f calls/s  p50 %8.3f ms  p99 %8.3f ms  errors %lld",
            o_.progress_label.c_str(), start + length,
            static_cast<double>(interval_.total_count()) / length,
            static_cast<double>(interval_.ValueAtPercentile(50)) / 1e6,
            static_cast<double>(interval_.ValueAtPercentile(99)) / 1e6,
            static_cast<long long>(interval_errors_));
    fflush(stderr);
  }
  if (interval_.total_count() > 0 || !last) {
    stats_.intervals.push_back(
        Interval{.start_s = start, .length_s = length, .latency = interval_});
  }
  interval_.Reset();
  interval_errors_ = 0;
  interval_start_ = now;
}

bool Runner::FinishedIssuing(Clock::time_point now) const {
  if (pacer_) return pacer_->done() && pacer_measures_;
  return !MayIssueClosed(now);
}

void Runner::MaybeFinish() {
  if (!started_ || finishing_) return;
  bool all_dead = true;
  for (auto& c : conns_) {
    if (!c->dead) all_dead = false;
    if (c->in_flight > 0 || (!c->dead && !c->queue.empty())) return;
  }
  if (!all_dead && !FinishedIssuing(Clock::now())) return;
  finishing_ = true;
  stats_.elapsed_s = std::chrono::duration<double>(last_reply_ - measure_start_).count();
  if (stats_.elapsed_s < 0) stats_.elapsed_s = 0;
  if (last_reply_ > interval_start_) RollInterval(last_reply_, true);
  uv_timer_stop(&timer_);
  uv_close(reinterpret_cast<uv_handle_t*>(&timer_), nullptr);
  for (auto& c : conns_) {
    if (c->ac != nullptr) redisAsyncDisconnect(c->ac);
  }
}

// The loop ran dry before the run ended (a connection whose handle stopped without hiredis
// knowing; client/hiredis_libuv.h passes poll errors on, so this is a safety net): the calls
// still pending end as IO errors, the contexts are freed and their handles closed.
void Runner::Abandon() {
  finishing_ = true;
  if (connect_error_.empty()) connect_error_ = "the connection failed";
  for (auto& c : conns_) {
    if (c->ac == nullptr) continue;
    redisAsyncContext* ac = c->ac;
    c->ac = nullptr;
    c->dead = true;
    redisAsyncFree(ac);  // pending callbacks run with no reply
  }
  auto* timer = reinterpret_cast<uv_handle_t*>(&timer_);
  if (!uv_is_closing(timer)) uv_close(timer, nullptr);
  uv_run(&loop_, UV_RUN_DEFAULT);
}

// Open loop: the calls waiting for a connection that is gone end as IO errors (no latency: they
// were never sent).
void Runner::DropQueue(Conn* c) {
  for (const auto& [intended, measured] : c->queue) {
    if (!measured) continue;
    ++stats_.calls;
    ++stats_.errors["IO"];
  }
  c->queue.clear();
}

void Runner::OnDisconnect(const redisAsyncContext* ac, int status) {
  auto* c = static_cast<Conn*>(ac->data);
  c->ac = nullptr;  // hiredis frees the context after this callback
  c->dead = true;
  c->runner->DropQueue(c);
  if (status != REDIS_OK && c->runner->connect_error_.empty()) {
    c->runner->connect_error_ = ac->errstr;
  }
  c->runner->MaybeFinish();
}

}  // namespace

RunStats Run(const RunnerOptions& options, Workload& workload) {
  return Runner(options, workload).Go();
}

}  // namespace redlab::tools::bench
