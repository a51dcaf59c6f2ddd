// Sentinel's link to a monitored instance (Redis's instanceLink in sentinel.c, over hiredis's
// async context there): one TCP connection on the node's loop that sends commands and hands
// each reply, in order, to the callback given with its command; a subscribed link hands the
// messages it receives to the message callback. It owns its libuv handle and frees itself once
// the handle is closed.
#pragma once

#include <uv.h>

#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace redlab::server::sentinel {

// A parsed RESP2 reply.
struct Reply {
  char type = 0;    // '+', '-', ':', '$', '*'; 0: none (the link closed before it came)
  std::string str;  // status, error (without '-'), bulk; "" for a null
  int64_t integer = 0;
  bool null = false;
  std::vector<Reply> elements;
};

// Parses one RESP2 reply from `in`; returns the bytes it took, 0 when incomplete, -1 when the
// bytes are not RESP.
long ParseReply(std::string_view in, Reply* out);

class InstanceLink {
 public:
  using ReplyFn = std::function<void(const Reply&)>;
  struct Events {
    std::function<void()> on_connected;
    std::function<void()> on_closed;  // after a failure or the peer's close (not after Close())
    std::function<void(const Reply&)> on_push;  // replies no command waits for (pub/sub)
  };
  // Starts connecting; nullptr when the address cannot be used.
  static InstanceLink* Start(uv_loop_t* loop, const std::string& host, int port, Events events);

  // Sends a command; `done` gets its reply (or a reply of type 0 when the link closes first).
  void Send(const std::vector<std::string>& args, ReplyFn done);
  size_t pending() const { return callbacks_.size(); }
  bool connected() const { return connected_; }
  // The local address of the connection ("" before it is connected): a hello's own ip.
  std::string LocalIp() const;
  // Closes the link; no callback runs after this.
  void Close();

 private:
  explicit InstanceLink(Events events) : events_(std::move(events)) {}
  ~InstanceLink() = default;

  static void OnConnect(uv_connect_t* req, int status);
  static void OnAlloc(uv_handle_t* handle, size_t suggested, uv_buf_t* buf);
  static void OnRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf);
  static void OnWrite(uv_write_t* req, int status);
  static void OnClosed(uv_handle_t* handle);

  void Fail();
  void Flush();
  void Consume();

  Events events_;
  uv_tcp_t tcp_;
  uv_connect_t connect_req_;
  bool connected_ = false;
  bool closing_ = false;
  std::string pending_out_;  // written once connected
  std::string input_;
  std::deque<ReplyFn> callbacks_;
  char read_buf_[16 * 1024];
};

}  // namespace redlab::server::sentinel
