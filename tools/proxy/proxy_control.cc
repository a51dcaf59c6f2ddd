// The fault proxy's control: its RESP control port (redis-cli speaks it) and the in-process API,
// which set its faults and toxics, in the spirit of toxiproxy's HTTP API (POST .../toxics, /reset).
#include <fmt/format.h>

#include <algorithm>

#include "server/base/numbers.h"
#include "server/base/text.h"
#include "tools/proxy/proxy_impl.h"

namespace redlab::tools {
namespace {

using server::EqualsIgnoreCase;

std::string Ok() { return "+OK\r\n"; }
std::string Err(std::string_view text) { return fmt::format("-ERR {}\r\n", text); }

constexpr std::string_view kHelp[] = {
    "DELAY <ms> [<jitter ms>] - the latency toxic on both directions (0: none)",
    "HOLD - stop forwarding, keep bytes (reading stops at the buffer limit)",
    "RELEASE - forward what was held, in order",
    "CUT - close connections, refuse new ones",
    "HEAL - accept connections again",
    "DROP - close connections now, losing held bytes",
    "BUFFER <bytes> - what one direction of a connection holds before reading stops",
    "TOXIC ADD <upstream|downstream|both> <type> [<attribute> <value>]... [toxicity <0..1>]"
    " [CONN <id>]",
    "    latency latency <ms> jitter <ms> | bandwidth rate <KB/s> |",
    "    slicer average_size <bytes> size_variation <bytes> delay <us> | timeout timeout <ms> |",
    "    reset_peer timeout <ms> | limit_data bytes <n> | slow_close delay <ms>",
    "TOXIC REMOVE <upstream|downstream|both> <type> [CONN <id>]",
    "RESET - no toxics, released, healed",
    "STATUS - the faults, toxics and connections",
    "PING"};

}  // namespace

void FaultProxy::Impl::OnControlAccept(uv_stream_t* server, int status) {
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

void FaultProxy::Impl::OnControlClosed(uv_handle_t* h) { delete static_cast<Control*>(h->data); }

void FaultProxy::Impl::OnControlRead(uv_stream_t* s, ssize_t n, const uv_buf_t* buf) {
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
      out += Err("Protocol error");
      c->in.clear();
      break;
    }
    if (c->args.empty()) continue;
    std::vector<std::string_view> args;
    for (size_t i = 0; i < c->args.size(); ++i) args.push_back(c->args[i]);
    out += self->ControlCommand(args);
  }
  if (out.empty()) return;
  auto* w = new WriteReq;
  w->data = std::move(out);
  w->req.data = w;
  uv_buf_t b = uv_buf_init(w->data.data(), static_cast<unsigned>(w->data.size()));
  if (uv_write(&w->req, reinterpret_cast<uv_stream_t*>(&c->tcp), &b, 1, OnWritten) != 0) {
    delete w;
  }
}

std::string FaultProxy::Impl::ControlCommand(const std::vector<std::string_view>& args) {
  std::string_view cmd = args[0];
  // Errors in Redis's words, so redis-cli users read what they know.
  auto wrong_args = [&] {
    return Err(fmt::format("wrong number of arguments for '{}' command", server::ToLower(cmd)));
  };
  if (EqualsIgnoreCase(cmd, "ping")) return args.size() == 1 ? "+PONG\r\n" : wrong_args();
  if (EqualsIgnoreCase(cmd, "delay")) {
    if (args.size() != 2 && args.size() != 3) return wrong_args();
    int64_t ms = 0, jitter = 0;
    if (!server::ParseInt64(args[1], &ms) || ms < 0 || ms > (int64_t{1} << 40) ||
        (args.size() == 3 &&
         (!server::ParseInt64(args[2], &jitter) || jitter < 0 || jitter > (int64_t{1} << 40)))) {
      return Err("DELAY takes milliseconds [jitter milliseconds]");
    }
    for (Direction d : {Direction::kUpstream, Direction::kDownstream}) {
      Toxics t = toxics_[static_cast<int>(d)];
      if (ms > 0 || jitter > 0) {
        t.latency = Toxics::Latency{ms, jitter};
      } else {
        t.latency.reset();
      }
      SetToxics(d, t, 0);
    }
    return Ok();
  }
  if (EqualsIgnoreCase(cmd, "buffer")) {
    if (args.size() != 2) return wrong_args();
    int64_t bytes = 0;
    if (!server::ParseInt64(args[1], &bytes) || bytes < 1 || bytes > (int64_t{1} << 40)) {
      return Err("BUFFER takes a number of bytes above 0");
    }
    SetBufferLimit(static_cast<size_t>(bytes));
    return Ok();
  }
  if (EqualsIgnoreCase(cmd, "toxic")) return ToxicCommand(args);
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
    std::string out = fmt::format("*{}\r\n", std::size(kHelp));
    for (std::string_view l : kHelp) out += fmt::format("+{}\r\n", l);
    return out;
  }
  return Ok();
}

