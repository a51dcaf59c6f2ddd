// A node's outbound link (Redis's connectWithMaster / hiredis's redisAsyncConnect), against a
// listening socket on the test's own loop: bytes both ways, bytes written before the connection
// is made, a refused connection reported, and FAULT PARTITION holding a connect and a made link
// until it heals.
#include "server/net/outbound_link.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>

#include "server/net/partition.h"

namespace redlab::server::net {
namespace {

struct Handler : replication::LinkHandler {
  int connected = 0, closed = 0;
  std::string data;
  void OnLinkConnected() override { ++connected; }
  void OnLinkData(std::string_view bytes) override { data.append(bytes); }
  void OnLinkClosed() override { ++closed; }
};

// A listening socket that accepts one connection and keeps what it reads.
class Peer {
 public:
  explicit Peer(uv_loop_t* loop) {
    uv_tcp_init(loop, &server_);
    server_.data = this;
    sockaddr_in addr{};
    uv_ip4_addr("127.0.0.1", 0, &addr);
    uv_tcp_bind(&server_, reinterpret_cast<sockaddr*>(&addr), 0);
    uv_listen(reinterpret_cast<uv_stream_t*>(&server_), 4, OnConnection);
    sockaddr_storage bound{};
    int len = sizeof(bound);
    uv_tcp_getsockname(&server_, reinterpret_cast<sockaddr*>(&bound), &len);
    port_ = ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    uv_tcp_init(loop, &conn_);
    conn_.data = this;
  }
  void Close() {
    uv_close(reinterpret_cast<uv_handle_t*>(&server_), nullptr);
    uv_close(reinterpret_cast<uv_handle_t*>(&conn_), nullptr);
  }
  int port() const { return port_; }
  bool accepted() const { return accepted_; }
  const std::string& received() const { return received_; }
  void Send(const std::string& bytes) {
    uv_buf_t buf = uv_buf_init(const_cast<char*>(bytes.data()), static_cast<unsigned>(bytes.size()));
    ASSERT_EQ(uv_try_write(reinterpret_cast<uv_stream_t*>(&conn_), &buf, 1),
              static_cast<int>(bytes.size()));
  }

 private:
  static void OnConnection(uv_stream_t* server, int status) {
    auto* self = static_cast<Peer*>(server->data);
    if (status != 0 || uv_accept(server, reinterpret_cast<uv_stream_t*>(&self->conn_)) != 0) return;
    self->accepted_ = true;
    uv_read_start(
        reinterpret_cast<uv_stream_t*>(&self->conn_),
        [](uv_handle_t* h, size_t, uv_buf_t* buf) {
          auto* p = static_cast<Peer*>(h->data);
          *buf = uv_buf_init(p->buf_, sizeof(p->buf_));
        },
        [](uv_stream_t* s, ssize_t n, const uv_buf_t* buf) {
          if (n > 0) static_cast<Peer*>(s->data)->received_.append(buf->base, static_cast<size_t>(n));
        });
  }

  uv_tcp_t server_, conn_;
  int port_ = 0;
  bool accepted_ = false;
  std::string received_;
  char buf_[4096];
};

class OutboundLinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    uv_loop_init(&loop_);
    uv_timer_init(&loop_, &tick_);
    // Wakes the loop now and then, so RunUntil checks its condition and deadline.
    uv_timer_start(&tick_, [](uv_timer_t*) {}, 5, 5);
  }
  void TearDown() override {
    SetPartition({});
    uv_close(reinterpret_cast<uv_handle_t*>(&tick_), nullptr);
    uv_run(&loop_, UV_RUN_DEFAULT);  // the closed handles' callbacks (links free themselves)
    EXPECT_EQ(uv_loop_close(&loop_), 0);
  }
  // Runs the loop until `done` holds; false after 5 s.
  bool RunUntil(const std::function<bool()>& done) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      uv_run(&loop_, UV_RUN_ONCE);
    }
    return true;
  }
  // Runs what is ready now (a connection's pending reads and writes).
  void Drain() {
    for (int i = 0; i < 20; ++i) uv_run(&loop_, UV_RUN_NOWAIT);
  }

  uv_loop_t loop_;
  uv_timer_t tick_;
};

