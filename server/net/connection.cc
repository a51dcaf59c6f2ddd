#include "server/net/connection.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdlib>
#include <cstring>

#include "server/base/text.h"
#include "server/net/listener.h"
#include "server/net/partition.h"

namespace redlab::server::net {
namespace {

// How much a read asks for, and what an idle connection keeps (Redis's PROTO_IOBUF_LEN).
constexpr size_t kReadChunk = 16 * 1024;
// Reply buffers larger than this are released once drained.
constexpr size_t kMaxIdleReplyBuffer = 64 * 1024;
// Argument buffers larger than this are released after the request (one huge SET should not pin
// its memory on the connection).
constexpr size_t kMaxRetainedArg = 64 * 1024;

std::string FormatAddress(const sockaddr_storage& addr) {
  char ip[INET6_ADDRSTRLEN] = {0};
  int port = 0;
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
    port = ntohs(in->sin_port);
    return std::string(ip) + ":" + std::to_string(port);
  }
  const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&addr);
  inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
  port = ntohs(in6->sin6_port);
  return std::string(ip) + ":" + std::to_string(port);
}

}  // namespace

Connection::Connection(Listener* listener, engine::Engine* engine, fault::ReplyFaults* faults,
                       std::string unix_path)
    : listener_(listener), engine_(engine), faults_(faults), unix_path_(std::move(unix_path)) {
  handle_.tcp.data = this;  // the handles' common header: the pipe's too
  write_req_.data = this;
  delay_timer_.data = this;
}

size_t Connection::PendingOutputBytes() const {
  // What waits in the reply buffer while a write is in flight counts too (omem, the limits).
  size_t n =
      writing_.size() + ready_.size() + (client_ != nullptr ? client_->reply_buffer().size() : 0);
  for (const DelayedReply& d : delayed_) n += d.bytes.size();
  return n;
}

int Connection::Fd() const {
  uv_os_fd_t fd = -1;
  uv_fileno(reinterpret_cast<const uv_handle_t*>(&handle_.tcp), &fd);
  return fd;
}

