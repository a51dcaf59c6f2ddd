// The fault proxy's forwarding: names resolved with getaddrinfo, each connection's two
// directions shaped by its toxics, bounded buffers with backpressure, half-closes passed on in
// order (toxiproxy's link.go and stream handling, on libuv).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "tools/proxy/proxy_impl.h"

namespace redlab::tools {
namespace {

int PortOf(const sockaddr_storage& addr) {
  return addr.ss_family == AF_INET6 ? ntohs(reinterpret_cast<const sockaddr_in6&>(addr).sin6_port)
                                    : ntohs(reinterpret_cast<const sockaddr_in&>(addr).sin_port);
}

int BoundPort(uv_tcp_t* tcp) {
  sockaddr_storage addr{};
  int len = sizeof(addr);
  uv_tcp_getsockname(tcp, reinterpret_cast<sockaddr*>(&addr), &len);
  return PortOf(addr);
}

std::string PeerOf(uv_tcp_t* tcp) {
  sockaddr_storage addr{};
  int len = sizeof(addr);
  if (uv_tcp_getpeername(tcp, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return "?";
  char ip[INET6_ADDRSTRLEN] = {0};
  if (addr.ss_family == AF_INET6) {
    uv_ip6_name(reinterpret_cast<sockaddr_in6*>(&addr), ip, sizeof(ip));
    return fmt::format("[{}]:{}", ip, PortOf(addr));
  }
  uv_ip4_name(reinterpret_cast<sockaddr_in*>(&addr), ip, sizeof(ip));
  return fmt::format("{}:{}", ip, PortOf(addr));
}

}  // namespace

double FaultProxy::Impl::NowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void FaultProxy::Impl::Start() {
  std::promise<std::string> ready;
  auto f = ready.get_future();
  thread_ = std::thread([this, &ready] { Run(ready); });
  std::string error = f.get();
  if (!error.empty()) {
    thread_.join();
    throw std::runtime_error(error);
  }
}

void FaultProxy::Impl::Stop() {
  if (!thread_.joinable()) return;
  RunOnLoop([this] { BeginShutdown(); });
  thread_.join();
}

void FaultProxy::Impl::RunOnLoop(std::function<void()> fn) {
  auto done = std::make_shared<std::promise<void>>();
  auto f = done->get_future();
  {
    std::lock_guard lock(mu_);
    if (stopped_) return;
    tasks_.push_back([fn = std::move(fn), done] {
      fn();
      done->set_value();
    });
  }
  uv_async_send(&async_);
  try {
    f.get();
  } catch (const std::future_error&) {
  }
}

std::string FaultProxy::Impl::Resolve(const std::string& host_in, int port, bool passive,
                                      std::vector<sockaddr_storage>* out) {
  std::string host = host_in;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host.empty()) return "fault proxy: an empty host name";
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = passive ? AI_PASSIVE : 0;
  uv_getaddrinfo_t req;
  std::string service = std::to_string(port);
  // No callback: libuv resolves synchronously (the loop is not running yet).
  int rc = uv_getaddrinfo(&loop_, &req, nullptr, host.c_str(), service.c_str(), &hints);
  if (rc != 0) {
    return fmt::format("fault proxy: cannot resolve '{}': {}", host_in, uv_strerror(rc));
  }
  for (addrinfo* ai = req.addrinfo; ai != nullptr; ai = ai->ai_next) {
    if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6) continue;
    sockaddr_storage addr{};
    std::memcpy(&addr, ai->ai_addr, ai->ai_addrlen);
    out->push_back(addr);
  }
  uv_freeaddrinfo(req.addrinfo);
  if (out->empty()) return fmt::format("fault proxy: '{}' has no IPv4 or IPv6 address", host_in);
  return {};
}

// Binds `tcp` to the listen host's first address at `port` and listens.
int FaultProxy::Impl::Listen(uv_tcp_t* tcp, int port, uv_connection_cb cb, std::string* error) {
  std::vector<sockaddr_storage> addrs;
  *error = Resolve(options_.listen_host, port, /*passive=*/true, &addrs);
  if (!error->empty()) return UV_EINVAL;
  int rc = uv_tcp_bind(tcp, reinterpret_cast<const sockaddr*>(&addrs[0]), 0);
  if (rc == 0) rc = uv_listen(reinterpret_cast<uv_stream_t*>(tcp), 511, cb);
  if (rc != 0) {
    *error = fmt::format("fault proxy: cannot listen on {} port {}: {}", options_.listen_host, port,
                         uv_strerror(rc));
  }
  return rc;
}

void FaultProxy::Impl::Run(std::promise<std::string>& ready) {
  uv_loop_init(&loop_);
  uv_tcp_init(&loop_, &listener_);
  listener_.data = this;
  std::string error = Resolve(options_.target_host, options_.target_port, false, &targets_);
  if (error.empty()) Listen(&listener_, options_.listen_port, OnAccept, &error);
  if (error.empty() && options_.control_port >= 0) {
    uv_tcp_init(&loop_, &control_);
    control_.data = this;
    control_open_ = true;
    Listen(&control_, options_.control_port, OnControlAccept, &error);
  }
  if (!error.empty()) {
    uv_close(reinterpret_cast<uv_handle_t*>(&listener_), nullptr);
    if (control_open_) uv_close(reinterpret_cast<uv_handle_t*>(&control_), nullptr);
    uv_run(&loop_, UV_RUN_DEFAULT);
    uv_loop_close(&loop_);
    ready.set_value(error);
    return;
  }
  port_ = BoundPort(&listener_);
  if (control_open_) control_port_ = BoundPort(&control_);
  uv_async_init(&loop_, &async_, OnAsync);
  async_.data = this;
  uv_timer_init(&loop_, &timer_);
  timer_.data = this;
  ready.set_value({});
  uv_run(&loop_, UV_RUN_DEFAULT);
  uv_loop_close(&loop_);
  std::lock_guard lock(mu_);
  stopped_ = true;
  tasks_.clear();
}

void FaultProxy::Impl::OnAsync(uv_async_t* handle) {
  auto* self = static_cast<Impl*>(handle->data);
  std::deque<std::function<void()>> tasks;
  {
    std::lock_guard lock(self->mu_);
    tasks.swap(self->tasks_);
  }
  for (auto& t : tasks) t();
}

void FaultProxy::Impl::BeginShutdown() {
  if (shutting_down_) return;
  shutting_down_ = true;
  CloseAll();
  for (Control* c : controls_) uv_close(reinterpret_cast<uv_handle_t*>(&c->tcp), OnControlClosed);
  uv_timer_stop(&timer_);
  uv_close(reinterpret_cast<uv_handle_t*>(&timer_), nullptr);
  uv_close(reinterpret_cast<uv_handle_t*>(&listener_), nullptr);
  if (control_open_) uv_close(reinterpret_cast<uv_handle_t*>(&control_), nullptr);
  uv_close(reinterpret_cast<uv_handle_t*>(&async_), nullptr);
}

// ---- Faults ----

void FaultProxy::Impl::SetHold(bool hold) {
  held_ = hold;
  PumpAll();
}

void FaultProxy::Impl::SetCut(bool cut) {
  cut_ = cut;
  if (cut) CloseAll();
}

void FaultProxy::Impl::ResetFaults() {
  held_ = false;
  cut_ = false;
  toxics_[0] = toxics_[1] = Toxics{};
  for (auto& [id, p] : pipes_) p->toxics[0] = p->toxics[1] = Toxics{};
  PumpAll();
}

void FaultProxy::Impl::SetBufferLimit(size_t bytes) {
  options_.buffer_limit = std::max<size_t>(1, bytes);
  PumpAll();
}

bool FaultProxy::Impl::SetToxics(Direction d, const Toxics& toxics, uint64_t conn) {
  int i = static_cast<int>(d);
  if (conn == 0) {
    toxics_[i] = toxics;
  } else {
    auto it = pipes_.find(conn);
    if (it == pipes_.end()) return false;
    it->second->toxics[i] = toxics;
  }
  PumpAll();
  return true;
}

bool FaultProxy::Impl::GetToxics(Direction d, uint64_t conn, Toxics* out) const {
  int i = static_cast<int>(d);
  if (conn == 0) {
    *out = toxics_[i];
    return true;
  }
  auto it = pipes_.find(conn);
  if (it == pipes_.end()) return false;
  *out = it->second->toxics[i];
  return true;
}

std::vector<uint64_t> FaultProxy::Impl::ConnectionIds() const {
  std::vector<uint64_t> ids;
  for (const auto& [id, p] : pipes_) ids.push_back(id);
  return ids;
}

std::string FaultProxy::Impl::StatusText() const {
  size_t held = 0;
  for (const auto& [id, p] : pipes_) {
    held += p->up.queue.queued_bytes() + p->down.queue.queued_bytes() + p->before_connect.size();
  }
  std::string out =
      fmt::format("held:{}\ncut:{}\nbuffer_limit:{}\nconnections:{}\nheld_bytes:{}\n",
                  held_ ? 1 : 0, cut_ ? 1 : 0, options_.buffer_limit, pipes_.size(), held);
  auto toxic_lines = [&](const Toxics* toxics, const std::string& scope) {
    for (Direction d : {Direction::kUpstream, Direction::kDownstream}) {
      for (const std::string& t : DescribeToxics(toxics[static_cast<int>(d)])) {
        out += fmt::format("toxic:{} {} {}\n", scope, DirectionName(d), t);
      }
    }
  };
  toxic_lines(toxics_, "all");
  for (const auto& [id, p] : pipes_) toxic_lines(p->toxics, fmt::format("conn={}", id));
  for (const auto& [id, p] : pipes_) {
    out += fmt::format("conn:{} peer={}", id, p->peer);
    for (const Stream* s : {&p->up, &p->down}) {
      std::string_view n = DirectionName(s->dir);
      out += fmt::format(
          " {}_queued={} {}_forwarded={} {}_dropped={} {}_writes={} {}_reading={} {}_eof={}", n,
          s->queue.queued_bytes(), n, s->forwarded, n, s->dropped, n, s->writes, n,
          s->reading ? 1 : 0, n, s->eof ? (s->shut ? 2 : 1) : 0);
    }
    out += "\n";
  }
  return out;
}

// ---- Forwarding ----

void FaultProxy::Impl::OnAccept(uv_stream_t* server, int status) {
  auto* self = static_cast<Impl*>(server->data);
  if (status < 0) return;
  auto* p = new Pipe{};
  p->proxy = self;
  p->id = self->next_id_++;
  p->up.queue = StreamQueue(p->id * 2 + 1);
  p->down.queue = StreamQueue(p->id * 2 + 2);
  std::uniform_real_distribution<double> draw(0.0, 1.0);
  for (auto& draws : p->draws) {
    for (double& d : draws) d = draw(self->rng_);
  }
  uv_tcp_init(&self->loop_, &p->client);
  uv_tcp_init(&self->loop_, &p->server);
  p->client.data = p->server.data = p->connect_req.data = p;
  p->up.from = p->down.to = &p->client;
  p->up.to = p->down.from = &p->server;
  p->up.shutdown_req.data = p->down.shutdown_req.data = p;
  p->open_handles = 2;
  self->pipes_[p->id] = p;
  if (uv_accept(server, reinterpret_cast<uv_stream_t*>(&p->client)) != 0 || self->cut_) {
    // A cut network: the connection is accepted and dies at once.
    self->ClosePipe(p);
    return;
  }
  p->peer = PeerOf(&p->client);
  uv_tcp_nodelay(&p->client, 1);
  if (uv_tcp_connect(&p->connect_req, &p->server,
                     reinterpret_cast<const sockaddr*>(&self->targets_[0]), OnConnected) != 0) {
    self->ClosePipe(p);
    return;
  }
  self->UpdateReading(p, p->up);
  self->ArmTimer(self->PumpPipe(p, NowMs()));  // a timeout toxic starts with the connection
}

void FaultProxy::Impl::OnConnected(uv_connect_t* req, int status) {
  auto* p = static_cast<Pipe*>(req->data);
  if (p->closing) return;
  Impl* self = p->proxy;
  if (status != 0) {
    self->ClosePipe(p);
    return;
  }
  p->server_connected = true;
  uv_tcp_nodelay(&p->server, 1);
  if (!p->before_connect.empty()) self->Write(p, p->up, std::exchange(p->before_connect, {}));
  if (p->closing) return;
  self->UpdateReading(p, p->down);
  self->ArmTimer(self->PumpPipe(p, NowMs()));
}

void FaultProxy::Impl::OnAlloc(uv_handle_t* handle, size_t, uv_buf_t* buf) {
  auto* p = static_cast<Pipe*>(handle->data);
  buf->base = p->buf;
  buf->len = sizeof(p->buf);
}

void FaultProxy::Impl::OnRead(uv_stream_t* stream, ssize_t n, const uv_buf_t* buf) {
  auto* p = static_cast<Pipe*>(stream->data);
  if (p->closing) return;
  Impl* self = p->proxy;
  Stream& s = reinterpret_cast<uv_tcp_t*>(stream) == &p->client ? p->up : p->down;
  if (n == UV_EOF) {
    // A half-close: passed on once the bytes before it are (Pump), unless a toxic says otherwise.
    uv_read_stop(stream);
    s.reading = false;
    s.eof = true;
    s.eof_at = NowMs();
    self->ArmTimer(self->PumpPipe(p, s.eof_at));
    return;
  }
  if (n < 0) {
    self->ClosePipe(p, /*reset=*/n == UV_ECONNRESET);  // a reset travels on as one
    return;
  }
  if (n > 0) self->Received(p, s, std::string_view(buf->base, static_cast<size_t>(n)));
}

Toxics FaultProxy::Impl::Effective(const Pipe* p, Direction d) const {
  int i = static_cast<int>(d);
  return Toxics::Merge(toxics_[i].ForDraws(p->draws[i]), p->toxics[i]);
}

void FaultProxy::Impl::Received(Pipe* p, Stream& s, std::string_view bytes) {
  double now = NowMs();
  Toxics t = Effective(p, s.dir);
  if (t.timeout_ms || s.limit_reached) {  // timeout: the data is lost
    s.dropped += bytes.size();
    return;
  }
  if (t.reset_peer_ms) {
    s.dropped += bytes.size();
    // reset_peer: data arrives, and the connection is reset `timeout` ms later.
    if (s.reset_at < 0) s.reset_at = now + static_cast<double>(*t.reset_peer_ms);
    ArmTimer(PumpPipe(p, now));
    return;
  }
  if (t.limit_data) {
    uint64_t limit = static_cast<uint64_t>(*t.limit_data);
    uint64_t room = limit > s.accepted ? limit - s.accepted : 0;
    if (bytes.size() >= room) {
      s.dropped += bytes.size() - room;
      bytes = bytes.substr(0, room);
      s.limit_reached = true;  // the connection closes once these bytes are written
    }
  }
  s.accepted += bytes.size();
  s.queue.Push(now, t, bytes);
  ArmTimer(PumpPipe(p, now));
}

double FaultProxy::Impl::PumpPipe(Pipe* p, double now) {
  double next = -1;
  auto consider = [&next](double due) {
    if (due >= 0 && (next < 0 || due < next)) next = due;
  };
  for (Stream* s : {&p->up, &p->down}) {
    if (p->closing) return -1;
    Toxics t = Effective(p, s->dir);
    if (t.timeout_ms) {
      if (s->timeout_since < 0) s->timeout_since = now;
      double at = s->timeout_since + static_cast<double>(*t.timeout_ms);
      if (*t.timeout_ms > 0 && now >= at) {
        ClosePipe(p);
        return -1;
      }
      if (*t.timeout_ms > 0) consider(at);
    } else {
      s->timeout_since = -1;
    }
    if (s->reset_at >= 0) {
      if (now >= s->reset_at) {
        ClosePipe(p, /*reset=*/true);
        return -1;
      }
      consider(s->reset_at);
    }
    if (!held_) {
      std::vector<std::string> due;
      s->queue.TakeDue(now, &due);
      if (t.slicer) {
        for (std::string& piece : due) Write(p, *s, std::move(piece));
      } else if (!due.empty()) {
        std::string all;
        for (const std::string& piece : due) all += piece;
        Write(p, *s, std::move(all));
      }
      if (p->closing) return -1;
      consider(s->queue.NextDueMs());
    }
    if (s->limit_reached && s->queue.empty() && s->in_flight == 0 &&
        (s->dir == Direction::kDownstream || p->before_connect.empty())) {
      ClosePipe(p);
      return -1;
    }
    if (s->eof && !s->shut && s->queue.empty()) {
      double at = s->eof_at + static_cast<double>(t.slow_close_ms.value_or(0));
      bool target_up = s->dir == Direction::kDownstream || p->server_connected;
      if (now < at) {
        consider(at);
      } else if (target_up) {
        // uv_shutdown sends the FIN after the writes queued before it.
        s->shut = true;
        if (uv_shutdown(&s->shutdown_req, reinterpret_cast<uv_stream_t*>(s->to), OnShutdown)) {
          ClosePipe(p);
          return -1;
        }
      }
    }
    UpdateReading(p, *s);
  }
  return next;
}

void FaultProxy::Impl::OnShutdown(uv_shutdown_t* req, int status) {
  auto* p = static_cast<Pipe*>(req->data);
  if (p->closing) return;
  Stream& s = req == &p->up.shutdown_req ? p->up : p->down;
  s.shut_done = true;
  // A failed half-close, or both ways half-closed: the connection is over.
  if (status != 0 || (p->up.shut_done && p->down.shut_done)) p->proxy->ClosePipe(p);
}

void FaultProxy::Impl::PumpAll() {
  double now = NowMs();
  double next = -1;
  std::vector<Pipe*> all;
  for (auto& [id, p] : pipes_) all.push_back(p);
  for (Pipe* p : all) {
    double due = PumpPipe(p, now);
    if (due >= 0 && (next < 0 || due < next)) next = due;
  }
  ArmTimer(next);
}

void FaultProxy::Impl::ArmTimer(double due) {
  if (due < 0 || shutting_down_) return;
  if (timer_due_ >= 0 && timer_due_ <= due) return;
  timer_due_ = due;
  double wait = std::max(0.0, due - NowMs());
  uv_timer_start(&timer_, OnTimer, static_cast<uint64_t>(std::ceil(wait)), 0);
}

void FaultProxy::Impl::OnTimer(uv_timer_t* t) {
  auto* self = static_cast<Impl*>(t->data);
  self->timer_due_ = -1;
  self->PumpAll();
}

void FaultProxy::Impl::Write(Pipe* p, Stream& s, std::string bytes) {
  if (bytes.empty() || p->closing) return;
  if (s.dir == Direction::kUpstream && !p->server_connected) {
    p->before_connect += bytes;
    return;
  }
  auto* w = new WriteReq;
  w->data = std::move(bytes);
  w->pipe = p;
  w->dir = s.dir;
  w->req.data = w;
  uv_buf_t buf = uv_buf_init(w->data.data(), static_cast<unsigned>(w->data.size()));
  if (uv_write(&w->req, reinterpret_cast<uv_stream_t*>(s.to), &buf, 1, OnWritten) != 0) {
    delete w;
    ClosePipe(p);
    return;
  }
  s.in_flight += w->data.size();
  ++s.writes;
}

void FaultProxy::Impl::OnWritten(uv_write_t* req, int status) {
  auto* w = static_cast<WriteReq*>(req->data);
  Pipe* p = w->pipe;
  if (p != nullptr) {
    Stream& s = p->stream(w->dir);
    s.in_flight -= w->data.size();
    if (status == 0) s.forwarded += w->data.size();
    if (!p->closing) {
      Impl* self = p->proxy;
      if (status != 0) {
        self->ClosePipe(p);
      } else {
        self->ArmTimer(self->PumpPipe(p, NowMs()));  // may resume reading, or finish a close
      }
    }
  }
  delete w;
}

// Backpressure: a direction that holds buffer_limit bytes (queued, or written and not taken by
// the receiver) stops reading from its sender, whose kernel buffers then fill and whose writes
// block, as behind a stalled network; it reads again below half of it.
void FaultProxy::Impl::UpdateReading(Pipe* p, Stream& s) {
  if (p->closing) return;
  size_t pending = s.queue.queued_bytes() + s.in_flight +
                   (s.dir == Direction::kUpstream ? p->before_connect.size() : 0);
  bool can = !s.eof && !s.limit_reached && (s.dir == Direction::kUpstream || p->server_connected);
  if (s.reading && (!can || pending >= options_.buffer_limit)) {
    uv_read_stop(reinterpret_cast<uv_stream_t*>(s.from));
    s.reading = false;
  } else if (!s.reading && can && pending <= options_.buffer_limit / 2) {
    s.reading = uv_read_start(reinterpret_cast<uv_stream_t*>(s.from), OnAlloc, OnRead) == 0;
  }
}

void FaultProxy::Impl::ClosePipe(Pipe* p, bool reset) {
  if (p->closing) return;
  p->closing = true;
  pipes_.erase(p->id);
  p->up.queue.Clear();
  p->down.queue.Clear();
  auto on_closed = [](uv_handle_t* h) {
    auto* pipe = static_cast<Pipe*>(h->data);
    if (--pipe->open_handles == 0) delete pipe;
  };
  // reset_peer and a reset from one side: RST (SO_LINGER 0) rather than a FIN, where libuv can.
  for (uv_tcp_t* tcp : {&p->client, &p->server}) {
    bool connected = tcp == &p->client || p->server_connected;
    if (reset && connected && uv_tcp_close_reset(tcp, on_closed) == 0) continue;
    uv_close(reinterpret_cast<uv_handle_t*>(tcp), on_closed);
  }
}

void FaultProxy::Impl::CloseAll() {
  std::vector<Pipe*> all;
  for (auto& [id, p] : pipes_) all.push_back(p);
  for (Pipe* p : all) ClosePipe(p);
}

}  // namespace redlab::tools
