#include "server/net/sync_link.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

namespace redlab::server::net {
namespace {

using engine::SyncLink;
using Clock = std::chrono::steady_clock;

int64_t MsLeft(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() < 0 ? 0 : left.count();
}

// Waits for `events` on fd until the deadline: 1 ready, 0 timed out, -1 error.
int WaitFor(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    int n = poll(&p, 1, static_cast<int>(MsLeft(deadline)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) return 0;
    return 1;
  }
}

class PosixSyncLink : public SyncLink {
 public:
  explicit PosixSyncLink(int fd) : fd_(fd) {}
  ~PosixSyncLink() override { close(fd_); }

  Status Write(std::string_view data, int64_t timeout_ms) override {
    auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    size_t done = 0;
    while (done < data.size()) {
      ssize_t n = send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
      if (n > 0) {
        done += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        return Status::kError;
      }
      int ready = WaitFor(fd_, POLLOUT, deadline);
      if (ready == 0) return Status::kTimeout;
      if (ready < 0) return Status::kError;
    }
    return Status::kOk;
  }

  Status ReadLine(std::string* line, size_t max_length, int64_t timeout_ms) override {
    auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      size_t nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        size_t end = nl > 0 && buffer_[nl - 1] == '\r' ? nl - 1 : nl;
        line->assign(buffer_, 0, end < max_length ? end : max_length);
        buffer_.erase(0, nl + 1);
        return Status::kOk;
      }
      char chunk[4096];
      ssize_t n = recv(fd_, chunk, sizeof(chunk), 0);
      if (n > 0) {
        buffer_.append(chunk, static_cast<size_t>(n));
        continue;
      }
      if (n == 0) return Status::kError;  // closed by the peer
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return Status::kError;
      int ready = WaitFor(fd_, POLLIN, deadline);
      if (ready == 0) return Status::kTimeout;
      if (ready < 0) return Status::kError;
    }
  }

 private:
  int fd_;
  std::string buffer_;  // bytes read past the last line
};

}  // namespace

std::unique_ptr<SyncLink> ConnectSync(const std::string& host, int port, int64_t timeout_ms) {
  auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) {
    return nullptr;
  }
  // As anetTcpGenericConnect: the first address whose connect() starts is the one used. Like
  // connBlockingConnect, the link counts as made once the socket is writable, even when that
  // is because the connection was refused: the first write then fails, and Redis reports
  // "writing", not "connecting".
  std::unique_ptr<SyncLink> link;
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    if (connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
      close(fd);
      continue;
    }
    if (WaitFor(fd, POLLOUT, deadline) != 1) {
      close(fd);
      break;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    link = std::make_unique<PosixSyncLink>(fd);
    break;
  }
  freeaddrinfo(found);
  return link;
}

}  // namespace redlab::server::net