// TOXIC ADD|REMOVE <upstream|downstream|both> <type> [<attribute> <value>]... [CONN <id>]
std::string FaultProxy::Impl::ToxicCommand(const std::vector<std::string_view>& args_in) {
  std::vector<std::string_view> args = args_in;
  uint64_t conn = 0;
  if (args.size() >= 2 && EqualsIgnoreCase(args[args.size() - 2], "conn")) {
    int64_t id = 0;
    if (!server::ParseInt64(args.back(), &id) || id < 1) {
      return Err("CONN takes a connection id (see STATUS)");
    }
    conn = static_cast<uint64_t>(id);
    args.resize(args.size() - 2);
  }
  if (args.size() < 4) {
    return Err(
        "TOXIC ADD|REMOVE <upstream|downstream|both> <type> [<attribute> <value>]... "
        "[CONN <id>]");
  }
  bool add = EqualsIgnoreCase(args[1], "add");
  if (!add && !EqualsIgnoreCase(args[1], "remove")) {
    return Err(fmt::format("unknown TOXIC subcommand '{}' (ADD, REMOVE)", args[1]));
  }
  std::vector<Direction> dirs;
  if (EqualsIgnoreCase(args[2], "upstream") || EqualsIgnoreCase(args[2], "both")) {
    dirs.push_back(Direction::kUpstream);
  }
  if (EqualsIgnoreCase(args[2], "downstream") || EqualsIgnoreCase(args[2], "both")) {
    dirs.push_back(Direction::kDownstream);
  }
  if (dirs.empty()) {
    return Err(fmt::format("unknown stream '{}' (upstream, downstream, both)", args[2]));
  }
  std::vector<std::string_view> words(args.begin() + 3, args.end());
  for (Direction d : dirs) {
    Toxics t;
    if (!GetToxics(d, conn, &t)) return Err(fmt::format("no connection {}", conn));
    if (add) {
      std::string error = AddToxic(&t, words);
      if (!error.empty()) return Err(error);
    } else {
      if (words.size() != 1) return Err("TOXIC REMOVE takes a stream and a toxic type");
      if (!RemoveToxic(&t, words[0])) {
        return Err(
            fmt::format("no {} toxic '{}' on {}", DirectionName(d), words[0],
                        conn == 0 ? std::string("the proxy") : fmt::format("connection {}", conn)));
      }
    }
    SetToxics(d, t, conn);
  }
  return Ok();
}

// ---- The public class ----

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
  impl_->RunOnLoop([&] {
    for (Direction d : {Direction::kUpstream, Direction::kDownstream}) {
      Toxics t;
      impl_->GetToxics(d, 0, &t);
      if (ms > 0 || jitter_ms > 0) {
        t.latency = Toxics::Latency{ms, jitter_ms};
      } else {
        t.latency.reset();
      }
      impl_->SetToxics(d, t, 0);
    }
  });
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
void FaultProxy::SetToxics(Direction direction, const Toxics& toxics, uint64_t conn) {
  impl_->RunOnLoop([&] { impl_->SetToxics(direction, toxics, conn); });
}
std::vector<uint64_t> FaultProxy::Connections() {
  std::vector<uint64_t> ids;
  impl_->RunOnLoop([&] { ids = impl_->ConnectionIds(); });
  return ids;
}
std::string FaultProxy::Command(const std::vector<std::string>& args) {
  std::string reply;
  impl_->RunOnLoop([&] {
    std::vector<std::string_view> views(args.begin(), args.end());
    reply = impl_->ControlCommand(views);
  });
  return reply;
}
std::string FaultProxy::Status() {
  std::string s;
  impl_->RunOnLoop([&] { s = impl_->StatusText(); });
  return s;
}
void FaultProxy::Stop() { impl_->Stop(); }

}  // namespace redlab::tools
