#include "server/net/master_link.h"

#include <netdb.h>

#include <cstring>

namespace redlab::server::net {
namespace {

// Resolves host:port for connect; false when it cannot.
bool Resolve(uv_loop_t* loop, const std::string& host, int port, sockaddr_storage* out) {
  std::string name = host == "localhost" ? "127.0.0.1" : host;
  if (uv_ip4_addr(name.c_str(), port, reinterpret_cast<sockaddr_in*>(out)) == 0) return true;
  if (uv_ip6_addr(name.c_str(), port, reinterpret_cast<sockaddr_in6*>(out)) == 0) return true;
  // A host name: resolved synchronously (rare; replicas are usually given addresses).
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

}  // namespace

MasterLink* MasterLink::Start(uv_loop_t* loop, const std::string& host, int port,
                              replication::LinkHandler* handler) {
  sockaddr_storage addr{};
  if (!Resolve(loop, host, port, &addr)) return nullptr;
  auto* link = new MasterLink(handler);
  link->tcp_.data = link;
  link->connect_req_.data = link;
  link->write_req_.data = link;
  if (uv_tcp_init(loop, &link->tcp_) != 0) {
    delete link;
    return nullptr;
  }
  uv_tcp_nodelay(&link->tcp_, 1);
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

void MasterLink::OnConnect(uv_connect_t* req, int status) {
  auto* self = static_cast<MasterLink*>(req->data);
  if (self->closing_) return;
  if (status != 0) {
    self->Fail();
    return;
  }
  self->connected_ = true;
  if (uv_read_start(reinterpret_cast<uv_stream_t*>(&self->tcp_), OnAlloc, OnRead) != 0) {
    self->Fail();
    return;
  }
  self->handler_->OnLinkConnected();
}

void MasterLink::OnAlloc(uv_handle_t* handle, size_t, uv_buf_t* buf) {
  auto* self = static_cast<MasterLink*>(handle->data);
  buf->base = self->read_buf_;
  buf->len = sizeof(self->read_buf_);
}

void MasterLink::OnRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
  auto* self = static_cast<MasterLink*>(stream->data);
  if (self->closing_) return;
  if (nread < 0) {
    self->Fail();
    return;
  }
  if (nread > 0)
    self->handler_->OnLinkData(std::string_view(buf->base, static_cast<size_t>(nread)));
}

void MasterLink::Write(std::string_view bytes) {
  if (closing_ || !connected_) return;
  pending_.append(bytes);
  WritePending();
}

void MasterLink::WritePending() {
  if (write_in_flight_ || pending_.empty() || closing_) return;
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

void MasterLink::OnWrite(uv_write_t* req, int status) {
  auto* self = static_cast<MasterLink*>(req->data);
  self->write_in_flight_ = false;
  self->writing_.clear();
  if (self->closing_) return;
  if (status < 0) {
    self->Fail();
    return;
  }
  self->WritePending();
}

void MasterLink::Fail() {
  if (closing_) return;
  replication::LinkHandler* handler = handler_;
  Close();
  if (handler != nullptr) handler->OnLinkClosed();
}

void MasterLink::Close() {
  if (closing_) return;
  closing_ = true;
  handler_ = nullptr;
  if (connected_) uv_read_stop(reinterpret_cast<uv_stream_t*>(&tcp_));
  // A pending connect or write is cancelled; their callbacks run before OnClosed.
  uv_close(reinterpret_cast<uv_handle_t*>(&tcp_), OnClosed);
}

void MasterLink::OnClosed(uv_handle_t* handle) { delete static_cast<MasterLink*>(handle->data); }

}  // namespace redlab::server::net
