// Redis's connectWithMaster (replication.c) and redisAsyncConnect (hiredis, for sentinel.c's
// instanceLink): a node's outbound connection, with FAULT PARTITION.
#include "server/net/outbound_link.h"

#include <netdb.h>
#include <netinet/in.h>

#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "server/net/partition.h"

namespace redlab::server::net {
namespace {

// Resolves host:port for connect; false when it cannot.
bool Resolve(uv_loop_t* loop, const std::string& host, int port, sockaddr_storage* out) {
  std::string name = host == "localhost" ? "127.0.0.1" : host;
  if (uv_ip4_addr(name.c_str(), port, reinterpret_cast<sockaddr_in*>(out)) == 0) return true;
  if (uv_ip6_addr(name.c_str(), port, reinterpret_cast<sockaddr_in6*>(out)) == 0) return true;
  // A host name: resolved synchronously (rare; nodes are usually given addresses).
  uv_getaddrinfo_t req;
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  if (uv_getaddrinfo(loop, &req, nullptr, name.c_str(), std::to_string(port).c_str(), &hints) !=
      0) {
    return false;
  }
  bool ok = req.addrinfo != nullptr;
  if (ok) std::memcpy(out, req.addrinfo->ai_addr, req.addrinfo->ai_addrlen);
  uv_freeaddrinfo(req.addrinfo);
  return ok;
}

// The live links of every loop, for RecheckPartition (a link is made and freed on its loop's
// thread; the map is shared by the nodes of the process).
std::mutex links_mu;
std::unordered_multimap<uv_loop_t*, OutboundLink*>& Links() {
  static auto* links = new std::unordered_multimap<uv_loop_t*, OutboundLink*>;
  return *links;
}

}  // namespace

void OutboundLink::RecheckPartition(uv_loop_t* loop) {
  std::vector<OutboundLink*> mine;
  {
    std::lock_guard lock(links_mu);
    auto [begin, end] = Links().equal_range(loop);
    for (auto it = begin; it != end; ++it) mine.push_back(it->second);
  }
  for (OutboundLink* link : mine) link->Recheck();
}

bool OutboundLink::PartitionedNow() const { return Partitioned(own_port_, peer_port_); }

OutboundLink* OutboundLink::Start(uv_loop_t* loop, const std::string& host, int port,
                                  replication::LinkHandler* handler, int own_port,
                                  const std::string& source_addr) {
  sockaddr_storage addr{};
  if (!Resolve(loop, host, port, &addr)) return nullptr;
  auto* link = new OutboundLink(handler);
  link->loop_ = loop;
  link->own_port_ = own_port;
  link->peer_port_ = port;
  link->tcp_.data = link;
  link->connect_req_.data = link;
  link->write_req_.data = link;
  if (uv_tcp_init(loop, &link->tcp_) != 0) {
    delete link;
    return nullptr;
  }
  {
    std::lock_guard lock(links_mu);  // from here on the link is freed by OnClosed
    Links().emplace(loop, link);
  }
  uv_tcp_nodelay(&link->tcp_, 1);
  sockaddr_storage source{};
  if (!source_addr.empty() &&
      (uv_ip4_addr(source_addr.c_str(), 0, reinterpret_cast<sockaddr_in*>(&source)) == 0 ||
       uv_ip6_addr(source_addr.c_str(), 0, reinterpret_cast<sockaddr_in6*>(&source)) == 0) &&
      source.ss_family == addr.ss_family) {
    uv_tcp_bind(&link->tcp_, reinterpret_cast<sockaddr*>(&source), 0);  // best effort
  }
  if (uv_tcp_connect(&link->connect_req_, &link->tcp_, reinterpret_cast<sockaddr*>(&addr),
                     OnConnect) != 0) {
    // The handle exists: it must be closed through libuv.
    link->handler_ = nullptr;
    link->closing_ = true;
    uv_close(reinterpret_cast<uv_handle_t*>(&link->tcp_), OnClosed);
    return nullptr;
  }
  return link;
}

void OutboundLink::OnConnect(uv_connect_t* req, int status) {
  auto* self = static_cast<OutboundLink*>(req->data);
  if (self->closing_) return;
  if (status != 0) {
    self->Fail();
    return;
  }
  self->connected_ = true;
  // The node it reaches knows, by this local port, that the connection comes from a node.
  sockaddr_storage local{};
  int len = sizeof(local);
  if (uv_tcp_getsockname(&self->tcp_, reinterpret_cast<sockaddr*>(&local), &len) == 0) {
    self->local_port_ =
        ntohs(local.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&local)->sin6_port
                                          : reinterpret_cast<sockaddr_in*>(&local)->sin_port);
    if (self->own_port_ > 0) RegisterLinkPort(self->local_port_, self->own_port_);
  }
  if (self->PartitionedNow()) {
    self->held_ = true;  // the handshake does not get through until the partition heals
    return;
  }
  self->Established();
}

