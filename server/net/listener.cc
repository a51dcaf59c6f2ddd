#include "server/net/listener.h"

#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include <vector>

#include "server/engine/errors.h"
#include "server/net/connection.h"

namespace redlab::server::net {
namespace {

void CloseAndFree(uv_handle_t* handle) { delete reinterpret_cast<uv_tcp_t*>(handle); }

// What a client refused past maxclients reads before the connection closes.
const std::string kMaxClientsReply = "-ERR " + std::string(engine::err::kMaxClients) + "\r\n";

}  // namespace

Listener::Listener(uv_loop_t* loop, engine::Engine* engine, fault::ReplyFaults* reply_faults)
    : loop_(loop), engine_(engine), reply_faults_(reply_faults) {
  server_.data = this;
}

Listener::~Listener() = default;

int Listener::Listen(const std::string& host, int port, int backlog) {
  sockaddr_storage addr{};
  int rc = uv_ip4_addr(host.c_str(), port, reinterpret_cast<sockaddr_in*>(&addr));
  if (rc != 0) rc = uv_ip6_addr(host.c_str(), port, reinterpret_cast<sockaddr_in6*>(&addr));
  if (rc != 0) return rc;
  rc = uv_tcp_init(loop_, &server_);
  if (rc != 0) return rc;
  server_open_ = true;
  rc = uv_tcp_bind(&server_, reinterpret_cast<const sockaddr*>(&addr), 0);
  if (rc == 0) rc = uv_listen(reinterpret_cast<uv_stream_t*>(&server_), backlog, OnConnection);
  if (rc != 0) return rc;
  listening_ = true;
  sockaddr_storage bound{};
  int len = sizeof(bound);
  uv_tcp_getsockname(&server_, reinterpret_cast<sockaddr*>(&bound), &len);
  port_ = bound.ss_family == AF_INET6
              ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
              : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return 0;
}

void Listener::OnConnection(uv_stream_t* server, int status) {
  auto* self = static_cast<Listener*>(server->data);
  if (status < 0 || self->closing_) return;
  if (self->engine_->AtClientLimit()) {
    auto* tcp = new uv_tcp_t;
    uv_tcp_init(self->loop_, tcp);
    if (uv_accept(server, reinterpret_cast<uv_stream_t*>(tcp)) == 0) {
      uv_buf_t buf = uv_buf_init(const_cast<char*>(kMaxClientsReply.data()),
                                 static_cast<unsigned>(kMaxClientsReply.size()));
      uv_try_write(reinterpret_cast<uv_stream_t*>(tcp), &buf, 1);
    }
    ++self->engine_->stats().rejected_connections;
    uv_close(reinterpret_cast<uv_handle_t*>(tcp), CloseAndFree);
    return;
  }
  auto* conn = new Connection(self, self->engine_, self->reply_faults_);
  uv_tcp_init(self->loop_, conn->handle());
  self->connections_.insert(conn);
  if (uv_accept(server, reinterpret_cast<uv_stream_t*>(conn->handle())) != 0) {
    conn->Close();
    return;
  }
  conn->Start();
}

void Listener::AdoptSocket(int fd) {
  if (engine_->AtClientLimit()) {
    ssize_t ignored = send(fd, kMaxClientsReply.data(), kMaxClientsReply.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    (void)ignored;
    ++engine_->stats().rejected_connections;
    close(fd);
    return;
  }
  auto* conn = new Connection(this, engine_, reply_faults_);
  uv_tcp_init(loop_, conn->handle());
  connections_.insert(conn);
  if (uv_tcp_open(conn->handle(), fd) != 0) {
    close(fd);
    conn->Close();
    return;
  }
  conn->Start();
}

void Listener::ProcessEventsWhileBlocked() {
  if (serving_while_blocked_ || closing_ || !server_open_) return;
  serving_while_blocked_ = true;
  // New connections first (they may be waiting for a reply too), then every live connection.
  uv_os_fd_t server_fd = -1;
  uv_fileno(reinterpret_cast<uv_handle_t*>(&server_), &server_fd);
  for (int accepted = 0; accepted < 64; ++accepted) {
    int fd = accept4(server_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) break;
    AdoptSocket(fd);
  }
  std::vector<Connection*> live(connections_.begin(), connections_.end());
  for (Connection* c : live) {
    if (connections_.count(c)) c->ReadAndServeNow();
  }
  serving_while_blocked_ = false;
}

void Listener::Forget(Connection* connection) {
  connections_.erase(connection);
  // Connections finish closing asynchronously; the listener is done when its own handle is.
}

void Listener::CloseAll(std::function<void()> done) {
  closing_ = true;
  on_closed_ = std::move(done);
  std::vector<Connection*> open(connections_.begin(), connections_.end());
  for (Connection* c : open) c->Close();
  if (server_open_) {
    server_open_ = false;
    uv_close(reinterpret_cast<uv_handle_t*>(&server_), OnListenerClosed);
  } else {
    MaybeDone();
  }
}

void Listener::OnListenerClosed(uv_handle_t* handle) {
  static_cast<Listener*>(handle->data)->MaybeDone();
}

void Listener::MaybeDone() {
  if (on_closed_) {
    auto done = std::move(on_closed_);
    on_closed_ = nullptr;
    done();
  }
}

}  // namespace redlab::server::net
