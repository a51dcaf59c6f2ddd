// The process's partition table (redlab's own; Redis's tests make partitions with iptables or
// by pausing processes).
#include "server/net/partition.h"

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>

namespace redlab::server::net {
namespace {

struct Table {
  std::mutex mu;
  std::set<int> isolated;
  std::atomic<bool> any{false};             // lets Partitioned() skip the lock when healed
  std::unordered_map<int, int> link_ports;  // local port of a link -> its node's port
  std::map<int, std::function<void()>> watchers;
  int next_watcher = 1;
};

Table& Get() {
  static Table* table = new Table;  // never destroyed: nodes may outlive static destruction
  return *table;
}

}  // namespace

bool Partitioned(int from_port, int to_port) {
  Table& t = Get();
  if (!t.any.load(std::memory_order_acquire) || from_port <= 0 || to_port <= 0) return false;
  std::lock_guard lock(t.mu);
  return t.isolated.count(from_port) != t.isolated.count(to_port);
}

bool AnyPartition() { return Get().any.load(std::memory_order_acquire); }

void RegisterLinkPort(int local_port, int node_port) {
  Table& t = Get();
  std::lock_guard lock(t.mu);
  t.link_ports[local_port] = node_port;
}

void UnregisterLinkPort(int local_port) {
  Table& t = Get();
  std::lock_guard lock(t.mu);
  t.link_ports.erase(local_port);
}

int NodeOfLinkPort(int local_port) {
  Table& t = Get();
  std::lock_guard lock(t.mu);
  auto it = t.link_ports.find(local_port);
  return it == t.link_ports.end() ? 0 : it->second;
}

void SetPartition(std::vector<int> isolated) {
  Table& t = Get();
  std::lock_guard lock(t.mu);
  t.isolated = std::set<int>(isolated.begin(), isolated.end());
  t.any.store(!t.isolated.empty(), std::memory_order_release);
  // Under the lock, so that a watcher gone (UnwatchPartition returned) is never called; the
  // watchers only post a task to their loop and never call back into the table.
  for (auto& [id, fn] : t.watchers) fn();
}

std::vector<int> PartitionedPorts() {
  Table& t = Get();
  std::lock_guard lock(t.mu);
  return std::vector<int>(t.isolated.begin(), t.isolated.end());
}

int WatchPartition(std::function<void()> on_change) {
  Table& t = Get();
  std::lock_guard lock(t.mu);
  int id = t.next_watcher++;
  t.watchers[id] = std::move(on_change);
  return id;
}

void UnwatchPartition(int id) {
  Table& t = Get();
  std::lock_guard lock(t.mu);
  t.watchers.erase(id);
}

}  // namespace redlab::server::net
