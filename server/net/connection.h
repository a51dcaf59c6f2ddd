// One client connection: reads bytes from its socket, feeds them to the request parser, runs
// each request on the engine and writes the replies back. It owns its libuv handle and frees
// itself in the handle's close callback, as libuv requires.
#pragma once

#include <uv.h>

#include <cstdint>
#include <deque>
#include <string>

#include "server/engine/core/client.h"
#include "server/engine/core/engine.h"
#include "server/fault/fault.h"
#include "server/net/query_buffer.h"
#include "server/resp/arg_list.h"
#include "server/resp/parser.h"

namespace redlab::server::net {

class Listener;

class Connection final : public engine::ClientIo {
 public:
  // Takes an accepted socket; starts reading. `faults` (may be null) are the node's reply-path
  // faults, applied to every reply but a replica's stream. With a `unix_path` the connection
  // came through that unix socket (pipe()), otherwise over TCP (tcp()).
  Connection(Listener* listener, engine::Engine* engine, fault::ReplyFaults* faults = nullptr,
             std::string unix_path = "");
  uv_tcp_t* tcp() { return &handle_.tcp; }
  uv_pipe_t* pipe() { return &handle_.pipe; }
  void Start();

  // Closes the socket and, once libuv is done with it, destroys the connection.
  void Close();
  bool closing() const { return closing_; }
  bool authenticated() const { return client_ != nullptr && client_->authenticated(); }

  // Sends whatever the engine has put in the client's reply buffer.
  void Flush();

  // FAULT PARTITION changed (or may have): a connection from a node of the process on the other
  // side of the partition holds its traffic (nothing read or written) until it heals.
  void RecheckPartition();

  // Reads what the socket holds now and serves it, outside the event loop's callbacks: used
  // while another client's command blocks the loop (Listener::ProcessEventsWhileBlocked).
  // Does nothing for the connection whose command is running.
  void ReadAndServeNow();

  // ClientIo
  std::string_view PeerAddress() const override { return peer_; }
  std::string_view LocalAddress() const override { return local_; }
  bool UnixSocket() const override { return unix_socket(); }
  int Fd() const override;
  void RequestFlush() override { Flush(); }
  void CloseAsap() override { Close(); }
  void ResumeInput() override;
  void PushWritten(size_t from) override;
  // As Redis's sdslen(querybuf): requests already served in this pass still count, since Redis
  // trims its buffer only once the pass is over.
  size_t QueryBufferLength() const override { return query_.size() + served_in_pass_; }
  size_t QueryBufferFree() const override { return query_.free_space(); }
  size_t PendingOutputBytes() const override;

 private:
  bool unix_socket() const { return !unix_path_.empty(); }
  uv_stream_t* stream() { return reinterpret_cast<uv_stream_t*>(&handle_); }
  static void OnAlloc(uv_handle_t* handle, size_t suggested, uv_buf_t* buf);
  static void OnRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf);
  static void OnWrite(uv_write_t* req, int status);
  static void OnClose(uv_handle_t* handle);

  void ProcessInput();
  void ProtocolError(const std::string& message);
  void FinishIfDone();
  // Writes `out` (the reply buffer, or ready_) now or asynchronously.
  void WriteOut(std::string& out);
  // Reply faults: whether replies go through delayed_, and the release of those due.
  bool ShapingReplies() const;
  void ReleaseDueReplies();
  // The reply-fault rule that applies to this client now (null: none).
  fault::ReplyRule* Rule() const;
  // FAULT REPLY DROP: loses the reply bytes from `from` on, with the configured probability
  // (a reply to the client's `own_command`, or a push).
  void MaybeDropReply(size_t from, bool own_command);
  static void OnDelayTimer(uv_timer_t* timer);
  static void OnTimerClosed(uv_handle_t* handle);

  Listener* listener_;
  engine::Engine* engine_;
  fault::ReplyFaults* faults_;
  struct DelayedReply {
    uint64_t due_ms;  // loop time
    std::string bytes;
  };
  std::deque<DelayedReply> delayed_;  // replies held by FAULT REPLY DELAY, oldest first
  std::string ready_;                 // replies released from delayed_, not yet written
  uv_timer_t delay_timer_;
  bool timer_open_ = false;
  int handles_open_ = 0;  // the connection is freed when both handles are closed
  engine::Client* client_ = nullptr;
  union {
    uv_tcp_t tcp;
    uv_pipe_t pipe;
  } handle_;
  std::string unix_path_;  // the unix socket it came through; empty for TCP
  uv_write_t write_req_;
  QueryBuffer query_;
  size_t served_in_pass_ = 0;  // bytes parsed by the ProcessInput pass under way
  resp::RequestParser parser_;
  resp::ArgList args_;
  std::string writing_;  // the bytes of the write in flight; must live until OnWrite
  bool write_in_flight_ = false;
  bool reading_ = false;
  bool closing_ = false;
  bool executing_ = false;       // inside engine_->Execute for this connection
  bool partition_held_ = false;  // FAULT PARTITION: the peer node is on the other side
  std::string peer_, local_;
};

}  // namespace redlab::server::net
