#include "client/sentinel_watch.h"

#include <charconv>
#include <sstream>

#include "client/errors.h"

namespace redlab::client {
namespace {

std::exception_ptr Closed() {
  return std::make_exception_ptr(ClientClosed("the client was shut down"));
}

int ParsePort(const std::string& s) {
  int v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

// A SENTINEL REPLICAS / SENTINELS entry (a flat field, value list) as a map.
std::map<std::string, std::string> Fields(const Reply& r) {
  std::map<std::string, std::string> out;
  for (size_t i = 0; i + 1 < r.elements.size(); i += 2)
    out[r.elements[i].str] = r.elements[i + 1].str;
  return out;
}

std::vector<std::string> Words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Sentinel's events, as sentinel.c's sentinelEvent formats them: "<type> <name> <ip> <port>"
// for the instance, then "@ <master name> <master ip> <master port>" unless it is the master.
constexpr const char* kEvents[] = {"+switch-master", "+sdown", "-sdown", "+slave", "+sentinel"};

}  // namespace

SentinelWatch::SentinelWatch(EventLoop& loop, const Config& config, MasterFn on_master_moved)
    : loop_(loop),
      config_(config),
      on_master_moved_(std::move(on_master_moved)),
      scan_timer_(loop) {
  for (const ServerAddress& a : config.sentinels) AddPeer(a);
}

SentinelWatch::~SentinelWatch() { Close(); }

void SentinelWatch::AddPeer(const ServerAddress& address) {
  for (const auto& p : peers_) {
    if (p->address.host == address.host && p->address.port == address.port) return;
  }
  auto peer = std::make_unique<Peer>();
  peer->address = address;
  ConnectionOptions options{address, config_.connect_timeout, config_.timeout};
  peer->commands = std::make_unique<Connection>(loop_, options);
  peer->events = std::make_unique<Connection>(loop_, options);
  Peer* raw = peer.get();
  peer->events->SetPushHandler([this](const Reply& r) { OnEvent(r); });
  peer->events->SetOnReady([this, raw] { Subscribe(*raw); });
  peers_.push_back(std::move(peer));
  if (!master_.host.empty() && !closed_) raw->events->Connect();  // found after discovery
}

ServerAddress SentinelWatch::WithCredentials(const std::string& host, int port) const {
  ServerAddress a = config_.masters.empty() ? ServerAddress{} : config_.masters[0];
  a.host = host;
  a.port = port;
  return a;
}

void SentinelWatch::Discover(DiscoveredFn done) { AskMaster(0, std::move(done), {}); }

void SentinelWatch::AskMaster(size_t i, DiscoveredFn done, std::string errors) {
  if (closed_) return done(Closed(), {});
  if (i >= peers_.size()) {
    return done(std::make_exception_ptr(IoError("no sentinel knows master " +
                                                config_.sentinel_master_name + ":" + errors)),
                {});
  }
  Peer& peer = *peers_[i];
  peer.commands->Send(
      {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", config_.sentinel_master_name},
      [this, i, done = std::move(done), errors](CommandResult r) mutable {
        std::string why;
        if (r.error) {
          try {
            std::rethrow_exception(r.error);
          } catch (const std::exception& e) {
            why = e.what();
          }
        } else if (r.reply.type != Reply::Type::kArray || r.reply.elements.size() != 2) {
          why = r.reply.is_error() ? r.reply.str : "the master is unknown there";
        }
        if (!why.empty()) {
          if (closed_) return done(Closed(), {});
          return AskMaster(i + 1, std::move(done),
                           errors + " " + peers_[i]->address.ToString() + ": " + why + ";");
        }
        master_ = WithCredentials(r.reply.elements[0].str, ParsePort(r.reply.elements[1].str));
        preferred_ = i;
        for (auto& p : peers_) p->events->Connect();
        scan_timer_.Start(config_.sentinel_scan_interval, [this] { Scan(); });
        // The replicas are known before the first lock write, which WAITs for them.
        Refresh(i, [this, done = std::move(done)] {
          if (closed_) return done(Closed(), {});
          done(nullptr, master_);
        });
      });
}

void SentinelWatch::Refresh(size_t i, std::function<void()> then) {
  if (closed_ || i >= peers_.size()) {
    if (then) then();
    return;
  }
  Peer& peer = *peers_[i];
  peer.commands->Send(
      {"SENTINEL", "REPLICAS", config_.sentinel_master_name}, [this](CommandResult r) {
        if (closed_ || r.error || r.reply.type != Reply::Type::kArray) return;
        std::map<std::string, bool> replicas;
        for (const Reply& entry : r.reply.elements) {
          auto f = Fields(entry);
          const std::string& flags = f["flags"];
          // As Redisson's SentinelConnectionManager: a replica of the current master (an old
          // master not yet reconfigured reports none), linked and not down.
          bool up = flags.find("s_down") == std::string::npos &&
                    flags.find("o_down") == std::string::npos &&
                    flags.find("disconnected") == std::string::npos &&
                    f["master-link-status"] == "ok" && f["master-host"] == master_.host &&
                    f["master-port"] == std::to_string(master_.port);
          replicas[f["ip"] + ":" + f["port"]] = up;
        }
        replicas_.swap(replicas);
      });
  peer.commands->Send({"SENTINEL", "SENTINELS", config_.sentinel_master_name},
                      [this, then = std::move(then)](CommandResult r) {
                        // Replies come in order: REPLICAS was answered before this.
                        if (then) then();
                        if (closed_ || r.error || r.reply.type != Reply::Type::kArray) return;
                        for (const Reply& entry : r.reply.elements) {
                          auto f = Fields(entry);
                          if (f["ip"].empty()) continue;
                          // Other sentinels share the configured ones' credentials, as Redisson
                          // assumes.
                          ServerAddress a = config_.sentinels.front();
                          a.host = f["ip"];
                          a.port = ParsePort(f["port"]);
                          AddPeer(a);
                        }
                      });
}

void SentinelWatch::Scan() {
  if (closed_) return;
  scan_timer_.Start(config_.sentinel_scan_interval, [this] { Scan(); });
  // Event connections that went down come back here (a sentinel restarted).
  for (auto& p : peers_) {
    if (p->events->state() == Connection::State::kIdle) p->events->Connect();
  }
  size_t i = preferred_ % peers_.size();
  // SENTINEL MASTER rather than GET-MASTER-ADDR-BY-NAME: its config-epoch tells a sentinel
  // that has not yet heard of a failover (its epoch is older) from one that made it.
  peers_[i]->commands->Send(
      {"SENTINEL", "MASTER", config_.sentinel_master_name}, [this, i](CommandResult r) {
        if (closed_) return;
        if (r.error || r.reply.type != Reply::Type::kArray) {
          preferred_ = i + 1;  // ask the next one next time
          return;
        }
        auto f = Fields(r.reply);
        int64_t epoch = 0;
        std::from_chars(f["config-epoch"].data(),
                        f["config-epoch"].data() + f["config-epoch"].size(), epoch);
        if (epoch < epoch_) {
          preferred_ = i + 1;  // stale: it has not learnt the last failover yet
          return;
        }
        epoch_ = epoch;
        MasterAt(f["ip"], ParsePort(f["port"]));
        Refresh(i);
      });
}

void SentinelWatch::Subscribe(Peer& peer) {
  std::vector<std::string> args{"SUBSCRIBE"};
  for (const char* e : kEvents) args.push_back(e);
  peer.events->SendPubSub(args);
}

void SentinelWatch::OnEvent(const Reply& reply) {
  if (closed_ || reply.type != Reply::Type::kArray || reply.elements.size() < 3 ||
      reply.elements[0].str != "message") {
    return;
  }
  const std::string& channel = reply.elements[1].str;
  std::vector<std::string> w = Words(reply.elements[2].str);
  if (channel == "+switch-master") {
    // "<name> <old ip> <old port> <new ip> <new port>"
    if (w.size() == 5 && w[0] == config_.sentinel_master_name &&
        (w[3] != master_.host || ParsePort(w[4]) != master_.port)) {
      ++epoch_;  // the failover that made it took a newer epoch than the one known
      MasterAt(w[3], ParsePort(w[4]));
    }
    return;
  }
  // "<type> <name> <ip> <port> @ <master name> <master ip> <master port>"
  if (w.size() != 8 || w[4] != "@" || w[5] != config_.sentinel_master_name) return;
  if (w[0] == "slave") {
    // Down at once; up again once a rescan sees it linked to the master.
    if (channel == "+sdown") replicas_[w[1]] = false;
    if (channel == "-sdown" || channel == "+slave") Refresh(preferred_ % peers_.size());
  } else if (w[0] == "sentinel" && channel == "+sentinel") {
    ServerAddress a = config_.sentinels.front();
    a.host = w[2];
    a.port = ParsePort(w[3]);
    AddPeer(a);
  }
}

void SentinelWatch::MasterAt(const std::string& host, int port) {
  if (host == master_.host && port == master_.port) return;
  master_ = WithCredentials(host, port);
  // The replicas follow the new master only once reconfigured: none counts until a rescan
  // sees it replicating from there.
  replicas_.clear();
  on_master_moved_(master_);
  Refresh(preferred_ % peers_.size());
}

int64_t SentinelWatch::live_replicas() const {
  int64_t n = 0;
  for (const auto& [address, up] : replicas_) n += up;
  return n;
}

void SentinelWatch::Close() {
  if (closed_) return;
  closed_ = true;
  scan_timer_.Stop();
  for (auto& p : peers_) {
    p->commands->Close(Closed());
    p->events->Close(Closed());
  }
}

}  // namespace redlab::client
