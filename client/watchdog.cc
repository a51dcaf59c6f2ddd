#include "client/watchdog.h"

#include <algorithm>
#include <exception>
#include <memory>

namespace redlab::client {

Watchdog::Watchdog(EventLoop& loop, NodeLink& link, const Config& config, const Script& renew,
                   const Script& read_renew, LostFn on_lost, RenewedFn on_renewed)
    : loop_(loop),
      link_(link),
      config_(config),
      renew_(renew),
      read_renew_(read_renew),
      on_lost_(std::move(on_lost)),
      on_renewed_(std::move(on_renewed)),
      timer_(loop),
      lease_timer_(loop) {}

Watchdog::Entry* Watchdog::Find(const std::string& name, ThreadId t) {
  auto it = entries_.find({name, t.value});
  return it == entries_.end() ? nullptr : &it->second;
}

const Watchdog::Entry* Watchdog::Find(const std::string& name, ThreadId t) const {
  auto it = entries_.find({name, t.value});
  return it == entries_.end() ? nullptr : &it->second;
}

int64_t Watchdog::Needed(const Entry* e) const {
  if (e != nullptr && e->watched == 0 && !e->holds.empty()) return e->holds.back();
  return config_.lock_watchdog_timeout.count();
}

int64_t Watchdog::AcquireTtl(const std::string& name, ThreadId t, int64_t lease_ms) const {
  int64_t watchdog = config_.lock_watchdog_timeout.count();
  if (lease_ms <= 0) return watchdog;
  const Entry* e = Find(name, t);
  return e != nullptr && e->watched > 0 ? std::max(lease_ms, watchdog) : lease_ms;
}

int64_t Watchdog::RestartTtl(const std::string& name, ThreadId t) const {
  return Needed(Find(name, t));
}

void Watchdog::Acquired(const std::string& name, ThreadId t, int64_t lease_ms, std::string owner,
                        std::string key, std::string read_prefix) {
  if (closed_) return;
  auto [it, created] = entries_.try_emplace({name, t.value});
  Entry& e = it->second;
  if (created) {
    e.owner = std::move(owner);
    e.key = key.empty() ? name : std::move(key);
    e.read_prefix = std::move(read_prefix);
    e.generation = next_generation_++;
  } else if (!e.kept() && e.releasing == 0 && Clock::now() >= e.lease_ends) {
    // Only leased holds, and the key has expired since our last write: they are gone, and
    // this acquisition created the lock anew (a lease left to expire must not pile up here).
    e.holds.clear();
  }
  if (lease_ms <= 0) {
    e.holds.push_back(0);
    ++e.watched;
    if (!timer_.active() && !renewing_) Schedule(config_.lock_watchdog_timeout / 3);
  } else {
    e.holds.push_back(lease_ms);
    if (!e.kept()) {
      e.lease_ends = Clock::now() + std::chrono::milliseconds(lease_ms);
      NoteLeaseEnd(it->first, e.lease_ends);
    }
  }
}

void Watchdog::NoteLeaseEnd(const Key& key, Clock::time_point when) {
  bool earliest = lease_ends_.empty() || when < lease_ends_.begin()->first;
  lease_ends_.emplace(when, key);
  if (earliest) {
    auto delay = std::chrono::ceil<std::chrono::milliseconds>(when - Clock::now());
    lease_timer_.Start(delay + std::chrono::milliseconds(1), [this] { DropExpiredLeases(); });
  }
}

void Watchdog::DropExpiredLeases() {
  Clock::time_point now = Clock::now();
  while (!lease_ends_.empty() && lease_ends_.begin()->first <= now) {
    auto it = entries_.find(lease_ends_.begin()->second);
    lease_ends_.erase(lease_ends_.begin());
    if (it != entries_.end() && !it->second.kept() && it->second.releasing == 0 &&
        now >= it->second.lease_ends) {
      entries_.erase(it);
    }
  }
  if (!lease_ends_.empty()) {
    auto delay = std::chrono::ceil<std::chrono::milliseconds>(lease_ends_.begin()->first - now);
    lease_timer_.Start(delay + std::chrono::milliseconds(1), [this] { DropExpiredLeases(); });
  }
}

Watchdog::Ticket Watchdog::BeginRelease(const std::string& name, ThreadId t) {
  Ticket ticket;
  Entry* e = Find(name, t);
  if (e != nullptr) {
    ticket.generation = e->generation;
    ++e->releasing;
    if (!e->holds.empty()) {
      // The latest hold goes first, as nested scopes release them.
      ticket.watched = e->holds.back() == 0;
      e->holds.pop_back();
      if (ticket.watched) {
        --e->watched;
        ++e->releasing_watched;
      }
    }
  }
  ticket.restart_ms = Needed(e);
  return ticket;
}

void Watchdog::EndRelease(const std::string& name, ThreadId t, const Ticket& ticket,
                          ReleaseOutcome outcome) {
  auto it = entries_.find({name, t.value});
  if (ticket.generation == 0 || it == entries_.end() ||
      it->second.generation != ticket.generation) {
    return;  // dropped meanwhile (lost, forced, or the client closed)
  }
  Entry& e = it->second;
  --e.releasing;
  if (ticket.watched) --e.releasing_watched;
  switch (outcome) {
    case ReleaseOutcome::kReleased:
      entries_.erase(it);
      return;
    case ReleaseOutcome::kNotHeld:
      // The server holds nothing of `t`'s: if the watchdog was keeping it, it was lost.
      if (ticket.watched || e.kept()) {
        Lost(it);
      } else {
        entries_.erase(it);
      }
      return;
    case ReleaseOutcome::kStillHeld:
    case ReleaseOutcome::kFailed:
      // Leased holds left: the release gave them restart_ms (or, failed, may have).
      if (!e.kept() && !e.holds.empty()) {
        e.lease_ends =
            std::max(e.lease_ends, Clock::now() + std::chrono::milliseconds(ticket.restart_ms));
        NoteLeaseEnd(it->first, e.lease_ends);
      }
      break;
  }
  EraseIfIdle(it);
}

void Watchdog::EraseIfIdle(std::map<Key, Entry>::iterator it) {
  if (it->second.holds.empty() && it->second.releasing == 0) entries_.erase(it);
}

void Watchdog::Lost(std::map<Key, Entry>::iterator it) {
  std::string name = it->first.first;
  ThreadId t{it->first.second};
  entries_.erase(it);
  if (on_lost_) on_lost_(name, t);
}

void Watchdog::Renewed(const Key& key, bool ok, const std::string& error,
                       Clock::time_point sent) {
  if (!on_renewed_) return;
  LockRenewed event;
  event.name = key.first;
  event.thread = ThreadId{key.second};
  event.lease_ms = config_.lock_watchdog_timeout.count();
  event.ok = ok;
  event.error = error;
  event.sent = sent;
  on_renewed_(std::move(event));
}

void Watchdog::RemoveAll(const std::string& name) {
  auto it = entries_.lower_bound({name, 0});
  while (it != entries_.end() && it->first.first == name) it = entries_.erase(it);
}

void Watchdog::Close() {
  closed_ = true;
  timer_.Stop();
  lease_timer_.Stop();
  entries_.clear();
  lease_ends_.clear();
}

size_t Watchdog::size() const {
  return static_cast<size_t>(std::count_if(entries_.begin(), entries_.end(),
                                           [](const auto& kv) { return kv.second.kept(); }));
}

void Watchdog::Schedule(std::chrono::milliseconds delay) {
  timer_.Start(delay, [this] { Renew(); });
}

void Watchdog::Renew() {
  if (closed_) return;
  struct Round {
    size_t pending = 0;
    bool failed = false;
  };
  auto round = std::make_shared<Round>();

  // Batches of lock_watchdog_batch_size: KEYS = lock names, ARGV = lease, then each owner;
  // read locks by read_lock_renew.lua: KEYS = pairs of name and {name}, ARGV = lease, then
  // per lock 1 and the owner.
  std::vector<std::pair<Key, uint64_t>> batch;
  auto flush_kind = [&](bool read) {
    std::vector<std::string> keys;
    std::vector<std::string> args{std::to_string(config_.lock_watchdog_timeout.count())};
    for (const auto& [key, generation] : batch) {
      const Entry& e = entries_[key];
      keys.push_back(e.key);
      if (read) {
        keys.push_back(e.read_prefix);
        args.push_back("1");
      }
      args.push_back(e.owner);
    }
    ++round->pending;
    renewing_ = true;
    auto members = std::make_shared<std::vector<std::pair<Key, uint64_t>>>(std::move(batch));
    batch.clear();
    link_.EvalWrite(
        read ? read_renew_ : renew_, std::move(keys), std::move(args), /*idempotent=*/true,
        [](const Reply&) { return true; },
        [this, round, members, sent = Clock::now()](WriteResult w) {
          if (closed_) return;
          const CommandResult& r = w.result;
          // Whether the entry a batch member renewed is still the one it sent (not released,
          // or released and taken again, since the batch left).
          auto current = [this](const std::pair<Key, uint64_t>& member) {
            auto it = entries_.find(member.first);
            return it != entries_.end() && it->second.generation == member.second ? it
                                                                                   : entries_.end();
          };
          // A renewal that reached no replica still renewed the master: not a failure here.
          if (r.error || r.reply.type != Reply::Type::kArray ||
              r.reply.elements.size() != members->size()) {
            round->failed = true;
            std::string error = r.error            ? std::string()
                                : r.reply.is_error() ? r.reply.str
                                                     : "unexpected reply to the renewal";
            if (r.error) {
              try {
                std::rethrow_exception(r.error);
              } catch (const std::exception& e) {
                error = e.what();
              }
              if (error.empty()) error = "no answer";
            }
            for (const auto& member : *members) {
              if (current(member) != entries_.end()) Renewed(member.first, false, error, sent);
            }
          } else {
            for (size_t i = 0; i < members->size(); ++i) {
              const auto& member = (*members)[i];
              // Released (or released and taken again) since the batch left: not reported.
              if (current(member) == entries_.end()) continue;
              bool renewed = r.reply.elements[i].integer != 0;
              Renewed(member.first, renewed, {}, sent);
              if (renewed) continue;
              auto it = current(member);  // the callback may not touch the book; look again
              if (it == entries_.end()) continue;
              // A release in flight may have deleted it (on another connection, before this
              // renewal ran): its answer decides (EndRelease).
              if (it->second.releasing > 0 || !it->second.kept()) continue;
              Lost(it);
            }
          }
          if (--round->pending > 0) return;
          renewing_ = false;
          if (size() > 0) {
            Schedule(round->failed
                         ? std::min(config_.RetryDelay(0), config_.lock_watchdog_timeout / 3)
                         : config_.lock_watchdog_timeout / 3);
          }
        });
  };
  for (bool read : {false, true}) {
    for (const auto& [key, entry] : entries_) {
      if (!entry.kept() || entry.read_prefix.empty() != !read) continue;
      batch.emplace_back(key, entry.generation);
      if (batch.size() == static_cast<size_t>(config_.lock_watchdog_batch_size)) flush_kind(read);
    }
    if (!batch.empty()) flush_kind(read);
  }
}

}  // namespace redlab::client
