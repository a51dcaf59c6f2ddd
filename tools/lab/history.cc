// The lab's history: operations and events on one clock.
#include "tools/lab/history.h"

#include <algorithm>
#include <stdexcept>

namespace redlab::lab {

namespace {

// Each enumerator with its name in histories and reports, listed once for both directions.
template <typename E>
struct Named {
  E value;
  const char* name;
};
constexpr Named<OpKind> kOpKinds[] = {
    {OpKind::kAcquire, "acquire"}, {OpKind::kRelease, "release"}, {OpKind::kRenew, "renew"},
    {OpKind::kLost, "lost"},       {OpKind::kRead, "read"},       {OpKind::kWrite, "write"},
};
constexpr Named<Outcome> kOutcomes[] = {
    {Outcome::kOk, "ok"}, {Outcome::kFail, "fail"}, {Outcome::kUnknown, "unknown"}};

template <typename E, size_t N>
const char* NameOf(const Named<E> (&table)[N], E value) {
  for (const Named<E>& n : table) {
    if (n.value == value) return n.name;
  }
  return "?";
}

template <typename E, size_t N>
std::optional<E> ValueOf(const Named<E> (&table)[N], const std::string& name) {
  for (const Named<E>& n : table) {
    if (name == n.name) return n.value;
  }
  return std::nullopt;
}

}  // namespace

const char* OpKindName(OpKind k) { return NameOf(kOpKinds, k); }
const char* OutcomeName(Outcome o) { return NameOf(kOutcomes, o); }
std::optional<OpKind> ParseOpKind(const std::string& s) { return ValueOf(kOpKinds, s); }
std::optional<Outcome> ParseOutcome(const std::string& s) { return ValueOf(kOutcomes, s); }

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
