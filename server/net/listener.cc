#include "server/net/listener.h"

#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "server/engine/core/errors.h"
#include "server/net/connection.h"

namespace redlab::server::net {
namespace {

void CloseAndFree(uv_handle_t* handle) { delete reinterpret_cast<uv_tcp_t*>(handle); }

// What a client refused past maxclients reads before the connection closes.
const std::string kMaxClientsReply = "-ERR " + std::string(engine::err::kMaxClients) + "\r\n";

// What a client refused by protected mode reads before the connection closes (Redis 7.0.15's
// clientAcceptHandler, byte for byte).
constexpr std::string_view kProtectedModeReply =
    "-DENIED Redis is running in protected mode because protected "
    "mode is enabled and no password is set for the default user. "
    "In this mode connections are only accepted from the loopback interface. "
    "If you want to connect from external computers to Redis you "
    "may adopt one of the following solutions: "
    "1) Just disable protected mode sending the command "
    "'CONFIG SET protected-mode no' from the loopback interface "
    "by connecting to Redis from the same host the server is "
    "running, however MAKE SURE Redis is not publicly accessible "
    "from internet if you do so. Use CONFIG REWRITE to make this "
    "change permanent. "
    "2) Alternatively you can just disable the protected mode by "
    "editing the Redis configuration file, and setting the protected "
    "mode option to 'no', and then restarting the server. "
    "3) If you started the server manually just for testing, restart "
    "it with the '--protected-mode no' option. "
    "4) Setup a an authentication password for the default user. "
    "NOTE: You only need to do one of the above things in order for "
    "the server to start accepting connections from the outside.\r\n";

// Redis's islocalClient: the peer's address is exactly 127.0.0.1 or ::1 (not the rest of
// 127.0.0.0/8, nor an IPv4-mapped loopback).
bool IsLoopbackPeer(const sockaddr_storage& peer) {
  char ip[INET6_ADDRSTRLEN] = {0};
  if (peer.ss_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&peer)->sin_addr, ip, sizeof(ip));
  } else if (peer.ss_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&peer)->sin6_addr, ip, sizeof(ip));
  } else {
    return true;  // a Unix socket
  }
  return std::strcmp(ip, "127.0.0.1") == 0 || std::strcmp(ip, "::1") == 0;
}

}  // namespace

Listener::Listener(uv_loop_t* loop, engine::Engine* engine, fault::ReplyFaults* reply_faults)
    : loop_(loop), engine_(engine), reply_faults_(reply_faults) {}

Listener::~Listener() = default;

std::string LocalAddressOf(const std::string& bind) {
  std::string first = bind.substr(0, bind.find(' '));
  if (!first.empty() && first[0] == '-') first.erase(0, 1);
  if (first.empty() || first == "*" || first == "0.0.0.0") return "127.0.0.1";
  if (first == "::*" || first == "::") return "::1";
  return first;
}

int Listener::Listen(const std::string& bind, int port, int backlog) {
  // An empty bind listens nowhere (connections come only through sockets adopted otherwise, or
  // the unix socket), and the port stays the one configured for a later CONFIG SET bind.
  port_ = port;
  std::vector<std::string> addresses;
  for (size_t i = 0; !bind.empty() && i <= bind.size();) {
    size_t end = bind.find(' ', i);
    if (end == std::string::npos) end = bind.size();
    addresses.push_back(bind.substr(i, end - i));
    i = end + 1;
  }
  for (const std::string& address : addresses) {
    int rc = ListenOn(address, port, backlog);
    if (rc != 0) {
      CloseSockets();
      return rc;
    }
    // Every address listens on the port the first one got (an ephemeral one for port 0).
    if (port == 0) port = port_;
  }
  return 0;
}

