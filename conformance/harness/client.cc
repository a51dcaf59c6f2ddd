#include "conformance/harness/client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace redlab::conformance {

Client::Client(int port, std::chrono::milliseconds timeout) : Client("127.0.0.1", port, timeout) {}

Client::Client(const std::string& ipv4, int port, std::chrono::milliseconds timeout)
    : timeout_(timeout) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, ipv4.c_str(), &addr.sin_addr) != 1) {
    throw std::runtime_error("not an IPv4 address: " + ipv4);
  }
  fd_ = socket(AF_INET, SOCK_STREAM, 0);
  if (fd_ < 0) throw std::runtime_error("socket: " + std::string(strerror(errno)));
  if (connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    int e = errno;
    close(fd_);
    fd_ = -1;
    throw std::runtime_error("connect to port " + std::to_string(port) + ": " + strerror(e));
  }
  int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

Client::~Client() {
  if (fd_ >= 0) close(fd_);
}

Client::Client(Client&& other) noexcept
    : fd_(other.fd_), timeout_(other.timeout_), buffer_(std::move(other.buffer_)) {
  other.fd_ = -1;
}

std::string Client::Encode(const std::vector<std::string>& args) {
  std::string out = "*" + std::to_string(args.size()) + "\r\n";
  for (const auto& a : args) {
    out += "$" + std::to_string(a.size()) + "\r\n";
    out += a;
    out += "\r\n";
  }
  return out;
}

void Client::Send(std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("send: " + std::string(strerror(errno)));
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

void Client::SendCommand(const std::vector<std::string>& args) { Send(Encode(args)); }

size_t Client::FillUntil(std::chrono::steady_clock::time_point deadline) {
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) throw std::runtime_error("timed out waiting for the server");
    pollfd p{fd_, POLLIN, 0};
    int rc = poll(&p, 1, static_cast<int>(left.count()));
    if (rc < 0 && errno == EINTR) continue;
    if (rc <= 0) continue;
    char buf[65536];
    ssize_t n = recv(fd_, buf, sizeof(buf), 0);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      if (errno == ECONNRESET) return 0;
      throw std::runtime_error("recv: " + std::string(strerror(errno)));
    }
    buffer_.append(buf, static_cast<size_t>(n));
    return static_cast<size_t>(n);
  }
}

std::string Client::ReadRaw() {
  auto deadline = std::chrono::steady_clock::now() + timeout_;
  while (true) {
    Reply r;
    if (auto used = ReplyReader::Parse(buffer_, &r)) {
      std::string raw = buffer_.substr(0, *used);
      buffer_.erase(0, *used);
      return raw;
    }
    if (FillUntil(deadline) == 0) throw std::runtime_error("connection closed by the server");
  }
}

std::string Client::ReadLine() {
  auto deadline = std::chrono::steady_clock::now() + timeout_;
  size_t end;
  while ((end = buffer_.find('\n')) == std::string::npos) {
    if (FillUntil(deadline) == 0) throw std::runtime_error("connection closed by the server");
  }
  std::string line = buffer_.substr(0, end > 0 && buffer_[end - 1] == '\r' ? end - 1 : end);
  buffer_.erase(0, end + 1);
  return line;
}

std::string Client::ReadExact(size_t n) {
  auto deadline = std::chrono::steady_clock::now() + timeout_;
  while (buffer_.size() < n) {
    if (FillUntil(deadline) == 0) throw std::runtime_error("connection closed by the server");
  }
  std::string bytes = buffer_.substr(0, n);
  buffer_.erase(0, n);
  return bytes;
}

bool Client::Readable(std::chrono::milliseconds within) {
  if (!buffer_.empty()) return true;
  pollfd p{fd_, POLLIN, 0};
  int rc;
  do {
    rc = poll(&p, 1, static_cast<int>(within.count()));
  } while (rc < 0 && errno == EINTR);
  return rc > 0;
}

std::string Client::ReadThrough(std::string_view mark) {
  auto deadline = std::chrono::steady_clock::now() + timeout_;
  size_t pos;
  while ((pos = buffer_.find(mark)) == std::string::npos) {
    if (FillUntil(deadline) == 0) throw std::runtime_error("connection closed by the server");
  }
  std::string out = buffer_.substr(0, pos + mark.size());
  buffer_.erase(0, pos + mark.size());
  return out;
}

Reply Client::Read() {
  std::string raw = ReadRaw();
  Reply r;
  ReplyReader::Parse(raw, &r);
  return r;
}

Reply Client::Call(const std::vector<std::string>& args) {
  SendCommand(args);
  return Read();
}

Reply Client::operator()(std::initializer_list<std::string_view> args) {
  return Call(std::vector<std::string>(args.begin(), args.end()));
}

std::string Client::Raw(const std::vector<std::string>& args) {
  SendCommand(args);
  return ReadRaw();
}

std::string Client::Raw(std::initializer_list<std::string_view> args) {
  return Raw(std::vector<std::string>(args.begin(), args.end()));
}

std::string Client::ReadUntilClosed(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (FillUntil(deadline) > 0) {
  }
  std::string all = std::move(buffer_);
  buffer_.clear();
  return all;
}

bool Client::WaitClosed(std::chrono::milliseconds timeout) {
  try {
    return ReadUntilClosed(timeout).empty();
  } catch (const std::runtime_error&) {
    return false;
  }
}

}  // namespace redlab::conformance
