#include "tools/proxy/fault_proxy.h"

#include <fmt/format.h>
#include <uv.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_set>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "server/replication/link_shaper.h"
#include "server/resp/parser.h"

namespace redlab::tools {

using server::replication::LinkFaults;
using server::replication::LinkShaper;

namespace {

// One write in flight: the bytes live until libuv is done with them.
struct WriteReq {
  uv_write_t req;
  std::string data;
};

void WriteTo(uv_tcp_t* tcp, std::string data) {
  auto* w = new WriteReq;
  w->data = std::move(data);
  uv_buf_t buf = uv_buf_init(w->data.data(), static_cast<unsigned>(w->data.size()));
  if (uv_write(&w->req, reinterpret_cast<uv_stream_t*>(tcp), &buf, 1,
               [](uv_write_t* req, int) { delete reinterpret_cast<WriteReq*>(req); }) != 0) {
    delete w;
  }
}

int BoundPort(uv_tcp_t* tcp) {
  sockaddr_storage addr{};
  int len = sizeof(addr);
  uv_tcp_getsockname(tcp, reinterpret_cast<sockaddr*>(&addr), &len);
  return ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
}

}  // namespace

class FaultProxy::Impl {
 public:
  explicit Impl(const ProxyOptions& options) : options_(options) {}

  void Start() {
    std::promise<std::string> ready;
    auto f = ready.get_future();
    thread_ = std::thread([this, &ready] { Run(ready); });
    std::string error = f.get();
    if (!error.empty()) {
      thread_.join();
      throw std::runtime_error(error);
    }
  }

  void Stop() {
    if (!thread_.joinable()) return;
    RunOnLoop([this] { BeginShutdown(); });
    thread_.join();
  }

  int port() const { return port_; }
  int control_port() const { return control_port_; }