TEST_F(OutboundLinkTest, CarriesBytesBothWaysAndWhatWasWrittenBeforeTheConnection) {
  Peer peer(&loop_);
  Handler h;
  OutboundLink* link = OutboundLink::Start(&loop_, "127.0.0.1", peer.port(), &h, 0);
  ASSERT_NE(link, nullptr);
  EXPECT_FALSE(link->established());
  link->Write("PING\r\n");  // before the connection is made: it waits for it
  ASSERT_TRUE(RunUntil([&] { return h.connected == 1 && peer.received() == "PING\r\n"; }));
  EXPECT_TRUE(link->established());
  EXPECT_EQ(link->LocalIp(), "127.0.0.1");
  link->Write("INFO\r\n");
  peer.Send("+PONG\r\n");
  ASSERT_TRUE(RunUntil([&] { return h.data == "+PONG\r\n" && peer.received().size() == 12; }));
  EXPECT_EQ(peer.received(), "PING\r\nINFO\r\n");
  link->Close();
  peer.Close();
  Drain();
  EXPECT_EQ(h.closed, 0);  // Close() reports nothing
  EXPECT_EQ(h.connected, 1);
}

TEST_F(OutboundLinkTest, AConnectionRefusedIsReportedClosed) {
  int port = 0;
  {
    Peer gone(&loop_);  // a port just freed: nothing listens there
    port = gone.port();
    gone.Close();
    Drain();
  }
  Handler h;
  ASSERT_NE(OutboundLink::Start(&loop_, "127.0.0.1", port, &h, 0), nullptr);
  ASSERT_TRUE(RunUntil([&] { return h.closed == 1; }));
  EXPECT_EQ(h.connected, 0);
  EXPECT_EQ(OutboundLink::Start(&loop_, "not an address!", port, &h, 0), nullptr);
}

TEST_F(OutboundLinkTest, APartitionHoldsTheConnectAndTheTrafficUntilItHeals) {
  Peer peer(&loop_);
  constexpr int kOwnPort = 1;  // the node making the link (no listener needed for the table)
  SetPartition({peer.port()});
  Handler h;
  OutboundLink* link = OutboundLink::Start(&loop_, "127.0.0.1", peer.port(), &h, kOwnPort);
  ASSERT_NE(link, nullptr);
  link->Write("PING\r\n");
  // The TCP connection is made, but the link is not: the handler hears nothing, nothing is sent.
  ASSERT_TRUE(RunUntil([&] { return peer.accepted() && !link->LocalIp().empty(); }));
  peer.Send("+hello\r\n");
  Drain();
  EXPECT_EQ(h.connected, 0);
  EXPECT_FALSE(link->established());
  EXPECT_EQ(peer.received(), "");
  EXPECT_EQ(h.data, "");
  // Healed: the link is made and the held bytes flow, both ways, in order.
  SetPartition({});
  OutboundLink::RecheckPartition(&loop_);
  ASSERT_TRUE(RunUntil([&] { return peer.received() == "PING\r\n" && h.data == "+hello\r\n"; }));
  EXPECT_EQ(h.connected, 1);
  EXPECT_TRUE(link->established());
  // Cut again once made: held again, in both directions.
  SetPartition({kOwnPort});
  OutboundLink::RecheckPartition(&loop_);
  EXPECT_FALSE(link->established());
  link->Write("ECHO\r\n");
  peer.Send("+later\r\n");
  Drain();
  EXPECT_EQ(peer.received(), "PING\r\n");
  EXPECT_EQ(h.data, "+hello\r\n");
  SetPartition({});
  OutboundLink::RecheckPartition(&loop_);
  ASSERT_TRUE(RunUntil(
      [&] { return peer.received() == "PING\r\nECHO\r\n" && h.data == "+hello\r\n+later\r\n"; }));
  EXPECT_EQ(h.connected, 1);  // told once
  EXPECT_EQ(h.closed, 0);
  link->Close();
  peer.Close();
  Drain();
}

}  // namespace
}  // namespace redlab::server::net