void Connection::Start() {
  if (unix_socket()) {
    // genClientAddrString: a unix socket client's address is the socket's path, port 0.
    peer_ = local_ = unix_path_ + ":0";
  } else {
    sockaddr_storage addr{};
    int len = sizeof(addr);
    if (uv_tcp_getpeername(&handle_.tcp, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      peer_ = FormatAddress(addr);
    }
    len = sizeof(addr);
    if (uv_tcp_getsockname(&handle_.tcp, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      local_ = FormatAddress(addr);
    }
    uv_tcp_nodelay(&handle_.tcp, 1);
  }
  handles_open_ = 1;
  if (faults_ != nullptr && uv_timer_init(stream()->loop, &delay_timer_) == 0) {
    timer_open_ = true;
    ++handles_open_;
  }
  client_ = engine_->CreateClient(this);
  reading_ = uv_read_start(stream(), OnAlloc, OnRead) == 0;
  if (!reading_) {
    Close();
    return;
  }
  RecheckPartition();
}

void Connection::RecheckPartition() {
  if (closing_ || client_ == nullptr) return;
  if (!partition_held_ && !AnyPartition()) return;  // the common case: no lock taken
  // The peer is a node when its port is one a node's outbound link registered.
  size_t colon = peer_.rfind(':');
  int peer_port = colon == std::string::npos ? 0 : std::atoi(peer_.c_str() + colon + 1);
  int peer_node = peer_port > 0 ? NodeOfLinkPort(peer_port) : 0;
  bool cut = peer_node > 0 && Partitioned(listener_->port(), peer_node);
  if (cut == partition_held_) return;
  partition_held_ = cut;
  if (cut) {
    if (reading_) uv_read_stop(stream());
    reading_ = false;
    return;
  }
  reading_ = uv_read_start(stream(), OnAlloc, OnRead) == 0;
  if (!reading_) {
    Close();
    return;
  }
  Flush();  // what was held, in order
}

void Connection::OnAlloc(uv_handle_t* handle, size_t, uv_buf_t* buf) {
  auto* self = static_cast<Connection*>(handle->data);
  // A big bulk argument in progress gets room for all of it, so it arrives in few reads.
  size_t want = kReadChunk;
  int64_t pending = self->parser_.PendingBulkBytes();
  if (pending > static_cast<int64_t>(kReadChunk)) want = static_cast<size_t>(pending) + 2;
  buf->base = self->query_.PrepareWrite(want);
  buf->len = want;
}

void Connection::OnRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t*) {
  auto* self = static_cast<Connection*>(stream->data);
  if (nread < 0) {
    self->Close();  // EOF or error
    return;
  }
  if (nread == 0 || self->closing_) return;
  self->query_.CommitWrite(static_cast<size_t>(nread));
  self->engine_->stats().CountNetInput(static_cast<uint64_t>(nread));
  // Redis closes, without a reply, a client whose unparsed input passes the limit.
  if (self->query_.size() >
      static_cast<size_t>(self->engine_->config().client_query_buffer_limit)) {
    self->Close();
    return;
  }
  self->ProcessInput();
  if (!self->closing_) self->Flush();
}

void Connection::ProcessInput() {
  while (!closing_ && !client_->close_after_reply() && !client_->blocked() && query_.size() > 0) {
    resp::ParseLimits limits;
    limits.proto_max_bulk_len = engine_->config().proto_max_bulk_len;
    limits.auth_required = engine_->auth().required() && !client_->authenticated();
    size_t consumed = 0;
    resp::ParseStatus status = parser_.Parse(query_.data(), limits, &consumed, &args_);
    query_.Consume(consumed);
    served_in_pass_ += consumed;
    if (status == resp::ParseStatus::kNeedMore) break;
    if (status == resp::ParseStatus::kError) {
      ProtocolError(parser_.error());
      break;
    }
    if (args_.empty()) continue;
    size_t reply_start = client_->reply_buffer().size();
    executing_ = true;
    engine_->Execute(*client_, args_.span());
    executing_ = false;
    if (closing_) break;  // the command closed the connection (FAULT CRASH)
    MaybeDropReply(reply_start, /*own_command=*/true);
    args_.ShrinkIfLarge(kMaxRetainedArg);
  }
  served_in_pass_ = 0;
  query_.ShrinkIfIdle(kReadChunk);
}

void Connection::ResumeInput() {
  if (closing_ || client_ == nullptr) return;
  // Called from inside the engine (another client's command may be running): the remaining
  // input is processed now, as Redis does for a client it unblocks. The unblocked command's
  // reply is subject to the reply faults like any other.
  if (!executing_) MaybeDropReply(0, /*own_command=*/true);
  if (!executing_) ProcessInput();
  Flush();
}

void Connection::ReadAndServeNow() {
  if (closing_ || executing_ || client_ == nullptr || partition_held_) return;
  int fd = Fd();
  if (fd < 0) return;
  bool got_input = false;
  // Bounded, so one flooding client cannot keep the blocked node from returning to its command.
  for (int reads = 0; reads < 16; ++reads) {
    char* buf = query_.PrepareWrite(kReadChunk);
    ssize_t n = recv(fd, buf, kReadChunk, MSG_DONTWAIT);
    if (n == 0) {
      Close();
      return;
    }
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) break;
      Close();
      return;
    }
    query_.CommitWrite(static_cast<size_t>(n));
    engine_->stats().CountNetInput(static_cast<uint64_t>(n));
    got_input = true;
    if (static_cast<size_t>(n) < kReadChunk) break;
  }
  if (got_input) ProcessInput();
  if (!closing_) Flush();
}

void Connection::ProtocolError(const std::string& message) {
  // Redis replies the error, discards the rest of the input and closes after the reply.
  resp::ReplyWriter reply(&client_->reply_buffer(), client_->protocol());
  reply.Error(message);
  client_->set_close_after_reply();
  query_.Consume(query_.size());
}

void Connection::Flush() {
  if (closing_ || client_ == nullptr) return;
  std::string& out = client_->reply_buffer();
  if (engine_->memory().OutputBufferLimitReached(*client_,
                                                 out.size() + writing_.size() + ready_.size())) {
    Close();  // Redis drops such a client without sending what is pending
    return;
  }
  if (partition_held_) return;  // the bytes wait for the partition to heal
  if (ShapingReplies()) {
    // FAULT REPLY DELAY: replies (and pushes) wait in delayed_ and leave, in order, when due.
    if (!out.empty()) {
      fault::ReplyRule* rule = Rule();
      uint64_t delay = rule != nullptr ? static_cast<uint64_t>(rule->delay_ms) : 0;
      delayed_.push_back(DelayedReply{uv_now(stream()->loop) + delay, std::move(out)});
      out.clear();
    }
    ReleaseDueReplies();
    WriteOut(ready_);
    return;
  }
  if (!ready_.empty()) {
    ready_.append(out);
    out.clear();
    WriteOut(ready_);
    return;
  }
  WriteOut(out);
}

fault::ReplyRule* Connection::Rule() const {
  if (faults_ == nullptr || !faults_->any() || client_ == nullptr) return nullptr;
  if (client_->repl_role() == engine::Client::ReplRole::kReplica) return nullptr;
  return faults_->For(client_->id(), peer_, client_->name());
}