  // Runs `fn` on the proxy's loop and waits for it.
  void RunOnLoop(std::function<void()> fn) {
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

  // ---- Faults (loop thread) ----
  void SetDelay(int64_t ms, int64_t jitter) {
    faults_.delay_ms = ms;
    faults_.jitter_ms = jitter;
    Pump();
  }
  void SetHold(bool hold) {
    faults_.paused = hold;
    Pump();
  }
  void SetCut(bool cut) {
    faults_.cut = cut;
    if (cut) CloseAll();
  }
  void DropAll() { CloseAll(); }
  void ResetFaults() {
    faults_ = LinkFaults{};
    Pump();
  }
  std::string StatusText() const {
    return fmt::format(
        "delay_ms:{}\njitter_ms:{}\nheld:{}\ncut:{}\nconnections:{}\nheld_bytes:{}\n",
        faults_.delay_ms, faults_.jitter_ms, faults_.paused ? 1 : 0, faults_.cut ? 1 : 0,
        pipes_.size(), HeldBytes());
  }

 private:
  // One proxied connection: the client's socket and ours to the target, with a shaper per
  // direction.
  struct Pipe {
    Impl* proxy;
    uv_tcp_t client;
    uv_tcp_t server;
    uv_connect_t connect_req;
    bool server_connected = false;
    bool closing = false;
    int open_handles = 0;
    LinkShaper to_server{1};
    LinkShaper to_client{2};
    std::string before_connect;  // client bytes released before the target connection is up
    char buf[64 * 1024];
  };

  // A connection to the control port.
  struct Control {
    Impl* proxy;
    uv_tcp_t tcp;
    std::string in;
    server::resp::RequestParser parser;
    server::resp::ArgList args;
    char buf[4096];
  };

  static int64_t NowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  size_t HeldBytes() const {
    size_t n = 0;
    for (Pipe* p : pipes_) n += p->to_server.held_bytes() + p->to_client.held_bytes();
    return n;
  }

  void Run(std::promise<std::string>& ready) {
    uv_loop_init(&loop_);
    uv_tcp_init(&loop_, &listener_);
    listener_.data = this;
    sockaddr_in addr{};
    uv_ip4_addr(options_.listen_host.c_str(), options_.listen_port, &addr);
    int rc = uv_tcp_bind(&listener_, reinterpret_cast<sockaddr*>(&addr), 0);
    if (rc == 0) rc = uv_listen(reinterpret_cast<uv_stream_t*>(&listener_), 128, OnAccept);
    if (rc == 0 && options_.control_port >= 0) {
      uv_tcp_init(&loop_, &control_);
      control_.data = this;
      control_open_ = true;
      sockaddr_in caddr{};
      uv_ip4_addr(options_.listen_host.c_str(), options_.control_port, &caddr);
      rc = uv_tcp_bind(&control_, reinterpret_cast<sockaddr*>(&caddr), 0);
      if (rc == 0) rc = uv_listen(reinterpret_cast<uv_stream_t*>(&control_), 16, OnControlAccept);
    }
    if (rc != 0) {
      uv_close(reinterpret_cast<uv_handle_t*>(&listener_), nullptr);
      if (control_open_) uv_close(reinterpret_cast<uv_handle_t*>(&control_), nullptr);
      uv_run(&loop_, UV_RUN_DEFAULT);
      uv_loop_close(&loop_);
      ready.set_value(std::string("fault proxy: cannot listen: ") + uv_strerror(rc));
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

  static void OnAsync(uv_async_t* handle) {
    auto* self = static_cast<Impl*>(handle->data);
    std::deque<std::function<void()>> tasks;
    {
      std::lock_guard lock(self->mu_);
      tasks.swap(self->tasks_);
    }
    for (auto& t : tasks) t();
  }

  void BeginShutdown() {
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

  // ---- Forwarding ----
  static void OnAccept(uv_stream_t* server, int status) {
    auto* self = static_cast<Impl*>(server->data);
    if (status < 0) return;
    auto* p = new Pipe{};
    p->proxy = self;
    uv_tcp_init(&self->loop_, &p->client);
    uv_tcp_init(&self->loop_, &p->server);
    p->client.data = p->server.data = p->connect_req.data = p;
    p->open_handles = 2;
    self->pipes_.insert(p);
    if (uv_accept(server, reinterpret_cast<uv_stream_t*>(&p->client)) != 0 || self->faults_.cut) {
      // A cut network: the connection is accepted and dies at once.
      self->ClosePipe(p);
      return;
    }
    uv_tcp_nodelay(&p->client, 1);
    uv_tcp_nodelay(&p->server, 1);
    sockaddr_in target{};
    uv_ip4_addr(self->options_.target_host.c_str(), self->options_.target_port, &target);
    if (uv_tcp_connect(&p->connect_req, &p->server, reinterpret_cast<sockaddr*>(&target),
                       OnConnected) != 0) {
      self->ClosePipe(p);
      return;
    }
    uv_read_start(reinterpret_cast<uv_stream_t*>(&p->client), OnAlloc, OnClientRead);
  }

  static void OnConnected(uv_connect_t* req, int status) {
    auto* p = static_cast<Pipe*>(req->data);
    if (p->closing) return;
    if (status != 0) {
      p->proxy->ClosePipe(p);
      return;
    }
    p->server_connected = true;
    if (!p->before_connect.empty()) WriteTo(&p->server, std::move(p->before_connect));
    uv_read_start(reinterpret_cast<uv_stream_t*>(&p->server), OnAlloc, OnServerRead);
  }

  static void OnAlloc(uv_handle_t* handle, size_t, uv_buf_t* buf) {
    auto* p = static_cast<Pipe*>(handle->data);
    buf->base = p->buf;
    buf->len = sizeof(p->buf);
  }

  static void OnClientRead(uv_stream_t* s, ssize_t n, const uv_buf_t* buf) {
    auto* p = static_cast<Pipe*>(s->data);
    if (p->closing) return;
    if (n < 0) {
      p->proxy->ClosePipe(p);
      return;
    }
    if (n > 0) p->proxy->Forward(p, /*to_server=*/true, std::string_view(buf->base, n));
  }

  static void OnServerRead(uv_stream_t* s, ssize_t n, const uv_buf_t* buf) {
    auto* p = static_cast<Pipe*>(s->data);
    if (p->closing) return;
    if (n < 0) {
      p->proxy->ClosePipe(p);
      return;
    }
    if (n > 0) p->proxy->Forward(p, /*to_server=*/false, std::string_view(buf->base, n));
  }

  void Forward(Pipe* p, bool to_server, std::string_view bytes) {
    LinkShaper& shaper = to_server ? p->to_server : p->to_client;
    if (shaper.PassThrough(faults_)) {
      Deliver(p, to_server, std::string(bytes));
      return;
    }
    shaper.Push(NowMs(), faults_, bytes);
    Pump();
  }

  void Deliver(Pipe* p, bool to_server, std::string bytes) {
    if (bytes.empty() || p->closing) return;
    if (to_server && !p->server_connected) {
      p->before_connect += bytes;
      return;
    }
    WriteTo(to_server ? &p->server : &p->client, std::move(bytes));
  }

  // Releases what is due on every pipe and arms the timer for the next.
  void Pump() {
    int64_t now = NowMs();
    int64_t next = -1;
    for (Pipe* p : pipes_) {
      for (bool to_server : {true, false}) {
        LinkShaper& shaper = to_server ? p->to_server : p->to_client;
        std::string due;
        shaper.TakeDue(now, faults_, &due);
        Deliver(p, to_server, std::move(due));
        int64_t d = shaper.NextDueMs(faults_);
        if (d >= 0 && (next < 0 || d < next)) next = d;
      }
    }
    if (next >= 0 && !shutting_down_) {
      uv_timer_start(&timer_, OnTimer, static_cast<uint64_t>(std::max<int64_t>(0, next - now)), 0);
    }
  }

  static void OnTimer(uv_timer_t* t) { static_cast<Impl*>(t->data)->Pump(); }

  void ClosePipe(Pipe* p) {
    if (p->closing) return;
    p->closing = true;
    pipes_.erase(p);
    p->to_server.Clear();
    p->to_client.Clear();
    auto on_closed = [](uv_handle_t* h) {
      auto* pipe = static_cast<Pipe*>(h->data);
      if (--pipe->open_handles == 0) delete pipe;
    };
    uv_close(reinterpret_cast<uv_handle_t*>(&p->client), on_closed);
    uv_close(reinterpret_cast<uv_handle_t*>(&p->server), on_closed);
  }

  void CloseAll() {
    std::vector<Pipe*> all(pipes_.begin(), pipes_.end());
    for (Pipe* p : all) ClosePipe(p);
  }

  // ---- Control port ----
  static void OnControlAccept(uv_stream_t* server, int status) {
    auto* self = static_cast<Impl*>(server->data);
    if (status < 0) return;
    auto* c = new Control{};
    c->proxy = self;
    uv_tcp_init(&self->loop_, &c->tcp);
    c->tcp.data = c;
    if (uv_accept(server, reinterpret_cast<uv_stream_t*>(&c->tcp)) != 0) {
      uv_close(reinterpret_cast<uv_handle_t*>(&c->tcp), OnControlClosed);
      return;
    }
    self->controls_.insert(c);
    uv_read_start(
        reinterpret_cast<uv_stream_t*>(&c->tcp),
        [](uv_handle_t* h, size_t, uv_buf_t* buf) {
          auto* ctl = static_cast<Control*>(h->data);
          buf->base = ctl->buf;
          buf->len = sizeof(ctl->buf);
        },
        OnControlRead);
  }

  static void OnControlClosed(uv_handle_t* h) { delete static_cast<Control*>(h->data); }

  static void OnControlRead(uv_stream_t* s, ssize_t n, const uv_buf_t* buf) {
    auto* c = static_cast<Control*>(s->data);
    Impl* self = c->proxy;
    if (n < 0) {
      self->controls_.erase(c);
      uv_close(reinterpret_cast<uv_handle_t*>(&c->tcp), OnControlClosed);
      return;
    }
    c->in.append(buf->base, static_cast<size_t>(n));
    std::string out;
    while (!c->in.empty()) {
      size_t consumed = 0;
      auto status = c->parser.Parse(c->in, {}, &consumed, &c->args);
      c->in.erase(0, consumed);
      if (status == server::resp::ParseStatus::kNeedMore) break;
      if (status == server::resp::ParseStatus::kError) {
        out += "-ERR Protocol error\r\n";
        c->in.clear();
        break;
      }
      if (c->args.empty()) continue;
      out += self->ControlCommand(c->args);
    }
    if (!out.empty()) WriteTo(&c->tcp, std::move(out));
  }

  std::string ControlCommand(const server::resp::ArgList& args) {
    using server::EqualsIgnoreCase;
    std::string_view cmd = args[0];
    auto ok = [] { return std::string("+OK\r\n"); };
    // Errors in Redis's words, so redis-cli users read what they know.
    auto wrong_args = [&] {
      return fmt::format("-ERR wrong number of arguments for '{}' command\r\n",
                         server::ToLower(cmd));
    };
    int64_t ms = 0;
    if (EqualsIgnoreCase(cmd, "ping")) return args.size() == 1 ? "+PONG\r\n" : wrong_args();
    if (EqualsIgnoreCase(cmd, "delay")) {
      if (args.size() != 2 && args.size() != 3) return wrong_args();
      int64_t jitter = 0;
      if (!server::ParseInt64(args[1], &ms) || ms < 0 ||
          (args.size() == 3 && (!server::ParseInt64(args[2], &jitter) || jitter < 0))) {
        return "-ERR DELAY takes milliseconds [jitter milliseconds]\r\n";
      }
      SetDelay(ms, jitter);
      return ok();
    }
    static constexpr std::string_view kNoArgs[] = {"hold", "release", "cut",    "heal",
                                                   "drop", "reset",   "status", "help"};
    bool known = std::any_of(std::begin(kNoArgs), std::end(kNoArgs),
                             [&](std::string_view name) { return EqualsIgnoreCase(cmd, name); });
    if (!known) {
      std::string out = fmt::format("-ERR unknown command '{}', with args beginning with: ", cmd);
      for (size_t i = 1; i < args.size(); ++i) out += fmt::format("'{}' ", args[i]);
      return out + "\r\n";
    }
    if (args.size() != 1) return wrong_args();
    if (EqualsIgnoreCase(cmd, "hold")) {
      SetHold(true);
    } else if (EqualsIgnoreCase(cmd, "release")) {
      SetHold(false);
    } else if (EqualsIgnoreCase(cmd, "cut")) {
      SetCut(true);
    } else if (EqualsIgnoreCase(cmd, "heal")) {
      SetCut(false);
    } else if (EqualsIgnoreCase(cmd, "drop")) {
      DropAll();
    } else if (EqualsIgnoreCase(cmd, "reset")) {
      ResetFaults();
    } else if (EqualsIgnoreCase(cmd, "status")) {
      std::string s = StatusText();
      return fmt::format("${}\r\n{}\r\n", s.size(), s);
    } else if (EqualsIgnoreCase(cmd, "help")) {
      static constexpr std::string_view kHelp[] = {
          "DELAY <ms> [<jitter ms>] - every byte arrives later",
          "HOLD - stop forwarding, keep bytes",
          "RELEASE - forward what was held, in order",
          "CUT - close connections, refuse new ones",
          "HEAL - accept connections again",
          "DROP - close connections now, losing held bytes",
          "RESET - no faults",
          "STATUS - the faults and connections",
          "PING"};
      std::string out = fmt::format("*{}\r\n", std::size(kHelp));
      for (std::string_view l : kHelp) out += fmt::format("+{}\r\n", l);
      return out;
    }
    return ok();
  }

  ProxyOptions options_;
  uv_loop_t loop_;
  uv_tcp_t listener_;
  uv_tcp_t control_;
  bool control_open_ = false;
  uv_async_t async_;
  uv_timer_t timer_;
  std::thread thread_;
  int port_ = 0;
  int control_port_ = -1;
  LinkFaults faults_;
  std::unordered_set<Pipe*> pipes_;
  std::unordered_set<Control*> controls_;
  bool shutting_down_ = false;
  std::mutex mu_;
  std::deque<std::function<void()>> tasks_;
  bool stopped_ = false;
};

std::unique_ptr<FaultProxy> FaultProxy::Start(const ProxyOptions& options) {
  auto impl = std::make_unique<Impl>(options);
  impl->Start();
  return std::unique_ptr<FaultProxy>(new FaultProxy(std::move(impl)));
}

FaultProxy::FaultProxy(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FaultProxy::~FaultProxy() { Stop(); }

int FaultProxy::port() const { return impl_->port(); }
int FaultProxy::control_port() const { return impl_->control_port(); }
void FaultProxy::Delay(int64_t ms, int64_t jitter_ms) {
  impl_->RunOnLoop([&] { impl_->SetDelay(ms, jitter_ms); });
}
void FaultProxy::Hold() {
  impl_->RunOnLoop([&] { impl_->SetHold(true); });
}
void FaultProxy::Release() {
  impl_->RunOnLoop([&] { impl_->SetHold(false); });
}
void FaultProxy::Cut() {
  impl_->RunOnLoop([&] { impl_->SetCut(true); });
}
void FaultProxy::Heal() {
  impl_->RunOnLoop([&] { impl_->SetCut(false); });
}
void FaultProxy::Drop() {
  impl_->RunOnLoop([&] { impl_->DropAll(); });
}
void FaultProxy::Reset() {
  impl_->RunOnLoop([&] { impl_->ResetFaults(); });
}
std::string FaultProxy::Status() {
  std::string s;
  impl_->RunOnLoop([&] { s = impl_->StatusText(); });
  return s;
}
void FaultProxy::Stop() { impl_->Stop(); }

}  // namespace redlab::tools
