// The fault proxy over real sockets, as toxiproxy's own tests drive it (proxy_test.go,
// toxics/*_test.go): a client, the proxy, and an upstream server that this test plays.
// Waits are on the event (data, EOF, a STATUS line) with a deadline, never a sleep.
#include "tools/proxy/fault_proxy.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>

namespace redlab::tools {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kDeadline = std::chrono::seconds(10);

// An owned socket.
struct Fd {
  int fd = -1;
  explicit Fd(int f = -1) : fd(f) {}
  Fd(Fd&& o) noexcept : fd(std::exchange(o.fd, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    if (fd >= 0) close(fd);
    fd = std::exchange(o.fd, -1);
    return *this;
  }
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

// The upstream server: a listening socket on 127.0.0.1 (or ::1).
struct Upstream {
  Fd listener;
  int port = 0;
  explicit Upstream(int family = AF_INET) {
    listener = Fd(socket(family, SOCK_STREAM, 0));
    sockaddr_storage addr{};
    socklen_t len = 0;
    if (family == AF_INET) {
      auto* in = reinterpret_cast<sockaddr_in*>(&addr);
      in->sin_family = AF_INET;
      in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      len = sizeof(sockaddr_in);
    } else {
      auto* in6 = reinterpret_cast<sockaddr_in6*>(&addr);
      in6->sin6_family = AF_INET6;
      in6->sin6_addr = in6addr_loopback;
      len = sizeof(sockaddr_in6);
    }
    if (bind(listener.fd, reinterpret_cast<sockaddr*>(&addr), len) != 0 ||
        listen(listener.fd, 16) != 0) {
      throw std::runtime_error("cannot listen");
    }
    getsockname(listener.fd, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(family == AF_INET ? reinterpret_cast<sockaddr_in*>(&addr)->sin_port
                                   : reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
  }
  Fd Accept() {
    pollfd p{listener.fd, POLLIN, 0};
    if (poll(&p, 1, 10000) != 1) return Fd();
    return Fd(accept(listener.fd, nullptr, nullptr));
  }
};

Fd Connect(int port, int family = AF_INET) {
  Fd fd(socket(family, SOCK_STREAM, 0));
  sockaddr_storage addr{};
  socklen_t len = 0;
  if (family == AF_INET) {
    auto* in = reinterpret_cast<sockaddr_in*>(&addr);
    in->sin_family = AF_INET;
    in->sin_port = htons(port);
    in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    len = sizeof(sockaddr_in);
  } else {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&addr);
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(port);
    in6->sin6_addr = in6addr_loopback;
    len = sizeof(sockaddr_in6);
  }
  if (connect(fd.fd, reinterpret_cast<sockaddr*>(&addr), len) != 0) return Fd();
  return fd;
}

void Send(const Fd& fd, const std::string& bytes) {
  ASSERT_EQ(send(fd.fd, bytes.data(), bytes.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(bytes.size()));
}

// What arrives until `n` bytes, EOF, an error or the deadline; *error gets errno (0 on EOF).
std::string Read(const Fd& fd, size_t n, int* error = nullptr, bool* eof = nullptr) {
  std::string out;
  auto deadline = Clock::now() + kDeadline;
  if (eof) *eof = false;
  while (out.size() < n && Clock::now() < deadline) {
    pollfd p{fd.fd, POLLIN, 0};
    if (poll(&p, 1, 100) != 1) continue;
    char buf[65536];
    ssize_t got = recv(fd.fd, buf, std::min(sizeof(buf), n - out.size()), 0);
    if (got <= 0) {
      if (error) *error = got < 0 ? errno : 0;
      if (eof) *eof = got == 0;
      break;
    }
    out.append(buf, static_cast<size_t>(got));
  }
  return out;
}

const std::string kEof = "<EOF>";

// Everything until EOF, followed by kEof when the peer's EOF ended it (an error or the deadline
// adds nothing).
std::string ReadToEof(const Fd& fd) {
  bool eof = false;
  std::string out = Read(fd, SIZE_MAX, nullptr, &eof);
  return eof ? out + kEof : out;
}

// Everything until an error (whose errno goes to *error) or EOF.
std::string ReadToError(const Fd& fd, int* error) { return Read(fd, SIZE_MAX, error); }

// Waits until STATUS contains `text`; false at the deadline.
bool WaitForStatus(FaultProxy& proxy, const std::string& text) {
  auto deadline = Clock::now() + kDeadline;
  while (Clock::now() < deadline) {
    if (proxy.Status().find(text) != std::string::npos) return true;
    std::this_thread::yield();
  }
  return false;
}

std::unique_ptr<FaultProxy> StartProxy(int upstream_port, ProxyOptions options = {}) {
  options.target_port = upstream_port;
  return FaultProxy::Start(options);
}

// A client connected through a new proxy to an upstream that has accepted it; the proxy is given
// `toxic` (a TOXIC ADD command, whose reply must be +OK) before the client connects.
struct Through {
  Upstream up;
  std::unique_ptr<FaultProxy> proxy;
  Fd client, server;
  explicit Through(const std::vector<std::string>& toxic = {}, ProxyOptions options = {})
      : proxy(StartProxy(up.port, options)) {
    if (!toxic.empty()) EXPECT_EQ(proxy->Command(toxic), "+OK\r\n");
    client = Connect(proxy->port());
    server = up.Accept();
  }
};

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 251) % 26);
  return s;
}

TEST(FaultProxyTest, ForwardsBothWaysAndPassesHalfClosesOn) {
  Through t;
  ASSERT_GE(t.server.fd, 0);
  Send(t.client, "hello");
  shutdown(t.client.fd, SHUT_WR);
  EXPECT_EQ(ReadToEof(t.server), "hello" + kEof);
  // The other direction still works after the client's half-close.
  Send(t.server, "world");
  EXPECT_EQ(Read(t.client, 5), "world");
  t.server = Fd();
  EXPECT_EQ(ReadToEof(t.client), kEof);
}

TEST(FaultProxyTest, HalfCloseComesAfterTheDelayedBytes) {
  Upstream up;
  auto proxy = StartProxy(up.port);
  proxy->Delay(50, 10);
  Fd client = Connect(proxy->port());
  Fd server = up.Accept();
  Send(client, "abc");
  Send(client, "def");
  shutdown(client.fd, SHUT_WR);
  EXPECT_EQ(ReadToEof(server), "abcdef" + kEof);
}

TEST(FaultProxyTest, HoldKeepsABoundedBufferAndStopsReading) {
  Upstream up;
  ProxyOptions options;
  options.buffer_limit = 256 * 1024;
  auto proxy = StartProxy(up.port, options);
  Fd client = Connect(proxy->port());
  Fd server = up.Accept();
  proxy->Hold();
  fcntl(client.fd, F_SETFL, O_NONBLOCK);
  // Write until the TCP window is full: the proxy has stopped reading, so the kernel's buffers
  // fill and stay full. Without backpressure the loop would reach its cap.
  const size_t kCap = 256u << 20;
  std::string chunk = Pattern(64 * 1024);
  size_t written = 0;
  while (written < kCap) {
    // A partial send goes on where it stopped, so the stream is the chunk repeated exactly.
    size_t at = written % chunk.size();
    ssize_t n = send(client.fd, chunk.data() + at, chunk.size() - at, MSG_NOSIGNAL);
    if (n > 0) {
      written += static_cast<size_t>(n);
      continue;
    }
    ASSERT_TRUE(errno == EAGAIN || errno == EWOULDBLOCK);
    pollfd p{client.fd, POLLOUT, 0};
    if (poll(&p, 1, 500) == 0) break;  // no room came back: the window stays full
  }
  EXPECT_LT(written, kCap);
  ASSERT_TRUE(WaitForStatus(*proxy, "upstream_reading=0"));
  std::string status = proxy->Status();
  size_t at = status.find("upstream_queued=");
  size_t queued = std::stoul(status.substr(at + 16));
  EXPECT_GE(queued, options.buffer_limit);
  EXPECT_LE(queued, options.buffer_limit + 64 * 1024);  // at most one read past the limit
  proxy->Release();
  // Everything written arrives, in order: the pattern repeats every 64 KiB chunk.
  std::string got = Read(server, written);
  ASSERT_EQ(got.size(), written);
  for (size_t off = 0; off < written; off += chunk.size()) {
    size_t n = std::min(chunk.size(), written - off);
    ASSERT_EQ(got.compare(off, n, chunk, 0, n), 0) << "at " << off;
  }
}

TEST(FaultProxyTest, ResolvesHostNames) {
  Upstream up;
  ProxyOptions options;
  options.listen_host = "localhost";
  options.target_host = "localhost";
  auto proxy = StartProxy(up.port, options);
  Fd client = Connect(proxy->port());
  ASSERT_GE(client.fd, 0);
  Fd server = up.Accept();
  Send(client, "x");
  EXPECT_EQ(Read(server, 1), "x");
}

TEST(FaultProxyTest, RefusesWhatCannotBeResolved) {
  ProxyOptions options;
  options.target_host = "no-such-host.invalid";
  options.target_port = 6379;
  try {
    FaultProxy::Start(options);
    FAIL() << "started";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(
        std::string(e.what()).rfind("fault proxy: cannot resolve 'no-such-host.invalid': ", 0), 0u)
        << e.what();
  }
  options.target_host = "127.0.0.1";
  options.listen_host = "no-such-host.invalid";
  EXPECT_THROW(FaultProxy::Start(options), std::runtime_error);
}

TEST(FaultProxyTest, SpeaksIPv6) {
  int probe = socket(AF_INET6, SOCK_STREAM, 0);
  sockaddr_in6 a{};
  a.sin6_family = AF_INET6;
  a.sin6_addr = in6addr_loopback;
  bool has_v6 = probe >= 0 && bind(probe, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0;
  if (probe >= 0) close(probe);
  if (!has_v6) GTEST_SKIP() << "no IPv6 loopback on this machine";
  Upstream up(AF_INET6);
  ProxyOptions options;
  options.listen_host = "::1";
  options.target_host = "[::1]";
  auto proxy = StartProxy(up.port, options);
  Fd client = Connect(proxy->port(), AF_INET6);
  Fd server = up.Accept();
  Send(server, "v6");
  EXPECT_EQ(Read(client, 2), "v6");
  EXPECT_NE(proxy->Status().find("peer=[::1]:"), std::string::npos);
}

TEST(FaultProxyTest, LimitDataClosesAfterTheBytes) {
  Through t({"TOXIC", "ADD", "downstream", "limit_data", "bytes", "10"});
  Send(t.server, "0123456789abcdefghijklmno");
  EXPECT_EQ(ReadToEof(t.client), "0123456789" + kEof);
}

TEST(FaultProxyTest, TimeoutDropsDataThenCloses) {
  Through t({"TOXIC", "ADD", "downstream", "timeout", "timeout", "100"});
  Send(t.client, "PING");
  EXPECT_EQ(Read(t.server, 4), "PING");  // the other direction flows
  Send(t.server, "PONG");
  EXPECT_EQ(ReadToEof(t.client), kEof);  // the reply is lost, then the link closes
}

TEST(FaultProxyTest, TimeoutZeroHangsUntilRemoved) {
  Through t({"TOXIC", "ADD", "upstream", "timeout", "timeout", "0"});
  Send(t.client, "lost");
  ASSERT_TRUE(WaitForStatus(*t.proxy, "upstream_dropped=4"));
  EXPECT_EQ(t.proxy->Command({"TOXIC", "REMOVE", "upstream", "timeout"}), "+OK\r\n");
  Send(t.client, "kept");
  EXPECT_EQ(Read(t.server, 4), "kept");
}

TEST(FaultProxyTest, ResetPeerResetsTheConnection) {
  Through t({"TOXIC", "ADD", "upstream", "reset_peer", "timeout", "0"});
  Send(t.client, "x");
  int error = -1;
  EXPECT_EQ(ReadToError(t.client, &error), "");
  EXPECT_EQ(error, ECONNRESET);
  error = -1;
  EXPECT_EQ(ReadToError(t.server, &error), "");
  EXPECT_EQ(error, ECONNRESET);
}

TEST(FaultProxyTest, SlicerWritesInPieces) {
  Through t({"TOXIC", "ADD", "upstream", "slicer", "average_size", "10", "size_variation", "0",
             "delay", "100"});
  std::string data = Pattern(100);
  Send(t.client, data);
  EXPECT_EQ(Read(t.server, 100), data);
  EXPECT_TRUE(
      WaitForStatus(*t.proxy, "upstream_forwarded=100 upstream_dropped=0 upstream_writes=10"))
      << t.proxy->Status();
}

TEST(FaultProxyTest, BandwidthThrottles) {
  Through t({"TOXIC", "ADD", "downstream", "bandwidth", "rate", "64"});
  std::string data = Pattern(32 * 1024);
  Send(t.server, data);
  std::string got = Read(t.client, 1);
  // 32 KiB at 64 KB/s take half a second: most is still queued after the first bytes.
  std::string status = t.proxy->Status();
  size_t at = status.find("downstream_queued=");
  EXPECT_GT(std::stoul(status.substr(at + 18)), 8u * 1024) << status;
  got += Read(t.client, data.size() - 1);
  EXPECT_EQ(got, data);
}

TEST(FaultProxyTest, SlowCloseDelaysTheHalfClose) {
  Through t({"TOXIC", "ADD", "upstream", "slow_close", "delay", "300"});
  Send(t.client, "q");
  shutdown(t.client.fd, SHUT_WR);
  EXPECT_EQ(Read(t.server, 1), "q");
  // The EOF reached the proxy and waits there.
  EXPECT_TRUE(WaitForStatus(*t.proxy, "upstream_eof=1")) << t.proxy->Status();
  EXPECT_EQ(ReadToEof(t.server), kEof);
}

TEST(FaultProxyTest, ToxicityZeroSparesEveryConnection) {
  Upstream up;
  auto proxy = StartProxy(up.port);
  EXPECT_EQ(
      proxy->Command({"TOXIC", "ADD", "downstream", "limit_data", "bytes", "2", "toxicity", "0"}),
      "+OK\r\n");
  EXPECT_NE(proxy->Status().find("toxic:all downstream limit_data bytes=2 toxicity=0\n"),
            std::string::npos);
  Fd client = Connect(proxy->port());
  Fd server = up.Accept();
  Send(server, "abcdef");
  EXPECT_EQ(Read(client, 6), "abcdef");
  // Toxicity 1 (the default) acts on every connection.
  EXPECT_EQ(proxy->Command({"TOXIC", "ADD", "downstream", "limit_data", "bytes", "2"}), "+OK\r\n");
  Send(server, "ghij");
  EXPECT_EQ(ReadToEof(client), kEof);  // 6 bytes already passed: over the limit
}

TEST(FaultProxyTest, ToxicsOfOneConnection) {
  Upstream up;
  auto proxy = StartProxy(up.port);
  Fd c1 = Connect(proxy->port());
  Fd s1 = up.Accept();
  Fd c2 = Connect(proxy->port());
  Fd s2 = up.Accept();
  std::vector<uint64_t> ids = proxy->Connections();
  ASSERT_EQ(ids.size(), 2u);
  std::string second = std::to_string(ids[1]);
  EXPECT_EQ(
      proxy->Command({"TOXIC", "ADD", "downstream", "limit_data", "bytes", "3", "CONN", second}),
      "+OK\r\n");
  EXPECT_NE(proxy->Status().find("toxic:conn=" + second + " downstream limit_data bytes=3\n"),
            std::string::npos);
  Send(s1, "abcdef");
  Send(s2, "abcdef");
  EXPECT_EQ(Read(c1, 6), "abcdef");
  EXPECT_EQ(ReadToEof(c2), "abc" + kEof);
}

TEST(FaultProxyTest, StatusListsActiveToxicsAndCommandsRefuseMistakes) {
  Upstream up;
  auto proxy = StartProxy(up.port);
  EXPECT_EQ(proxy->Command({"DELAY", "100", "5"}), "+OK\r\n");
  EXPECT_EQ(proxy->Command({"toxic", "add", "both", "bandwidth", "rate", "8"}), "+OK\r\n");
  std::string status = proxy->Status();
  EXPECT_NE(status.find("toxic:all upstream latency latency=100 jitter=5\n"
                        "toxic:all upstream bandwidth rate=8\n"
                        "toxic:all downstream latency latency=100 jitter=5\n"
                        "toxic:all downstream bandwidth rate=8\n"),
            std::string::npos)
      << status;
  EXPECT_EQ(proxy->Command({"TOXIC", "ADD", "sideways", "latency"}),
            "-ERR unknown stream 'sideways' (upstream, downstream, both)\r\n");
  EXPECT_EQ(proxy->Command({"TOXIC", "ADD", "upstream", "latency", "latency", "x"}),
            "-ERR attribute 'latency' must be an integer from 0 to 2^40\r\n");
  EXPECT_EQ(proxy->Command({"TOXIC", "REMOVE", "upstream", "slicer"}),
            "-ERR no upstream toxic 'slicer' on the proxy\r\n");
  EXPECT_EQ(proxy->Command({"TOXIC", "ADD", "upstream", "latency", "CONN", "99"}),
            "-ERR no connection 99\r\n");
  EXPECT_EQ(proxy->Command({"TOXIC", "POKE", "upstream", "latency"}),
            "-ERR unknown TOXIC subcommand 'POKE' (ADD, REMOVE)\r\n");
  EXPECT_EQ(proxy->Command({"BUFFER", "0"}), "-ERR BUFFER takes a number of bytes above 0\r\n");
  EXPECT_EQ(proxy->Command({"HOLD", "now"}),
            "-ERR wrong number of arguments for 'hold' command\r\n");
  EXPECT_EQ(proxy->Command({"RESET"}), "+OK\r\n");
  EXPECT_EQ(proxy->Status().find("toxic:"), std::string::npos);
}

TEST(FaultProxyTest, ControlPortSpeaksResp) {
  Upstream up;
  ProxyOptions options;
  options.control_port = 0;
  auto proxy = StartProxy(up.port, options);
  Fd control = Connect(proxy->control_port());
  Send(control,
       "*1\r\n$4\r\nPING\r\n*5\r\n$5\r\nTOXIC\r\n$3\r\nADD\r\n$8\r\nupstream\r\n"
       "$10\r\nslow_close\r\n$5\r\ndelay\r\n");
  EXPECT_EQ(Read(control, 7 + 5), "+PONG\r\n-ERR ");
}

TEST(FaultProxyTest, CutRefusesAndDropCloses) {
  Through t;
  t.proxy->Drop();
  EXPECT_EQ(ReadToEof(t.client), kEof);
  t.proxy->Cut();
  Fd refused = Connect(t.proxy->port());
  EXPECT_EQ(ReadToEof(refused), kEof);
  t.proxy->Heal();
  Fd again = Connect(t.proxy->port());
  Fd server2 = t.up.Accept();
  Send(again, "ok");
  EXPECT_EQ(Read(server2, 2), "ok");
}

}  // namespace
}  // namespace redlab::tools