bool Connection::ShapingReplies() const {
  if (!delayed_.empty()) return true;
  fault::ReplyRule* rule = Rule();
  return rule != nullptr && rule->delay_ms > 0;
}

void Connection::ReleaseDueReplies() {
  uint64_t now = uv_now(stream()->loop);
  while (!delayed_.empty() && delayed_.front().due_ms <= now) {
    ready_.append(delayed_.front().bytes);
    delayed_.pop_front();
  }
  if (!delayed_.empty() && timer_open_) {
    uv_timer_start(&delay_timer_, OnDelayTimer, delayed_.front().due_ms - now, 0);
  }
}

void Connection::OnDelayTimer(uv_timer_t* timer) {
  auto* self = static_cast<Connection*>(timer->data);
  if (self->closing_ || self->partition_held_) return;
  self->ReleaseDueReplies();
  self->WriteOut(self->ready_);
}

void Connection::MaybeDropReply(size_t from, bool own_command) {
  fault::ReplyRule* rule = Rule();
  if (rule == nullptr || rule->drop_probability <= 0) return;
  std::string& out = client_->reply_buffer();
  if (out.size() <= from) return;
  // FAULT's own replies always arrive, so the fault can be inspected and lifted.
  if (own_command && client_->last_command() != nullptr &&
      client_->last_command()->has(kCmdNodeControl)) {
    return;
  }
  if (rule->DropNext()) out.resize(from);
}

void Connection::PushWritten(size_t from) {
  // A push to this client during its own command is part of that command's reply (a SUBSCRIBE
  // confirmation, an invalidation caused by its write), dropped or not with it.
  if (executing_ || closing_) return;
  MaybeDropReply(from, /*own_command=*/false);
}

void Connection::WriteOut(std::string& out) {
  if (closing_ || write_in_flight_) return;
  if (out.empty()) {
    FinishIfDone();
    return;
  }
  uv_buf_t buf = uv_buf_init(out.data(), static_cast<unsigned>(out.size()));
  int written = uv_try_write(stream(), &buf, 1);
  if (written == UV_EAGAIN) written = 0;
  if (written < 0) {
    Close();
    return;
  }
  engine_->stats().CountNetOutput(static_cast<uint64_t>(written), 1);
  if (static_cast<size_t>(written) == out.size()) {
    out.clear();
    if (out.capacity() > kMaxIdleReplyBuffer) std::string().swap(out);
    FinishIfDone();
    return;
  }
  // The rest goes out asynchronously from writing_, while new replies gather in `out`.
  writing_.assign(out, static_cast<size_t>(written), std::string::npos);
  out.clear();
  buf = uv_buf_init(writing_.data(), static_cast<unsigned>(writing_.size()));
  if (uv_write(&write_req_, stream(), &buf, 1, OnWrite) != 0) {
    Close();
    return;
  }
  write_in_flight_ = true;
}

void Connection::OnWrite(uv_write_t* req, int status) {
  auto* self = static_cast<Connection*>(req->data);
  self->write_in_flight_ = false;
  if (status < 0) {
    self->Close();
    return;
  }
  self->engine_->stats().CountNetOutput(self->writing_.size(), 0);
  self->writing_.clear();
  if (self->writing_.capacity() > kMaxIdleReplyBuffer) std::string().swap(self->writing_);
  self->Flush();
}

void Connection::FinishIfDone() {
  if (client_ != nullptr && client_->close_after_reply() && !write_in_flight_ &&
      client_->reply_buffer().empty() && ready_.empty() && delayed_.empty()) {
    Close();
  }
}

void Connection::Close() {
  if (closing_) return;
  closing_ = true;
  if (client_ != nullptr) engine_->ClientClosing(*client_);
  if (reading_) uv_read_stop(stream());
  listener_->Forget(this);
  // A write in flight is cancelled by uv_close; its callback runs before OnClose.
  if (timer_open_) {
    uv_timer_stop(&delay_timer_);
    uv_close(reinterpret_cast<uv_handle_t*>(&delay_timer_), OnTimerClosed);
  }
  uv_close(reinterpret_cast<uv_handle_t*>(stream()), OnClose);
}

void Connection::OnTimerClosed(uv_handle_t* handle) {
  auto* self = static_cast<Connection*>(handle->data);
  if (--self->handles_open_ == 0) delete self;
}

void Connection::OnClose(uv_handle_t* handle) {
  auto* self = static_cast<Connection*>(handle->data);
  if (self->client_ != nullptr) {
    self->engine_->DestroyClient(self->client_);
    self->client_ = nullptr;
  }
  // Before Start() nothing was counted: the socket handle alone.
  if (self->handles_open_ <= 1) {
    delete self;
  } else {
    --self->handles_open_;
  }
}

}  // namespace redlab::server::net
