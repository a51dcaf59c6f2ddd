#include "client/watchdog.h"

#include <vector>

#include "client/lock_core.h"

namespace redlab::client {

Watchdog::Watchdog(EventLoop& loop, NodeLink& link, const Config& config, const Script& renew)
    : loop_(loop), link_(link), config_(config), renew_(renew), timer_(loop) {}

void Watchdog::Add(std::shared_ptr<LockCore> lock, ThreadId t) {
  if (closed_) return;
  Entry& e = entries_[{lock->name, t.value}];
  if (e.holds == 0) {
    e.owner = lock->Owner(t);
    e.generation = next_generation_++;
  }
  e.lock = std::move(lock);
  ++e.holds;
  if (!timer_.active() && !renewing_) Schedule(config_.lock_watchdog_timeout / 3);
}

void Watchdog::Remove(const std::string& name, ThreadId t) {
  auto it = entries_.find({name, t.value});
  if (it == entries_.end()) return;
  if (--it->second.holds <= 0) entries_.erase(it);
  if (entries_.empty()) timer_.Stop();
}

void Watchdog::RemoveAll(const std::string& name) {
  auto it = entries_.lower_bound({name, 0});
  while (it != entries_.end() && it->first.first == name) it = entries_.erase(it);
  if (entries_.empty()) timer_.Stop();
}

void Watchdog::Close() {
  closed_ = true;
  timer_.Stop();
  entries_.clear();
}

void Watchdog::Schedule(std::chrono::milliseconds delay) {
  timer_.Start(delay, [this] { Renew(); });
}

void Watchdog::Renew() {
  if (closed_ || entries_.empty()) return;
  struct Round {
    size_t pending = 0;
    bool failed = false;
  };
  auto round = std::make_shared<Round>();
  renewing_ = true;

  // Batches of lock_watchdog_batch_size: KEYS = lock names, ARGV = lease, then each owner.
  std::vector<std::pair<Key, uint64_t>> batch;
  auto flush = [&] {
    std::vector<std::string> keys;
    std::vector<std::string> args{std::to_string(config_.lock_watchdog_timeout.count())};
    for (const auto& [key, generation] : batch) {
      keys.push_back(key.first);
      args.push_back(entries_[key].owner);
    }
    ++round->pending;
    auto members = std::make_shared<std::vector<std::pair<Key, uint64_t>>>(std::move(batch));
    batch.clear();
    link_.EvalWrite(
        renew_, std::move(keys), std::move(args), /*idempotent=*/true,
        [](const Reply&) { return true; },
        [this, round, members](WriteResult w) {
          if (closed_) return;
          const CommandResult& r = w.result;
          // A renewal that reached no replica still renewed the master: not a failure here.
          if (r.error || r.reply.type != Reply::Type::kArray ||
              r.reply.elements.size() != members->size()) {
            round->failed = true;
          } else {
            for (size_t i = 0; i < members->size(); ++i) {
              if (r.reply.elements[i].integer != 0) continue;
              auto it = entries_.find((*members)[i].first);
              // Released (or released and taken again) since the batch left: not lost.
              if (it == entries_.end() || it->second.generation != (*members)[i].second) continue;
              std::shared_ptr<LockCore> lock = it->second.lock;
              ThreadId t{it->first.second};
              entries_.erase(it);
              lock->NotifyLost(t);
            }
          }
          if (--round->pending > 0) return;
          renewing_ = false;
          if (!entries_.empty()) {
            Schedule(round->failed
                         ? std::min(config_.retry_interval, config_.lock_watchdog_timeout / 3)
                         : config_.lock_watchdog_timeout / 3);
          }
        });
  };
  for (const auto& [key, entry] : entries_) {
    batch.emplace_back(key, entry.generation);
    if (batch.size() == static_cast<size_t>(config_.lock_watchdog_batch_size)) flush();
  }
  if (!batch.empty()) flush();
}

}  // namespace redlab::client
