// A blocking RESP client for the conformance suite: sends commands (or raw bytes) over a real
// TCP socket and reads replies, parsed or as the exact bytes the server sent.
#pragma once

#include <chrono>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/harness/reply.h"

namespace redlab::conformance {

class Client {
 public:
  explicit Client(int port, std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // A connection to `ipv4`:`port` (the one-port form connects to 127.0.0.1).
  Client(const std::string& ipv4, int port,
         std::chrono::milliseconds timeout = std::chrono::seconds(10));
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;
  Client(Client&& other) noexcept;

  // Sends one command (as a RESP multibulk request) and returns its parsed reply.
  Reply Call(const std::vector<std::string>& args);
  Reply operator()(std::initializer_list<std::string_view> args);
  // Sends one command and returns the reply's exact bytes.
  std::string Raw(const std::vector<std::string>& args);
  std::string Raw(std::initializer_list<std::string_view> args);

  // Low level: write bytes as they are, read one reply (parsed or raw).
  void Send(std::string_view bytes);
  void SendCommand(const std::vector<std::string>& args);
  Reply Read();
  std::string ReadRaw();
  // Unframed bytes (a replication snapshot): a line without its "\r\n" (or "\n"), or exactly
  // `n` bytes.
  std::string ReadLine();
  std::string ReadExact(size_t n);
  // Whether bytes are waiting to be read, or arrive within `within`.
  bool Readable(std::chrono::milliseconds within);
  // Everything up to and including `mark` (a diskless snapshot's end).
  std::string ReadThrough(std::string_view mark);

  // True when the server has closed the connection (waits up to `timeout` for the close and
  // fails if bytes arrive instead).
  bool WaitClosed(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // Everything the server sent until it closed the connection.
  std::string ReadUntilClosed(std::chrono::milliseconds timeout = std::chrono::seconds(5));

  static std::string Encode(const std::vector<std::string>& args);

 private:
  size_t FillUntil(std::chrono::steady_clock::time_point deadline);  // reads more bytes; 0 on EOF

  int fd_ = -1;
  std::chrono::milliseconds timeout_;
  std::string buffer_;
};

}  // namespace redlab::conformance