int Listener::ListenOn(std::string address, int port, int backlog) {
  bool optional = !address.empty() && address[0] == '-';
  if (optional) address.erase(0, 1);
  if (address == "*") address = "0.0.0.0";
  if (address == "::*") address = "::";
  sockaddr_storage addr{};
  int rc = uv_ip4_addr(address.c_str(), port, reinterpret_cast<sockaddr_in*>(&addr));
  if (rc != 0) rc = uv_ip6_addr(address.c_str(), port, reinterpret_cast<sockaddr_in6*>(&addr));
  if (rc != 0) return rc;
  auto* socket = new uv_tcp_t;
  rc = uv_tcp_init(loop_, socket);
  if (rc != 0) {
    delete socket;
    return rc;
  }
  socket->data = this;
  sockets_.push_back(socket);
  // An IPv6 socket takes IPv6 only, so "* ::*" binds both families on one port, as in Redis.
  unsigned flags = addr.ss_family == AF_INET6 ? UV_TCP_IPV6ONLY : 0;
  rc = uv_tcp_bind(socket, reinterpret_cast<const sockaddr*>(&addr), flags);
  if (rc == 0) rc = uv_listen(reinterpret_cast<uv_stream_t*>(socket), backlog, OnConnection);
  if (rc != 0) {
    sockets_.pop_back();
    ++closing_sockets_;
    uv_close(reinterpret_cast<uv_handle_t*>(socket), OnSocketClosed);
    // A "-" address the machine lacks is skipped (anetTcpServer's errors Redis tolerates).
    bool missing = rc == UV_EADDRNOTAVAIL || rc == UV_EAFNOSUPPORT || rc == UV_EPROTONOSUPPORT;
    return optional && missing ? 0 : rc;
  }
  sockaddr_storage bound{};
  int len = sizeof(bound);
  uv_tcp_getsockname(socket, reinterpret_cast<sockaddr*>(&bound), &len);
  port_ = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                      : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return 0;
}

int Listener::Rebind(const std::string& bind, int port, int backlog) {
  CloseSockets();  // uv_close releases the descriptors at once: the same port can be bound again
  if (port == 0) {
    port_ = 0;
    return 0;
  }
  return Listen(bind, port, backlog);
}

void Listener::CloseSockets() {
  for (uv_tcp_t* socket : sockets_) {
    ++closing_sockets_;
    uv_close(reinterpret_cast<uv_handle_t*>(socket), OnSocketClosed);
  }
  sockets_.clear();
}

int Listener::ListenUnix(const std::string& path, int perm, int backlog) {
  unlink(path.c_str());  // don't care if this fails (Redis's initListeners)
  auto* socket = new uv_pipe_t;
  int rc = uv_pipe_init(loop_, socket, 0);
  if (rc != 0) {
    delete socket;
    return rc;
  }
  socket->data = this;
  rc = uv_pipe_bind(socket, path.c_str());
  if (rc == 0 && perm != 0) rc = chmod(path.c_str(), static_cast<mode_t>(perm)) == 0 ? 0 : -errno;
  if (rc == 0) rc = uv_listen(reinterpret_cast<uv_stream_t*>(socket), backlog, OnUnixConnection);
  if (rc != 0) {
    ++closing_sockets_;
    uv_close(reinterpret_cast<uv_handle_t*>(socket), OnUnixSocketClosed);
    return rc;
  }
  unix_socket_ = socket;
  unix_path_ = path;
  return 0;
}

bool Listener::RefusedAtClientLimit(uv_stream_t* stream) {
  if (!engine_->AtClientLimit()) return false;
  uv_buf_t buf = uv_buf_init(const_cast<char*>(kMaxClientsReply.data()),
                             static_cast<unsigned>(kMaxClientsReply.size()));
  uv_try_write(stream, &buf, 1);
  engine_->stats().CountRejectedConnection();
  return true;
}

void Listener::OnUnixConnection(uv_stream_t* server, int status) {
  auto* self = static_cast<Listener*>(server->data);
  if (status < 0 || self->closing_) return;
  auto* conn = new Connection(self, self->engine_, self->reply_faults_, self->unix_path_);
  uv_pipe_init(self->loop_, conn->pipe(), 0);
  self->connections_.insert(conn);
  // A unix socket's client is local: protected mode lets it in (islocalClient).
  if (uv_accept(server, reinterpret_cast<uv_stream_t*>(conn->pipe())) != 0 ||
      self->RefusedAtClientLimit(reinterpret_cast<uv_stream_t*>(conn->pipe()))) {
    conn->Close();
    return;
  }
  conn->Start();
}

void Listener::OnUnixSocketClosed(uv_handle_t* handle) {
  auto* self = static_cast<Listener*>(handle->data);
  delete reinterpret_cast<uv_pipe_t*>(handle);
  --self->closing_sockets_;
  self->MaybeDone();
}

