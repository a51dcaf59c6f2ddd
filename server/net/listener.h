// A node's listening sockets (one per `bind` address, and the `unixsocket`): accept connections
// (refusing them past maxclients, and non-loopback ones in protected mode, as Redis does) and
// keep track of the live ones so the node can close them all on shutdown or crash.
#pragma once

#include <uv.h>

#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "server/engine/core/engine.h"
#include "server/fault/fault.h"

namespace redlab::server::net {

class Connection;

// Redis's default `bind`: every IPv4 interface, and every IPv6 one where the machine has IPv6.
inline constexpr char kDefaultBind[] = "* -::*";

// The address a client on this machine reaches a node bound to `bind` at: its first address,
// or loopback for a wildcard ("* -::*" -> 127.0.0.1, "::" -> ::1).
std::string LocalAddressOf(const std::string& bind);

class Listener {
 public:
  // `reply_faults` (may be null): the node's reply-path faults, given to every connection.
  Listener(uv_loop_t* loop, engine::Engine* engine, fault::ReplyFaults* reply_faults = nullptr);
  ~Listener();

  // Binds and listens on every address of `bind` (Redis's list: one space between addresses,
  // "*" for every IPv4 address, "::*" for every IPv6 one, a leading "-" for an address that may
  // be missing; empty: none); returns a libuv error code (0 on success; on failure nothing is
  // left listening).
  int Listen(const std::string& bind, int port, int backlog);
  // CONFIG SET bind/port: closes the listening sockets (connections stay) and listens anew, as
  // Redis's changeBindAddr; port 0 listens nowhere. On failure nothing listens.
  int Rebind(const std::string& bind, int port, int backlog);
  int port() const { return port_; }
  // unixsocket: listens on a unix socket at `path` too (a file left there is removed first, as
  // Redis does), with the permissions `perm` when not 0 (unixsocketperm); a libuv error code.
  // CloseAll removes the file.
  int ListenUnix(const std::string& path, int perm, int backlog);

  // Stops accepting and closes every connection; `done` runs once all handles are closed.
  void CloseAll(std::function<void()> done);

  void Forget(Connection* connection);

  // Reads and serves pending input of every connection without returning to the event loop
  // (which is blocked by the command running now); see EngineHost::ProcessEventsWhileBlocked.
  void ProcessEventsWhileBlocked();
  size_t size() const { return connections_.size(); }

  // For a stall's wait (StallWaiter): the listening sockets' descriptors, and those of the
  // connections with no partial request buffered (their next bytes begin a request), optionally
  // only authenticated clients'.
  std::vector<int> ListeningFds() const;
  std::vector<int> IdleConnectionFds(bool authenticated_only) const;
  // Takes a socket accepted outside libuv (while the loop was blocked): refuses it past
  // maxclients, else starts a Connection on it.
  void Adopt(int fd) { AdoptSocket(fd); }
  // FAULT PARTITION changed: every connection re-checks whether its peer is cut off.
  void RecheckPartition();

 private:
  static void OnConnection(uv_stream_t* server, int status);
  static void OnUnixConnection(uv_stream_t* server, int status);
  static void OnUnixSocketClosed(uv_handle_t* handle);
  // Past maxclients: sends Redis's error on `stream` and counts the refusal; true if refused.
  bool RefusedAtClientLimit(uv_stream_t* stream);
  // Takes a socket accepted outside libuv (while the loop is blocked): refuses it past
  // maxclients, else starts a Connection on it.
  void AdoptSocket(int fd);
  // protected-mode (Redis's clientAcceptHandler): with it on and the default user without a
  // password, a client whose address is not the loopback's is sent Redis's DENIED error and
  // refused (counted in rejected_connections). Returns whether socket `fd` was refused.
  bool DeniedByProtectedMode(int fd);
  static void OnSocketClosed(uv_handle_t* handle);
  int ListenOn(std::string address, int port, int backlog);
  void CloseSockets();
  void MaybeDone();

  uv_loop_t* loop_;
  engine::Engine* engine_;
  fault::ReplyFaults* reply_faults_;
  std::vector<uv_tcp_t*> sockets_;
  uv_pipe_t* unix_socket_ = nullptr;  // listening at unix_path_, when configured
  std::string unix_path_;
  int closing_sockets_ = 0;  // closed, their close callbacks not yet run
  int port_ = 0;
  std::unordered_set<Connection*> connections_;
  std::function<void()> on_closed_;
  bool closing_ = false;
  bool serving_while_blocked_ = false;
};

}  // namespace redlab::server::net
