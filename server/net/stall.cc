// FAULT STALL's wait; Redis's counterpart is DEBUG SLEEP in debug.c, which only sleeps.
#include "server/net/stall.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <unordered_set>
#include <vector>

#include "server/base/monotonic.h"
#include "server/base/text.h"
#include "server/net/listener.h"
#include "server/resp/arg_list.h"
#include "server/resp/parser.h"

namespace redlab::server::net {
namespace {

// How much of a socket's pending input is looked at for a breaking request.
constexpr size_t kPeekBytes = 16 * 1024;

// What peeking at one socket found.
enum class Peeked { kBreaker, kOther, kIncomplete };

Peeked PeekFirstRequest(int fd) {
  std::string buf(kPeekBytes, '\0');
  ssize_t n = recv(fd, buf.data(), buf.size(), MSG_PEEK | MSG_DONTWAIT);
  if (n <= 0) return n == 0 ? Peeked::kOther : Peeked::kIncomplete;  // EOF: nothing to break
  if (StallWaiter::BreaksStall(buf.data(), static_cast<size_t>(n))) return Peeked::kBreaker;
  resp::RequestParser parser;
  resp::ArgList args;
  size_t consumed = 0;
  resp::ParseStatus status =
      parser.Parse(std::string_view(buf.data(), static_cast<size_t>(n)), {}, &consumed, &args);
  return status == resp::ParseStatus::kNeedMore ? Peeked::kIncomplete : Peeked::kOther;
}

}  // namespace

StallWaiter::StallWaiter() { wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

StallWaiter::~StallWaiter() {
  if (wake_fd_ >= 0) close(wake_fd_);
}

void StallWaiter::Wake() {
  uint64_t one = 1;
  ssize_t ignored = write(wake_fd_, &one, sizeof(one));
  (void)ignored;
}

bool StallWaiter::BreaksStall(const char* data, size_t size) {
  resp::RequestParser parser;
  resp::ArgList args;
  size_t consumed = 0;
  std::string_view input(data, size);
  // Empty inline lines (a bare "\r\n") are skipped, as the connection skips them.
  while (true) {
    resp::ParseStatus status = parser.Parse(input, {}, &consumed, &args);
    if (status != resp::ParseStatus::kCommand) return false;
    input.remove_prefix(consumed);
    if (!args.empty()) break;
  }
  if (EqualsIgnoreCase(args[0], "shutdown")) return true;
  return args.size() == 2 && EqualsIgnoreCase(args[0], "fault") &&
         EqualsIgnoreCase(args[1], "reset");
}

StallWaiter::End StallWaiter::Wait(Listener& listener, int64_t ms, bool auth_required) {
  int64_t deadline = MonotonicMs() + ms;
  int ep = epoll_create1(EPOLL_CLOEXEC);
  if (ep < 0) return End::kElapsed;
  auto watch = [&](int fd, uint32_t events) {
    epoll_event ev{};
    ev.events = events;
    ev.data.fd = fd;
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
  };
  watch(wake_fd_, EPOLLIN);
  std::unordered_set<int> listening;
  for (int fd : listener.ListeningFds()) {
    listening.insert(fd);
    watch(fd, EPOLLIN);
  }
  // Edge-triggered: a socket whose first request is incomplete wakes the wait again only when
  // more bytes come, so the wait never spins on bytes already looked at.
  for (int fd : listener.IdleConnectionFds(/*authenticated_only=*/auth_required)) {
    watch(fd, EPOLLIN | EPOLLET);
  }
  std::vector<int> accepted;
  End end = End::kElapsed;
  epoll_event events[64];
  while (end == End::kElapsed) {
    int64_t left = deadline - MonotonicMs();
    if (left <= 0) break;
    int n = epoll_wait(ep, events, 64, static_cast<int>(std::min<int64_t>(left, 60000)));
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < n && end == End::kElapsed; ++i) {
      int fd = events[i].data.fd;
      if (fd == wake_fd_) {
        end = End::kWoken;  // the counter stays set: the node is stopping, later stalls end too
      } else if (listening.count(fd)) {
        // The kernel has completed these connections; taking them lets their first request be
        // seen (a fresh `redis-cli FAULT RESET`). They are served once the stall is over.
        while (true) {
          int c = accept4(fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
          if (c < 0) break;
          accepted.push_back(c);
          if (!auth_required) watch(c, EPOLLIN | EPOLLET);
        }
      } else {
        Peeked p = PeekFirstRequest(fd);
        if (p == Peeked::kBreaker) {
          end = End::kBreakingRequest;
        } else if (p == Peeked::kOther) {
          epoll_ctl(ep, EPOLL_CTL_DEL, fd, nullptr);  // its first request waits for the end
        }
      }
    }
  }
  close(ep);
  for (int fd : accepted) listener.Adopt(fd);
  return end;
}

}  // namespace redlab::server::net
