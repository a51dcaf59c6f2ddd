#include "client/connection.h"

#include <hiredis/async.h>
#include <hiredis/hiredis.h>

#include <algorithm>

#include "client/errors.h"
#include "client/hiredis_libuv.h"

namespace redlab::client {
namespace {

using Clock = std::chrono::steady_clock;

void SendArgv(redisAsyncContext* ac, redisCallbackFn* fn, void* privdata,
              const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  argv.reserve(args.size());
  lens.reserve(args.size());
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  redisAsyncCommandArgv(ac, fn, privdata, static_cast<int>(args.size()), argv.data(), lens.data());
}

}  // namespace

Connection::Connection(EventLoop& loop, ConnectionOptions options)
    : loop_(loop), options_(std::move(options)), connect_timer_(loop), response_timer_(loop) {}

Connection::~Connection() {
  Close(std::make_exception_ptr(ClientClosed("the client was shut down")));
}

std::exception_ptr Connection::MakeIoError(const std::string& what) const {
  return std::make_exception_ptr(IoError(what + " (" + options_.address.ToString() + ")"));
}

void Connection::Send(std::vector<std::string> args, ResultCallback cb,
                      std::chrono::milliseconds extra_timeout) {
  auto p = std::make_unique<Pending>();
  p->args = std::move(args);
  p->cb = std::move(cb);
  p->extra_timeout = extra_timeout;
  if (state_ == State::kClosed) {
    CommandResult r;
    r.error = std::make_exception_ptr(ClientClosed("the client was shut down"));
    p->cb(std::move(r));
    return;
  }
  if (state_ == State::kReady && !down_) {
    Dispatch(std::move(p));
    return;
  }
  queued_.push_back(std::move(p));
  if (state_ == State::kIdle && !down_) Connect();
}

void Connection::Dispatch(std::unique_ptr<Pending> p) {
  p->deadline = Clock::now() + options_.response_timeout + p->extra_timeout;
  p->ac = ac_;
  Pending* raw = p.get();
  inflight_.push_back(std::move(p));
  SendArgv(ac_, OnReply, raw, raw->args);
  if (!response_timer_.active()) ArmResponseTimer();
}

void Connection::Connect() {
  if (state_ != State::kIdle || down_) return;
  const ServerAddress& a = options_.address;
  ac_ = redisAsyncConnect(a.host.c_str(), a.port);
  if (ac_ == nullptr || ac_->err) {
    std::string why = ac_ ? ac_->errstr : "out of memory";
    if (ac_) redisAsyncFree(ac_);
    ac_ = nullptr;
    FailQueued(MakeIoError("cannot connect: " + why));
    if (on_down_) on_down_(MakeIoError("cannot connect: " + why));
    return;
  }
  ac_->data = this;
  if (HiredisLibuvAttach(ac_, loop_.uv()) != REDIS_OK) {
    redisAsyncFree(ac_);
    ac_ = nullptr;
    FailQueued(MakeIoError("cannot attach the connection to the loop"));
    return;
  }
  redisAsyncSetConnectCallback(ac_, OnConnect);
  redisAsyncSetDisconnectCallback(ac_, OnDisconnect);
  state_ = State::kConnecting;
  connect_timer_.Start(options_.connect_timeout, [this] {
    if (state_ == State::kConnecting) {
      Abort(std::make_exception_ptr(TimeoutError("no connection within " +
                                                 std::to_string(options_.connect_timeout.count()) +
                                                 " ms (" + options_.address.ToString() + ")")));
    }
  });
}

void Connection::OnConnect(const redisAsyncContext* ac, int status) {
  auto* self = static_cast<Connection*>(ac->data);
  if (status != REDIS_OK) {
    // hiredis frees the context after this callback.
    std::string why = ac->errstr;
    self->ac_ = nullptr;
    self->AfterDown(self->MakeIoError("cannot connect: " + why), true);
    return;
  }
  self->Handshake();
}

void Connection::Handshake() {
  // AUTH and SELECT go first, through the same in-flight list, before any queued command.
  const ServerAddress& a = options_.address;
  std::vector<std::vector<std::string>> steps;
  if (!a.password.empty()) {
    if (a.user.empty()) {
      steps.push_back({"AUTH", a.password});
    } else {
      steps.push_back({"AUTH", a.user, a.password});
    }
  }
  if (a.db != 0) steps.push_back({"SELECT", std::to_string(a.db)});
  if (steps.empty()) {
    BecomeReady();
    return;
  }
  handshaking_ = true;
  auto remaining = std::make_shared<size_t>(steps.size());
  for (auto& step : steps) {
    auto p = std::make_unique<Pending>();
    p->args = std::move(step);
    p->deadline = Clock::time_point::max();  // bounded by the connect timer
    p->cb = [this, remaining](CommandResult r) {
      if (!handshaking_) return;
      if (r.error || r.reply.is_error()) {
        handshaking_ = false;
        std::exception_ptr why =
            r.error ? r.error
                    : std::make_exception_ptr(ReplyError(r.reply.str + " (while connecting to " +
                                                         options_.address.ToString() + ")"));
        // Freeing the context inside its callback is safe: hiredis defers it.
        if (state_ == State::kConnecting) Abort(why);
        return;
      }
      if (--*remaining == 0) {
        handshaking_ = false;
        BecomeReady();
      }
    };
    p->ac = ac_;
    Pending* raw = p.get();
    inflight_.push_back(std::move(p));
    SendArgv(ac_, OnReply, raw, raw->args);
  }
}

void Connection::BecomeReady() {
  connect_timer_.Stop();
  state_ = State::kReady;
  std::deque<std::unique_ptr<Pending>> queued;
  queued.swap(queued_);
  for (auto& p : queued) Dispatch(std::move(p));
  if (on_ready_) on_ready_();
}

void Connection::OnDisconnect(const redisAsyncContext* ac, int status) {
  auto* self = static_cast<Connection*>(ac->data);
  if (self == nullptr || self->ac_ == nullptr) return;  // Abort is handling it
  self->ac_ = nullptr;
  bool connecting = self->state_ == State::kConnecting;
  std::string why = status == REDIS_OK ? "connection closed" : std::string(ac->errstr);
  self->AfterDown(self->MakeIoError(why.empty() ? "connection lost" : why), connecting);
}

void Connection::OnReply(redisAsyncContext* ac, void* reply, void* privdata) {
  auto* self = static_cast<Connection*>(ac->data);
  auto* p = static_cast<Pending*>(privdata);
  auto it = std::find_if(
      self->inflight_.begin(), self->inflight_.end(),
      [p, ac](const std::unique_ptr<Pending>& q) { return q.get() == p && q->ac == ac; });
  if (it == self->inflight_.end()) return;
  std::unique_ptr<Pending> owned = std::move(*it);
  self->inflight_.erase(it);
  if (owned->done) return;  // already failed by a timeout
  CommandResult r;
  if (reply == nullptr) {
    // The context is going away: what the callback sends waits for a new one.
    self->down_ = true;
    r.error = self->closing_error_ ? self->closing_error_ : self->MakeIoError("connection lost");
    r.maybe_executed = true;
  } else {
    r.reply = Reply::FromHiredis(*static_cast<redisReply*>(reply));
  }
  owned->cb(std::move(r));
}

void Connection::OnPush(redisAsyncContext* ac, void* reply, void* privdata) {
  auto* self = static_cast<Connection*>(privdata);
  if (reply == nullptr || !self->push_handler_) return;  // disconnecting: OnDisconnect reports
  self->push_handler_(Reply::FromHiredis(*static_cast<redisReply*>(reply)));
}

void Connection::SetPushHandler(std::function<void(const Reply&)> handler) {
  push_handler_ = std::move(handler);
}

bool Connection::SendPubSub(const std::vector<std::string>& args) {
  if (state_ != State::kReady) return false;
  SendArgv(ac_, OnPush, this, args);
  return true;
}

void Connection::ArmResponseTimer() {
  auto earliest = Clock::time_point::max();
  for (const auto& p : inflight_) {
    if (!p->done) earliest = std::min(earliest, p->deadline);
  }
  if (earliest == Clock::time_point::max()) {
    response_timer_.Stop();
    return;
  }
  auto delay = std::chrono::ceil<std::chrono::milliseconds>(earliest - Clock::now());
  response_timer_.Start(delay, [this] { OnResponseTimer(); });
}

void Connection::OnResponseTimer() {
  auto now = Clock::now();
  bool expired = false;
  for (auto& p : inflight_) {
    if (p->done || p->deadline > now) continue;
    // hiredis cannot drop one reply: the command fails now and the connection is reopened,
    // so a late reply cannot be taken for the next command's.
    p->done = true;
    expired = true;
    CommandResult r;
    r.error = std::make_exception_ptr(
        TimeoutError("no reply to " + p->args.front() + " within " +
                     std::to_string((options_.response_timeout + p->extra_timeout).count()) +
                     " ms (" + options_.address.ToString() + ")"));
    r.maybe_executed = true;
    p->cb(std::move(r));
  }
  if (expired) {
    if (state_ != State::kClosed && ac_ != nullptr) {
      Abort(MakeIoError("connection reset after a reply timeout"));
    }
    return;
  }
  ArmResponseTimer();
}

void Connection::Abort(std::exception_ptr why) {
  if (ac_ == nullptr) return;
  bool connecting = state_ == State::kConnecting;
  redisAsyncContext* ac = ac_;
  closing_error_ = why;
  down_ = true;
  ac_ = nullptr;  // OnDisconnect, called from within redisAsyncFree, leaves the rest to us
  redisAsyncFree(ac);
  closing_error_ = nullptr;
  AfterDown(why, connecting);
}

void Connection::AfterDown(std::exception_ptr why, bool while_connecting) {
  connect_timer_.Stop();
  response_timer_.Stop();
  handshaking_ = false;
  down_ = false;
  // In-flight commands were failed by hiredis (null replies); anything left is a leftover.
  for (auto& p : inflight_) {
    if (p->done) continue;
    p->done = true;
    CommandResult r;
    r.error = why;
    r.maybe_executed = true;
    p->cb(std::move(r));
  }
  inflight_.clear();
  if (state_ != State::kClosed) state_ = State::kIdle;
  // Queued commands never reached the server: a failed connect fails them (the caller
  // retries after its interval); after a drop they get a fresh connection.
  if (while_connecting) {
    FailQueued(why);
  } else if (!queued_.empty() && state_ == State::kIdle) {
    Connect();
  }
  if (on_down_) on_down_(why);
}

void Connection::FailQueued(std::exception_ptr why) {
  std::deque<std::unique_ptr<Pending>> queued;
  queued.swap(queued_);
  for (auto& p : queued) {
    CommandResult r;
    r.error = why;
    r.maybe_executed = false;
    p->cb(std::move(r));
  }
}

void Connection::Reset(std::exception_ptr why) {
  if (state_ != State::kClosed) Abort(std::move(why));
}

void Connection::Close(std::exception_ptr why) {
  if (state_ == State::kClosed) return;
  state_ = State::kClosed;
  on_ready_ = nullptr;
  on_down_ = nullptr;
  push_handler_ = nullptr;
  if (ac_ != nullptr) {
    redisAsyncContext* ac = ac_;
    closing_error_ = why;
    down_ = true;
    ac_ = nullptr;
    redisAsyncFree(ac);
    closing_error_ = nullptr;
  }
  AfterDown(why, true);
}

}  // namespace redlab::client
