// FAULT PARTITION: a network partition between nodes of one process. The table is
// process-wide (nodes of a process share a network, as machines on one switch do), the one
// exception to "a node owns everything it uses": a partition is between nodes, not inside one.
//
// Every node-to-node link consults it: a node's outbound links (net/outbound_link.cc: a
// replica's link to its master, a sentinel's links to the masters, replicas and sentinels it
// watches) and the connections a node accepts from another node of the process
// (net/connection.cc, knowing the peer by the local port its link registered). Traffic across a partition is held, never refused: a
// connection being made does not complete, nothing is read or written (bytes wait in the
// kernel's buffers and in the link's own, and a sender's window fills), until the partition
// heals; then everything flows in order, unless a timeout on either side has given up first.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace redlab::server::net {

// Whether traffic between the node listening on `from_port` and the one on `to_port` is cut.
// Symmetric; a port of no node of the process is never cut. Thread-safe, cheap when no
// partition is set.
bool Partitioned(int from_port, int to_port);
// Whether any partition is set (one atomic load).
bool AnyPartition();

// An outbound node-to-node link made from local port `local_port` by the node listening on
// `node_port`: the node it reaches knows by this whom an accepted connection comes from.
// Unregister when the link closes (a port may be reused).
void RegisterLinkPort(int local_port, int node_port);
void UnregisterLinkPort(int local_port);
// The node whose link uses `local_port` (a peer's port as an accepted connection sees it);
// 0 when it is not a node's link.
int NodeOfLinkPort(int local_port);

// FAULT PARTITION <port> [<port> ...]: those nodes are cut off from every other node of the
// process (one partition at a time: a new one replaces the last). Empty: healed.
void SetPartition(std::vector<int> isolated);
// The isolated side now (FAULT LIST); empty when healed.
std::vector<int> PartitionedPorts();

// Called, on the thread that changed the partition, after every change: a node posts a re-check
// of its links to its own loop (and must do nothing else: it runs under the table's lock).
// Returns an id for UnwatchPartition, after which it is never called again.
int WatchPartition(std::function<void()> on_change);
void UnwatchPartition(int id);

}  // namespace redlab::server::net
