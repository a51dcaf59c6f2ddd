// The fault proxy's insides, shared by its forwarding (fault_proxy.cc) and its control port
// (proxy_control.cc). Everything here runs on the proxy's loop thread unless said otherwise.
#pragma once

#include <sys/socket.h>
#include <uv.h>

#include <array>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "server/resp/parser.h"
#include "tools/proxy/fault_proxy.h"
#include "tools/proxy/toxics.h"

namespace redlab::tools {

class FaultProxy::Impl {
 public:
  explicit Impl(const ProxyOptions& options) : options_(options) {}

  void Start();  // caller's thread; throws std::runtime_error
  void Stop();   // caller's thread
  // Runs `fn` on the proxy's loop and waits for it (caller's thread).
  void RunOnLoop(std::function<void()> fn);

  int port() const { return port_; }
  int control_port() const { return control_port_; }

  // ---- Faults ----
  void SetHold(bool hold);
  void SetCut(bool cut);
  void DropAll() { CloseAll(); }
  void ResetFaults();
  void SetBufferLimit(size_t bytes);
  // conn 0: every connection; false when that connection does not exist.
  bool SetToxics(Direction d, const Toxics& toxics, uint64_t conn);
  bool GetToxics(Direction d, uint64_t conn, Toxics* out) const;
  std::vector<uint64_t> ConnectionIds() const;
  std::string StatusText() const;
  // A control command's RESP reply (proxy_control.cc).
  std::string ControlCommand(const std::vector<std::string_view>& args);

 private:
  // One direction of a proxied connection: read from `from`, written to `to`.
  struct Stream {
    Direction dir;
    uv_tcp_t* from = nullptr;
    uv_tcp_t* to = nullptr;
    StreamQueue queue;
    bool reading = false;  // uv_read_start is in effect on `from`
    bool eof = false;      // the sender half-closed
    double eof_at = 0;
    bool shut = false;           // the half-close was passed on (uv_shutdown of `to`)
    bool shut_done = false;      // ...and sent
    bool limit_reached = false;  // limit_data: close once what was let through is written
    double timeout_since = -1;   // the timeout toxic's start on this stream
    double reset_at = -1;        // reset_peer: when the connection is reset
    uint64_t accepted = 0;       // bytes read from the sender and let in
    uint64_t dropped = 0;        // bytes read and lost (timeout, reset_peer, limit_data)
    uint64_t forwarded = 0;      // bytes written to the receiver
    uint64_t writes = 0;         // writes made to the receiver
    size_t in_flight = 0;        // bytes written and not yet taken by the kernel
    uv_shutdown_t shutdown_req;
    explicit Stream(Direction d, uint64_t seed) : dir(d), queue(seed) {}
  };

  // One proxied connection.
  struct Pipe {
    Impl* proxy;
    uint64_t id;
    std::string peer;
    uv_tcp_t client;
    uv_tcp_t server;
    uv_connect_t connect_req;
    bool server_connected = false;
    bool closing = false;
    int open_handles = 0;
    Stream up{Direction::kUpstream, 0};
    Stream down{Direction::kDownstream, 0};
    Toxics toxics[2];  // this connection's own, by Direction
    // Its draws against the proxy-wide toxics' toxicity, by Direction and toxic type.
    std::array<double, Toxics::kTypes> draws[2];
    std::string before_connect;  // client bytes due before the target connection is up
    char buf[64 * 1024];
    Stream& stream(Direction d) { return d == Direction::kUpstream ? up : down; }
  };

  // A connection to the control port.
  struct Control {
    Impl* proxy;
    uv_tcp_t tcp;
    std::string in;
    server::resp::RequestParser parser;
    server::resp::ArgList args;
    char buf[4096];
  };

  // A write in flight; its bytes live until libuv is done with them.
  struct WriteReq {
    uv_write_t req;
    std::string data;
    Pipe* pipe = nullptr;  // null for control replies
    Direction dir = Direction::kUpstream;
  };

  static double NowMs();
  void Run(std::promise<std::string>& ready);
  std::string Resolve(const std::string& host, int port, bool passive,
                      std::vector<sockaddr_storage>* out);
  int Listen(uv_tcp_t* tcp, int port, uv_connection_cb cb, std::string* error);
  static void OnAsync(uv_async_t* handle);
  void BeginShutdown();

  // Forwarding (fault_proxy.cc).
  static void OnAccept(uv_stream_t* server, int status);
  void ConnectTarget(Pipe* p);
  static void OnConnected(uv_connect_t* req, int status);
  static void OnAlloc(uv_handle_t* handle, size_t, uv_buf_t* buf);
  static void OnRead(uv_stream_t* s, ssize_t n, const uv_buf_t* buf);
  static void OnWritten(uv_write_t* req, int status);
  static void OnShutdown(uv_shutdown_t* req, int status);
  static void OnTimer(uv_timer_t* t);
  void Received(Pipe* p, Stream& s, std::string_view bytes);
  Toxics Effective(const Pipe* p, Direction d) const;
  // Moves what is due on one pipe; returns when it next has something to do (-1: nothing).
  double PumpPipe(Pipe* p, double now);
  void PumpAll();
  void ArmTimer(double due);
  void Write(Pipe* p, Stream& s, std::string bytes);
  void UpdateReading(Pipe* p, Stream& s);
  void ClosePipe(Pipe* p, bool reset = false);
  void CloseAll();

  // Control port (proxy_control.cc).
  static void OnControlAccept(uv_stream_t* server, int status);
  static void OnControlRead(uv_stream_t* s, ssize_t n, const uv_buf_t* buf);
  static void OnControlClosed(uv_handle_t* h);
  std::string ToxicCommand(const std::vector<std::string_view>& args);

  ProxyOptions options_;
  std::vector<sockaddr_storage> targets_;  // the target's resolved addresses, tried in order
  uv_loop_t loop_;
  uv_tcp_t listener_;
  uv_tcp_t control_;
  bool control_open_ = false;
  uv_async_t async_;
  uv_timer_t timer_;
  double timer_due_ = -1;
  std::thread thread_;
  int port_ = 0;
  int control_port_ = -1;
  bool held_ = false;
  bool cut_ = false;
  Toxics toxics_[2];  // every connection's, by Direction
  uint64_t next_id_ = 1;
  std::mt19937_64 rng_{0x70c1c17};  // the connections' toxicity draws
  std::map<uint64_t, Pipe*> pipes_;
  std::unordered_set<Control*> controls_;
  bool shutting_down_ = false;
  std::mutex mu_;
  std::deque<std::function<void()>> tasks_;
  bool stopped_ = false;
};

}  // namespace redlab::tools
