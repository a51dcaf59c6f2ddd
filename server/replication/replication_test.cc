// Replication between two engines in one thread, over an in-memory link pumped by the test: the
// handshake and full sync, the stream and its offsets, a client's write offset and the acks WAIT
// counts, REPLCONF GETACK, and a partial resync (+CONTINUE) after the link drops. No sockets,
// no timers: every step happens when the test pumps the bytes.
#include "server/replication/replication.h"

#include <gtest/gtest.h>

#include "server/resp/parser.h"

namespace redlab::server::replication {
namespace {

using engine::Client;
using engine::Engine;

class NoHost : public engine::EngineHost {
 public:
  explicit NoHost(int port) : port_(port) {}
  void RequestShutdown() override {}
  int TcpPort() const override { return port_; }
  void ScheduleTimer(int64_t) override {}
  void ProcessEventsWhileBlocked() override {}

 private:
  int port_;
};

// The master's end of the link: a client connection whose output the test collects.
class MasterSideIo : public engine::ClientIo {
 public:
  std::string_view PeerAddress() const override { return "127.0.0.1:50000"; }
  std::string_view LocalAddress() const override { return "127.0.0.1:6379"; }
  int Fd() const override { return -1; }
  void RequestFlush() override {}
  void CloseAsap() override { closed = true; }
  void ResumeInput() override {}
  size_t QueryBufferLength() const override { return 0; }
  size_t QueryBufferFree() const override { return 0; }
  size_t PendingOutputBytes() const override { return 0; }
  bool closed = false;
};

// Two engines and the link between them.
class ReplicationPairTest : public ::testing::Test, public ReplicationHost, public LinkIo {
 protected:
  ReplicationPairTest()
      : master_host_(6379),
        replica_host_(6380),
        master_(engine::ServerConfig{}, &master_host_, MakeReplication),
        replica_(engine::ServerConfig{}, &replica_host_, MakeReplication) {
    ReplicationOf(replica_).set_host(this);
    user_ = master_.CreateClient(nullptr);
  }

  // ReplicationHost (the replica's): connecting makes a fresh client on the master.
  LinkIo* ConnectToMaster(const std::string&, int, LinkHandler* handler) override {
    handler_ = handler;
    io_ = std::make_unique<MasterSideIo>();
    link_client_ = master_.CreateClient(io_.get());
    parser_.Reset();
    to_master_.clear();
    ++connects_;
    return this;
  }
  void ScheduleReplicationTimer(int64_t) override {}
  // LinkIo (the replica's end).
  void Write(std::string_view bytes) override { to_master_.append(bytes); }
  void Close() override { handler_ = nullptr; }

  // Moves bytes both ways until neither side has anything more to say.
  void Pump() {
    for (int round = 0; round < 100; ++round) {
      bool moved = false;
      if (!to_master_.empty() && link_client_ != nullptr) {
        std::string input = std::move(to_master_);
        to_master_.clear();
        std::string_view rest = input;
        while (!rest.empty()) {
          size_t consumed = 0;
          auto status = parser_.Parse(rest, {}, &consumed, &args_);
          rest.remove_prefix(consumed);
          if (status != resp::ParseStatus::kCommand) break;
          if (!args_.empty()) master_.Execute(*link_client_, args_.span());
        }
        moved = true;
      }
      if (link_client_ != nullptr && !link_client_->reply_buffer().empty() && handler_ != nullptr) {
        std::string out = std::move(link_client_->reply_buffer());
        link_client_->reply_buffer().clear();
        handler_->OnLinkData(out);
        moved = true;
      }
      if (!moved) return;
    }
    FAIL() << "the link never went quiet";
  }

  // The link breaks: both ends forget the connection.
  void Break() {
    LinkHandler* h = handler_;
    handler_ = nullptr;
    master_.DestroyClient(link_client_);
    link_client_ = nullptr;
    h->OnLinkClosed();
  }

  std::string Run(Engine& e, Client* c, std::vector<std::string> args) {
    c->reply_buffer().clear();
    e.Execute(*c, args);
    return c->reply_buffer();
  }

  void StartReplica() {
    ReplicationOf(replica_).ReplicaOf("127.0.0.1", 6379, /*fresh=*/true);
    handler_->OnLinkConnected();
    Pump();
  }

