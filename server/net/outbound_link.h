// A node's outbound TCP connection to another node (Redis's connectWithMaster for a replica's
// link to its master; hiredis's redisAsyncConnect for Sentinel's instanceLink in sentinel.c):
// one class for both, on the node's loop. It connects, hands what it reads to its handler
// (replication::LinkHandler) and writes what it is given (bytes written before the connection is
// made wait for it). It honours FAULT PARTITION (net/partition.h) between the node that makes
// it and the node it reaches: across a partition a connect does not complete and nothing is read
// or written; once healed, the connection is reported made (if it was not) and the held bytes
// flow, in order. It owns its libuv handle and frees itself once the handle is closed (after
// Close(), or after it reported the link closed).
#pragma once

#include <uv.h>

#include <string>
#include <string_view>

#include "server/replication/replication.h"

namespace redlab::server::net {

class OutboundLink final : public replication::LinkIo {
 public:
  // Starts connecting; nullptr when the address cannot be resolved or the socket not made (the
  // handler then hears nothing). `own_port` is the port of the node making the link (0: none,
  // no partition applies). A `source_addr` (bind-source-addr) is bound before connecting, best
  // effort as Redis's anetTcpNonBlockBestEffortBindConnect: when it cannot be, the system picks.
  static OutboundLink* Start(uv_loop_t* loop, const std::string& host, int port,
                             replication::LinkHandler* handler, int own_port,
                             const std::string& source_addr = "");
  // FAULT PARTITION changed: every link of `loop` holds or releases its traffic (on the loop's
  // thread).
  static void RecheckPartition(uv_loop_t* loop);

  void Write(std::string_view bytes) override;
  // Closes the connection; the handler is called no more.
  void Close() override;
  // The local address of the connection ("" before the TCP connection is made).
  std::string LocalIp() const;
  // The connection is made and the handler was told (not held by a partition since).
  bool established() const { return reported_ && !held_ && !closing_; }

 private:
  explicit OutboundLink(replication::LinkHandler* handler) : handler_(handler) {}
  ~OutboundLink() override = default;

  bool PartitionedNow() const;
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
  bool connected_ = false;  // the TCP connection is made
  bool reported_ = false;   // OnLinkConnected was called
  bool held_ = false;       // FAULT PARTITION holds the traffic
  uv_loop_t* loop_ = nullptr;
  int own_port_ = 0, peer_port_ = 0, local_port_ = 0;
  bool closing_ = false;
  bool write_in_flight_ = false;
  std::string pending_;  // waiting for the connection, the partition or the write in flight
  std::string writing_;  // the write in flight; lives until OnWrite
  char read_buf_[64 * 1024];
};

}  // namespace redlab::server::net
