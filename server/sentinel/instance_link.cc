// Redis's sentinel.c instanceLink over hiredis (redisAsyncConnect, redisAsyncCommand), on libuv.
#include "server/sentinel/instance_link.h"

#include <cstdlib>

namespace redlab::server::sentinel {
namespace {

// The line up to "\r\n" from `pos`; npos when incomplete.
size_t LineEnd(std::string_view in, size_t pos) {
  size_t end = in.find("\r\n", pos);
  return end;
}

long ParseAt(std::string_view in, size_t pos, Reply* out) {
  if (pos >= in.size()) return 0;
  size_t end = LineEnd(in, pos + 1);
  if (end == std::string_view::npos) return 0;
  std::string line(in.substr(pos + 1, end - pos - 1));
  out->type = in[pos];
  size_t next = end + 2;
  switch (out->type) {
    case '+':
    case '-':
      out->str = line;
      return static_cast<long>(next - pos);
    case ':':
      out->integer = std::strtoll(line.c_str(), nullptr, 10);
      return static_cast<long>(next - pos);
    case '$': {
      long len = std::strtol(line.c_str(), nullptr, 10);
      if (len < 0) {
        out->null = true;
        return static_cast<long>(next - pos);
      }
      if (in.size() < next + static_cast<size_t>(len) + 2) return 0;
      out->str = std::string(in.substr(next, static_cast<size_t>(len)));
      return static_cast<long>(next + static_cast<size_t>(len) + 2 - pos);
    }
    case '*': {
      long n = std::strtol(line.c_str(), nullptr, 10);
      if (n < 0) {
        out->null = true;
        return static_cast<long>(next - pos);
      }
      out->elements.resize(static_cast<size_t>(n));
      for (auto& e : out->elements) {
        long used = ParseAt(in, next, &e);
        if (used <= 0) return used;
        next += static_cast<size_t>(used);
      }
      return static_cast<long>(next - pos);
    }
    default:
      return -1;
  }
}

}  // namespace

long ParseReply(std::string_view in, Reply* out) {
  *out = Reply{};
  return ParseAt(in, 0, out);
}

InstanceLink* InstanceLink::Start(uv_loop_t* loop, const std::string& host, int port,
                                  int own_port, Events events) {
  auto* link = new InstanceLink(std::move(events));
  link->io_ = net::OutboundLink::Start(loop, host, port, link, own_port);
  if (link->io_ == nullptr) {
    delete link;
    return nullptr;
  }
  return link;
}

void InstanceLink::OnLinkData(std::string_view bytes) {
  if (closing_) return;
  input_.append(bytes);
  ++in_callbacks_;
  Consume();
  --in_callbacks_;
  ReleaseIfDone();
}

void InstanceLink::Consume() {
  while (!closing_ && !input_.empty()) {
    Reply reply;
    long used = ParseReply(input_, &reply);
    if (used == 0) return;
    if (used < 0) {
      Fail();
      return;
    }
    input_.erase(0, static_cast<size_t>(used));
    // A message of a subscribed link ("message"/"pmessage" arrays) is nobody's reply.
    bool push = reply.type == '*' && !reply.elements.empty() &&
                (reply.elements[0].str == "message" || reply.elements[0].str == "pmessage");
    if (push || callbacks_.empty()) {
      // A copy: the handler may close this link (which drops events_).
      std::function<void(const Reply&)> on_push = events_.on_push;
      if (on_push) on_push(reply);
      continue;
    }
    ReplyFn done = std::move(callbacks_.front());
    callbacks_.pop_front();
    if (done) done(reply);
  }
}

void InstanceLink::Send(const std::vector<std::string>& args, ReplyFn done) {
  if (closing_) return;
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (const std::string& a : args) {
    out += "$" + std::to_string(a.size()) + "\r\n";
    out += a;
    out += "\r\n";
  }
  callbacks_.push_back(std::move(done));
  io_->Write(out);  // held until the connection is made
}

void InstanceLink::OnLinkClosed() {
  io_ = nullptr;  // it frees itself
  Fail();
}

void InstanceLink::Fail() {
  if (closing_) return;
  std::function<void()> on_closed = std::move(events_.on_closed);
  std::deque<ReplyFn> callbacks = std::move(callbacks_);
  ++in_callbacks_;
  Close();
  for (ReplyFn& fn : callbacks) {
    if (fn) fn(Reply{});
  }
  if (on_closed) on_closed();
  --in_callbacks_;
  ReleaseIfDone();
}

void InstanceLink::Close() {
  if (closing_) return;
  closing_ = true;
  events_ = Events{};
  callbacks_.clear();
  if (io_ != nullptr) io_->Close();
  io_ = nullptr;
  ReleaseIfDone();
}

void InstanceLink::ReleaseIfDone() {
  if (closing_ && in_callbacks_ == 0) delete this;
}

}  // namespace redlab::server::sentinel
