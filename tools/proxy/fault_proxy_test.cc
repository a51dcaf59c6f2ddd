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

// Everything until EOF (or an error: *error = errno).
std::string ReadToEof(const Fd& fd, int* error = nullptr, bool* eof = nullptr) {
  return Read(fd, SIZE_MAX, error, eof);
}

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

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 251) % 26);
  return s;
}

TEST(FaultProxyTest, ForwardsBothWaysAndPassesHalfClosesOn) {
  Upstream up;
  auto proxy = StartProxy(up.port);
  Fd client = Connect(proxy->port());
  Fd server = up.Accept();
  ASSERT_GE(server.fd, 0);
  Send(client, "hello");
  shutdown(client.fd, SHUT_WR);
  bool eof = false;
  EXPECT_EQ(ReadToEof(server, nullptr, &eof), "hello");
  EXPECT_TRUE(eof);
  // The other direction still works after the client's half-close.
  Send(server, "world");
  EXPECT_EQ(Read(client, 5), "world");
  server = Fd();
  EXPECT_EQ(ReadToEof(client, nullptr, &eof), "");
  EXPECT_TRUE(eof);
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
  bool eof = false;
  EXPECT_EQ(ReadToEof(server, nullptr, &eof), "abcdef");
  EXPECT_TRUE(eof);
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
  Upstream up;
  auto proxy = StartProxy(up.port);
  EXPECT_EQ(proxy->Command({"TOXIC", "ADD", "downstream", "limit_data", "bytes", "10"}), "+OK\r\n");
  Fd client = Connect(proxy->port());
  Fd server = up.Accept();
  Send(server, "0123456789abcdefghijklmno");
  bool eof = false;
  EXPECT_EQ(ReadToEof(client, nullptr, &eof), "0123456789");
  EXPECT_TRUE(eof);
}

TEST(FaultProxyTest, TimeoutDropsDataThenCloses) {
  Upstream up;
  auto proxy = StartProxy(up.port);
  EXPECT_EQ(proxy->Command({"TOXIC", "ADD", "downstream", "timeout", "timeout", "100"}), "+OK\r\n");
  Fd client = Connect(proxy->port());
  Fd server = up.Accept();
  Send(client, "PING");
  EXPECT_EQ(Read(server, 4), "PING");  // the other direction flows
  Send(server, "PONG");
  bool eof = false;
  EXPECT_EQ(ReadToEof(client, nullptr, &eof), "");  // the reply is lost, then the link closes
  EXPECT_TRUE(eof);
}

TEST(FaultProxyTest, TimeoutZeroHangsUntilRemoved) {
  Upstream up;
  auto proxy = StartProxy(up.port);
  EXPECT_EQ(proxy->Command({"TOXIC", "ADD", "upstream", "timeout", "timeout", "0"}), "+OK\r\n");
  Fd client = Connect(proxy->port());
  Fd server = up.Accept();
  Send(client, "lost");
  ASSERT_TRUE(WaitForStatus(*proxy, "upstream_dropped=4"));
  EXPECT_EQ(proxy->Command({"TOXIC", "REMOVE", "upstream", "timeout"}), "+OK\r\n");
  Send(client, "kept");
  EXPECT_EQ(Read(server, 4), "kept");
}

TEST(FaultProxyTest, ResetPeerResetsTheConnection) {
  Upstream up;
  auto proxy = StartProxy(up.port);
  EXPECT_EQ(proxy->Command({"TOXIC", "ADD", "upstream", "reset_peer", "timeout", "0"}), "+OK\r\n");
  Fd client = Connect(proxy->port());
  Fd server = up.Accept();
  Send(client, "x");
  int error = -1;
  EXPECT_EQ(ReadToEof(client, &error), "");
  EXPECT_EQ(error, ECONNRESET);
  error = -1;
  EXPECT_EQ(ReadToEof(server, &error), "");
  EXPECT_EQ(error, ECONNRESET);
}

TEST(FaultProxyTest, SlicerWritesInPieces) {
  Upstream up;
  auto proxy = StartProxy(up.port);
  EXPECT_EQ(proxy->Command({"TOXIC", "ADD", "upstream", "slicer", "average_size", "10",
                            "size_variation", "0", "delay", "100"}),
            "+OK\r\n");
  Fd client = Connect(proxy->port());
  Fd server = up.Accept();
  std::string data = Pattern(100);
  Send(client, data);
  EXPECT_EQ(Read(server, 100), data);
  EXPECT_TRUE(WaitForStatus(*proxy, "upstream_forwarded=100 upstream_dropped=0 upstream_writes=10"))
      << proxy->Status();
}

TEST(FaultProxyTest, BandwidthThrottles) {
  Upstream up;
  auto proxy = StartProxy(up.port);
  EXPECT_EQ(proxy->Command({"TOXIC", "ADD", "downstream", "bandwidth", "rate", "64"}), "+OK\r\n");
  Fd client = Connect(proxy->port());
  Fd server = up.Accept();
  std::string data = Pattern(32 * 1024);
  Send(server, data);
  std::string got = Read(client, 1);
  // 32 KiB at 64 KB/s take half a second: most is still queued after the first bytes.
  std::string status = proxy->Status();
  size_t at = status.find("downstream_queued=");
  EXPECT_GT(std::stoul(status.substr(at + 18)), 8u * 1024) << status;
  got += Read(client, data.size() - 1);
  EXPECT_EQ(got, data);
}

TEST(FaultProxyTest, SlowCloseDelaysTheHalfClose) {
  Upstream up;
  auto proxy = StartProxy(up.port);
  EXPECT_EQ(proxy->Command({"TOXIC", "ADD", "upstream", "slow_close", "delay", "300"}), "+OK\r\n");
  Fd client = Connect(proxy->port());
  Fd server = up.Accept();
  Send(client, "q");
  shutdown(client.fd, SHUT_WR);
  EXPECT_EQ(Read(server, 1), "q");
  // The EOF reached the proxy and waits there.
  EXPECT_TRUE(WaitForStatus(*proxy, "upstream_eof=1")) << proxy->Status();
  bool eof = false;
  EXPECT_EQ(ReadToEof(server, nullptr, &eof), "");
  EXPECT_TRUE(eof);
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
  bool eof = false;
  EXPECT_EQ(ReadToEof(client, nullptr, &eof), "");  // 6 bytes already passed: over the limit
  EXPECT_TRUE(eof);
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
  bool eof = false;
  EXPECT_EQ(ReadToEof(c2, nullptr, &eof), "abc");
  EXPECT_TRUE(eof);
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
  Upstream up;
  auto proxy = StartProxy(up.port);
  Fd client = Connect(proxy->port());
  Fd server = up.Accept();
  proxy->Drop();
  bool eof = false;
  EXPECT_EQ(ReadToEof(client, nullptr, &eof), "");
  EXPECT_TRUE(eof);
  proxy->Cut();
  Fd refused = Connect(proxy->port());
  EXPECT_EQ(ReadToEof(refused, nullptr, &eof), "");
  EXPECT_TRUE(eof);
  proxy->Heal();
  Fd again = Connect(proxy->port());
  Fd server2 = up.Accept();
  Send(again, "ok");
  EXPECT_EQ(Read(server2, 2), "ok");
}

}  // namespace
}  // namespace redlab::tools
