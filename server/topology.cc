#include "server/topology.h"

#include <algorithm>
#include <stdexcept>

#include "server/engine/core/engine.h"
#include "server/net/listener.h"
#include "server/replication/replication.h"

namespace redlab::server {

std::unique_ptr<Topology> Topology::Start(const TopologyOptions& options) {
  if (options.masters < 1) throw std::invalid_argument("a topology needs at least one master");
  if (options.masters > 1 && options.replicas > 0) {
    throw std::invalid_argument("replicas are only supported with a single master");
  }
  std::unique_ptr<Topology> t(new Topology());
  t->registry_ = std::make_shared<NodeRegistry>();
  int next_port = options.port;
  auto node_options = [&]() {
    NodeOptions o = options.base;
    o.port = next_port;
    if (next_port != 0) ++next_port;
    o.registry = t->registry_;
    return o;
  };
  for (int i = 0; i < options.masters; ++i) t->masters_.push_back(Node::Start(node_options()));
  // Replicas reach the master on loopback when it listens on every interface.
  std::string host = net::LocalAddressOf(options.base.bind);
  for (int i = 0; i < options.replicas; ++i) {
    NodeOptions o = node_options();
    o.replicaof = host + " " + std::to_string(t->masters_[0]->port());
    // A replica of a password-protected master authenticates with the same password.
    if (!options.base.requirepass.empty())
      o.settings.emplace_back("masterauth", options.base.requirepass);
    t->replicas_.push_back(Node::Start(o));
  }
  for (int i = 0; i < options.sentinels; ++i) {
    NodeOptions o;
    o.bind = options.base.bind;
    o.loglevel = options.base.loglevel;
    o.sentinel = true;
    o.port = options.sentinel_port == 0 ? 0 : options.sentinel_port + i;
    std::string m = "mymaster";
    o.settings = {
        {"sentinel", "monitor " + m + " " + host + " " + std::to_string(t->masters_[0]->port()) +
                         " " + std::to_string(options.sentinels / 2 + 1)},
        {"sentinel", "down-after-milliseconds " + m + " " + std::to_string(options.down_after_ms)},
        {"sentinel", "failover-timeout " + m + " " + std::to_string(options.failover_timeout_ms)}};
    if (!options.base.requirepass.empty()) {
      o.settings.emplace_back("sentinel", "auth-pass " + m + " " + options.base.requirepass);
    }
    // The log goes where the other nodes' goes (an embedding tool's logfile /dev/null).
    for (const auto& [name, value] : options.base.settings) {
      if (name == "logfile") o.settings.emplace_back(name, value);
    }
    t->sentinels_.push_back(Node::Start(o));
  }
  return t;
}

Topology::~Topology() { Stop(); }

std::vector<Node*> Topology::nodes() {
  std::vector<Node*> out;
  for (auto& n : masters_) out.push_back(n.get());
  for (auto& n : replicas_) out.push_back(n.get());
  return out;
}

Node* Topology::FindByPort(int port) {
  for (Node* n : nodes()) {
    if (n->port() == port) return n;
  }
  return nullptr;
}

bool Topology::WaitForSync(std::chrono::milliseconds timeout) {
  // Each node publishes its link state to the registry as it changes: wait for those changes.
  bool synced = false;
  registry_->WaitUntil(
      [&](const std::vector<NodeRegistry::Entry>& entries) {
        synced = true;
        for (auto& r : replicas_) {
          if (r->stopped()) return true;  // it never will be: give up now
          auto it = std::find_if(entries.begin(), entries.end(),
                                 [&](const NodeRegistry::Entry& e) { return e.port == r->port(); });
          if (it == entries.end() || it->state != "up" || !it->link_up) synced = false;
        }
        return synced;
      },
      std::chrono::steady_clock::now() + timeout);
  if (!synced) return false;
  for (auto& r : replicas_) {
    if (r->stopped()) return false;
  }
  return true;
}

void Topology::WaitUntilStopped() {
  for (Node* n : nodes()) n->WaitUntilStopped();
}

void Topology::Stop() {
  // Sentinels and replicas first, so they do not spend their last moments reconnecting to a
  // gone master.
  for (auto& n : sentinels_) n->Stop();
  for (auto& n : replicas_) n->Stop();
  for (auto& n : masters_) n->Stop();
}

// ---- NodeRegistry (Restart is in node.cc, beside the node's loop) ----

void NodeRegistry::Add(Node::Impl* node, const Entry& entry) {
  {
    std::lock_guard lock(mu_);
    nodes_.emplace_back(node, entry);
  }
  changed_.notify_all();
}

bool NodeRegistry::WaitUntil(const std::function<bool(const std::vector<Entry>&)>& done,
                             std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mu_);
  auto holds = [&] {
    std::vector<Entry> entries;
    for (const auto& [n, e] : nodes_) entries.push_back(e);
    return done(entries);
  };
  return changed_.wait_until(lock, deadline, holds);
}

void NodeRegistry::Notify() {
  { std::lock_guard lock(mu_); }  // a waiter between its check and its wait sees this wake-up
  changed_.notify_all();
}

void NodeRegistry::Update(Node::Impl* node, const Entry& entry) {
  std::function<void()> notify;
  {
    std::lock_guard lock(mu_);
    bool was_all_crashed = AllCrashedLocked();
    for (auto& [n, e] : nodes_) {
      if (n == node) e = entry;
    }
    if (!was_all_crashed && AllCrashedLocked()) notify = on_all_crashed_;
  }
  changed_.notify_all();
  // Outside the lock: the callback may reach the nodes (which publish to this registry).
  if (notify) notify();
}

bool NodeRegistry::AllCrashedLocked() const {
  if (nodes_.empty()) return false;
  for (const auto& [n, e] : nodes_) {
    if (e.state != "crashed") return false;
  }
  return true;
}

void NodeRegistry::SetOnAllCrashed(std::function<void()> fn) {
  bool already;
  {
    std::lock_guard lock(mu_);
    on_all_crashed_ = fn;
    already = AllCrashedLocked();
  }
  // The nodes serve before the callback is set: a crash in between must still be heard.
  if (already) fn();
}

void NodeRegistry::Remove(Node::Impl* node) {
  std::lock_guard lock(mu_);
  std::erase_if(nodes_, [&](const auto& p) { return p.first == node; });
}

std::vector<NodeRegistry::Entry> NodeRegistry::Snapshot() const {
  std::lock_guard lock(mu_);
  std::vector<Entry> out;
  for (const auto& [n, e] : nodes_) out.push_back(e);
  return out;
}

}  // namespace redlab::server