void OutboundLink::Established() {
  if (uv_read_start(reinterpret_cast<uv_stream_t*>(&tcp_), OnAlloc, OnRead) != 0) {
    Fail();
    return;
  }
  if (!reported_) {
    reported_ = true;
    handler_->OnLinkConnected();  // may close the link
  }
  WritePending();
}

void OutboundLink::Recheck() {
  if (closing_ || !connected_) return;
  bool cut = PartitionedNow();
  if (cut && !held_) {
    held_ = true;
    uv_read_stop(reinterpret_cast<uv_stream_t*>(&tcp_));  // bytes wait in the kernel
  } else if (!cut && held_) {
    held_ = false;
    Established();
  }
}

void OutboundLink::OnAlloc(uv_handle_t* handle, size_t, uv_buf_t* buf) {
  auto* self = static_cast<OutboundLink*>(handle->data);
  buf->base = self->read_buf_;
  buf->len = sizeof(self->read_buf_);
}

void OutboundLink::OnRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
  auto* self = static_cast<OutboundLink*>(stream->data);
  if (self->closing_) return;
  if (nread < 0) {
    self->Fail();
    return;
  }
  if (nread > 0)
    self->handler_->OnLinkData(std::string_view(buf->base, static_cast<size_t>(nread)));
}

void OutboundLink::Write(std::string_view bytes) {
  if (closing_) return;
  pending_.append(bytes);
  WritePending();
}

void OutboundLink::WritePending() {
  if (write_in_flight_ || pending_.empty() || closing_ || !connected_ || held_) return;
  uv_buf_t buf = uv_buf_init(pending_.data(), static_cast<unsigned>(pending_.size()));
  int written = uv_try_write(reinterpret_cast<uv_stream_t*>(&tcp_), &buf, 1);
  if (written == UV_EAGAIN) written = 0;
  if (written < 0) {
    Fail();
    return;
  }
  pending_.erase(0, static_cast<size_t>(written));
  if (pending_.empty()) return;
  writing_.swap(pending_);
  pending_.clear();
  buf = uv_buf_init(writing_.data(), static_cast<unsigned>(writing_.size()));
  if (uv_write(&write_req_, reinterpret_cast<uv_stream_t*>(&tcp_), &buf, 1, OnWrite) != 0) {
    Fail();
    return;
  }
  write_in_flight_ = true;
}

void OutboundLink::OnWrite(uv_write_t* req, int status) {
  auto* self = static_cast<OutboundLink*>(req->data);
  self->write_in_flight_ = false;
  self->writing_.clear();
  if (self->closing_) return;
  if (status < 0) {
    self->Fail();
    return;
  }
  self->WritePending();
}

std::string OutboundLink::LocalIp() const {
  if (!connected_ || closing_) return {};
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

void OutboundLink::Fail() {
  if (closing_) return;
  replication::LinkHandler* handler = handler_;
  Close();
  if (handler != nullptr) handler->OnLinkClosed();
}

void OutboundLink::Close() {
  if (closing_) return;
  closing_ = true;
  handler_ = nullptr;
  if (local_port_ > 0 && own_port_ > 0) UnregisterLinkPort(local_port_);
  if (connected_) uv_read_stop(reinterpret_cast<uv_stream_t*>(&tcp_));
  // A pending connect or write is cancelled; their callbacks run before OnClosed.
  uv_close(reinterpret_cast<uv_handle_t*>(&tcp_), OnClosed);
}

void OutboundLink::OnClosed(uv_handle_t* handle) {
  auto* self = static_cast<OutboundLink*>(handle->data);
  {
    std::lock_guard lock(links_mu);
    auto [begin, end] = Links().equal_range(self->loop_);
    for (auto it = begin; it != end; ++it) {
      if (it->second == self) {
        Links().erase(it);
        break;
      }
    }
  }
  delete self;
}

}  // namespace redlab::server::net
