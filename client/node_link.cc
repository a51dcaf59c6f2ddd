#include "client/node_link.h"

#include <charconv>

#include "client/errors.h"

namespace redlab::client {
namespace {

template <typename E>
bool Is(const std::exception_ptr& e) {
  if (!e) return false;
  try {
    std::rethrow_exception(e);
  } catch (const E&) {
    return true;
  } catch (...) {
    return false;
  }
}

CommandResult Closed() {
  CommandResult r;
  r.error = std::make_exception_ptr(ClientClosed("the client was shut down"));
  return r;
}

int64_t ParseInt(const std::string& s) {
  int64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

}  // namespace

struct NodeLink::Retry {
  Attempt attempt;
  bool idempotent = true;
  std::function<void(CommandResult)> done;
  int attempts_left = 0;
  int attempt_number = 0;  // retries made so far: the delay grows with it
  int lane = -1;           // the connection it must use (see EvalWrite); -1: any
  std::unique_ptr<Timer> timer;
};

NodeLink::NodeLink(EventLoop& loop, const Config& config, const ServerAddress& address)
    : loop_(loop),
      config_(config),
      address_(address),
      sync_replicas_(config.mode == Config::Mode::kMasterReplica ||
                     config.mode == Config::Mode::kSentinel) {
  ConnectionOptions options{address, config.connect_timeout, config.timeout};
  for (int i = 0; i < config.connection_pool_size; ++i) {
    pool_.push_back(std::make_unique<Connection>(loop, options));
  }
  subscriber_ = std::make_unique<Subscriber>(loop, options, config.RetryDelay(0),
                                             config.ping_connection_interval);
  waiters_ = std::make_unique<LockWaiters>(*subscriber_);
}

NodeLink::~NodeLink() { Close(); }

void NodeLink::ConnectAll() {
  for (auto& c : pool_) c->Connect();
}

Connection& NodeLink::PickConnection(int lane) {
  if (lane >= 0) return *pool_[static_cast<size_t>(lane) % pool_.size()];
  Connection* best = pool_.front().get();
  for (auto& c : pool_) {
    if (c->load() < best->load()) best = c.get();
  }
  return *best;
}

void NodeLink::Call(std::vector<std::string> args, CallOptions options, ResultCallback cb) {
  auto shared_args = std::make_shared<std::vector<std::string>>(std::move(args));
  auto extra = options.extra_timeout;
  WithRetries(
      [shared_args, extra](Connection& c, std::function<void(CommandResult)> done) {
        c.Send(*shared_args, std::move(done), extra);
      },
      options.idempotent, std::move(cb), options.retry ? -1 : 0);
}

bool NodeLink::IsNoScript(const CommandResult& r) {
  return !r.error && r.reply.is_error() && r.reply.str.rfind("NOSCRIPT", 0) == 0;
}

void NodeLink::EvalWrite(const Script& script, std::vector<std::string> keys,
                         std::vector<std::string> args, bool idempotent,
                         std::function<bool(const Reply&)> wrote,
                         std::function<void(WriteResult)> cb, int attempts, int lane) {
  struct Sync {
    int64_t replicas = 0;
    int64_t synced = -1;
  };
  auto sync = std::make_shared<Sync>();
  auto command = std::make_shared<std::vector<std::string>>();
  command->reserve(3 + keys.size() + args.size());
  command->push_back("EVALSHA");
  command->push_back(script.sha);
  command->push_back(std::to_string(keys.size()));
  for (auto& k : keys) command->push_back(std::move(k));
  for (auto& a : args) command->push_back(std::move(a));
  const Script* s = &script;  // scripts live as long as the client
  bool with_replicas = sync_replicas_;
  std::function<int64_t()> replica_count = replica_count_;
  auto wait_timeout = config_.slaves_sync_timeout;

  Attempt attempt = [=](Connection& conn, std::function<void(CommandResult)> done) {
    *sync = Sync{};
    if (with_replicas && replica_count) {
      sync->replicas = replica_count();
    } else if (with_replicas) {
      conn.Send({"INFO", "replication"}, [sync](CommandResult r) {
        if (r.error || r.reply.type != Reply::Type::kString) return;
        if (auto n = InfoField(r.reply.str, "connected_slaves")) sync->replicas = ParseInt(*n);
      });
    }
    // After the script's reply: WAIT on the same connection when it wrote something.
    auto after_eval = [=, &conn](CommandResult r) {
      if (r.error || r.reply.is_error() || sync->replicas <= 0 || !wrote(r.reply)) {
        done(std::move(r));
        return;
      }
      auto result = std::make_shared<CommandResult>(std::move(r));
      conn.Send(
          {"WAIT", std::to_string(sync->replicas), std::to_string(wait_timeout.count())},
          [=](CommandResult w) {
            // A failed WAIT proves nothing reached a replica: count it as none.
            sync->synced = !w.error && w.reply.type == Reply::Type::kInteger ? w.reply.integer : 0;
            done(std::move(*result));
          },
          wait_timeout);
    };
    conn.Send(*command, [=, &conn](CommandResult r) {
      if (!IsNoScript(r)) {
        after_eval(std::move(r));
        return;
      }
      // SCRIPT FLUSH, a restart or a failover emptied the script cache: send the text.
      std::vector<std::string> eval = *command;
      eval[0] = "EVAL";
      eval[1] = s->text;
      conn.Send(std::move(eval), after_eval);
    });
  };
  WithRetries(
      std::move(attempt), idempotent,
      [sync, cb](CommandResult r) {
        WriteResult w;
        w.result = std::move(r);
        w.replicas = sync->synced >= 0 ? sync->replicas : 0;
        w.synced = sync->synced;
        cb(std::move(w));
      },
      attempts, lane);
}

void NodeLink::WithRetries(Attempt attempt, bool idempotent,
                           std::function<void(CommandResult)> done, int attempts, int lane) {
  auto retry = std::make_shared<Retry>();
  retry->lane = lane;
  retry->attempt = std::move(attempt);
  retry->idempotent = idempotent;
  retry->done = std::move(done);
  retry->attempts_left = attempts >= 0 ? attempts : config_.retry_attempts;
  RunAttempt(std::move(retry));
}

void NodeLink::RunAttempt(std::shared_ptr<Retry> retry) {
  if (closed_) {
    retry->done(Closed());
    return;
  }
  retry->attempt(PickConnection(retry->lane), [this, retry](CommandResult r) {
    bool transport = r.error && (Is<IoError>(r.error) || Is<TimeoutError>(r.error));
    if (transport && retry->attempts_left > 0 && (retry->idempotent || !r.maybe_executed) &&
        !closed_) {
      --retry->attempts_left;
      int attempt = retry->attempt_number++;
      retry->timer = std::make_unique<Timer>(loop_);
      retries_.push_back(retry);
      retry->timer->Start(config_.RetryDelay(attempt), [this, retry] {
        // The timer's callback holds the retry: drop the timer (safe from its own callback) or
        // the two would keep each other alive.
        retry->timer.reset();
        retries_.remove(retry);
        RunAttempt(retry);
      });
      return;
    }
    retry->done(std::move(r));
  });
}

void NodeLink::Retarget(const ServerAddress& address) {
  if (closed_) return;
  address_ = address;
  for (auto& c : pool_) {
    c->SetAddress(address);
    c->Reset(std::make_exception_ptr(IoError("the master moved to " + address.ToString())));
  }
  subscriber_->Retarget(address);
}

void NodeLink::Close() {
  if (closed_) return;
  closed_ = true;
  std::list<std::shared_ptr<Retry>> retries;
  retries.swap(retries_);
  for (auto& r : retries) {
    r->timer.reset();
    r->done(Closed());
  }
  subscriber_->Close();
  for (auto& c : pool_) c->Close(std::make_exception_ptr(ClientClosed("the client was shut down")));
}

}  // namespace redlab::client
