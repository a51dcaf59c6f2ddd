// A node's listening socket: accepts connections (refusing them past maxclients, as Redis does)
// and keeps track of the live ones so the node can close them all on shutdown or crash.
#pragma once

#include <uv.h>

#include <functional>
#include <string>
#include <unordered_set>

#include "server/engine/engine.h"
#include "server/fault/fault.h"

namespace redlab::server::net {

class Connection;

class Listener {
 public:
  // `reply_faults` (may be null): the node's reply-path faults, given to every connection.
  Listener(uv_loop_t* loop, engine::Engine* engine, fault::ReplyFaults* reply_faults = nullptr);
  ~Listener();

  // Binds and listens; returns a libuv error code (0 on success).
  int Listen(const std::string& host, int port, int backlog);
  int port() const { return port_; }

  // Stops accepting and closes every connection; `done` runs once all handles are closed.
  void CloseAll(std::function<void()> done);

  void Forget(Connection* connection);

  // Reads and serves pending input of every connection without returning to the event loop
  // (which is blocked by the command running now); see EngineHost::ProcessEventsWhileBlocked.
  void ProcessEventsWhileBlocked();
  size_t size() const { return connections_.size(); }

 private:
  static void OnConnection(uv_stream_t* server, int status);
  // Takes a socket accepted outside libuv (while the loop is blocked): refuses it past
  // maxclients, else starts a Connection on it.
  void AdoptSocket(int fd);
  static void OnListenerClosed(uv_handle_t* handle);
  void MaybeDone();

  uv_loop_t* loop_;
  engine::Engine* engine_;
  fault::ReplyFaults* reply_faults_;
  uv_tcp_t server_;
  bool listening_ = false;
  bool server_open_ = false;
  int port_ = 0;
  std::unordered_set<Connection*> connections_;
  std::function<void()> on_closed_;
  bool closing_ = false;
  bool serving_while_blocked_ = false;
};

}  // namespace redlab::server::net