void Listener::OnConnection(uv_stream_t* server, int status) {
  auto* self = static_cast<Listener*>(server->data);
  if (status < 0 || self->closing_) return;
  if (self->engine_->AtClientLimit()) {
    auto* tcp = new uv_tcp_t;
    uv_tcp_init(self->loop_, tcp);
    if (uv_accept(server, reinterpret_cast<uv_stream_t*>(tcp)) == 0) {
      self->RefusedAtClientLimit(reinterpret_cast<uv_stream_t*>(tcp));
    } else {
      self->engine_->stats().CountRejectedConnection();
    }
    uv_close(reinterpret_cast<uv_handle_t*>(tcp), CloseAndFree);
    return;
  }
  auto* conn = new Connection(self, self->engine_, self->reply_faults_);
  uv_tcp_init(self->loop_, conn->tcp());
  self->connections_.insert(conn);
  if (uv_accept(server, reinterpret_cast<uv_stream_t*>(conn->tcp())) != 0) {
    conn->Close();
    return;
  }
  uv_os_fd_t fd = -1;
  if (uv_fileno(reinterpret_cast<uv_handle_t*>(conn->tcp()), &fd) == 0 &&
      self->DeniedByProtectedMode(fd)) {
    conn->Close();
    return;
  }
  conn->Start();
}

void Listener::AdoptSocket(int fd) {
  if (engine_->AtClientLimit()) {
    ssize_t ignored =
        send(fd, kMaxClientsReply.data(), kMaxClientsReply.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    (void)ignored;
    engine_->stats().CountRejectedConnection();
    close(fd);
    return;
  }
  if (DeniedByProtectedMode(fd)) {
    close(fd);
    return;
  }
  auto* conn = new Connection(this, engine_, reply_faults_);
  uv_tcp_init(loop_, conn->tcp());
  connections_.insert(conn);
  if (uv_tcp_open(conn->tcp(), fd) != 0) {
    close(fd);
    conn->Close();
    return;
  }
  conn->Start();
}

bool Listener::DeniedByProtectedMode(int fd) {
  if (!engine_->config().protected_mode || !engine_->auth().acl().default_user().nopass())
    return false;
  sockaddr_storage peer{};
  socklen_t len = sizeof(peer);
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &len) != 0) return false;
  if (IsLoopbackPeer(peer)) return false;
  ssize_t ignored =
      send(fd, kProtectedModeReply.data(), kProtectedModeReply.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
  (void)ignored;
  engine_->stats().CountRejectedConnection();
  return true;
}

void Listener::ProcessEventsWhileBlocked() {
  if (serving_while_blocked_ || closing_) return;
  serving_while_blocked_ = true;
  // New connections first (they may be waiting for a reply too), then every live connection.
  for (uv_tcp_t* socket : sockets_) {
    uv_os_fd_t server_fd = -1;
    uv_fileno(reinterpret_cast<uv_handle_t*>(socket), &server_fd);
    for (int accepted = 0; accepted < 64; ++accepted) {
      int fd = accept4(server_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) break;
      AdoptSocket(fd);
    }
  }
  std::vector<Connection*> live(connections_.begin(), connections_.end());
  for (Connection* c : live) {
    if (connections_.count(c)) c->ReadAndServeNow();
  }
  serving_while_blocked_ = false;
}

std::vector<int> Listener::ListeningFds() const {
  std::vector<int> out;
  for (uv_tcp_t* socket : sockets_) {
    uv_os_fd_t fd = -1;
    if (uv_fileno(reinterpret_cast<uv_handle_t*>(socket), &fd) == 0) out.push_back(fd);
  }
  return out;
}

std::vector<int> Listener::IdleConnectionFds(bool authenticated_only) const {
  std::vector<int> out;
  for (Connection* c : connections_) {
    if (c->closing() || c->QueryBufferLength() > 0) continue;
    if (authenticated_only && !c->authenticated()) continue;
    int fd = c->Fd();
    if (fd >= 0) out.push_back(fd);
  }
  return out;
}

void Listener::RecheckPartition() {
  std::vector<Connection*> live(connections_.begin(), connections_.end());
  for (Connection* c : live) {
    if (connections_.count(c)) c->RecheckPartition();
  }
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
  CloseSockets();
  if (unix_socket_ != nullptr) {
    ++closing_sockets_;
    uv_close(reinterpret_cast<uv_handle_t*>(unix_socket_), OnUnixSocketClosed);
    unix_socket_ = nullptr;
    unlink(unix_path_.c_str());  // closeListeningSockets: the file goes with the server
  }
  MaybeDone();
}

void Listener::OnSocketClosed(uv_handle_t* handle) {
  auto* self = static_cast<Listener*>(handle->data);
  delete reinterpret_cast<uv_tcp_t*>(handle);
  --self->closing_sockets_;
  self->MaybeDone();
}

void Listener::MaybeDone() {
  if (closing_sockets_ == 0 && on_closed_) {
    auto done = std::move(on_closed_);
    on_closed_ = nullptr;
    done();
  }
}

}  // namespace redlab::server::net
