// Redis's sentinel.c instanceLink over hiredis (redisAsyncConnect, redisAsyncCommand), on libuv.
#include "server/sentinel/instance_link.h"

#include <cstdlib>
#include <cstring>
#include <memory>

namespace redlab::server::sentinel {
namespace {

// One write in flight, owning its bytes.
struct WriteReq {
  uv_write_t req;
  std::string bytes;
  void* link;
};

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

bool Resolve(const std::string& host, int port, sockaddr_storage* out) {
  std::string name = host == "localhost" ? "127.0.0.1" : host;
  if (uv_ip4_addr(name.c_str(), port, reinterpret_cast<sockaddr_in*>(out)) == 0) return true;
  return uv_ip6_addr(name.c_str(), port, reinterpret_cast<sockaddr_in6*>(out)) == 0;
}

}  // namespace

long ParseReply(std::string_view in, Reply* out) {
  *out = Reply{};
  return ParseAt(in, 0, out);
}

InstanceLink* InstanceLink::Start(uv_loop_t* loop, const std::string& host, int port,
                                  Events events) {
  sockaddr_storage addr{};
  if (!Resolve(host, port, &addr)) return nullptr;
  auto* link = new InstanceLink(std::move(events));
  link->tcp_.data = link;
  link->connect_req_.data = link;
  if (uv_tcp_init(loop, &link->tcp_) != 0) {
    delete link;
    return nullptr;
  }
  uv_tcp_nodelay(&link->tcp_, 1);
  if (uv_tcp_connect(&link->connect_req_, &link->tcp_, reinterpret_cast<sockaddr*>(&addr),
                     OnConnect) != 0) {
    link->closing_ = true;
    uv_close(reinterpret_cast<uv_handle_t*>(&link->tcp_), OnClosed);
    return nullptr;
  }
  return link;
}

void InstanceLink::OnConnect(uv_connect_t* req, int status) {
  auto* self = static_cast<InstanceLink*>(req->data);
  if (self->closing_) return;
  if (status != 0 ||
      uv_read_start(reinterpret_cast<uv_stream_t*>(&self->tcp_), OnAlloc, OnRead) != 0) {
    self->Fail();
    return;
  }
  self->connected_ = true;
  self->Flush();
  if (!self->closing_ && self->events_.on_connected) self->events_.on_connected();
}

void InstanceLink::OnAlloc(uv_handle_t* handle, size_t, uv_buf_t* buf) {
  auto* self = static_cast<InstanceLink*>(handle->data);
  buf->base = self->read_buf_;
  buf->len = sizeof(self->read_buf_);
}

void InstanceLink::OnRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
  auto* self = static_cast<InstanceLink*>(stream->data);
  if (self->closing_) return;
  if (nread < 0) {
    self->Fail();
    return;
  }
  self->input_.append(buf->base, static_cast<size_t>(nread));
  self->Consume();
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
  pending_out_ += out;
  callbacks_.push_back(std::move(done));
  if (connected_) Flush();
}

void InstanceLink::Flush() {
  if (pending_out_.empty() || closing_) return;
  auto* w = new WriteReq;
  w->bytes.swap(pending_out_);
  w->req.data = w;
  w->link = this;
  uv_buf_t buf = uv_buf_init(w->bytes.data(), static_cast<unsigned>(w->bytes.size()));
  if (uv_write(&w->req, reinterpret_cast<uv_stream_t*>(&tcp_), &buf, 1, OnWrite) != 0) {
    delete w;
    Fail();
  }
}

void InstanceLink::OnWrite(uv_write_t* req, int status) {
  std::unique_ptr<WriteReq> w(static_cast<WriteReq*>(req->data));
  auto* self = static_cast<InstanceLink*>(w->link);
  if (status < 0 && !self->closing_) self->Fail();
}

void InstanceLink::Fail() {
  if (closing_) return;
  std::function<void()> on_closed = std::move(events_.on_closed);
  std::deque<ReplyFn> callbacks = std::move(callbacks_);
  Close();
  for (ReplyFn& fn : callbacks) {
    if (fn) fn(Reply{});
  }
  if (on_closed) on_closed();
}

std::string InstanceLink::LocalIp() const {
  if (!connected_) return {};
  sockaddr_storage addr{};
  int len = sizeof(addr);
  if (uv_tcp_getsockname(&tcp_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return {};
  char ip[64] = {};
  if (addr.ss_family == AF_INET6) {
    uv_ip6_name(reinterpret_cast<sockaddr_in6*>(&addr), ip, sizeof(ip));
  } else {
    uv_ip4_name(reinterpret_cast<sockaddr_in*>(&addr), ip, sizeof(ip));
  }
  return ip;
}

void InstanceLink::Close() {
  if (closing_) return;
  closing_ = true;
  events_ = Events{};
  callbacks_.clear();
  if (connected_) uv_read_stop(reinterpret_cast<uv_stream_t*>(&tcp_));
  uv_close(reinterpret_cast<uv_handle_t*>(&tcp_), OnClosed);
}

void InstanceLink::OnClosed(uv_handle_t* handle) {
  delete static_cast<InstanceLink*>(handle->data);
}

}  // namespace redlab::server::sentinel