  NoHost master_host_;
  NoHost replica_host_;
  Engine master_;
  Engine replica_;
  Client* user_ = nullptr;
  LinkHandler* handler_ = nullptr;
  std::unique_ptr<MasterSideIo> io_;
  Client* link_client_ = nullptr;
  std::string to_master_;
  resp::RequestParser parser_;
  resp::ArgList args_;
  int connects_ = 0;
};

TEST_F(ReplicationPairTest, FullSyncThenStreamWithMatchingOffsets) {
  ASSERT_EQ(Run(master_, user_, {"SET", "before", "1"}), "+OK\r\n");
  // Nothing counts offsets before a replica attaches (Redis has no backlog yet).
  EXPECT_EQ(ReplicationOf(master_).master_repl_offset(), 0);
  StartReplica();
  Replication& m = ReplicationOf(master_);
  Replication& r = ReplicationOf(replica_);
  EXPECT_TRUE(r.link_up());
  EXPECT_EQ(r.replid(), m.replid());
  EXPECT_EQ(m.stats().sync_full, 1u);
  EXPECT_EQ(m.connected_replicas(), 1u);
  Client* reader = replica_.CreateClient(nullptr);
  EXPECT_EQ(Run(replica_, reader, {"GET", "before"}), "$1\r\n1\r\n");

  ASSERT_EQ(Run(master_, user_, {"SET", "after", "2"}), "+OK\r\n");
  // SELECT 0 (23 bytes) then the SET (31 bytes) entered the stream.
  EXPECT_EQ(m.master_repl_offset(), 23 + 31);
  EXPECT_EQ(master_.ClientWriteOffset(*user_), 54);
  Pump();
  EXPECT_EQ(r.master_repl_offset(), 54);
  EXPECT_EQ(Run(replica_, reader, {"GET", "after"}), "$1\r\n2\r\n");
}

TEST_F(ReplicationPairTest, AcksFollowGetackAndCountForWait) {
  StartReplica();
  Replication& m = ReplicationOf(master_);
  ASSERT_EQ(Run(master_, user_, {"SET", "k", "v"}), "+OK\r\n");
  int64_t woff = master_.ClientWriteOffset(*user_);
  Pump();
  // The replica has applied the write but not said so yet.
  EXPECT_EQ(m.CountAcks(woff), 0);
  EXPECT_EQ(master_.ReplicasAcked(0), 1);  // a client that never wrote waits for nothing
  // WAIT blocks and asks for acks; the GETACK goes out on the next timer.
  Run(master_, user_, {"WAIT", "1", "0"});
  EXPECT_TRUE(user_->blocked());
  m.OnTimer();
  Pump();
  EXPECT_EQ(m.CountAcks(woff), 1);
  EXPECT_FALSE(user_->blocked());
  EXPECT_EQ(user_->reply_buffer(), ":1\r\n");
  // The GETACK itself moved the offset past the client's write.
  EXPECT_GT(m.master_repl_offset(), woff);
}

TEST_F(ReplicationPairTest, ABrokenLinkContinuesFromTheBacklog) {
  StartReplica();
  Replication& m = ReplicationOf(master_);
  Replication& r = ReplicationOf(replica_);
  ASSERT_EQ(Run(master_, user_, {"SET", "a", "1"}), "+OK\r\n");
  Pump();
  Break();
  EXPECT_FALSE(r.link_up());
  EXPECT_EQ(m.connected_replicas(), 0u);
  ASSERT_EQ(Run(master_, user_, {"SET", "b", "2"}), "+OK\r\n");
  ASSERT_EQ(Run(master_, user_, {"DEL", "a"}), ":1\r\n");
  // The replica reconnects (its cron would, a second later) and asks for what it missed.
  r.Cron();
  ASSERT_EQ(connects_, 2);
  handler_->OnLinkConnected();
  Pump();
  EXPECT_TRUE(r.link_up());
  EXPECT_EQ(m.stats().sync_partial_ok, 1u);
  EXPECT_EQ(m.stats().sync_full, 1u);
  EXPECT_EQ(r.master_repl_offset(), m.master_repl_offset());
  Client* reader = replica_.CreateClient(nullptr);
  EXPECT_EQ(Run(replica_, reader, {"GET", "b"}), "$1\r\n2\r\n");
  EXPECT_EQ(Run(replica_, reader, {"EXISTS", "a"}), ":0\r\n");
}

TEST_F(ReplicationPairTest, APromotedReplicaKeepsTheOldHistoryAsId2) {
  StartReplica();
  Replication& r = ReplicationOf(replica_);
  std::string old_id = ReplicationOf(master_).replid();
  int64_t offset = r.master_repl_offset();
  r.ReplicaOfNoOne();
  EXPECT_FALSE(r.is_replica());
  EXPECT_NE(r.replid(), old_id);
  std::string info;
  r.AppendInfo(&info);
  EXPECT_NE(info.find("master_replid2:" + old_id + "\r\n"), std::string::npos) << info;
  EXPECT_NE(info.find("second_repl_offset:" + std::to_string(offset + 1) + "\r\n"),
            std::string::npos)
      << info;
  // Writes are accepted again, and counted in the new history.
  Client* writer = replica_.CreateClient(nullptr);
  EXPECT_EQ(Run(replica_, writer, {"SET", "k", "v"}), "+OK\r\n");
  EXPECT_GT(r.master_repl_offset(), offset);
}

}  // namespace
}  // namespace redlab::server::replication
