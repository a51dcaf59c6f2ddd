// The lab's history: operations and events on one clock.
#include "tools/lab/history.h"

#include <algorithm>
#include <stdexcept>

namespace redlab::lab {

const char* OpKindName(OpKind k) {
  switch (k) {
    case OpKind::kAcquire:
      return "acquire";
    case OpKind::kRelease:
      return "release";
    case OpKind::kRenew:
      return "renew";
    case OpKind::kLost:
      return "lost";
    case OpKind::kRead:
      return "read";
    case OpKind::kWrite:
      return "write";
  }
  return "?";
}

const char* OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kOk:
      return "ok";
    case Outcome::kFail:
      return "fail";
    case Outcome::kUnknown:
      return "unknown";
  }
  return "?";
}

std::optional<OpKind> ParseOpKind(const std::string& s) {
  for (OpKind k : {OpKind::kAcquire, OpKind::kRelease, OpKind::kRenew, OpKind::kLost, OpKind::kRead,
                   OpKind::kWrite}) {
    if (s == OpKindName(k)) return k;
  }
  return std::nullopt;
}

std::optional<Outcome> ParseOutcome(const std::string& s) {
  for (Outcome o : {Outcome::kOk, Outcome::kFail, Outcome::kUnknown}) {
    if (s == OutcomeName(o)) return o;
  }
  return std::nullopt;
}

int64_t History::Invoke(Op op) {
  std::lock_guard lock(mu_);
  op.id = next_id_++;
  if (op.invoke_us == 0) op.invoke_us = NowUs();
  op.complete_us = -1;
  op.outcome = Outcome::kUnknown;
  ops_.push_back(std::move(op));
  return ops_.back().id;
}

void History::Complete(int64_t id, Outcome outcome, std::optional<int64_t> token,
                       std::optional<int64_t> value, std::string error) {
  int64_t now = NowUs();
  std::lock_guard lock(mu_);
  for (auto it = ops_.rbegin(); it != ops_.rend(); ++it) {
    if (it->id != id) continue;
    it->complete_us = now;
    it->outcome = outcome;
    if (token) it->token = token;
    if (value) it->value = value;
    it->error = std::move(error);
    return;
  }
  throw std::logic_error("History::Complete: no op " + std::to_string(id));
}

void History::Instant(Op op) {
  std::lock_guard lock(mu_);
  op.id = next_id_++;
  op.invoke_us = op.complete_us = NowUs();
  op.outcome = Outcome::kOk;
  ops_.push_back(std::move(op));
}

size_t History::Begin(std::string kind, std::string target, std::string detail) {
  std::lock_guard lock(mu_);
  events_.push_back({NowUs(), -1, std::move(kind), std::move(target), std::move(detail)});
  return events_.size() - 1;
}

void History::End(size_t event) {
  int64_t now = NowUs();
  std::lock_guard lock(mu_);
  events_.at(event).end_us = now;
}

void History::Mark(std::string kind, std::string target, std::string detail) {
  std::lock_guard lock(mu_);
  events_.push_back({NowUs(), -1, std::move(kind), std::move(target), std::move(detail)});
}

void History::AddOp(Op op) {
  std::lock_guard lock(mu_);
  if (op.id == 0) op.id = next_id_;
  next_id_ = std::max(next_id_, op.id + 1);
  ops_.push_back(std::move(op));
}

void History::AddEvent(Event e) {
  std::lock_guard lock(mu_);
  events_.push_back(std::move(e));
}

std::vector<Op> History::ops() const {
  std::lock_guard lock(mu_);
  return ops_;
}

std::vector<Event> History::events() const {
  std::lock_guard lock(mu_);
  return events_;
}

int64_t History::EndUs() const {
  std::lock_guard lock(mu_);
  int64_t end = 0;
  for (const Op& op : ops_) end = std::max({end, op.invoke_us, op.complete_us});
  for (const Event& e : events_) end = std::max({end, e.at_us, e.end_us});
  return end;
}

}  // namespace redlab::lab
