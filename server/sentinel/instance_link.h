// Sentinel's link to a monitored instance (Redis's instanceLink in sentinel.c, over hiredis's
// async context there): commands over the node's outbound connection (net::OutboundLink, the
// one a replica's link to its master uses too), each reply handed, in order, to the callback
// given with its command; a subscribed link hands the messages it receives to the message
// callback.
#pragma once

#include <uv.h>

#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "server/net/outbound_link.h"

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

class InstanceLink final : private replication::LinkHandler {
 public:
  using ReplyFn = std::function<void(const Reply&)>;
  struct Events {
    std::function<void()> on_closed;  // after a failure or the peer's close (not after Close())
    std::function<void(const Reply&)> on_push;  // replies no command waits for (pub/sub)
  };
  // Starts connecting, from the sentinel node listening on `own_port` (FAULT PARTITION between
  // it and the instance holds the link's traffic); nullptr when the address cannot be used.
  static InstanceLink* Start(uv_loop_t* loop, const std::string& host, int port, int own_port,
                             Events events);

  // Sends a command (once connected); `done` gets its reply (or a reply of type 0 when the link
  // closes first).
  void Send(const std::vector<std::string>& args, ReplyFn done);
  size_t pending() const { return callbacks_.size(); }
  // The local address of the connection ("" before it is connected): a hello's own ip.
  std::string LocalIp() const { return io_ == nullptr ? std::string() : io_->LocalIp(); }
  // Closes the link; no callback runs after this, and the link is freed.
  void Close();

 private:
  explicit InstanceLink(Events events) : events_(std::move(events)) {}
  ~InstanceLink() override = default;

  void OnLinkConnected() override {}
  void OnLinkData(std::string_view bytes) override;
  void OnLinkClosed() override;

  void Fail();
  void Consume();
  // Frees the link once closed, unless one of its callbacks is still running (it is freed when
  // that returns).
  void ReleaseIfDone();

  Events events_;
  net::OutboundLink* io_ = nullptr;  // frees itself
  bool closing_ = false;
  int in_callbacks_ = 0;
  std::string input_;
  std::deque<ReplyFn> callbacks_;
};

}  // namespace redlab::server::sentinel
