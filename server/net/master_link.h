// A replica's TCP connection to its master, on the node's loop: connects, hands what it reads to
// the replication layer (LinkHandler) and writes what that layer sends. It owns its libuv handle
// and frees itself once the handle is closed (after Close(), or after it reported the link
// closed).
#pragma once

#include <uv.h>

#include <string>
#include <string_view>

#include "server/replication/replication.h"

namespace redlab::server::net {

class MasterLink final : public replication::LinkIo {
 public:
  // Starts connecting; nullptr when the address cannot be resolved or the socket not made.
  // `own_port` is the port of the node making the link (for FAULT PARTITION: net/partition.h).
  static MasterLink* Start(uv_loop_t* loop, const std::string& host, int port,
                           replication::LinkHandler* handler, int own_port = 0);
  // FAULT PARTITION changed: every link of `loop` holds or releases its traffic (on the loop's
  // thread).
  static void RecheckPartition(uv_loop_t* loop);

  void Write(std::string_view bytes) override;
  void Close() override;

 private:
  MasterLink(replication::LinkHandler* handler) : handler_(handler) {}
  ~MasterLink() override = default;

  bool PartitionedNow() const;
  // Across a partition a connect does not complete and nothing is read or written; once it
  // heals, the connection is reported made (if it was not) and the held bytes flow.
  void Recheck();
  void Established();  // the connection is made and not held: read, and tell the handler

  static void OnConnect(uv_connect_t* req, int status);
  static void OnAlloc(uv_handle_t* handle, size_t suggested, uv_buf_t* buf);
  static void OnRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf);
  static void OnWrite(uv_write_t* req, int status);
  static void OnClosed(uv_handle_t* handle);

  void Fail();  // reports the link closed, then closes
  void WritePending();

  replication::LinkHandler* handler_;
  uv_tcp_t tcp_;
  uv_connect_t connect_req_;
  uv_write_t write_req_;
  bool connected_ = false;
  bool reported_ = false;  // OnLinkConnected was called
  bool held_ = false;      // FAULT PARTITION holds the traffic
  uv_loop_t* loop_ = nullptr;
  int own_port_ = 0, master_port_ = 0, local_port_ = 0;
  bool closing_ = false;
  bool write_in_flight_ = false;
  std::string pending_;  // waiting for the write in flight
  std::string writing_;  // the write in flight; lives until OnWrite
  char read_buf_[64 * 1024];
};

}  // namespace redlab::server::net
